"""The greedy bot's evaluation: a one-turn lookahead on the game's rules engine.

* :mod:`.lookahead`: the lookahead itself (engine-generic).
* ``<game>.py``: present for the games the greedy bot plays with the
  lookahead; its ``potential(state, seat)`` is what a seat's resources are
  worth beyond its score, in points (zero where valuing them misleads).

:data:`LOOKAHEAD` lists those games (found by their module's presence);
elsewhere greedy takes the server's one-ply score previews as they are (enough
where every action scores at once).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from clients.registry import games_with_module

#: (engine state, seat) -> points a seat's resources are worth beyond its score.
Potential = Callable[[Any, int], float]

#: The registry's games played with the lookahead (``clients/bots/greedy/<game>.py``).
LOOKAHEAD: tuple[str, ...] = games_with_module("clients.bots.greedy")


def no_potential(state: Any, seat: int) -> float:
    """Nothing beyond the score."""
    return 0.0


def potential_of(game: str) -> Potential | None:
    """The potential of ``game``'s resources, or None when greedy plays on the previews."""
    if game not in LOOKAHEAD:
        return None
    return importlib.import_module(f"clients.bots.greedy.{game}").potential
