"""Each seat's clock, charged from the server's write times.

A seat's clock runs from the write that asked it to decide to the write of its
decision; both times are the server's (the replica's clock when it writes the
version), never the client's. In a simultaneous phase every asked seat's clock
runs at once; a seat that stays asked while another seat decides keeps running.

* Per-move limit (``move_ms``, correspondence included): a decision is due
  ``move_ms`` after it was asked for.
* Fischer (``bank_ms`` + ``increment_ms``): the time a decision took is taken
  from the seat's bank, then the increment is added; the decision is due when
  the bank would be empty. With both, the earlier deadline holds.
* A seat that left (resigned or forfeited) is due at once: the house bot plays it.

A seat taken off the list of seats asked without deciding (another seat's
decision ended its decision) is charged the time it used, with no increment.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from functools import lru_cache

from roost.common.v1 import common_pb2

from services.core.lifecycle.timecontrol import TimeControl


@dataclass(slots=True)
class SeatClock:
    """One seat's clock: its bank as of ``since_ms`` and when its decision began."""

    #: Fischer bank in ms (0 without a bank), as of ``since_ms`` while running.
    bank_ms: int = 0
    #: Server time the seat's pending decision began; 0 when not running.
    since_ms: int = 0
    #: Decisions the house bot made for the seat on a timeout.
    timeouts: int = 0

    @property
    def running(self) -> bool:
        """True while the seat is asked to decide."""
        return self.since_ms > 0


def start(tc: TimeControl, players: int, to_act: Iterable[int], now_ms: int) -> list[SeatClock]:
    """The clocks at creation: full banks, running for the seats asked first."""
    clocks = [SeatClock(bank_ms=tc.bank_ms) for _ in range(players)]
    for seat in to_act:
        clocks[seat].since_ms = now_ms
    return clocks


def deadline(tc: TimeControl, clock: SeatClock, left: bool) -> int:
    """When the seat's running decision is due (server ms); 0 when it has none."""
    if not clock.running:
        return 0
    if left:
        return clock.since_ms
    limits = []
    if tc.move_ms:
        limits.append(clock.since_ms + tc.move_ms)
    if tc.bank_ms:
        limits.append(clock.since_ms + max(clock.bank_ms, 0))
    return min(limits) if limits else 0


def charge(
    tc: TimeControl,
    clocks: list[SeatClock],
    now_ms: int,
    acted: int | None,
    to_act_after: Collection[int],
    *,
    spent_cap_ms: int | None = None,
) -> None:
    """Charge the write at ``now_ms`` in which ``acted`` decided (None: no seat
    did, e.g. a resignation), leaving ``to_act_after`` asked.

    ``spent_cap_ms`` bounds the acting seat's time spent (an expiry charges the
    time up to the deadline, not up to when the poller ran)."""
    for seat, clock in enumerate(clocks):
        asked_after = seat in to_act_after
        if clock.running and (seat == acted or not asked_after):
            spent = now_ms - clock.since_ms
            if spent_cap_ms is not None and seat == acted:
                spent = min(spent, spent_cap_ms)
            if tc.bank_ms:
                clock.bank_ms = max(clock.bank_ms - max(spent, 0), 0)
                if seat == acted:
                    clock.bank_ms += tc.increment_ms
            clock.since_ms = 0
        if asked_after and not clock.running:
            clock.since_ms = now_ms


def due_seats(
    tc: TimeControl, clocks: list[SeatClock], left: Collection[int], now_ms: int
) -> list[int]:
    """Seats whose deadline has passed at ``now_ms``, earliest deadline first."""
    due = []
    for seat, clock in enumerate(clocks):
        at = deadline(tc, clock, seat in left)
        if at and at <= now_ms:
            due.append((at, seat))
    return [seat for _at, seat in sorted(due)]


def next_deadline(tc: TimeControl, clocks: list[SeatClock], left: Collection[int]) -> int:
    """The earliest deadline of any running seat; 0 when none runs."""
    deadlines = [deadline(tc, c, s in left) for s, c in enumerate(clocks)]
    return min((d for d in deadlines if d), default=0)


def to_proto(
    tc: TimeControl, clocks: list[SeatClock], left: Collection[int], as_of_ms: int
) -> common_pb2.Clock:
    """The ``Clock`` message as of ``as_of_ms`` (the version's write time): a
    running seat's bank is shown with the time it used so far taken off."""
    seats = []
    for seat, clock in enumerate(clocks):
        bank = clock.bank_ms
        if clock.running and tc.bank_ms:
            bank = max(bank - max(as_of_ms - clock.since_ms, 0), 0)
        seats.append(
            common_pb2.SeatClock(
                seat=seat,
                bank_ms=bank,
                running=clock.running,
                deadline_ms=deadline(tc, clock, seat in left),
                house_bot=seat in left,
                timeouts=clock.timeouts,
            )
        )
    return common_pb2.Clock(
        time_control=_time_control_message(tc),
        seats=seats,
        deadline_ms=next_deadline(tc, clocks, left),
        server_time_ms=as_of_ms,
    )


@lru_cache(maxsize=256)
def _time_control_message(tc: TimeControl) -> common_pb2.TimeControl:
    """The TimeControl message of ``tc``, built once (a game's never changes;
    the Clock constructor copies it)."""
    return tc.to_proto()
