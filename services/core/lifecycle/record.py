"""The lifecycle record: what a game carries beside its engine state.

Stored as compact JSON in the game hash's ``life`` field and written by the
same compare-and-set as the state, so the clock, the leavers and the ending of
a version are exactly those of that version's state:

``{"tc": <time control or null>, "c": [[bank_ms, since_ms, timeouts], ...],
"left": [seat, ...], "first": [seat, ...], "end": "<ending>", "n": decisions,
"idle": decisions without progress, "pk": "<progress digest>", "at": write ms}``

A game stored before the record existed reads as an untimed game with no
leavers whose every seat has decided (so it cannot be aborted).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import orjson
from roost.common.v1 import common_pb2

from services.core.lifecycle import clock as clocks
from services.core.lifecycle.clock import SeatClock
from services.core.lifecycle.timecontrol import TimeControl

#: Endings (GameEnding without its prefix); "" while the game is in progress.
NORMAL = "NORMAL"
RESIGNED = "RESIGNED"
TIMEOUT = "TIMEOUT"
ABORTED = "ABORTED"
NO_PROGRESS = "NO_PROGRESS"
DECISION_CAP = "DECISION_CAP"


@dataclass(slots=True)
class Life:
    """A game's lifecycle at one version (mutable while a write is prepared)."""

    #: The time control; an untimed game still keeps clocks (for leavers' seats).
    tc: TimeControl
    clocks: list[SeatClock]
    #: Seats that left (resigned or forfeited), in the order they left.
    left: list[int] = field(default_factory=list)
    #: Seats that have made at least one decision.
    first: list[int] = field(default_factory=list)
    #: How the game ended ("" while in progress).
    ending: str = ""
    #: Decisions applied so far (house bot moves included).
    decisions: int = 0
    #: Decisions since the game last made progress (services/core/lifecycle/progress.py).
    idle: int = 0
    #: Digest of the game's progress key at the last decision.
    progress: str = ""
    #: Server time of this version's write, ms since the Unix epoch.
    at_ms: int = 0

    @property
    def everyone_decided(self) -> bool:
        """True once every seat has made its first decision (Abort is refused then)."""
        return len(self.first) >= len(self.clocks)

    def active_seats(self) -> list[int]:
        """Seats that have not left."""
        return [s for s in range(len(self.clocks)) if s not in self.left]

    def to_json(self) -> bytes:
        """The stored form."""
        return orjson.dumps(
            {
                "tc": self.tc.to_json() if self.tc.timed else None,
                "c": [[c.bank_ms, c.since_ms, c.timeouts] for c in self.clocks],
                "left": self.left,
                "first": self.first,
                "end": self.ending,
                "n": self.decisions,
                "idle": self.idle,
                "pk": self.progress,
                "at": self.at_ms,
            }
        )

    @classmethod
    def from_json(cls, raw: bytes | str | None, players: int) -> Life:
        """Inverse of :meth:`to_json`; a missing record is an old game's (see above)."""
        if not raw:
            return cls(
                TimeControl(), [SeatClock() for _ in range(players)], first=list(range(players))
            )
        data = orjson.loads(raw)
        tc = TimeControl.from_json(data["tc"]) if data["tc"] else TimeControl()
        return cls(
            tc=tc,
            clocks=[SeatClock(b, s, t) for b, s, t in data["c"]],
            left=list(data["left"]),
            first=list(data["first"]),
            ending=data["end"],
            decisions=data["n"],
            idle=data["idle"],
            progress=data["pk"],
            at_ms=data["at"],
        )

    def clock(self) -> common_pb2.Clock | None:
        """The Clock message of this version (None in an untimed game nobody left)."""
        if not self.tc.timed and not self.left:
            return None
        return clocks.to_proto(self.tc, self.clocks, self.left, self.at_ms)

    def copy(self) -> Life:
        """An independent copy (a write prepares the next version on one)."""
        return Life(
            self.tc,  # frozen
            [SeatClock(c.bank_ms, c.since_ms, c.timeouts) for c in self.clocks],
            list(self.left),
            list(self.first),
            self.ending,
            self.decisions,
            self.idle,
            self.progress,
            self.at_ms,
        )


@lru_cache(maxsize=4096)
def record_clock(raw: str) -> common_pb2.Clock | None:
    """The Clock message of a stored record (None when it has none to show:
    an untimed game nobody left). Built once per record: every watcher of an
    event reads the same clock (callers copy it into their Event, never change it)."""
    return Life.from_json(raw, 0).clock()
