"""The stored event: one entry of a game's event stream, as a typed record.

Every version of a game has one event: who decided (``seat``, -1 for the
game's creation), what (``kind``, the action's arguments as JSON and its
label), whether the decision is secret (and the label other seats read
then), when, and the game's status and seats asked to decide after it.

In Redis an event is a stream entry ``<version>-0`` whose fields keep the
short names below; the live channel carries the same fields as a JSON array
(services/core/store.py). Those names are the stored format: games written
by any earlier process read back through :meth:`StoredEvent.from_fields`.

=======  ==========================  ==============================
field    record attribute            stored text
=======  ==========================  ==============================
``s``    ``seat``                    decimal, ``-1`` for creation
``k``    ``kind``                    the action kind
``a``    ``args_json``               the action's arguments (JSON)
``l``    ``label``                   the acting seat's label
``x``    ``secret``                  ``1`` secret, ``0`` (or absent) public
``p``    ``public_label``            what other seats read of a secret
``t``    ``time_ms``                 Unix milliseconds
``st``   ``status``                  ``IN_PROGRESS``, ``FINISHED`` or ``ABORTED``
``ta``   ``to_act``                  seats, comma separated
``lf``   ``life``                    the lifecycle record after the event
                                     (JSON; only in games with a clock or
                                     a seat that left): the event's clock
``hb``   ``house_bot``                  ``1`` when the server decided for the
                                     seat (a timeout, or a seat that left)
=======  ==========================  ==============================
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from roost.common.v1 import common_pb2

from services.core.lifecycle.record import record_clock

IN_PROGRESS = "IN_PROGRESS"
FINISHED = "FINISHED"
#: Ended before every seat's first decision (services/core/lifecycle/).
ABORTED = "ABORTED"
#: Stored statuses of a game that takes no more decisions.
OVER = frozenset({FINISHED, ABORTED})


def status_name(finished: bool) -> str:
    """The stored status text of a game that is (not) over."""
    return FINISHED if finished else IN_PROGRESS


def status_value(name: str) -> int:
    """The ``GameStatus`` enum value of a stored status text."""
    if name == FINISHED:
        return common_pb2.GAME_STATUS_FINISHED
    if name == ABORTED:
        return common_pb2.GAME_STATUS_ABORTED
    return common_pb2.GAME_STATUS_IN_PROGRESS


@dataclass(slots=True)
class StoredEvent:
    """One event of a game, as stored (see the module docstring for its fields).

    A value: never changed once made (not frozen only because a frozen
    dataclass costs an Apply about 2 µs more to build)."""

    version: int
    #: The seat that decided; -1 for the game's creation.
    seat: int
    kind: str
    #: The action's arguments as JSON (``services.core.convert.args_to_json``).
    args_json: str
    #: The label the acting seat (and every seat, unless secret) reads.
    label: str
    #: A secret decision: other seats read ``public_label`` and no kind.
    secret: bool
    public_label: str
    time_ms: int
    #: ``IN_PROGRESS`` or ``FINISHED`` after this event.
    status: str
    #: The seats asked to decide after this event.
    to_act: tuple[int, ...]
    #: The lifecycle record after the event (JSON), or "" (no clock, nobody left).
    life: str = ""
    #: The server's house bot made this decision for ``seat`` (services/core/lifecycle/).
    house_bot: bool = False

    @property
    def finished(self) -> bool:
        """True when this event ended the game (finished or aborted)."""
        return self.status in OVER

    def fields(self) -> list[str]:
        """The stored fields, ``name, value, name, value, ...`` (XADD's order)."""
        return [
            "s", str(self.seat),
            "k", self.kind,
            "a", self.args_json,
            "l", self.label,
            "x", "1" if self.secret else "0",
            "p", self.public_label,
            "t", str(self.time_ms),
            "st", self.status,
            "ta", ",".join(map(str, self.to_act)),
            *(("lf", self.life) if self.life else ()),
            *(("hb", "1") if self.house_bot else ()),
        ]  # fmt: skip

    @classmethod
    def from_fields(cls, version: int, fields: Mapping[str, str]) -> StoredEvent:
        """The event stored at ``version`` with these fields; ``x``, ``p``, ``a``
        and ``ta`` may be absent (public, no arguments, nobody asked)."""
        return cls(
            version=version,
            seat=int(fields["s"]),
            kind=fields["k"],
            args_json=fields.get("a") or "[]",
            label=fields["l"],
            secret=fields.get("x") == "1",
            public_label=fields.get("p", ""),
            time_ms=int(fields["t"]),
            status=fields["st"],
            to_act=tuple(int(s) for s in fields.get("ta", "").split(",") if s),
            life=fields.get("lf", ""),
            house_bot=fields.get("hb") == "1",
        )

    def to_proto(self, reader: int | None) -> common_pb2.Event:
        """The event as ``reader`` (a seat, or None for a spectator) may read it:
        another seat's secret decision shows its public label and no kind."""
        hidden = self.secret and self.seat != reader
        label = (
            (self.public_label or f"Seat {self.seat} made a secret decision")
            if hidden
            else self.label
        )
        return common_pb2.Event(
            version=self.version,
            seat=self.seat,
            kind="" if hidden else self.kind,
            label=label,
            redacted=hidden,
            time_ms=self.time_ms,
            status=status_value(self.status),
            to_act=self.to_act,
            clock=record_clock(self.life) if self.life else None,
        )
