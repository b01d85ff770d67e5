"""The stored form of a state: JSON with short keys, the turn included as a dict.

A stored game decodes the same whatever the records in memory are called: the
records (:class:`.state.Turn`, :class:`.state.Player`, :class:`.state.Area`,
:class:`.state.Lucy`) write and read the short keys
themselves.
"""

from __future__ import annotations

from typing import Any

from services.core.engine import jsonstate

from .state import Lucy, Player, Turn


def to_stored(st: dict[str, Any]) -> dict[str, Any]:
    """The state's stored form: a JSON-ready dict sharing everything but the records
    (the turn, the players, Lucy), which become dicts with their short keys."""
    stored = dict(st)
    stored["turn"] = st["turn"].stored()
    stored["players"] = [p.stored() for p in st["players"]]
    lucy = st["lucy"]
    if lucy is not None:
        stored["lucy"] = lucy.stored()
    return stored


def from_stored(st: dict[str, Any]) -> dict[str, Any]:
    """The state from its stored form (changed in place: the turn, the players and Lucy
    become records)."""
    st["turn"] = Turn.from_stored(st["turn"])
    st["players"] = [Player.from_stored(p) for p in st["players"]]
    lucy = st["lucy"]
    if lucy is not None:
        st["lucy"] = Lucy.from_stored(lucy)
    return st


def encode(st: dict[str, Any]) -> bytes:
    """JSON bytes of the state, keys sorted (the engine contract's ``encode``)."""
    return jsonstate.dumps(to_stored(st), sort_keys=True)


def decode(data: bytes) -> dict[str, Any]:
    """The state of :func:`encode`'s bytes (the engine contract's ``decode``)."""
    return from_stored(jsonstate.loads(data))
