"""Scoring (section Scoring): printed points plus Scoring abilities, ranked.

``SCORING_ABILITIES`` maps each Scoring ability's op (``cards.json``) to the
function that scores it, one function per ability.
"""

from __future__ import annotations

from collections.abc import Callable

from services.birdscaping.rules.cards import (
    EFFECT,
    FOOD,
    FOODS,
    MAX_ROW,
    OP,
    POINTS,
    ROWS,
    SCORING,
    SCORING_OPS,
)
from services.birdscaping.rules.solo import solo_result
from services.birdscaping.rules.state import OVER, State
from services.core.engine import ScoreBoard, SeatScore

#: (state, seat, card, row the card is in) -> points of the card's Scoring ability.
ScoringAbility = Callable[[State, int, int, int], int]


def _per_card_in_row(s: State, seat: int, card: int, row: int) -> int:
    """Eurasian Wren: points per card in a row, if the card itself is in the
    required row (section 2) Bird Abilities, Scoring)."""
    effect = EFFECT[card]
    need = effect.get("requires_self_in")
    if need and ROWS.index(need) != row:
        return 0
    return int(effect["per"]) * len(s.rows[seat][ROWS.index(effect["row"])])


def _if_untilted(s: State, seat: int, card: int, row: int) -> int:
    """Song Thrush: points if the card is upright at game end (section
    2) Bird Abilities, Scoring)."""
    return 0 if s.tilt[card] else int(EFFECT[card]["points"])


def _if_all_rows_nonempty(s: State, seat: int, card: int, row: int) -> int:
    """Blue Tit: points if each of the three rows holds a card (section
    2) Bird Abilities, Scoring)."""
    rows = s.rows[seat]
    return int(EFFECT[card]["points"]) if rows[0] and rows[1] and rows[2] else 0


def _per_card_in_row_with_food(s: State, seat: int, card: int, row: int) -> int:
    """European Goldfinch: points per (other) card of a row whose food area
    shows a given food (section 2) Bird Abilities, Scoring)."""
    effect = EFFECT[card]
    food = FOODS.index(effect["food"])
    count = 0
    for c in s.rows[seat][ROWS.index(effect["row"])]:
        if c == card and effect.get("exclude_self"):
            continue
        if FOOD[c][food]:
            count += 1
    return int(effect["per"]) * count


def _if_row_full(s: State, seat: int, card: int, row: int) -> int:
    """Grey Heron: points if a row is full, else a penalty (section
    2) Bird Abilities, Scoring)."""
    effect = EFFECT[card]
    full = len(s.rows[seat][ROWS.index(effect["row"])]) >= MAX_ROW
    return int(effect["points"]) if full else int(effect["else"])


SCORING_ABILITIES: dict[str, ScoringAbility] = {
    "score_per_card_in_row": _per_card_in_row,
    "score_if_untilted": _if_untilted,
    "score_if_all_rows_nonempty": _if_all_rows_nonempty,
    "score_per_card_in_row_with_food": _per_card_in_row_with_food,
    "score_if_row_full": _if_row_full,
}
if set(SCORING_ABILITIES) != SCORING_OPS:  # pragma: no cover - a new op in cards.json
    raise ValueError("every Scoring op needs exactly one scorer")


def ability_points(s: State, seat: int, card: int, row: int) -> int:
    """Points of one Scoring ability (section 2) Bird Abilities / Scoring)."""
    return SCORING_ABILITIES[OP[card]](s, seat, card, row)


def score_parts(s: State, seat: int) -> tuple[int, int]:
    """(printed card points, Scoring-ability points) of a seat's tableau
    (section Scoring, steps 1 and 2; no Scoring abilities in solo, AMB 16)."""
    rows = s.rows[seat]
    cards = 0
    ability = 0
    for r in range(3):
        for c in rows[r]:
            cards += POINTS[c]
            if SCORING[c] and s.players == 2:
                ability += ability_points(s, seat, c, r)
    return cards, ability


def score(s: State) -> ScoreBoard:
    """Card points plus Scoring abilities; ties: most cards, fewest tilted (AMB 14).

    Solo Mode (AMB 16): ``solo`` compares the player's points with the AI
    column's printed points; the player wins only with strictly more (a tie
    is a loss, and a lost game has no winner). Mid-game ``solo.won`` says
    whether the player is ahead now.
    """
    seats = []
    for seat in range(s.players):
        cards, ability = score_parts(s, seat)
        rows = s.rows[seat]
        count = len(rows[0]) + len(rows[1]) + len(rows[2])
        tilted = sum(s.tilt[c] for row in rows for c in row)
        seats.append(
            SeatScore(
                seat=seat,
                total=cards + ability,
                categories={"card_points": cards, "scoring_abilities": ability},
                tiebreak=(count, -tilted),
            )
        )
    board = ScoreBoard(seats=seats, final=s.phase == OVER)
    if s.players == 1:
        board.solo = solo_result(s, seats[0].total)
        board.extras["ai_cards"] = str(len(s.ai))
    if s.ended_early:
        board.extras["ended_early"] = "too few cards to set up the next round"
    return board.rank_seats()
