"""Scoring: every piece in a garden is a point, and each family's majority
holder(s) gain a bonus (rulebook "End of the game and scoring"; ambiguity 11)."""

from __future__ import annotations

from services.core.engine import ScoreBoard, SeatScore
from services.undertheleaves.rules.catalogue import CARDS, FAMILIES
from services.undertheleaves.rules.state import Garden, State

#: Pieces added to each family's majority holder(s) at the end (ambiguity 11).
MAJORITY_BONUS = 2

_FAMILY_OF: dict[str, str] = {card.id: card.family for card in CARDS.values()}
_MAJORITY_KEYS = tuple((family, f"{family}_majority") for family in FAMILIES)


def pieces(garden: Garden) -> dict[str, int]:
    """End of the Game, one point per piece: the garden's pieces by kind (bees,
    hummingbirds and each dweller family)."""
    bees = 0
    for record in garden.bee_sectors:
        bees += record.bees
    counts = {
        "bees": bees,
        "hummingbirds": sum([birds for _, birds in garden.hummingbirds]),
        "leaf": 0,
        "puddle": 0,
        "mushroom": 0,
    }
    family_of = _FAMILY_OF
    for d in garden.dwellers:
        counts[family_of[d.card]] += 1
    return counts


def categories(counts: list[dict[str, int]]) -> list[dict[str, int]]:
    """Each seat's score categories: its pieces, then the majority bonuses
    (ambiguity 11: every seat tied for the most of a family gets the bonus; a
    top of 0 gives nothing)."""
    top = {family: max([c[family] for c in counts]) for family in FAMILIES}
    result = []
    for c in counts:
        by_category = c.copy()
        for family, key in _MAJORITY_KEYS:
            most = top[family]
            by_category[key] = MAJORITY_BONUS if most and c[family] == most else 0
        result.append(by_category)
    return result


def totals(counts: list[dict[str, int]]) -> list[int]:
    """Each seat's total: its pieces plus its majority bonuses (ambiguity 11, as
    :func:`categories` sums them, without building the categories)."""
    result = [sum(c.values()) for c in counts]
    for family in FAMILIES:
        most = max([c[family] for c in counts])
        if most:
            for seat, c in enumerate(counts):
                if c[family] == most:
                    result[seat] += MAJORITY_BONUS
    return result


def score(state: State, final: bool) -> ScoreBoard:
    """Pieces per seat, with the majority bonus as if the game ended now.

    Total = bees + hummingbirds + dwellers + 2 per family where the seat has
    the most pieces of that family (ties all get it; a top of 0 gives
    nothing, ambiguity 11). Ties are broken by hummingbirds, then bees, then
    shared (End of the Game; ambiguity 12).
    """
    counts = [pieces(g) for g in state.gardens]
    seats = []
    for seat, (c, by_category) in enumerate(zip(counts, categories(counts), strict=True)):
        seats.append(
            SeatScore(
                seat=seat,
                total=sum(by_category.values()),
                categories=by_category,
                tiebreak=(c["hummingbirds"], c["bees"]),
            )
        )
    return ScoreBoard(seats=seats, final=final).rank_seats()
