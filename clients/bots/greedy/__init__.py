"""The greedy bot's evaluation: a one-turn lookahead on the game's rules engine.

* :mod:`.lookahead`: the lookahead itself (engine-generic).
* ``<game>.py``: what a seat's resources are worth beyond its score, in points
  (``potential(state, seat)``), for the games whose score alone misleads a
  one-ply player.

:data:`LOOKAHEAD` lists the games the greedy bot plays with the lookahead;
elsewhere it takes the server's one-ply score previews as they are (enough in
Under the Leaves, where every action scores at once).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

#: (engine state, seat) -> points a seat's resources are worth beyond its score.
Potential = Callable[[Any, int], float]

#: Games played with the lookahead, and whether each has a potential module.
#: Birdscaping has none: valuing the cards in hand made two lookahead bots draw,
#: tilt and untilt forever, neither ever playing the card that moves the game
#: toward its end (the rules set no limit on the game's length).
LOOKAHEAD: dict[str, bool] = {"wingspan": True, "birdscaping": False, "skygarden": True}


def no_potential(state: Any, seat: int) -> float:
    """Nothing beyond the score."""
    return 0.0


def potential_of(game: str) -> Potential | None:
    """The potential of ``game``'s resources, or None when greedy plays on the previews."""
    if game not in LOOKAHEAD:
        return None
    if not LOOKAHEAD[game]:
        return no_potential
    return importlib.import_module(f"clients.bots.greedy.{game}").potential
