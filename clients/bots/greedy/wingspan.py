"""Wingspan: what a seat's resources are worth beyond its score, in points.

The score counts birds played, eggs laid, cached food, tucked cards, bonus
cards and round goals. What it does not count is what those points are made
from: food and cards in hand pay for birds, empty nest space takes the eggs
to come, and every bird in a habitat row makes that row's action stronger.
Each is worth a fraction of a point, and less as the game runs out of turns
(food and cards left at the end score nothing):

* a food token: :data:`FOOD` points (up to :data:`FOOD_CAP` tokens);
* a card in hand: :data:`CARD` points (up to :data:`CARD_CAP` cards);
* a free egg space on a bird: :data:`NEST` points (eggs laid later score);
* a bird in a row: :data:`ROW_BIRD` points (a stronger habitat action).

All four are scaled by the share of the seat's turns still to come.
"""

from __future__ import annotations

from services.wingspan.rules.cards import LIMIT
from services.wingspan.rules.state import ROUND_CUBES

FOOD = 0.6
FOOD_CAP = 8
CARD = 0.5
CARD_CAP = 8
NEST = 0.25
ROW_BIRD = 0.8
TURNS = sum(ROUND_CUBES)


def turns_left(state: object, seat: int) -> int:
    """The seat's action cubes left this round and in the rounds to come."""
    rnd = state.round  # type: ignore[attr-defined]
    if rnd >= len(ROUND_CUBES):
        return 0
    return state.cubes_left[seat] + sum(ROUND_CUBES[rnd + 1 :])  # type: ignore[attr-defined]


def potential(state: object, seat: int) -> float:
    """The seat's resources in points (see the module docstring)."""
    share = turns_left(state, seat) / TURNS
    if share <= 0:
        return 0.0
    s = state
    food = min(sum(s.food[seat]), FOOD_CAP)  # type: ignore[attr-defined]
    cards = min(len(s.hands[seat]), CARD_CAP)  # type: ignore[attr-defined]
    birds = [b for row in s.rows[seat] for b in row]  # type: ignore[attr-defined]
    nests = sum(max(LIMIT[b] - s.eggs[b], 0) for b in birds)  # type: ignore[attr-defined]
    return share * (FOOD * food + CARD * cards + NEST * nests + ROW_BIRD * len(birds))
