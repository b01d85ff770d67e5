"""Progress in Sky Garden, for the platform's no-endless-games caps
(services/core/lifecycle/progress.py; docs/games/skygarden.md).

The game ends after its last round; within a round, a seat's Owner token only
moves forward on the Main track and supplies only shrink. So the round, the
phase, the tokens' track spaces, the seats out of the round and the supplies
left are progress; the steps of one space's action are not.
"""

from __future__ import annotations

from typing import Any

#: Decisions in a whole game; a 4-seat game takes about a thousand.
DECISION_CAP = 10_000
#: Consecutive decisions without progress before the game ends.
NO_PROGRESS_CAP = 300


def progress(state: Any) -> tuple[Any, ...]:
    """Round, phase, every Owner token's space, seats out of the round, supplies left."""
    return (
        state.round,
        state.phase,
        tuple(p.track_space for p in state.players),
        tuple(p.finished_round for p in state.players),
        sum(state.supply),
        state.egg_supply,
        state.forest.trees,
        state.forest.nests,
    )
