"""A bot reads its clock (docs/BOTS.md, "Reading the clock"; issue 27): the time
left comes from the event's Clock in server time, and the search bot's budget
follows it."""

from __future__ import annotations

from roost.common.v1 import common_pb2

from clients.bots.clock import BANK_SHARE, SAFETY_MS, TIME_LEFT_MS, SeatClock, thinking_ms
from clients.bots.search.ismcts import Budget
from clients.bots.search.policy import SearchPolicy


def _clock(bank: float, deadline_ms: int, server_ms: int) -> common_pb2.Clock:
    return common_pb2.Clock(
        time_control=common_pb2.TimeControl(bank_seconds=bank, move_seconds=0 if bank else 5),
        seats=[
            common_pb2.SeatClock(seat=0),
            common_pb2.SeatClock(seat=1, running=True, deadline_ms=deadline_ms),
        ],
        server_time_ms=server_ms,
        deadline_ms=deadline_ms,
    )


def test_time_left_is_the_deadline_minus_the_clocks_server_time() -> None:
    seat = SeatClock()
    seat.update(_clock(60, 1_000_000 + 30_000, 1_000_000), 1)
    left, bank = seat.left()
    assert bank and 29_000 < left <= 30_000
    other = SeatClock()
    other.update(_clock(60, 1_030_000, 1_000_000), 0)  # seat 0 is not running
    assert other.left() is None


def test_the_search_budget_follows_the_remaining_time() -> None:
    policy = SearchPolicy("undertheleaves", Budget(ms=2_000))
    assert policy.clock_budget() == Budget(ms=2_000)  # untimed: the bot's own
    token = TIME_LEFT_MS.set((10_000.0, True))
    try:
        assert policy.clock_budget().ms == 10_000 * BANK_SHARE - SAFETY_MS
        assert thinking_ms(None) == 10_000 * BANK_SHARE - SAFETY_MS
    finally:
        TIME_LEFT_MS.reset(token)
    token = TIME_LEFT_MS.set((100.0, False))
    try:
        assert policy.clock_budget().ms == 1.0  # nearly out of time: think at once
    finally:
        TIME_LEFT_MS.reset(token)
