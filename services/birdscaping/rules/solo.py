"""The solo AI (section Solo Mode): its turn, the cards it receives, its score.

The AI keeps no tableau, only a column of cards (``State.ai``). These
functions read or change that column and the offer; the turn flow calls them.
"""

from __future__ import annotations

from services.birdscaping.rules.cards import POINTS, SOLO_GIFTS
from services.birdscaping.rules.state import State
from services.core.engine import SoloResult


def ai_discards_oldest_offer_card(s: State) -> None:
    """Solo Mode: "For the AI's turn, discard the oldest card in the bird offer"
    (``offer[0]``, the right-most). The caller replenishes the offer."""
    if s.offer:
        s.discard.append(s.offer.pop(0))


def ai_round_gift(s: State) -> int:
    """Cards the AI takes from the new deck at the start of ``s.round`` (Solo
    Mode: 2 before rounds 2, 3 and 4; Easy Mode: 1 at round 2, AMB 15)."""
    gift = SOLO_GIFTS.get(s.round, 0)
    if s.difficulty == "easy" and s.round == 2:
        gift = 1  # AMB 15
    return gift


def ai_points(s: State) -> int:
    """The solo AI column scores printed points only (AMB 16)."""
    return sum(POINTS[c] for c in s.ai)


def solo_result(s: State, player_points: int) -> SoloResult:
    """Solo Mode / AMB 16: "If you scored more points than the AI, you win": the
    player wins only with strictly more points than the AI column (a tie loses)."""
    ai = ai_points(s)
    return SoloResult(won=player_points > ai, opponent_score=ai)
