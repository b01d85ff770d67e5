"""Progress in Birdscaping, for the platform's no-endless-games caps
(services/core/lifecycle/progress.py; docs/games/birdscaping.md).

The game moves towards its end when a card changes place for good: the deck
shrinks (a draw, a draft), a card reaches a row or the discard, or a round
ends. Tilting and untilting cards, and activating a row whose cards are all
tilted (legal, and changing nothing), are not progress.
"""

from __future__ import annotations

from typing import Any

#: Decisions in a whole game; a normal 2-seat game takes a few hundred.
DECISION_CAP = 5_000
#: Consecutive decisions without progress before the game ends (NO_PROGRESS).
NO_PROGRESS_CAP = 200


def progress(state: Any) -> tuple[int, int, int, int]:
    """Round, cards left in the deck, cards discarded, cards in every row."""
    in_rows = sum(len(row) for seat_rows in state.rows for row in seat_rows)
    return (state.round, len(state.deck), len(state.discard), in_rows)
