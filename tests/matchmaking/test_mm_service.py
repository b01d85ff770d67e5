"""The matchmaker end to end: two matchmaker processes, one Redis, a real game service."""

from __future__ import annotations

import signal
import time
import uuid
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest
import redis
from roost.matchmaking.v1 import matchmaking_pb2 as pb

from services.matchmaking import keys
from tests.matchmaking.mmclient import MmClient, UtlClient
from tests.matchmaking.stack import Stack
from tests.service_contract import error_reason

# Matchmakers and game services as processes: left out of make test-fast.
pytestmark = pytest.mark.slow

ASSIGNED = pb.TICKET_STATUS_ASSIGNED


def test_no_ticket_is_assigned_twice_across_two_matchmakers(
    mm: MmClient, utl: UtlClient, mm_stack: Stack
) -> None:
    count = 40
    with ThreadPoolExecutor(max_workers=16) as pool:
        tickets = list(pool.map(lambda i: mm.enqueue(via=i % 2), range(count)))
        finals = list(
            pool.map(lambda it: mm.final(it[1].ticket_id, via=it[0] + 1), enumerate(tickets))
        )
    assert all(t.status == ASSIGNED for t in finals), [t.status for t in finals]
    by_game: dict[str, list[pb.Ticket]] = defaultdict(list)
    for t in finals:
        by_game[t.assignment.game_id].append(t)
    assert len(by_game) == count // 2
    seats_seen: set[tuple[str, int]] = set()
    for game_id, members in by_game.items():
        assert len(members) == 2, f"game {game_id} got {len(members)} tickets"
        assert len({m.assignment.match_id for m in members}) == 1
        for member in members:
            (seat,) = member.assignment.seats
            assert (game_id, seat.seat) not in seats_seen
            seats_seen.add((game_id, seat.seat))
            other_players = {o.player_id for o in member.assignment.others}
            assert other_players == {p.party[0].player_id for p in members if p is not member}
    # Every token opens its own seat, on the game service itself.
    for t in finals[:6]:
        (seat,) = t.assignment.seats
        assert utl.state(t.assignment.game_id, seat.token).viewer_seat == seat.seat
    # What Redis holds agrees: each ticket assigned once, to one match.
    raw = redis.Redis.from_url(mm_stack.mm_redis_url)
    matches = {raw.hget(keys.ticket("undertheleaves", t.ticket_id), "match") for t in finals}
    assert len(matches) == count // 2
    assert raw.zcard(keys.queue("undertheleaves")) == 0


def test_parties_stay_together(mm: MmClient) -> None:
    trio = mm.enqueue(players=["ann", "bea", "cat"], counts=(4,))
    duo = mm.enqueue(players=["dan", "eve"], counts=(3, 4), via=1)
    singles = [mm.enqueue(counts=(4,), via=i) for i in range(3)]
    finals = {t.ticket_id: mm.final(t.ticket_id) for t in [trio, duo, *singles]}
    assert all(t.status == ASSIGNED for t in finals.values())
    trio_final, duo_final = finals[trio.ticket_id], finals[duo.ticket_id]
    assert sorted(s.player_id for s in trio_final.assignment.seats) == ["ann", "bea", "cat"]
    assert sorted(s.player_id for s in duo_final.assignment.seats) == ["dan", "eve"]
    for final in finals.values():
        a = final.assignment
        seats = [s.seat for s in a.seats] + [o.seat for o in a.others]
        assert sorted(seats) == list(range(a.players)), "every seat exactly once"
    games = {t.ticket_id: t.assignment.game_id for t in finals.values()}
    assert games[trio.ticket_id] != games[duo.ticket_id]


def test_a_ticket_without_heartbeats_expires_and_one_with_heartbeats_does_not(
    mm: MmClient,
) -> None:
    silent = mm.enqueue(counts=(4,))
    alive = mm.enqueue(counts=(4,), via=1, options_json='{"allowFlip": false}')
    started = time.monotonic()
    while time.monotonic() - started < 3.0:
        reply = mm.stub(0).Heartbeat(pb.HeartbeatRequest(ticket_id=alive.ticket_id))
        assert reply.status == pb.TICKET_STATUS_QUEUED
        time.sleep(0.4)
    final = mm.final(silent.ticket_id, via=1, timeout=10)
    assert final.status == pb.TICKET_STATUS_EXPIRED
    late = mm.stub(0).Heartbeat(pb.HeartbeatRequest(ticket_id=silent.ticket_id))
    assert late.status == pb.TICKET_STATUS_EXPIRED
    assert mm.get(alive.ticket_id).status == pb.TICKET_STATUS_QUEUED


def test_cancel(mm: MmClient) -> None:
    ticket = mm.enqueue(counts=(4,))
    cancelled = mm.stub(1).Cancel(pb.CancelRequest(ticket_id=ticket.ticket_id)).ticket
    assert cancelled.status == pb.TICKET_STATUS_CANCELLED
    again = mm.stub(0).Cancel(pb.CancelRequest(ticket_id=ticket.ticket_id)).ticket
    assert again.status == pb.TICKET_STATUS_CANCELLED
    assert mm.final(ticket.ticket_id).status == pb.TICKET_STATUS_CANCELLED
    # A cancelled ticket is never matched.
    pair = [mm.enqueue(counts=(4,)) for _ in range(3)]
    for p in pair:
        mm.stub().Cancel(pb.CancelRequest(ticket_id=p.ticket_id))
    first, second = mm.enqueue(), mm.enqueue(via=1)
    assert mm.final(first.ticket_id).status == ASSIGNED
    with pytest.raises(grpc.RpcError) as caught:
        mm.stub().Cancel(pb.CancelRequest(ticket_id=second.ticket_id))
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert error_reason(caught.value) == "ERROR_REASON_TICKET_CLOSED"
    with pytest.raises(grpc.RpcError) as caught:
        mm.stub().Cancel(pb.CancelRequest(ticket_id="no-such-ticket"))
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND
    assert error_reason(caught.value) == "ERROR_REASON_TICKET_NOT_FOUND"


