"""Birdscaping: an engine state built from a seat's view.

Face up, and copied exactly from the view: every tableau with its tilt, the
offer, the discard pile, the AI column, the payment, the pending discards, the
set-aside card, the activation queue, the announcements, and the seat's own
hand, draft packet and (while it acts) the cards it looks at. Hidden: the
deck, the other seat's hand and packet, and the cards another seat looks at.
:func:`build` fills those places, in the engine's order of hidden places, with
the cards the view does not show (sorted), and marks them all as one pool of
cards the seat cannot tell apart; the engine's ``determinize`` then redraws
them for each sample.

Approximations, both on the side of knowing less than the seat could: the
sampler forgets what the seat saw earlier and the view no longer shows (a card
the opponent drafted from the offer, the round a hidden card was shuffled
into), and a pending multi-step ability (the view does not say how many of its
steps are left) is taken to end after the current decision. Neither changes
the seat's legal actions now.
"""

from __future__ import annotations

from typing import Any

from clients.bots.search.ismcts import Settings
from services.birdscaping.rules import ENGINE
from services.birdscaping.rules.cards import FOODS, ID, N_CARDS, ROW_FROM_ENUM
from services.birdscaping.rules.state import PHASE_ENUM, PLAY, STEP_ENUM, State

#: Search settings tuned on this game: points come only when a card is played, a
#: few decisions after the choices that lead to it, so playouts run sixteen
#: decisions deep, each mover looking one ply ahead at eight of its actions.
SETTINGS = Settings(depth=16, sample=8, epsilon=0.1)

PHASES = {name: phase for phase, name in PHASE_ENUM.items()}
STEPS = {name: step for step, name in STEP_ENUM.items()}
#: The pool id given to every card the seat cannot see.
HIDDEN_POOL = 1


def _ids(keys: list[str]) -> list[int]:
    return [ID[k] for k in keys]


def _row(name: str) -> int:
    return ROW_FROM_ENUM.get(name, -1)


def _food(text: str) -> list[int]:
    """'seed+insect' -> [1, 1, 0] (the inverse of ``cards.food_text``)."""
    parts = [] if text in ("", "nothing") else text.split("+")
    return [parts.count(food) for food in FOODS]


def _payment(payment: dict[str, Any]) -> list[int] | None:
    if not payment["card"]:
        return None
    return [
        ID[payment["card"]],
        _row(payment["row"]),
        payment["nesting_needed"],
        payment["nesting_paid"],
        *_food(payment["food_paid"]),
        payment["food_icons_waived"],
    ]


def build(view: dict[str, Any], seat: int) -> State:
    """An engine state that shows ``seat`` exactly ``view`` (see the module docstring)."""
    players = view["players"]
    s = State(players, view["difficulty"].removeprefix("DIFFICULTY_").lower(), 0)
    s.phase = PHASES[view["phase"]]
    s.step = STEPS[view["step"]]
    s.round = view["round"]
    s.first = view["first_player"]
    s.turn = view["turn_seat"]
    s.actions_left = view["actions_left"]
    s.offer = _ids(view["offer"])
    s.discard = _ids(view["discard_pile"])
    s.ai = _ids(view["ai_column"])
    seats = sorted(view["seats"], key=lambda v: v["seat"])
    s.rows = [
        [
            _ids([c["card"] for c in seat_view["tableau"][row]])
            for row in ("trees", "garden", "pond")
        ]
        for seat_view in seats
    ]
    for seat_view in seats:
        for row in ("trees", "garden", "pond"):
            for card in seat_view["tableau"][row]:
                s.tilt[ID[card["card"]]] = int(card["tilted"])
    s.picked = [int(v["draft_decided"]) for v in seats]
    s.pick_no = view["draft_pick"]
    s.pay = _payment(view["payment"])
    s.pend = _ids(view["pending_discards"])
    s.set_aside = ID[view["set_aside"]] if view["set_aside"] else -1
    s.draft_left = view["draft_picks_left"]
    s.queue = _ids(view["activation_queue"])
    s.act_row = _row(view["activating_row"])
    s.ab_card = ID[view["ability_card"]] if view["ability_card"] else -1
    s.ab_left = 1 if s.ab_card >= 0 else 0
    s.end_triggered = view["end_triggered"]
    s.end_after = view["final_turn_seat"]
    s.ended_early = view["ended_early"]
    s.announcements = [
        [a["seat"], ID[a["card"]], _row(a["row"]), a["round"]] for a in view["announcements"]
    ]
    acting = s.phase == PLAY and seat == s.turn
    own = seats[seat]
    # Hidden places are filled in the engine's order (hidden.hidden_places):
    # the deck, then each other seat's hand and packet, then the cards looked at.
    s.hands = [_ids(own["hand"]) if p == seat else [] for p in range(players)]
    s.packets = [_ids(view["draft_packet"]) if p == seat else [] for p in range(players)]
    s.look = _ids(view["looked"]) if acting else []
    seen = _seen(s)
    unseen = [c for c in range(N_CARDS) if c not in seen]
    deal = iter(unseen)
    s.deck = [next(deal) for _ in range(view["deck_count"])]
    for p, seat_view in enumerate(seats):
        if p != seat:
            s.hands[p] = [next(deal) for _ in range(seat_view["hand_count"])]
            s.packets[p] = [next(deal) for _ in range(seat_view["draft_packet_count"])]
    if not acting:
        s.look = [next(deal) for _ in range(view["looked_count"])]
    knows = [0 if c in seen else HIDDEN_POOL for c in range(N_CARDS)]
    s.unseen = [knows.copy() for _ in range(players + 1)]
    return s


def _seen(s: State) -> set[int]:
    """The cards whose place the seat sees (everything filled in so far)."""
    seen = {*s.offer, *s.discard, *s.ai, *s.pend, *s.queue, *s.look}
    for rows in s.rows:
        for row in rows:
            seen.update(row)
    for cards in (*s.hands, *s.packets):
        seen.update(cards)
    if s.set_aside >= 0:
        seen.add(s.set_aside)
    if s.pay is not None:
        seen.add(s.pay[0])
    return seen


__all__ = ["ENGINE", "SETTINGS", "build"]
