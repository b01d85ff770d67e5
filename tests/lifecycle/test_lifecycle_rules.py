"""The lifecycle's pure rules (services/core/lifecycle/), in process: clocks
charged from write times, deadlines, what an expiry does, leavers' ranks, the
house bot and the no-progress caps (issue 27)."""

from __future__ import annotations

import random

import pytest
from roost.common.v1 import common_pb2

from services.birdscaping.rules import ENGINE as BIRDSCAPING
from services.core.engine.contract import ScoreBoard, SeatScore
from services.core.lifecycle import clock, ending, house_bot, transitions
from services.core.lifecycle.progress import caps_for
from services.core.lifecycle.record import ABORTED, NO_PROGRESS, RESIGNED, TIMEOUT, Life
from services.core.lifecycle.timecontrol import (
    FORFEIT,
    HOUSE_BOT,
    TimeControl,
    TimeControlError,
    from_proto,
)
from services.undertheleaves.rules import ENGINE as UNDER_THE_LEAVES

FISCHER = TimeControl(bank_ms=10_000, increment_ms=2_000)


def test_time_control_from_proto_in_milliseconds_with_a_compressed_day() -> None:
    """TimeControl: seconds become ms; days_per_move uses the server's day."""
    tc = from_proto(
        common_pb2.TimeControl(days_per_move=2, on_timeout=common_pb2.TIMEOUT_POLICY_HOUSE_BOT),
        day_seconds=0.5,
    )
    assert (tc.move_ms, tc.on_timeout, tc.timed) == (1000, HOUSE_BOT, True)
    assert from_proto(common_pb2.TimeControl()).timed is False
    assert from_proto(common_pb2.TimeControl(move_seconds=1)).on_timeout == FORFEIT
    with pytest.raises(TimeControlError) as caught:
        from_proto(common_pb2.TimeControl(increment_seconds=1))
    assert caught.value.field_name == "increment_seconds"


def test_fischer_charges_the_time_between_writes_then_adds_the_increment() -> None:
    """Fischer: bank - (write of the decision - write that asked) + increment."""
    clocks = clock.start(FISCHER, 2, [0], now_ms=1_000)
    assert clock.deadline(FISCHER, clocks[0], False) == 11_000
    clock.charge(FISCHER, clocks, 4_000, acted=0, to_act_after=[1])
    assert clocks[0].bank_ms == 10_000 - 3_000 + 2_000 and not clocks[0].running
    assert clocks[1].since_ms == 4_000
    assert clock.next_deadline(FISCHER, clocks, []) == 14_000


def test_per_move_and_bank_together_take_the_earlier_deadline() -> None:
    tc = TimeControl(move_ms=3_000, bank_ms=10_000)
    clocks = clock.start(tc, 1, [0], now_ms=1)
    assert clock.deadline(tc, clocks[0], False) == 3_001
    clocks[0].bank_ms = 1_000
    assert clock.deadline(tc, clocks[0], False) == 1_001


def test_simultaneous_phase_runs_every_asked_seat_clock_at_once() -> None:
    """A seat that stays asked while another decides keeps its running clock."""
    tc = TimeControl(move_ms=5_000)
    clocks = clock.start(tc, 3, [0, 1, 2], now_ms=100)
    clock.charge(tc, clocks, 2_000, acted=1, to_act_after=[0, 2])
    assert [c.since_ms for c in clocks] == [100, 0, 100]
    assert clock.due_seats(tc, clocks, [], 5_100) == [0, 2]
    assert clock.due_seats(tc, clocks, [], 5_099) == []


def test_the_clock_message_shows_a_running_bank_as_of_the_write() -> None:
    clocks = clock.start(FISCHER, 2, [0], now_ms=1_000)
    message = clock.to_proto(FISCHER, clocks, [], as_of_ms=3_500)
    assert message.seats[0].bank_ms == 7_500 and message.seats[0].running
    assert message.seats[1].bank_ms == 10_000 and not message.seats[1].running
    assert message.deadline_ms == 11_000 and message.server_time_ms == 3_500


