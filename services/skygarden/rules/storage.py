"""The stored form of a state: JSON with the short keys it has always had.

A stored game decodes the same whatever the records in memory are called: the
records (:class:`.state.GameState`, :class:`.state.Turn`, :class:`.state.Player`,
:class:`.state.Area`, :class:`.state.Lucy`) write and read the short keys themselves.
"""

from __future__ import annotations

from services.core.engine import jsonstate

from .state import GameState


def encode(st: GameState) -> bytes:
    """JSON bytes of the state, keys sorted (the engine contract's ``encode``)."""
    return jsonstate.dumps(st.stored(), sort_keys=True)


def decode(data: bytes) -> GameState:
    """The state of :func:`encode`'s bytes (the engine contract's ``decode``)."""
    return GameState.from_stored(jsonstate.loads(data))
