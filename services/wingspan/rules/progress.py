"""Progress in Wingspan, for the platform's no-endless-games caps
(services/core/lifecycle/progress.py; docs/games/wingspan.md).

Every turn spends one of a seat's action cubes and the game ends after the
fourth round, so cubes spent and rounds are progress; so is each setup
decision. Power chains within one turn are not.
"""

from __future__ import annotations

from typing import Any

#: Decisions in a whole game; a 5-seat game takes a few thousand.
DECISION_CAP = 20_000
#: Consecutive decisions without a cube spent, a round or a setup step.
NO_PROGRESS_CAP = 500


def progress(state: Any) -> tuple[int, int, int]:
    """Round, action cubes left in all, setup decisions made in all."""
    return (state.round, sum(state.cubes_left), sum(state.setup_stage))