def test_a_seat_that_left_is_due_at_once() -> None:
    clocks = clock.start(TimeControl(), 3, [1], now_ms=50)
    assert clock.due_seats(TimeControl(), clocks, [1], 50) == [1]
    assert clock.due_seats(TimeControl(), clocks, [], 10**12) == []


def test_expiry_kinds_abort_forfeit_and_house_bot() -> None:
    """A first decision never made aborts; later a forfeit; HOUSE_BOT plays on."""
    life = transitions.start(TimeControl(move_ms=1000), 2, [0], 0)
    assert transitions.expiry_kind(life, 0) == "abort"
    life.first.append(0)
    assert transitions.expiry_kind(life, 0) == "forfeit"
    bot = transitions.start(TimeControl(move_ms=1000, on_timeout=HOUSE_BOT), 2, [0], 0)
    assert transitions.expiry_kind(bot, 0) == "bot"


def test_a_forfeit_ends_two_seats_but_not_four() -> None:
    two = transitions.start(TimeControl(move_ms=1000), 2, [0], 0)
    assert transitions.forfeit(two, 0, [0], 1000) == TIMEOUT
    four = transitions.start(TimeControl(move_ms=1000), 4, [2], 0)
    assert transitions.forfeit(four, 2, [2], 1000) == ""
    assert four.left == [2] and four.clocks[2].since_ms == 1000
    assert transitions.resign(four, 0, [2], 1100) == ""
    assert transitions.resign(four, 1, [2], 1200) == RESIGNED  # one seat left


def test_abort_only_until_every_seat_decided() -> None:
    life = transitions.start(TimeControl(), 2, [0], 0)
    assert not life.everyone_decided
    life.first.extend([0, 1])
    assert life.everyone_decided
    assert transitions.abort(transitions.start(TimeControl(), 2, [0], 0), 5) == ABORTED


def test_a_seat_that_left_ranks_last_and_never_wins() -> None:
    board = ScoreBoard(
        [SeatScore(0, 10), SeatScore(1, 50), SeatScore(2, 30), SeatScore(3, 10)], final=True
    ).rank_seats()
    life = Life(TimeControl(), clock.start(TimeControl(), 4, [], 0), left=[1])
    adjusted = ending.adjust(board, life)
    assert {s.seat: s.rank for s in adjusted.seats} == {0: 2, 1: 4, 2: 1, 3: 2}
    assert adjusted.winners == [2]


def test_the_stored_record_round_trips_and_an_old_game_cannot_be_aborted() -> None:
    life = transitions.start(FISCHER, 3, [1], 99)
    life.left.append(2)
    again = Life.from_json(life.to_json(), 3)
    assert again.to_json() == life.to_json()
    assert Life.from_json(b"", 3).everyone_decided


def test_house_bot_is_deterministic_per_game_version_and_seat() -> None:
    state = UNDER_THE_LEAVES.setup(2, {}, 3)
    legal = UNDER_THE_LEAVES.legal(state, UNDER_THE_LEAVES.to_act(state)[0])
    picks = {house_bot.choose("g1", 5, 0, legal) for _ in range(5)}
    assert len(picks) == 1 and picks <= set(legal)


def test_birdscaping_seats_that_keep_activating_tilted_rows_end_the_game() -> None:
    """No endless games: Birdscaping seats that activate rows of tilted cards
    (legal, changing nothing) reach NO_PROGRESS_CAP and the game ends."""
    caps = caps_for(BIRDSCAPING)
    rng = random.Random(0)
    state = BIRDSCAPING.setup(2, {}, 1)
    life = transitions.start(TimeControl(), 2, BIRDSCAPING.to_act(state), 1)
    result = ""
    for step in range(caps.decisions):
        seat = rng.choice(BIRDSCAPING.to_act(state))
        legal = BIRDSCAPING.legal(state, seat)
        stall = [a for a in legal if a.kind == "activate_row"]
        state = BIRDSCAPING.apply(state, seat, stall[0] if stall else rng.choice(legal))
        over = BIRDSCAPING.is_over(state)
        result = transitions.decided(
            life, caps, state, seat, BIRDSCAPING.to_act(state), over, step + 2
        )
        if result:
            break
    assert result == NO_PROGRESS
    assert life.idle == caps.no_progress
