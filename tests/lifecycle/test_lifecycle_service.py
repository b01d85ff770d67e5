"""Games that end among strangers, over real gRPC and a real Redis (issue 27).

Under the Leaves (2 to 4 seats, one seat at a time) carries the cases; the
deadlines are fractions of a second and every wait is on a condition (the
game's state), never a sleep for ordering. The rules checked are those of
services/core/lifecycle/ and the TimeControl / Resign / Abort / rematch
comments of the protos.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator

import grpc
import pytest
from roost.common.v1 import common_pb2

from services.undertheleaves.service import SPEC
from tests.harness import ServerHandle, game_server
from tests.lifecycle.lifeclient import (
    ABORTED,
    FINISHED,
    IN_PROGRESS,
    LifeClient,
    rejected_reason,
    time_control,
)

pytestmark = pytest.mark.service


@pytest.fixture(scope="module")
def server(redis_server_url: str) -> Iterator[ServerHandle]:
    # A correspondence "day" of 0.4 s, so days_per_move is testable.
    with game_server(SPEC, redis_server_url, day_seconds=0.4, expiry_poll_ms=20) as handle:
        yield handle


@pytest.fixture(scope="module")
def client(server: ServerHandle) -> LifeClient:
    return LifeClient(server, SPEC)


def _over(state) -> bool:
    return state.status in (FINISHED, ABORTED)


def test_untimed_game_has_no_clock(client: LifeClient) -> None:
    """TimeControl: an unset time control means no clock anywhere."""
    created = client.new_timed(2, None)
    assert not created.HasField("clock")
    assert not client.state(created.game_id).HasField("clock")


def test_bad_time_control_is_invalid_options_and_creates_nothing(client: LifeClient) -> None:
    """TimeControl rules: increment needs a bank; days and move_seconds do not mix."""
    for tc in (
        time_control(increment_seconds=1),
        time_control(move_seconds=5, days_per_move=1),
        time_control(move_seconds=-1),
        time_control(move_seconds=0.001),
    ):
        code, reason = rejected_reason(lambda tc=tc: client.new_timed(2, tc))
        assert code == grpc.StatusCode.INVALID_ARGUMENT
        assert reason == "ERROR_REASON_INVALID_OPTIONS"


def test_first_decision_never_made_aborts_the_game(client: LifeClient) -> None:
    """TIMEOUT_POLICY_FORFEIT: a seat that times out on its very first decision
    aborts the game (GAME_STATUS_ABORTED, GAME_ENDING_ABORTED, no winners)."""
    created = client.new_timed(2, time_control(move_seconds=0.2))
    assert created.clock.deadline_ms > 0
    state = client.wait_state(created.game_id, _over)
    assert state.status == ABORTED
    board = client.score(created.game_id).scoreboard
    assert board.ending == common_pb2.GAME_ENDING_ABORTED
    assert list(board.winners) == []
    assert board.final


def test_per_move_forfeit_ends_a_two_player_game_at_the_deadline(client: LifeClient) -> None:
    """move_seconds + FORFEIT: the seat that stops answering after its first
    decision loses on time; the other wins whatever the points."""
    rng = random.Random(1)
    created = client.new_timed(2, time_control(move_seconds=0.3))
    _tokens, _ = client.play_until_all_decided(created, rng)
    silent = client.state(created.game_id).to_act[0]
    before = client.state(created.game_id)
    deadline = before.clock.deadline_ms
    assert deadline == before.clock.seats[silent].deadline_ms
    state = client.wait_state(created.game_id, _over)
    assert state.status == FINISHED
    board = client.score(created.game_id).scoreboard
    assert board.ending == common_pb2.GAME_ENDING_TIMEOUT
    assert list(board.left_seats) == [silent]
    assert list(board.winners) == [1 - silent]
    last = list(client.log(created.game_id).entries)[-1].event
    assert last.kind == "timeout" and last.time_ms >= deadline


def test_house_bot_plays_a_silent_seat_and_the_game_goes_on(client: LifeClient) -> None:
    """TIMEOUT_POLICY_HOUSE_BOT: the house bot decides for a seat whose deadline
    passed, its clock counts the timeout, and the game stays in progress."""
    created = client.new_timed(2, time_control(move_seconds=0.15, policy="bot"))
    state = client.wait_state(created.game_id, lambda s: s.version >= 4)
    assert state.status in (IN_PROGRESS, FINISHED)
    assert sum(seat.timeouts for seat in state.clock.seats) >= 3
    events = [e.event for e in client.log(created.game_id).entries][1:]
    assert events and all("house bot" in e.label for e in events[:3])
    # Exactly once: each house-bot decision comes a full move limit after the
    # write that asked for it (an expiry fired twice would be closer).
    times = [e.event.time_ms for e in client.log(created.game_id).entries]
    assert all(b - a >= 150 for a, b in itertools.pairwise(times))


def test_fischer_clock_charges_server_time_and_times_out_on_an_empty_bank(
    client: LifeClient,
) -> None:
    """bank_seconds + increment_seconds: a decision's time comes off the bank
    and the increment goes on; the deadline is the moment the bank is empty."""
    rng = random.Random(2)
    tc = time_control(bank_seconds=1.0, increment_seconds=0.2)
    created = client.new_timed(2, tc)
    assert [s.bank_ms for s in created.clock.seats] == [1000, 1000]
    tokens = {c.seat: c.token for c in created.credentials}
    first = created.to_act[0]
    reply = client.play_one(created.game_id, tokens, first, rng)
    after = reply.event.clock.seats[first]
    spent = reply.event.time_ms - created.clock.server_time_ms
    assert after.bank_ms == 1000 - spent + 200
    assert not after.running or after.deadline_ms == reply.event.time_ms + after.bank_ms
    # The other seat's clock runs from the write that asked it.
    other = client.state(created.game_id).to_act[0]
    running = client.state(created.game_id).clock.seats[other]
    assert running.running
    state = client.wait_state(created.game_id, _over)
    board = client.score(created.game_id).scoreboard
    assert state.status in (FINISHED, ABORTED)
    assert board.ending in (common_pb2.GAME_ENDING_TIMEOUT, common_pb2.GAME_ENDING_ABORTED)


def test_correspondence_days_use_the_servers_day(client: LifeClient) -> None:
    """days_per_move: the limit is days times the server's DAY_SECONDS (0.4 s here)."""
    created = client.new_timed(2, time_control(days_per_move=1))
    assert created.clock.time_control.days_per_move == 1
    assert created.clock.deadline_ms - created.clock.server_time_ms == 400
    state = client.wait_state(created.game_id, _over)
    assert state.status == ABORTED


