"""The stored form of a state: JSON with the short keys of ``state.STORED_KEY``.

A task on the stack is stored as its array (``Task.row``) and read back by
``power_tasks.as_task``; the generator as its state; the phase as its number.
The legal-list cache is never stored. ``clone`` is a deep copy through the
same form, so a clone is exactly what a decode of the encoding would give.

Stored games stay playable across rule fixes: a decoded state is brought to
the current rules (:func:`to_current_rules`) where an engine fix made it
unreachable. Today that is one fix: the birdfeeder is never empty (the moment
its last die is taken all five are rolled back in, ``supply.take_die``), so a
game stored with an empty feeder, as earlier engines left it, has the feeder
rolled when read, from the game's own generator.
"""

from __future__ import annotations

from typing import Any

from services.core.engine import jsonstate
from services.core.engine.rng import Rng

from .power_tasks import as_task
from .state import FIELDS, STORED_KEY, Phase, State
from .supply import roll_feeder

_PAIRS = tuple(STORED_KEY.items())


def stored_form(s: State) -> dict[str, Any]:
    """The state as the dict stored in JSON (the generator included)."""
    obj = {key: getattr(s, f) for f, key in _PAIRS}
    obj["stack"] = [t.row() for t in s.stack]
    obj["rng"] = s.rng.state
    return obj


def from_stored(obj: dict[str, Any]) -> State:
    """The state of a stored dict (the inverse of :func:`stored_form`)."""
    s = State()
    for f, key in _PAIRS:
        setattr(s, f, obj[key])
    s.stack = [as_task(t) for t in s.stack]
    s.phase = Phase(s.phase)
    s.rng = Rng(obj["rng"])
    return to_current_rules(s)


def to_current_rules(s: State) -> State:
    """``s`` with what a rule fix made unreachable put right (see the module
    docstring): an empty birdfeeder is rolled (five dice, from the state's
    generator, so every replica reading the same bytes rolls the same)."""
    if not s.feeder:
        roll_feeder(s)
    return s


def encode(s: State) -> bytes:
    """The stored bytes of ``s`` (keys sorted: equal states, equal bytes)."""
    return jsonstate.dumps(stored_form(s), sort_keys=True)


def decode(data: bytes) -> State:
    """The state of stored bytes."""
    return from_stored(jsonstate.loads(data))


def clone(s: State) -> State:
    """A deep copy of ``s`` (the same as decoding its encoding)."""
    c = State()
    values = jsonstate.loads(
        jsonstate.dumps(
            [[t.row() for t in s.stack] if f == "stack" else getattr(s, f) for f in FIELDS]
        )
    )
    for f, value in zip(FIELDS, values, strict=True):
        setattr(c, f, value)
    c.stack = [as_task(t) for t in c.stack]
    c.phase = Phase(c.phase)
    c.rng = Rng(s.rng.state)
    return c
