"""Birdscaping card and rule tables, loaded once from ``data/`` at import.

Cards are integers ``0..17`` (their order in ``cards.json``); every table here
is a tuple indexed by that id. Rows are ``0`` trees, ``1`` garden, ``2`` pond;
food types are ``0`` seed, ``1`` insect, ``2`` fruit (bit ``1 << type`` in masks).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_DATA = Path(__file__).resolve().parent / "data"


def _load(name: str) -> Any:
    with (_DATA / name).open(encoding="utf-8") as handle:
        return json.load(handle)


RAW_CARDS: dict[str, Any] = _load("cards.json")
PARAMS: dict[str, Any] = _load("rules_params.json")

ROWS = ("trees", "garden", "pond")
ROW_NAMES = ("Trees", "Garden", "Pond")
ROW_ENUM = ("ROW_TREES", "ROW_GARDEN", "ROW_POND")
ROW_FROM_ENUM = {name: i for i, name in enumerate(ROW_ENUM)}
TREES, GARDEN, POND = 0, 1, 2
FOODS = ("seed", "insect", "fruit")
_FOOD_INDEX = {name: i for i, name in enumerate(FOODS)}

# ---------------------------------------------------------------- rule constants
DEAL_EACH: int = PARAMS["initial_draft"]["deal_each"]
OFFER_SIZE: int = PARAMS["offer_size"]["value"]
MAX_ROW: int = PARAMS["rows"]["max_cards_per_row"]
ACTIONS_PER_TURN: int = PARAMS["actions_per_turn"]["value"]
HAND_LIMIT: int = PARAMS["hand_limit_end_of_turn"]["value"]
ROUNDS: int = PARAMS["rounds"]["value"]
MIN_CARDS_NEW_ROUND: int = PARAMS["round_end"]["round4_min_cards"]
SOLO_GIFTS: dict[int, int] = {
    int(k): int(v) for k, v in PARAMS["solo"]["ai_gets_cards_start_of_round"].items()
}
SOLO_KEEP = 3  # solo setup: "Draw the top 4 cards, choose 3 to keep" (rulebook, Solo Mode)

# ---------------------------------------------------------------- card tables
_CARDS: list[dict[str, Any]] = RAW_CARDS["cards"]
N_CARDS = len(_CARDS)
KEY: tuple[str, ...] = tuple(c["id"] for c in _CARDS)
NAME: tuple[str, ...] = tuple(c["name"] for c in _CARDS)
ID: dict[str, int] = {key: i for i, key in enumerate(KEY)}
POINTS: tuple[int, ...] = tuple(int(c["points"]) for c in _CARDS)
ALLOWED: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(3) if ROWS[r] in c["rows_allowed"]) for c in _CARDS
)
NEST: tuple[int, ...] = tuple(int(c["improvements"]["nesting"]) for c in _CARDS)
CURIOUS: tuple[int, ...] = tuple(int(c["improvements"]["curious"]) for c in _CARDS)


def _food_counts(icons: list[str]) -> tuple[int, int, int]:
    counts = [0, 0, 0]
    for icon in icons:
        counts[_FOOD_INDEX[icon]] += 1
    return counts[0], counts[1], counts[2]


FOOD: tuple[tuple[int, int, int], ...] = tuple(
    _food_counts(c["improvements"]["food"]) for c in _CARDS
)
FOOD_N: tuple[int, ...] = tuple(sum(f) for f in FOOD)


def _icon_mask(alternatives: list[str]) -> int:
    mask = 0
    for name in alternatives:
        mask |= 1 << _FOOD_INDEX[name]
    return mask


COST_MASKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_icon_mask(icon) for icon in c["food_cost"]) for c in _CARDS
)
N_ICONS: tuple[int, ...] = tuple(len(m) for m in COST_MASKS)


def _cost_terms(masks: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Hall terms: for each food-type set T, the number of icons payable only from T."""
    terms = []
    for t in range(1, 8):
        count = sum(1 for m in masks if m & ~t == 0)
        if count:
            terms.append((t, count))
    return tuple(terms)


COST_TERMS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_cost_terms(m) for m in COST_MASKS)


def food_short(terms: tuple[tuple[int, int], ...], s: int, i: int, f: int) -> int:
    """Icons of a cost that the food ``(s, i, f)`` cannot pay (Hall deficiency).

    Max matching of icons to food units = icons - max_T(icons within T - units of T).
    """
    short = 0
    for t, count in terms:
        d = count - ((s if t & 1 else 0) + (i if t & 2 else 0) + (f if t & 4 else 0))
        if d > short:
            short = d
    return short


def food_text(counts: tuple[int, int, int]) -> str:
    """'seed+insect' style text for food counts ('nothing' if empty)."""
    parts = [FOODS[t] for t in range(3) for _ in range(counts[t])]
    return "+".join(parts) if parts else "nothing"


