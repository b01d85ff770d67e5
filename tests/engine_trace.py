"""A random game's trace, for checks that two ways of running an engine agree
(a cache against its plain path, say)."""

from __future__ import annotations

from typing import Any

from services.core.engine import Engine, Rng

#: After one decision: the stored bytes, the next seat's legal actions (key and
#: label) and the spectator's view.
Step = tuple[bytes, list[tuple[Any, str]], dict[str, Any]]


def random_game_trace(engine: Engine[Any], players: int, seed: int) -> list[Step]:
    """A seeded random game (no options) played to its end, recorded after every
    decision."""
    state = engine.setup(players, {}, seed)
    chooser = Rng(seed)
    seen: list[Step] = []
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        legal = engine.legal(state, seat)
        state = engine.apply(state, seat, legal[chooser.below(len(legal))])
        after = engine.to_act(state)
        actions = [(a.key(), a.label) for a in engine.legal(state, after[0])] if after else []
        seen.append((engine.encode(state), actions, engine.view(state, None)))
    return seen
