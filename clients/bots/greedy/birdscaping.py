"""Birdscaping: what a seat's cards are worth beyond its score, in points.

Points come only when a card is played into the tableau; what it is paid with
is cards: cards in hand (discarded for nesting material) and untilted cards in
the tableau (tilted for their food). So a card in hand is worth :data:`CARD`
points and an untilted tableau card :data:`UNTILTED` points, until the end is
triggered (after which there is nothing left to pay for).
"""

from __future__ import annotations

CARD = 0.4
CARD_CAP = 8
UNTILTED = 0.2


def potential(state: object, seat: int) -> float:
    """The seat's cards in points (see the module docstring)."""
    s = state
    if s.end_triggered:  # type: ignore[attr-defined]
        return 0.0
    cards = min(len(s.hands[seat]), CARD_CAP)  # type: ignore[attr-defined]
    tilt = s.tilt  # type: ignore[attr-defined]
    untilted = sum(1 for row in s.rows[seat] for c in row if not tilt[c])  # type: ignore[attr-defined]
    return CARD * cards + UNTILTED * untilted