def test_a_move_before_the_deadline_wins_one_after_it_loses(client: LifeClient) -> None:
    """The server's write time decides: a decision that arrives before the
    deadline is applied (the expiry then finds nothing due); one that arrives
    after it is refused and the expiry decides."""
    rng = random.Random(3)
    created = client.new_timed(2, time_control(move_seconds=1.5))
    tokens, _ = client.play_until_all_decided(created, rng)
    state = client.state(created.game_id)
    seat = state.to_act[0]
    # Before: sent with most of the limit left, so a loaded machine still makes it.
    reply = client.play_one(created.game_id, tokens, seat, rng)
    assert reply.status == IN_PROGRESS
    state = client.state(created.game_id)
    seat = state.to_act[0]
    legal = client.legal(created.game_id, tokens[seat])
    deadline = state.clock.deadline_ms
    while time.time() * 1000 <= deadline + 30:  # the condition: the deadline has passed
        time.sleep(0.01)
    code, reason = rejected_reason(
        lambda: client.apply(created.game_id, tokens[seat], legal.version, action_id=0)
    )
    assert code == grpc.StatusCode.FAILED_PRECONDITION or code == grpc.StatusCode.ABORTED
    assert reason in {
        "ERROR_REASON_DEADLINE_PASSED", "ERROR_REASON_GAME_OVER", "ERROR_REASON_STALE_VERSION",
    }  # fmt: skip
    final = client.wait_state(created.game_id, _over)
    assert list(client.score(created.game_id).scoreboard.left_seats) == [seat]
    assert final.status == FINISHED


