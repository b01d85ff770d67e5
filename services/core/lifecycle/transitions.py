"""What each kind of write does to the lifecycle record (pure; no I/O).

Every function takes the record of the version being replaced (a copy the
caller may change) and the server's write time, and returns the ending the
write produces ("" when the game goes on). The caller writes the new version
with the compare-and-set of an Apply, so exactly one of two racing writes
(a decision and an expiry, two replicas' expiries) lands.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from services.core.lifecycle import clock as clocks
from services.core.lifecycle.progress import Caps, count_decision
from services.core.lifecycle.record import ABORTED, NORMAL, RESIGNED, TIMEOUT, Life
from services.core.lifecycle.timecontrol import HOUSE_BOT, TimeControl


def start(tc: TimeControl, players: int, to_act: Collection[int], now_ms: int) -> Life:
    """The record of a new game."""
    return Life(tc, clocks.start(tc, players, to_act, now_ms), at_ms=now_ms)


def decided(
    life: Life,
    caps: Caps,
    state: Any,
    seat: int,
    to_act: Collection[int],
    finished: bool,
    now_ms: int,
    *,
    spent_cap_ms: int | None = None,
) -> str:
    """A decision of ``seat`` (its own, or the house bot's for it) was applied:
    ``state`` is the state after it and ``to_act`` the seats asked then."""
    clocks.charge(life.tc, life.clocks, now_ms, seat, to_act, spent_cap_ms=spent_cap_ms)
    if seat not in life.first:
        life.first.append(seat)
    life.at_ms = now_ms
    capped = count_decision(life, caps, state)
    if finished:
        life.ending = NORMAL
    elif capped:
        life.ending = capped
    if life.ending:
        _stop_all(life, now_ms)
    return life.ending


def leave(life: Life, seat: int, ending: str, to_act: Collection[int], now_ms: int) -> str:
    """``seat`` leaves (``ending``: RESIGNED or TIMEOUT). With one seat left
    active (or none) the game ends with ``ending``; otherwise the house bot
    plays the seat from now on (it is due at once when asked)."""
    if seat not in life.left:
        life.left.append(seat)
    life.at_ms = now_ms
    if len(life.active_seats()) <= 1:
        life.ending = ending
        _stop_all(life, now_ms)
        return ending
    # The seat's running decision (if any) is now the house bot's: due at once.
    clocks.charge(life.tc, life.clocks, now_ms, None, [s for s in to_act if s != seat])
    if seat in to_act:
        life.clocks[seat].since_ms = now_ms
    return ""


def abort(life: Life, now_ms: int) -> str:
    """The game is aborted (only before every seat's first decision)."""
    life.ending = ABORTED
    life.at_ms = now_ms
    _stop_all(life, now_ms)
    return ABORTED


def resign(life: Life, seat: int, to_act: Collection[int], now_ms: int) -> str:
    """``seat`` resigns."""
    return leave(life, seat, RESIGNED, to_act, now_ms)


def expiry_kind(life: Life, seat: int) -> str:
    """What the expiry of ``seat``'s deadline does: ``"bot"`` (the house bot
    decides for it), ``"abort"`` (a first decision never came) or ``"forfeit"``."""
    if seat in life.left or life.tc.on_timeout == HOUSE_BOT:
        return "bot"
    if seat not in life.first:
        return "abort"
    return "forfeit"


def forfeit(life: Life, seat: int, to_act: Collection[int], now_ms: int) -> str:
    """``seat``'s clock ran out under TIMEOUT_POLICY_FORFEIT."""
    life.clocks[seat].timeouts += 1
    return leave(life, seat, TIMEOUT, to_act, now_ms)


def spent_cap(life: Life, seat: int) -> int | None:
    """For an expiry: the time the seat may be charged (up to its deadline)."""
    clock = life.clocks[seat]
    at = clocks.deadline(life.tc, clock, seat in life.left)
    return max(at - clock.since_ms, 0) if at else None


def _stop_all(life: Life, now_ms: int) -> None:
    clocks.charge(life.tc, life.clocks, now_ms, None, ())
