"""What an observer sees (the proto ``View``): public state, the observer's own
hand and draft packet, and the scores as they stand."""

from __future__ import annotations

from typing import Any

from services.birdscaping.rules.cards import (
    ABILITY_TEXT,
    COST_TERMS,
    KEY,
    N_ICONS,
    NAME,
    ROW_ENUM,
    ROW_NAMES,
    ROWS,
    cost_text,
    food_short,
    food_text,
)
from services.birdscaping.rules.flow import to_act
from services.birdscaping.rules.scoring import score_parts
from services.birdscaping.rules.solo import ai_points
from services.birdscaping.rules.state import DRAFT, OVER, PHASE_ENUM, PLAY, STEP_ENUM, State
from services.birdscaping.rules.tableau import hand_limit

#: The payment fields when no card is being paid for.
_NO_PAYMENT: dict[str, Any] = {
    "card": "",
    "row": "ROW_UNSPECIFIED",
    "nesting_needed": 0,
    "nesting_paid": 0,
    "food_cost": "",
    "food_paid": "",
    "food_icons": 0,
    "food_icons_waived": 0,
    "food_icons_unpaid": 0,
}


def _seat_view(s: State, p: int, viewer: int) -> dict[str, Any]:
    """One seat's public tableau and score; its hand only for itself."""
    rows = s.rows[p]
    cards, ability = score_parts(s, p)
    own = p == viewer
    return {
        "seat": p,
        "hand_count": len(s.hands[p]),
        "hand": [KEY[c] for c in s.hands[p]] if own else [],
        "hand_visible": own,
        "hand_limit": hand_limit(s, p),
        "tableau": {
            ROWS[r]: [{"card": KEY[c], "tilted": bool(s.tilt[c])} for c in rows[r]]
            for r in range(3)
        },
        "card_points": cards,
        "ability_points": ability,
        "score": cards + ability,
        "cards_in_tableau": len(rows[0]) + len(rows[1]) + len(rows[2]),
        "tilted_count": sum(s.tilt[c] for row in rows for c in row),
        "draft_packet_count": len(s.packets[p]) if s.phase == DRAFT else 0,
        "draft_decided": bool(s.phase == DRAFT and s.picked[p]),
    }


def _payment_view(s: State) -> dict[str, Any]:
    """The payment under way (public: every source is paid face up)."""
    pay = s.pay
    if pay is None:
        return dict(_NO_PAYMENT)
    card, row, need, have, fs, fi, ff, discount = pay
    short = food_short(COST_TERMS[card], fs, fi, ff)
    return {
        "card": KEY[card],
        "row": ROW_ENUM[row],
        "nesting_needed": need,
        "nesting_paid": have,
        "food_cost": cost_text(card),
        "food_paid": food_text((fs, fi, ff)),
        "food_icons": N_ICONS[card],
        "food_icons_waived": discount,
        "food_icons_unpaid": max(0, short - discount),
    }


def view(s: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: spectator) may see; keys = proto View fields."""
    viewer = -1 if seat is None else seat
    seats = [_seat_view(s, p, viewer) for p in range(s.players)]
    payment = _payment_view(s)
    acting = s.phase == PLAY and viewer == s.turn
    return {
        "players": s.players,
        "solo": s.players == 1,
        "difficulty": "DIFFICULTY_" + s.difficulty.upper(),
        "phase": PHASE_ENUM[s.phase],
        "step": STEP_ENUM[s.step],
        "to_act": to_act(s),
        "viewer_seat": viewer,
        "round": s.round,
        "first_player": s.first,
        "turn_seat": s.turn,
        "actions_left": s.actions_left,
        "deck_count": len(s.deck),
        "offer": [KEY[c] for c in s.offer],
        "discard_pile": [KEY[c] for c in s.discard],
        "seats": seats,
        "ai_column": [KEY[c] for c in s.ai],
        "ai_score": ai_points(s),
        "announcements": [
            {
                "seat": p,
                "card": KEY[c],
                "row": ROW_ENUM[r],
                "round": rnd,
                "text": f"Seat {p} played {NAME[c]} into {ROW_NAMES[r]}: {ABILITY_TEXT[c]}",
            }
            for p, c, r, rnd in s.announcements
        ],
        "payment": payment,
        "pending_discards": [KEY[c] for c in s.pend],
        "set_aside": KEY[s.set_aside] if s.set_aside >= 0 else "",
        "draft_picks_left": s.draft_left,
        "looked": [KEY[c] for c in s.look] if acting else [],
        "looked_count": len(s.look),
        "draft_packet": (
            [KEY[c] for c in s.packets[viewer]]
            if s.phase == DRAFT and 0 <= viewer < s.players
            else []
        ),
        "draft_pick": s.pick_no if s.phase == DRAFT else 0,
        "activating_row": ROW_ENUM[s.act_row] if s.act_row >= 0 else "ROW_UNSPECIFIED",
        "activation_queue": [KEY[c] for c in s.queue],
        "ability_card": KEY[s.ab_card] if s.ab_card >= 0 else "",
        "end_triggered": s.end_triggered,
        "final_turn_seat": s.end_after,
        "ended_early": s.ended_early,
        "game_over": s.phase == OVER,
    }