def test_resign_ends_a_two_player_game_for_the_other_seat(client: LifeClient) -> None:
    """Resign: with two seats the game ends, GAME_ENDING_RESIGNED, the other wins."""
    created = client.new_timed(2, None)
    tokens = {c.seat: c.token for c in created.credentials}
    reply = client.resign(created.game_id, tokens[1])
    assert reply.status == FINISHED and reply.event.kind == "resign"
    board = client.score(created.game_id).scoreboard
    assert board.ending == common_pb2.GAME_ENDING_RESIGNED
    assert list(board.left_seats) == [1] and list(board.winners) == [0]
    assert list(client.state(created.game_id).to_act) == []
    assert client.legal(created.game_id, tokens[0]).actions == []
    _code, reason = rejected_reason(lambda: client.resign(created.game_id, tokens[0]))
    assert reason == "ERROR_REASON_GAME_OVER"


def test_resign_needs_a_seat_token(client: LifeClient) -> None:
    """Resign: seat token required (UNAUTHENTICATED without one)."""
    created = client.new_timed(2, None)
    _code, reason = rejected_reason(lambda: client.resign(created.game_id, ""))
    assert reason == "ERROR_REASON_TOKEN_MISSING"
    assert client.state(created.game_id).status == IN_PROGRESS


def test_abort_before_every_first_decision_and_not_after(client: LifeClient) -> None:
    """Abort: accepted until every seat has made its first decision; unrated."""
    rng = random.Random(4)
    created = client.new_timed(2, None)
    tokens = {c.seat: c.token for c in created.credentials}
    client.play_one(created.game_id, tokens, created.to_act[0], rng)
    reply = client.abort(created.game_id, tokens[0])
    assert reply.status == ABORTED
    assert client.score(created.game_id).scoreboard.ending == common_pb2.GAME_ENDING_ABORTED
    late = client.new_timed(2, None)
    tokens, _ = client.play_until_all_decided(late, rng)
    code, reason = rejected_reason(lambda: client.abort(late.game_id, tokens[0]))
    assert code == grpc.StatusCode.FAILED_PRECONDITION
    assert reason == "ERROR_REASON_NOT_ABORTABLE"
    assert client.state(late.game_id).status == IN_PROGRESS


def test_four_player_game_with_a_resigner_finishes_with_the_house_bot(
    client: LifeClient,
) -> None:
    """More than two seats: a resigned seat is played on by the house bot (zombie
    mode), the others finish their game, the leaver ranks last and cannot win."""
    rng = random.Random(5)
    created = client.new_timed(4, None)
    tokens = {c.seat: c.token for c in created.credentials}
    reply = client.resign(created.game_id, tokens[2])
    assert reply.status == IN_PROGRESS
    version = client.state(created.game_id).version
    _code, reason = rejected_reason(
        lambda: client.apply(created.game_id, tokens[2], version, action_id=0)
    )
    assert reason == "ERROR_REASON_SEAT_LEFT"
    for _ in range(5000):
        state = client.state(created.game_id)
        if _over(state):
            break
        if not state.to_act:
            continue
        seat = state.to_act[0]
        if seat == 2:  # the house bot's turn: wait for it
            client.wait_state(created.game_id, lambda s, v=state.version: s.version > v)
            continue
        try:
            client.play_one(created.game_id, tokens, seat, rng)
        except grpc.RpcError:
            continue  # the house bot moved in between: look again
    final = client.state(created.game_id)
    assert final.status == FINISHED
    board = client.score(created.game_id).scoreboard
    assert board.ending == common_pb2.GAME_ENDING_NORMAL
    assert list(board.left_seats) == [2]
    assert 2 not in board.winners
    assert next(s.rank for s in board.seats if s.seat == 2) == 4
    bot_events = [e for e in client.log(created.game_id).entries if "house bot" in e.event.label]
    assert bot_events and all(e.event.seat == 2 for e in bot_events)
    # The rematch waits for the three who stayed; the leaver's seat (old 2, now 1)
    # is the house bot's from the start.
    offer = client.offer_rematch(created.game_id, tokens[0])
    assert list(offer.awaited_seats) == [1, 3]
    client.accept_rematch(created.game_id, tokens[1])
    last = client.accept_rematch(created.game_id, tokens[3])
    assert last.started, last
    rematch_state = client.state(offer.game_id)
    assert [s.house_bot for s in rematch_state.clock.seats] == [False, True, False, False]


