"""What a seat's tableau gives: nesting areas, curious birds, the hand limit.

Each function reads the cards a seat has played (``State.rows``) and the
Ongoing abilities among them; none changes the state.
"""

from __future__ import annotations

from services.birdscaping.rules.cards import (
    BONUS_CURIOUS,
    BONUS_NEST,
    CURIOUS,
    HAND_DELTA,
    HAND_LIMIT,
    NEST,
    NO_SPEND,
)
from services.birdscaping.rules.state import State


def in_tableau(rows: list[list[int]], card: int) -> bool:
    """Is ``card`` in any row of this tableau (Player Tableaus)?"""
    return card in rows[0] or card in rows[1] or card in rows[2]


def row_of(rows: list[list[int]], card: int) -> int:
    """The row holding ``card`` in this tableau, or -1 (Player Tableaus)."""
    for r in range(3):
        if card in rows[r]:
            return r
    return -1


def nest_yield(s: State, seat: int, card: int) -> int:
    """Nesting areas a card gives when discarded for nesting or spent from Trees
    (section Paying Nesting Area Costs; Ongoing bonuses such as the Nuthatch's)."""
    y = NEST[card]
    bonus = BONUS_NEST.get(card)
    if bonus is not None and in_tableau(s.rows[seat], bonus[1]):
        y += bonus[0]
    return y


def curious_yield(s: State, seat: int, card: int) -> int:
    """Curious birds a tilted Pond card gives when spent (section 3) Draft Cards;
    the Mallard's bonus included)."""
    y = CURIOUS[card]
    bonus = BONUS_CURIOUS.get(card)
    if bonus is not None and len(s.rows[seat][bonus[1]]) >= bonus[2]:
        y += bonus[0]
    return y


def hand_limit(s: State, seat: int) -> int:
    """End-of-turn hand limit: 3 plus Ongoing deltas, at least 1 (section
    3) Draft Cards; AMB 12)."""
    limit = HAND_LIMIT
    rows = s.rows[seat]
    for card, delta in HAND_DELTA.items():
        if in_tableau(rows, card):
            limit += delta
    return max(1, limit)


def spendable(s: State, card: int) -> bool:
    """A tilted card may be spent unless an Ongoing ability forbids it (section
    4) Important Terms, Spend; the Cuckoo)."""
    return s.tilt[card] == 1 and card not in NO_SPEND
