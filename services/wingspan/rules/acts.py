"""Prebuilt :class:`Action` objects.

Almost every action the engine ever lists is built once here (at import) or
memoised on first use, so legal generation only collects references.
"""

from __future__ import annotations

from itertools import combinations

from services.core.engine.contract import Action

from .cards import (
    BONUS_NAME,
    DUAL,
    FACE_ENUM,
    FOOD_ENUM,
    FOOD_NAMES,
    HAB_ENUM,
    HAB_NAMES,
    NAME,
    NB,
    NBONUS,
)


def _a(kind: str, args: tuple = (), label: str = "", secret: bool = False, public: str = ""):
    return Action(kind, args, label, secret, public)


PLAY = tuple(
    tuple(
        _a(
            "play_bird",
            (("bird", b), ("habitat", HAB_ENUM[h])),
            f"Play {NAME[b]} in your {HAB_NAMES[h]}",
        )
        for h in range(3)
    )
    for b in range(NB)
)
TAKE_ACTION = (
    _a("take_action", (("habitat", HAB_ENUM[0]),), "Gain food (forest)"),
    _a("take_action", (("habitat", HAB_ENUM[1]),), "Lay eggs (grassland)"),
    _a("take_action", (("habitat", HAB_ENUM[2]),), "Draw cards (wetland)"),
)
DECLINE = _a("decline", (), "Decline")
LAY = tuple(_a("lay_egg", (("bird", b),), f"Lay an egg on {NAME[b]}") for b in range(NB))
PAY_EGG = tuple(_a("pay_egg", (("bird", b),), f"Remove an egg from {NAME[b]}") for b in range(NB))
REROLL = _a("reroll_feeder", (), "Reroll all five feeder dice")
DRAW_TRAY = tuple(
    _a("draw_from_tray", (("bird", b),), f"Take {NAME[b]} from the tray") for b in range(NB)
)
DRAW_DECK = _a("draw_from_deck", (), "Draw the top card of the deck")
DISCARD_CARD = tuple(
    _a("discard_card", (("bird", b),), f"Discard {NAME[b]} from your hand", True, "Discard a card")
    for b in range(NB)
)
DISCARD_FOOD = tuple(
    _a("discard_food", (("food", FOOD_ENUM[f]),), f"Return 1 {FOOD_NAMES[f]} to the supply")
    for f in range(5)
)
CHOOSE_FOOD = tuple(
    _a("choose_food", (("food", FOOD_ENUM[f]),), f"Take 1 {FOOD_NAMES[f]} from the supply")
    for f in range(5)
)
TRADE = tuple(
    tuple(
        _a(
            "trade_food",
            (("give", FOOD_ENUM[g]), ("take", FOOD_ENUM[t])),
            f"Trade 1 {FOOD_NAMES[g]} for 1 {FOOD_NAMES[t]}",
        )
        for t in range(5)
    )
    for g in range(5)
)
USE = tuple(_a("use_power", (("bird", b),), f"Use the power of {NAME[b]}") for b in range(NB))
MOVE = tuple(
    tuple(
        _a(
            "move_bird",
            (("bird", b), ("habitat", HAB_ENUM[h])),
            f"Move {NAME[b]} to your {HAB_NAMES[h]}",
        )
        for h in range(3)
    )
    for b in range(NB)
)
REPEAT = tuple(
    _a("repeat_power", (("bird", b),), f"Repeat the power of {NAME[b]}") for b in range(NB)
)
CHOOSE_PLAYER = tuple(_a("choose_player", (("seat", p),), f"Start with seat {p}") for p in range(5))
DRAFT = tuple(_a("draft_card", (("bird", b),), f"Take {NAME[b]}") for b in range(NB))
KEEP_BONUS = tuple(
    _a("keep_bonus", (("bonus", k),), f"Keep bonus card {BONUS_NAME[k]}", True, "Keep a bonus card")
    for k in range(NBONUS)
)