def test_rematch_rotates_seats_and_starts_when_every_seat_accepts(client: LifeClient) -> None:
    """OfferRematch / AcceptRematch: same options and time control, seat order
    rotated, started once every seat that stayed accepted; tokens are the
    callers' own."""
    tc = time_control(move_seconds=30)
    created = client.new_timed(2, tc, names=("Ada", "Bo"))
    tokens = {c.seat: c.token for c in created.credentials}
    _code, reason = rejected_reason(lambda: client.offer_rematch(created.game_id, tokens[0]))
    assert reason == "ERROR_REASON_GAME_NOT_OVER"
    _code, reason = rejected_reason(lambda: client.accept_rematch(created.game_id, tokens[0]))
    assert reason == "ERROR_REASON_GAME_NOT_OVER"
    client.resign(created.game_id, tokens[1])
    _code, reason = rejected_reason(lambda: client.accept_rematch(created.game_id, tokens[0]))
    assert reason == "ERROR_REASON_NO_REMATCH_OFFER"
    # A game ended by a resignation: the winner's offer waits for the resigner too.
    waiting = client.offer_rematch(created.game_id, tokens[0])
    assert not waiting.started and list(waiting.awaited_seats) == [1]
    assert client.accept_rematch(created.game_id, tokens[1]).started
    rng = random.Random(6)
    played = client.new_timed(2, tc, names=("Ada", "Bo"))
    ptokens = {c.seat: c.token for c in played.credentials}
    client.play_random(played, rng)
    offer = client.offer_rematch(played.game_id, ptokens[0])
    assert not offer.started and list(offer.awaited_seats) == [1]
    assert offer.credential.seat == 1  # old seat 0 sits at (0 - 1) mod 2
    accept = client.accept_rematch(played.game_id, ptokens[1])
    assert accept.started and accept.game_id == offer.game_id
    assert accept.credential.seat == 0
    again = client.offer_rematch(played.game_id, ptokens[0])
    assert again.credential.token == offer.credential.token and again.started
    new = client.state(offer.game_id, accept.credential.token)
    assert new.viewer_seat == 0
    assert [s.name for s in new.seats] == ["Bo", "Ada"]
    assert new.clock.time_control.move_seconds == 30
    assert client.state(offer.game_id, offer.credential.token).viewer_seat == 1


def test_a_seat_skipping_its_own_events_still_hears_the_house_bot_decide_for_it(
    client: LifeClient,
) -> None:
    """WatchRequest.skip_own_events leaves out the seat's own decisions, not
    the ones the house bot made for it on a timeout (it must learn of them)."""
    created = client.new_timed(2, time_control(move_seconds=0.2, policy="bot"))
    tokens = {c.seat: c.token for c in created.credentials}
    first = created.to_act[0]
    stream = client.stub.Watch(
        client.m.WatchRequest(game_id=created.game_id, from_version=1, skip_own_events=True),
        metadata=client.md(tokens[first]),
        timeout=30,
    )
    event = next(stream).event
    stream.cancel()
    assert event.seat == first and "house bot" in event.label


def test_a_birdscaping_game_that_makes_no_progress_ends_through_the_service(
    redis_server_url: str,
) -> None:
    """No endless games (docs/games/birdscaping.md, "No endless games"): seats
    that keep activating rows of tilted cards reach the no-progress cap and the
    game ends, GAME_ENDING_NO_PROGRESS, final, with no legal actions left."""
    from services.birdscaping.service import SPEC as BIRDSCAPING

    rng = random.Random(0)
    with game_server(BIRDSCAPING, redis_server_url) as handle:
        birds = LifeClient(handle, BIRDSCAPING)
        created = birds.new_timed(2, None, seed=1)
        tokens = {c.seat: c.token for c in created.credentials}
        for _ in range(1000):
            state = birds.state(created.game_id)
            if _over(state):
                break
            seat = rng.choice(list(state.to_act))
            legal = birds.legal(created.game_id, tokens[seat])
            stall = [a.ref.id for a in legal.actions if a.ref.kind == "activate_row"]
            choice = stall[0] if stall else rng.randrange(len(legal.actions))
            birds.apply(created.game_id, tokens[seat], legal.version, action_id=choice)
        board = birds.score(created.game_id).scoreboard
        assert board.ending == common_pb2.GAME_ENDING_NO_PROGRESS and board.final
        assert birds.legal(created.game_id, tokens[0]).actions == []
