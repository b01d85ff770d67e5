"""An example policy in a few lines: never give points away, prefer the kinds it likes.

Run it: ``roost bots GAME_ID --policy clients.bots.examples.cautious:Cautious``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clients.bots.policies import Policy


class Cautious(Policy):
    """Takes the best score preview; among equals, a preferred kind; then the first."""

    name = "cautious"
    wants_preview = True  # fill LegalAction.score_after (the seat's total after each action)
    wants_view = True  # pass the seat's View message too
    #: Action kinds to prefer when scores tie (the kind is the Action oneof's field name).
    PREFERRED = ("play_card", "place_tile", "play_bird", "take_tile")

    def choose(self, actions: Sequence[Any], view: Any = None) -> int:
        """The index of the chosen LegalAction."""

        def rank(index: int) -> tuple[int, int, int]:
            action = actions[index]
            liked = action.ref.kind in self.PREFERRED
            return (action.score_after, liked, -index)

        return max(range(len(actions)), key=rank)