def test_a_duplicate_ticket_id_returns_the_existing_ticket(mm: MmClient) -> None:
    ticket_id = f"dup-{uuid.uuid4().hex}"
    first = mm.stub(0).Enqueue(
        pb.EnqueueRequest(
            ticket_id=ticket_id, game="undertheleaves", player_counts=[4],
            party=[pb.Player(player_id="dup-a")],
        )
    )  # fmt: skip
    mm.tickets.append(ticket_id)
    second = mm.stub(1).Enqueue(
        pb.EnqueueRequest(
            ticket_id=ticket_id, game="undertheleaves", player_counts=[3],
            party=[pb.Player(player_id="dup-b")],
        )
    )  # fmt: skip
    assert first.created and not second.created
    assert second.ticket.party[0].player_id == "dup-a"
    assert second.ticket.enqueued_ms == first.ticket.enqueued_ms


@pytest.mark.parametrize(
    ("request_fields", "reason", "field"),
    [
        ({"game": "chess"}, "ERROR_REASON_UNKNOWN_GAME", "game"),
        ({"options_json": '{"nope": 1}'}, "ERROR_REASON_INVALID_OPTIONS", "options_json"),
        ({"options_json": "not json"}, "ERROR_REASON_INVALID_OPTIONS", "options_json"),
        ({"ticket_id": "short"}, "ERROR_REASON_INVALID_REQUEST", "ticket_id"),
        ({"player_counts": [1]}, "ERROR_REASON_INVALID_REQUEST", "player_counts"),
        ({"party": []}, "ERROR_REASON_INVALID_REQUEST", "party"),
        ({"party": [pb.Player(player_id="bad id!")]}, "ERROR_REASON_INVALID_REQUEST",
         "party.player_id"),
    ],
)  # fmt: skip
def test_malformed_enqueues_are_invalid_argument(
    mm: MmClient, request_fields: dict, reason: str, field: str
) -> None:
    fields = {
        "game": "undertheleaves",
        "player_counts": [2],
        "party": [pb.Player(player_id="a"), pb.Player(player_id="b")],
        **request_fields,
    }
    with pytest.raises(grpc.RpcError) as caught:
        mm.stub().Enqueue(pb.EnqueueRequest(**fields))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_reason(caught.value) == reason
    assert field in caught.value.details()


def test_bots_fill_empty_seats_and_the_game_is_rated(mm: MmClient, utl: UtlClient) -> None:
    human = f"human-{uuid.uuid4().hex[:8]}"
    ticket = mm.enqueue(players=[human], counts=(3,), bots_after_ms=200,
                        bot_kind=pb.BOT_KIND_GREEDY)  # fmt: skip
    final = mm.final(ticket.ticket_id)
    assert final.status == ASSIGNED
    a = final.assignment
    assert a.players == 3
    assert [o.bot for o in a.others] == [True, True]
    assert {o.player_id for o in a.others} == {"bot:greedy"}
    (seat,) = a.seats
    end = utl.play_seat_to_end(a.game_id, seat.token)
    assert end.status == 2
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        ratings = (
            mm.stub(1)
            .GetRatings(
                pb.GetRatingsRequest(game="undertheleaves", player_ids=[human, "bot:greedy"])
            )
            .ratings
        )
        if ratings[0].games == 1:
            break
        time.sleep(0.1)
    assert ratings[0].games == 1, "the finished game was rated"
    assert ratings[1].games >= 1
    board = mm.stub(0).Leaderboard(pb.LeaderboardRequest(game="undertheleaves", limit=500))
    assert human in {e.rating.player_id for e in board.entries}
    assert [e.rank for e in board.entries] == list(range(1, len(board.entries) + 1))


def test_a_player_count_the_game_refuses_fails_the_ticket(mm: MmClient) -> None:
    ticket = mm.enqueue(counts=(6,), bots_after_ms=1)
    final = mm.final(ticket.ticket_id)
    assert final.status == pb.TICKET_STATUS_FAILED
    assert "player" in final.error.lower()


def test_another_matchmaker_adopts_the_games_of_one_that_died(
    mm_stack: Stack, utl: UtlClient
) -> None:
    solo = Stack(mm_stack.redis_url, mm_stack.mm_redis_url.rsplit("/", 1)[0] + "/4")
    redis.Redis.from_url(solo.mm_redis_url).flushdb()
    solo.games = dict(mm_stack.games)
    try:
        first = solo.start_matchmaker(MM_LEASE_MS="1000")
        client = MmClient([first.address])
        ticket = client.enqueue(players=["survivor"], bots_after_ms=1)
        final = client.final(ticket.ticket_id)
        assert final.status == ASSIGNED
        client.cleanup()
        first.stop(signal.SIGKILL)  # a crash: no lease handed back
        second = solo.start_matchmaker(MM_LEASE_MS="1000")
        (seat,) = final.assignment.seats
        utl.play_seat_to_end(final.assignment.game_id, seat.token)
        client = MmClient([second.address])
        deadline = time.monotonic() + 10
        games = 0
        while time.monotonic() < deadline and games == 0:
            games = (
                client.stub()
                .GetRatings(pb.GetRatingsRequest(game="undertheleaves", player_ids=["survivor"]))
                .ratings[0]
                .games
            )
            time.sleep(0.1)
        client.cleanup()
        assert games == 1, "the adopting matchmaker rated the game"
    finally:
        for proc in solo.matchmakers:
            proc.stop()
