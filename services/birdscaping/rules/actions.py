"""Every Birdscaping action object, built once at import (legal lists reuse them).

Action kinds are the snake_case fields of the ``Action`` oneof in
``protos/roost/birdscaping/v1/types.proto``; card arguments are card keys
(``"robin"``), rows and areas are enum value names (``"ROW_TREES"``).
"""

from __future__ import annotations

from services.birdscaping.rules.cards import (
    CURIOUS,
    FOOD,
    ID,
    KEY,
    N_CARDS,
    NAME,
    ROW_ENUM,
    ROW_FROM_ENUM,
    ROW_NAMES,
    SCORING_ROWS,
    food_text,
)
from services.core.engine import Action

MAX_YIELD = 6
_CARDS = range(N_CARDS)


def card_arg(action: Action) -> int:
    """The card an action names (its ``card`` argument, a card key), as a card index."""
    return ID[action.arg("card")]  # type: ignore[index]


def row_arg(action: Action) -> int:
    """The Feature Row an action names (its ``row`` argument, a ``Row`` name), as an index."""
    return ROW_FROM_ENUM[action.arg("row")]  # type: ignore[index]


def area_arg(action: Action) -> str:
    """What a discarded card pays for (its ``area`` argument): "AREA_NESTING" or "AREA_FOOD"."""
    return action.arg("area")  # type: ignore[return-value]


def _card(kind: str, card: int, label: str, secret: bool = False, public: str = "") -> Action:
    return Action(kind, (("card", KEY[card]),), label, secret, public)


DRAFT_KEEP = tuple(
    tuple(
        _card("draft_keep", c, f"Keep {NAME[c]}", True, f"Seat {seat} kept a card") for c in _CARDS
    )
    for seat in range(2)
)
SOLO_GIVE = tuple(
    _card("solo_give", c, f"Give {NAME[c]} to the AI column (keep the other 3)") for c in _CARDS
)
ACTIVATE = tuple(
    Action("activate_row", (("row", ROW_ENUM[r]),), f"Activate the {ROW_NAMES[r]} row")
    for r in range(3)
)


def _play_label(c: int, r: int, column: int, announce: bool) -> str:
    text = f"Play {NAME[c]} into {ROW_NAMES[r]}, column {column}"
    if announce:
        text += " (announced: Scoring ability)"
    return text


#: PLAY[solo][card][row][column-1]
PLAY = tuple(
    tuple(
        tuple(
            tuple(
                Action(
                    "play_card",
                    (("card", KEY[c]), ("row", ROW_ENUM[r])),
                    _play_label(c, r, col, (not solo) and r in SCORING_ROWS[c]),
                )
                for col in range(1, 5)
            )
            for r in range(3)
        )
        for c in _CARDS
    )
    for solo in (0, 1)
)
#: PAY_NEST[card][yield]
PAY_NEST = tuple(
    tuple(
        Action(
            "pay_discard",
            (("card", KEY[c]), ("area", "AREA_NESTING")),
            f"Discard {NAME[c]} for {y} nesting area{'s' if y != 1 else ''}",
        )
        for y in range(MAX_YIELD)
    )
    for c in _CARDS
)
PAY_FOOD = tuple(
    Action(
        "pay_discard",
        (("card", KEY[c]), ("area", "AREA_FOOD")),
        f"Discard {NAME[c]} for food ({food_text(FOOD[c])})",
    )
    for c in _CARDS
)
#: SPEND_NEST[card][yield] (Trees row), SPEND_FOOD[card] (Garden row)
SPEND_NEST = tuple(
    tuple(
        _card("pay_spend", c, f"Spend {NAME[c]} for {y} nesting area{'s' if y != 1 else ''}")
        for y in range(MAX_YIELD)
    )
    for c in _CARDS
)
SPEND_FOOD = tuple(
    _card("pay_spend", c, f"Spend {NAME[c]} for food ({food_text(FOOD[c])})") for c in _CARDS
)
ORDER = tuple(_card("order_discard", c, f"Put {NAME[c]} on the discard pile next") for c in _CARDS)
DRAFT_DISCARD = tuple(
    _card(
        "draft_discard",
        c,
        f"Draft: discard {NAME[c]} for {CURIOUS[c]} curious bird{'s' if CURIOUS[c] != 1 else ''}",
    )
    for c in _CARDS
)
#: DRAFT_SPEND[card][yield]
DRAFT_SPEND = tuple(
    tuple(
        _card(
            "draft_spend",
            c,
            f"Draft: spend {NAME[c]} for {y} curious bird{'s' if y != 1 else ''}",
        )
        for y in range(MAX_YIELD)
    )
    for c in _CARDS
)
DRAFT_SPEND_DONE = Action("draft_spend_done", (), "Stop spending Pond cards and draft")
DRAFT_OFFER = tuple(_card("draft_from_offer", c, f"Draft {NAME[c]} from the offer") for c in _CARDS)
DRAFT_DISCARD_TOP = tuple(
    _card("draft_from_discard", c, f"Draft {NAME[c]} from the top of the discard pile")
    for c in _CARDS
)
DRAFT_DECK = Action("draft_from_deck", (), "Draft the top card of the deck")
DRAFT_STOP = Action("draft_stop", (), "Stop drafting")
UNTILT = tuple(_card("untilt", c, f"Untilt {NAME[c]}") for c in _CARDS)
DRAW = Action("draw_card", (), "Draw the top card of the deck")
FORFEIT = Action("forfeit_action", (), "No action is possible: this action is lost")
ABILITY_KEEP = tuple(
    tuple(
        _card(
            "ability_keep",
            c,
            f"Keep {NAME[c]} (the rest goes face up to the discard pile)",
            True,
            f"Seat {seat} kept one of the cards looked at",
        )
        for c in _CARDS
    )
    for seat in range(2)
)
ABILITY_TILT = tuple(_card("ability_tilt", c, f"Tilt {NAME[c]}") for c in _CARDS)
ABILITY_TAKE_OFFER = tuple(
    _card("ability_take_offer", c, f"Take {NAME[c]} from the offer") for c in _CARDS
)
ABILITY_DISCARD = tuple(_card("ability_discard", c, f"Discard {NAME[c]}") for c in _CARDS)
OPPONENT_UNTILT = tuple(
    _card("opponent_untilt", c, f"Untilt your {NAME[c]} (Sparrowhawk)") for c in _CARDS
)
HAND_LIMIT_DISCARD = tuple(
    _card("hand_limit_discard", c, f"Discard {NAME[c]} (hand limit)") for c in _CARDS
)

#: Every action kind (the oneof field names of the proto Action message).
KINDS = (
    "draft_keep",
    "solo_give",
    "activate_row",
    "play_card",
    "pay_discard",
    "pay_spend",
    "order_discard",
    "draft_discard",
    "draft_spend",
    "draft_spend_done",
    "draft_from_offer",
    "draft_from_discard",
    "draft_from_deck",
    "draft_stop",
    "untilt",
    "draw_card",
    "forfeit_action",
    "ability_keep",
    "ability_tilt",
    "ability_take_offer",
    "ability_discard",
    "opponent_untilt",
    "hand_limit_discard",
)
