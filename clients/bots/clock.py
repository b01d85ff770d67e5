"""How a bot reads its clock (docs/BOTS.md, "Reading the clock").

Every event of a timed game carries the game's ``Clock`` (``Event.clock``: in
Watch events and in Apply's reply), with each seat's deadline in server
milliseconds and the server time the clock was computed at. A bot's time left
for its pending decision is the deadline minus that server time, minus what
passed locally since the event arrived (so the bot's own clock offset never
matters).

The bot player (:mod:`clients.bots.player`) puts the time left into
:data:`TIME_LEFT_MS` before it asks its policy to choose; a policy that
budgets its thinking (the search bot) reads it with :func:`time_left_ms`. One
policy object serves many seats and games at once, and each seat's player runs
in its own asyncio task, so a context variable keeps each decision's clock
apart.
"""

from __future__ import annotations

import time
from contextvars import ContextVar
from typing import Any

#: The deciding seat's time left in ms and whether it is a bank (Fischer) or a
#: per-move limit; None in an untimed game.
TIME_LEFT_MS: ContextVar[tuple[float, bool] | None] = ContextVar("roost_time_left", default=None)

#: Kept back from the time left for the round trip of the decision.
SAFETY_MS = 150.0
#: Share of a bank one decision may spend (a game has many decisions).
BANK_SHARE = 1 / 20
#: Share of a per-move limit one decision may spend.
MOVE_SHARE = 1 / 2


class SeatClock:
    """The latest clock a seat's player has seen, with when it arrived locally."""

    def __init__(self) -> None:
        self.deadline_left_ms: float | None = None
        self.bank = False
        self.received = 0.0

    def update(self, clock: Any, seat: int) -> None:
        """Take the ``Clock`` message of an event (ignored when unset or not running)."""
        if clock is None or not clock.seats or seat >= len(clock.seats):
            return
        mine = clock.seats[seat]
        if not mine.running or not mine.deadline_ms:
            self.deadline_left_ms = None
            return
        self.deadline_left_ms = float(mine.deadline_ms - clock.server_time_ms)
        self.bank = clock.time_control.bank_seconds > 0
        self.received = time.monotonic()

    def left(self) -> tuple[float, bool] | None:
        """The time left now (ms) and whether it is a bank; None without a deadline."""
        if self.deadline_left_ms is None:
            return None
        passed = (time.monotonic() - self.received) * 1000
        return self.deadline_left_ms - passed, self.bank


def time_left_ms() -> float | None:
    """The deciding seat's time left (ms), None in an untimed game."""
    known = TIME_LEFT_MS.get()
    return None if known is None else known[0]


def thinking_ms(default_ms: float | None) -> float | None:
    """How long a decision may think: ``default_ms``, capped by the clock (a
    share of the bank or of the per-move limit, less :data:`SAFETY_MS`), at
    least 1 ms."""
    known = TIME_LEFT_MS.get()
    if known is None:
        return default_ms
    left, bank = known
    allowed = max((left * (BANK_SHARE if bank else MOVE_SHARE)) - SAFETY_MS, 1.0)
    return allowed if default_ms is None else min(default_ms, allowed)
