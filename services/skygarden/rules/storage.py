"""The stored form of a state: JSON with short keys, the turn included as a dict.

A stored game decodes the same whatever the records in memory are called: the
turn record (:class:`.state.Turn`) writes and reads the short keys itself.
"""

from __future__ import annotations

from typing import Any

from services.core.engine import jsonstate

from .state import Turn


def to_stored(st: dict[str, Any]) -> dict[str, Any]:
    """The state's stored form: a JSON-ready dict sharing everything but the turn."""
    stored = dict(st)
    stored["turn"] = st["turn"].stored()
    return stored


def from_stored(st: dict[str, Any]) -> dict[str, Any]:
    """The state from its stored form (changed in place: the turn becomes a record)."""
    st["turn"] = Turn.from_stored(st["turn"])
    return st


def encode(st: dict[str, Any]) -> bytes:
    """JSON bytes of the state, keys sorted (the engine contract's ``encode``)."""
    return jsonstate.dumps(to_stored(st), sort_keys=True)


def decode(data: bytes) -> dict[str, Any]:
    """The state of :func:`encode`'s bytes (the engine contract's ``decode``)."""
    return from_stored(jsonstate.loads(data))
