"""The stored form of a state: JSON with short keys, the turn included as a dict.

A stored game decodes the same whatever the records in memory are called: the
records (:class:`.state.Turn`, :class:`.state.Area`) write and read the short keys
themselves.
"""

from __future__ import annotations

from typing import Any

from services.core.engine import jsonstate

from .state import Area, Turn


def to_stored(st: dict[str, Any]) -> dict[str, Any]:
    """The state's stored form: a JSON-ready dict sharing everything but the records
    (the turn, the players' areas), which become dicts with their short keys."""
    stored = dict(st)
    stored["turn"] = st["turn"].stored()
    players = []
    for p in st["players"]:
        player = dict(p)
        player["areas"] = [a.stored() for a in p["areas"]]
        players.append(player)
    stored["players"] = players
    return stored


def from_stored(st: dict[str, Any]) -> dict[str, Any]:
    """The state from its stored form (changed in place: the turn and the areas become
    records)."""
    st["turn"] = Turn.from_stored(st["turn"])
    from_area = Area.from_stored
    for p in st["players"]:
        p["areas"] = [from_area(a) for a in p["areas"]]
    return st


def encode(st: dict[str, Any]) -> bytes:
    """JSON bytes of the state, keys sorted (the engine contract's ``encode``)."""
    return jsonstate.dumps(to_stored(st), sort_keys=True)


def decode(data: bytes) -> dict[str, Any]:
    """The state of :func:`encode`'s bytes (the engine contract's ``decode``)."""
    return from_stored(jsonstate.loads(data))