# take_die actions: TAKE_DIE[face][food][cache]
_FACE_LABEL = ("invertebrate", "seed", "fish", "fruit", "rodent", "invertebrate/seed")


def _take_die(face: int, food: int, cache: bool) -> Action:
    where = "" if face != DUAL else " (invertebrate/seed die)"
    label = f"Take {FOOD_NAMES[food]} from the feeder{where}"
    if cache:
        label += " and cache it on this bird"
    return _a(
        "take_die", (("face", FACE_ENUM[face]), ("food", FOOD_ENUM[food]), ("cache", cache)), label
    )


TAKE_DIE = tuple(
    tuple(
        (_take_die(face, food, False), _take_die(face, food, True))
        if (face == food or (face == DUAL and food < 2))
        else (None, None)
        for food in range(5)
    )
    for face in range(6)
)

# ---------------------------------------------------------------- memoised ones
_TUCK: dict[int, Action] = {}


def tuck(card: int, target: int) -> Action:
    """Tuck ``card`` from hand behind ``target``."""
    key = card * 256 + target
    a = _TUCK.get(key)
    if a is None:
        a = _a(
            "tuck_card",
            (("bird", card),),
            f"Tuck {NAME[card]} behind {NAME[target]}",
            True,
            f"Tuck a card behind {NAME[target]}",
        )
        _TUCK[key] = a
    return a


_GAIN_ALL: dict[int, Action] = {}


def gain_all(b: int, food: int) -> Action:
    """Use ``b``'s "gain all [food] in the birdfeeder" power on the feeder as it
    is (the alternative being ``reroll_feeder`` first)."""
    a = _GAIN_ALL.get(b)
    if a is None:
        a = _a("use_power", (("bird", b),), f"Gain all {FOOD_NAMES[food]} in the birdfeeder")
        _GAIN_ALL[b] = a
    return a


_PAY_FOOD: dict[tuple[int, ...], Action] = {}


def pay_food(counts: tuple[int, ...]) -> Action:
    """Pay the given counts of the five foods."""
    a = _PAY_FOOD.get(counts)
    if a is None:
        parts = [f"{c} {FOOD_NAMES[f]}" for f, c in enumerate(counts) if c]
        a = _a(
            "pay_food",
            tuple(zip(FOOD_NAMES, counts, strict=True)),
            "Pay " + ", ".join(parts) if parts else "Pay nothing",
        )
        _PAY_FOOD[counts] = a
    return a


_KEEP_BIRDS: dict[tuple[int, ...], Action] = {}


def keep_birds(birds: tuple[int, ...]) -> Action:
    """Setup: keep exactly these dealt birds (sorted tuple)."""
    a = _KEEP_BIRDS.get(birds)
    if a is None:
        names = ", ".join(NAME[b] for b in birds) or "no birds"
        a = _a(
            "keep_birds",
            (("birds", birds),),
            f"Keep {names}",
            True,
            "Choose starting birds",
        )
        _KEEP_BIRDS[birds] = a
    return a


_KEEP_FOOD: dict[tuple[int, ...], Action] = {}


def keep_food(foods: tuple[int, ...]) -> Action:
    """Setup: keep one token of each of these foods (sorted tuple of indices)."""
    a = _KEEP_FOOD.get(foods)
    if a is None:
        names = ", ".join(FOOD_NAMES[f] for f in foods) or "no food"
        a = _a(
            "keep_food",
            (("foods", tuple(FOOD_ENUM[f] for f in foods)),),
            f"Keep {names}",
            True,
            "Choose starting food",
        )
        _KEEP_FOOD[foods] = a
    return a


def subsets(items: list[int]) -> list[tuple[int, ...]]:
    """Every subset of ``items`` as sorted tuples, smallest first."""
    out: list[tuple[int, ...]] = []
    ordered = sorted(items)
    for k in range(len(ordered) + 1):
        out.extend(combinations(ordered, k))
    return out
