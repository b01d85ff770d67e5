"""Progress in Under the Leaves, for the platform's no-endless-games caps
(services/core/lifecycle/progress.py; docs/games/undertheleaves.md).

Every turn places a tile from a finite bag and market, so a turn completed is
progress; the decisions within one turn (take, place, card placements) are not.
"""

from __future__ import annotations

from typing import Any

#: Decisions in a whole game; a 4-seat game takes well under a thousand.
DECISION_CAP = 5_000
#: Consecutive decisions without a completed turn before the game ends.
NO_PROGRESS_CAP = 100


def progress(state: Any) -> int:
    """Turns completed."""
    return state.turn
