"""Roost's bots as in-process opponents of the Gymnasium environment.

An opponent is a callable ``(match, seat) -> action index``. Kinds:

* ``random``: uniform among the legal actions;
* ``search``, ``search@<N>p``: the search bot (:mod:`clients.bots.search.ismcts`)
  with its game's settings and a budget of N playouts per decision (default
  32), searching from the seat's information set: every playout redraws what
  the seat cannot see with the engine's ``determinize``, as the bot does
  against the live service.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

Opponent = Callable[[Any, int], int]
_SEARCH = re.compile(r"search(?:@(\d+)p)?")


def random_opponent(rng: random.Random) -> Opponent:
    def choose(match: Any, seat: int) -> int:
        indices = match.legal_indices(seat)
        return indices[rng.randrange(len(indices))]

    return choose


def search_opponent(game: str, playouts: int, rng: random.Random) -> Opponent:
    from clients.bots.search import builder
    from clients.bots.search.ismcts import Budget, search
    from clients.bots.search.policy import settings_of

    settings = settings_of(game, builder(game))
    budget = Budget(playouts=playouts)

    def choose(match: Any, seat: int) -> int:
        indices = match.legal_indices(seat)
        if len(indices) == 1:
            return indices[0]
        result = search(match.engine, match.state, seat, budget, rng, settings)
        return indices[result.choice]

    return choose


def opponent(kind: str | Opponent, game: str, rng: random.Random) -> Opponent:
    """The opponent of a kind name (module docstring), or a callable as given."""
    if callable(kind):
        return kind
    if kind == "random":
        return random_opponent(rng)
    searching = _SEARCH.fullmatch(kind)
    if searching:
        return search_opponent(game, int(searching.group(1) or 32), rng)
    raise ValueError(f"unknown opponent {kind!r}: random, search or search@<N>p")
