"""Random playouts through the engine contract (tests, benchmarks, bots).

Pure: uses only the engine and the seeded generator it is given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from services.core.engine.contract import Engine, ScoreBoard
from services.core.engine.rng import Rng


def random_playout(
    engine: Engine[Any],
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    max_decisions: int = 200_000,
) -> tuple[Any, ScoreBoard, int]:
    """Play a whole game choosing uniformly among legal actions.

    Returns the final state, the final score board and the number of
    decisions taken. Raises ``RuntimeError`` if a seat that must act has no
    legal action (a rules bug) or the game does not end within
    ``max_decisions``.
    """
    state = engine.setup(players, options or {}, seed)
    chooser = Rng(seed ^ 0x5EED)
    decisions = 0
    while not engine.is_over(state):
        seats = engine.to_act(state)
        if not seats:
            raise RuntimeError("game not over but nobody is to act")
        seat = seats[chooser.below(len(seats))] if len(seats) > 1 else seats[0]
        actions = engine.legal(state, seat)
        if not actions:
            raise RuntimeError(f"seat {seat} must act but has no legal action")
        state = engine.apply(state, seat, actions[chooser.below(len(actions))])
        decisions += 1
        if decisions > max_decisions:
            raise RuntimeError("game did not end")
    return state, engine.score(state), decisions