def cost_text(card: int) -> str:
    """The food cost as printed: icons joined by '+', alternatives by '/'."""
    return " + ".join("/".join(alts) for alts in _CARDS[card]["food_cost"])


# ---------------------------------------------------------------- abilities
ABILITY_TYPE: tuple[str, ...] = tuple(c["ability"]["type"] for c in _CARDS)
ANNOUNCE: tuple[bool, ...] = tuple(bool(c["ability"].get("announce")) for c in _CARDS)
ABILITY_TEXT: tuple[str, ...] = tuple(c["ability"]["text"] for c in _CARDS)
EFFECT: tuple[dict[str, Any], ...] = tuple(c["ability"]["effect"] for c in _CARDS)
OP: tuple[str, ...] = tuple(e["op"] for e in EFFECT)

WHEN_ACTIVATED_OPS = frozenset(
    {
        "draw_deck",
        "look_keep",
        "take_discard_top",
        "tilt_other",
        "draft_offer",
        "opponent_untilt",
        "draw_then_discard",
    }
)
SCORING_OPS = frozenset(
    {
        "score_per_card_in_row",
        "score_if_untilted",
        "score_if_all_rows_nonempty",
        "score_per_card_in_row_with_food",
        "score_if_row_full",
    }
)
ONGOING_OPS = frozenset(
    {
        "bonus_nesting",
        "self_nesting_cost",
        "food_discount",
        "hand_limit_delta",
        "bonus_curious",
    }
)
_TYPE_OPS = {
    "when_activated": WHEN_ACTIVATED_OPS,
    "scoring": SCORING_OPS,
    "ongoing": ONGOING_OPS,
}
for _card in range(N_CARDS):
    if OP[_card] not in _TYPE_OPS[ABILITY_TYPE[_card]]:
        raise ValueError(f"card {KEY[_card]}: unknown effect op {OP[_card]!r}")

#: When Activated op per card ('' for other ability types).
WA_OP: tuple[str, ...] = tuple(
    OP[c] if ABILITY_TYPE[c] == "when_activated" else "" for c in range(N_CARDS)
)
SCORING: tuple[bool, ...] = tuple(ABILITY_TYPE[c] == "scoring" for c in range(N_CARDS))


def _scoring_rows(card: int) -> tuple[int, ...]:
    """Rows in which a Scoring ability can score (announced when played there)."""
    effect = EFFECT[card]
    need = effect.get("requires_self_in")
    if need:
        return (ROWS.index(need),)
    return ALLOWED[card]


SCORING_ROWS: tuple[tuple[int, ...], ...] = tuple(
    _scoring_rows(c) if SCORING[c] else () for c in range(N_CARDS)
)

#: Cards that can never be spent (Cuckoo: effect.also == "cannot_be_spent").
NO_SPEND: frozenset[int] = frozenset(
    c for c in range(N_CARDS) if EFFECT[c].get("also") == "cannot_be_spent"
)
#: Hand-limit deltas of Ongoing cards in the owner's tableau.
HAND_DELTA: dict[int, int] = {
    c: int(EFFECT[c]["delta"]) for c in range(N_CARDS) if OP[c] == "hand_limit_delta"
}
#: Cards whose own nesting cost is replaced (House Sparrow -> 0).
SELF_NEST_COST: dict[int, int] = {
    c: int(EFFECT[c]["value"]) for c in range(N_CARDS) if OP[c] == "self_nesting_cost"
}
#: Nesting bonus: card -> (amount, card required in the own tableau) (Nuthatch).
BONUS_NEST: dict[int, tuple[int, int]] = {
    c: (int(EFFECT[c]["amount"]), ID[EFFECT[c]["requires_in_own_tableau"]])
    for c in range(N_CARDS)
    if OP[c] == "bonus_nesting"
}
#: Curious bonus when spent: card -> (amount, row, min cards in that row) (Mallard).
BONUS_CURIOUS: dict[int, tuple[int, int, int]] = {
    c: (
        int(EFFECT[c]["amount"]),
        ROWS.index(EFFECT[c]["requires_row_count"]["row"]),
        int(EFFECT[c]["requires_row_count"]["min"]),
    )
    for c in range(N_CARDS)
    if OP[c] == "bonus_curious"
}
#: Food discounts: card -> (row played into, icons, exclude self) (Eurasian Jay).
FOOD_DISCOUNT: dict[int, tuple[int, int, bool]] = {
    c: (
        ROWS.index(EFFECT[c]["row"]),
        int(EFFECT[c]["icons"]),
        bool(EFFECT[c].get("exclude_self")),
    )
    for c in range(N_CARDS)
    if OP[c] == "food_discount"
}
#: Abilities that affect the opponent (ignored in solo).
AFFECTS_OPPONENT: tuple[bool, ...] = tuple(
    bool(EFFECT[c].get("affects_opponent")) for c in range(N_CARDS)
)
