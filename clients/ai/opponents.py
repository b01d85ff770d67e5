"""Roost's bots as in-process opponents of the Gymnasium environment.

An opponent is a callable ``(match, seat) -> action index``. Kinds:

* ``random``: uniform among the legal actions;
* ``greedy``: the greedy bot's judgement (:mod:`clients.bots.greedy.lookahead`):
  each legal action tried on a determinized copy, the rest of the seat's turn
  played greedily where the bot looks a turn ahead (Wingspan, Birdscaping, Sky
  Garden), valued by score plus the game's potential; in Under the Leaves the
  score one ply ahead, as the bot's score preview;
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


def greedy_opponent(game: str, rng: random.Random) -> Opponent:
    from clients.bots.greedy import LOOKAHEAD, no_potential, potential_of
    from clients.bots.greedy.lookahead import FOLLOW, choose

    potential = potential_of(game) or no_potential
    follow = FOLLOW if game in LOOKAHEAD else 0

    def pick(match: Any, seat: int) -> int:
        indices = match.legal_indices(seat)
        if len(indices) == 1:
            return indices[0]
        return indices[choose(match.engine, match.state, seat, rng, potential, follow)]

    return pick


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
    if kind == "greedy":
        return greedy_opponent(game, rng)
    searching = _SEARCH.fullmatch(kind)
    if searching:
        return search_opponent(game, int(searching.group(1) or 32), rng)
    raise ValueError(f"unknown opponent {kind!r}: random, greedy, search or search@<N>p")
