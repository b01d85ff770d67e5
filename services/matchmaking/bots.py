"""House bots: how the matchmaker plays the seats it filled with bots.

Two policies, both driven only through the shared game RPCs:

* ``RANDOM`` picks uniformly among the legal actions;
* ``GREEDY`` asks Legal for its one-ply score preview (``score_after``) and
  picks the action with the highest score (random among ties); for a game
  whose Legal has no preview it plays like ``RANDOM``.
"""

from __future__ import annotations

import random
from typing import Any

RANDOM = "RANDOM"
GREEDY = "GREEDY"
KINDS = (RANDOM, GREEDY)


def player_id(kind: str) -> str:
    """The rating identity of a house bot kind ("bot:random")."""
    return f"bot:{kind.lower()}"


def choose(kind: str, actions: list[Any], rng: random.Random) -> int:
    """The index of the action a bot of ``kind`` picks among ``actions`` (LegalAction messages)."""
    if kind == GREEDY and actions:
        best = max(a.score_after for a in actions)
        return rng.choice([i for i, a in enumerate(actions) if a.score_after == best])
    return rng.randrange(len(actions))
