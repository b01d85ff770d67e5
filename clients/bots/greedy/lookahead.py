"""One-turn lookahead: the greedy bot's choice on the game's rules engine.

A score preview judges an action by the seat's score right after it. That
misjudges every action whose points come a decision or two later in the same
turn (choosing to play a bird scores nothing until its food is paid), and every
action that builds rather than scores (gaining food, drawing cards, walking the
track instead of stopping). The lookahead fixes both:

* each legal action is applied to one determinized copy of the state (hidden
  places redrawn from what the seat cannot see, as the server's preview does);
* while the same seat is still to decide (the rest of its turn), up to
  ``follow`` more decisions are taken greedily, each by the value one ply ahead;
* the value of a state is the seat's score plus the game's ``potential``: what
  its resources are worth in points (:mod:`clients.bots.greedy`).

The action with the best value is chosen, ties at random. The cost is about
(actions x follow x actions) engine applies per decision, a few milliseconds
to a few tens of milliseconds in these games.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from clients.bots.greedy import Potential
from services.core.engine import Engine, Rng

#: Decisions of the same seat played greedily after the one being judged.
FOLLOW = 4


def worth(engine: Engine[Any], state: Any, seat: int, potential: Potential) -> float:
    """The seat's score in ``state`` plus what its resources are worth."""
    total = next(s.total for s in engine.score(state).seats if s.seat == seat)
    return total + potential(state, seat)


def finish_turn(
    engine: Engine[Any], state: Any, seat: int, potential: Potential, follow: int
) -> Any:
    """Play up to ``follow`` more decisions of ``seat`` greedily (one ply each,
    first best on ties); the state that leaves (``state`` itself, changed, or a copy)."""
    for _ in range(follow):
        if engine.is_over(state) or engine.to_act(state)[0] != seat:
            break
        best, best_worth = None, float("-inf")
        for action in engine.legal(state, seat):
            after = engine.apply(engine.clone(state), seat, action)
            value = worth(engine, after, seat, potential)
            if value > best_worth:
                best, best_worth = after, value
        state = best
    return state


def outcomes(
    engine: Engine[Any],
    state: Any,
    seat: int,
    actions: Sequence[Any],
    rng: random.Random,
    potential: Potential,
    follow: int = FOLLOW,
) -> list[Any]:
    """The state each of ``actions`` (the engine's) leads to once the seat's turn is
    finished greedily, all from one determinized copy of ``state``."""
    sample = engine.determinize(state, seat, Rng(rng.getrandbits(64)))
    return [
        finish_turn(engine, engine.apply(engine.clone(sample), seat, a), seat, potential, follow)
        for a in actions
    ]


def values(
    engine: Engine[Any],
    state: Any,
    seat: int,
    actions: Sequence[Any],
    rng: random.Random,
    potential: Potential,
    follow: int = FOLLOW,
) -> list[float]:
    """The worth each of ``actions`` leads to (see :func:`outcomes`)."""
    return [
        worth(engine, after, seat, potential)
        for after in outcomes(engine, state, seat, actions, rng, potential, follow)
    ]


def choose(
    engine: Engine[Any],
    state: Any,
    seat: int,
    rng: random.Random,
    potential: Potential,
    follow: int = FOLLOW,
) -> int:
    """The index (into ``engine.legal(state, seat)``) of the best action, ties at random."""
    actions = engine.legal(state, seat)
    worths = values(engine, state, seat, actions, rng, potential, follow)
    best = max(worths)
    return rng.choice([i for i, w in enumerate(worths) if w >= best - 1e-9])
