"""Prebuilt :class:`Action` values (built once at import, reused by ``legal``)."""

from __future__ import annotations

from services.core.engine import Action

from . import data as D
from .caches import KEPT

AREAS = range(D.NAREA + 1)


def area_label(area: int) -> str:
    """Human name of an area index."""
    return "Additional Area" if area == D.AX else f"area {D.AREA_IDS[area]}"


def _chip_text(code: int) -> str:
    if code < D.BLUE_BASE:
        return f"{D.BIRD_NAME[code]} chip"
    if code < D.ORANGE_BASE:
        return "Advertisement/Special Bird chip"
    birds = " or ".join(D.BIRD_NAME[b] for b in D.ORANGE[code - D.ORANGE_BASE])
    return f"Round chip ({birds})"


_MOVE_CACHE: dict[tuple[int, int], Action] = {}


def move_owner(space: int, code: int) -> Action:
    """Move the Owner token to ``space`` (label names the chip there)."""
    key = (space, code)
    action = _MOVE_CACHE.get(key) if KEPT["actions"] else None
    if action is None:
        label = f"Move Owner token to space {space} ({_chip_text(code)})"
        action = Action("move_owner", (("space", space),), label)
        if KEPT["actions"]:
            _MOVE_CACHE[key] = action
    return action


ENTER_STANDBY = Action("enter_standby", (), "Move Owner token to the Standby track")
CHOOSE_BIRD = tuple(
    Action("choose_chip_bird", (("bird", D.BIRDS[b]),), f"Take a {D.BIRD_NAME[b]} from the supply")
    for b in range(D.NB)
)


def _emp_label(steps: int) -> str:
    extra = sum(D.EMP_EXTRA[: max(0, steps - D.EMP_MAX)])
    cost = f" (pay {extra})" if extra else ""
    return f"Move Employee {steps} space{'s' if steps > 1 else ''}{cost}"


MOVE_EMPLOYEE = {
    s: Action("move_employee", (("steps", s),), _emp_label(s))
    for s in range(D.EMP_MIN, D.EMP_MAX_TOTAL + 1)
}
PLACE_BIRD = tuple(
    Action("place_bird", (("area", a),), f"Place the bird in {area_label(a)}") for a in AREAS
)
RELEASE_BIRD = Action("release_bird", (), "Put the bird on the Forest board")
BUY_NEST = tuple(
    Action("buy_nest", (("area", a),), f"Buy a Nest tile for {area_label(a)} ({D.COST_NEST} funds)")
    for a in AREAS
)
BUY_TREE = tuple(
    Action("buy_tree", (("area", a),), f"Buy a tree for {area_label(a)} ({D.COST_TREE} funds)")
    for a in AREAS
)
BUY_LAKE = tuple(
    Action("buy_lake", (("area", a),), f"Uncover the lake of {area_label(a)} ({D.COST_LAKE} funds)")
    for a in AREAS
)
BUY_FOREST_BIRD = tuple(
    tuple(
        Action(
            "buy_forest_bird",
            (("bird", D.BIRDS[b]), ("area", a)),
            f"Buy a {D.BIRD_NAME[b]} from the Forest for {area_label(a)} ({D.COST_FBIRD} funds)",
        )
        for a in AREAS
    )
    for b in range(D.NB)
)
BUY_AX = {
    side: Action(
        "buy_additional_area",
        (("side", side),),
        f"Buy the Additional Area, {side} side ({D.COST_AX} funds)",
    )
    for side in D.AX_SIDES
}

_SPECIAL_CACHE: dict[tuple[int, int, int], Action] = {}


def buy_special(bird: int, area: int, cost: int) -> Action:
    """Buy a Special Bird token from its card for ``cost`` and place it."""
    key = (bird, area, cost)
    action = _SPECIAL_CACHE.get(key) if KEPT["actions"] else None
    if action is None:
        action = Action(
            "buy_special",
            (("bird", D.BIRDS[bird]), ("area", area)),
            f"Buy a {D.BIRD_NAME[bird]} for {cost} funds into {area_label(area)}",
        )
        if KEPT["actions"]:
            _SPECIAL_CACHE[key] = action
    return action


def advertise(ad: int, gain: int) -> Action:
    """Use an advertisement (label shows the funds gained)."""
    return Action(
        "advertise", (("ad", D.AD_IDS[ad]),), f"{D.AD_NAME[ad]} advertisement (+{gain} funds)"
    )


BREED = Action("breed", (), "Breed")

_CLAIM_CACHE: dict[tuple[int, int], Action] = {}


def claim_milestone(slot: int, tile: int) -> Action:
    """Achieve the milestone tile in birdcage ``slot``."""
    key = (slot, tile)
    action = _CLAIM_CACHE.get(key) if KEPT["actions"] else None
    if action is None:
        action = Action(
            "claim_milestone",
            (("slot", slot),),
            f"Achieve milestone {D.TILE_IDS[tile]} ({D.TILE_TEXT[tile]}) in slot {slot + 1}",
        )
        if KEPT["actions"]:
            _CLAIM_CACHE[key] = action
    return action


BIRD_TO_FOREST = tuple(
    tuple(
        Action(
            "bird_to_forest",
            (("area", a), ("bird", D.BIRDS[b])),
            f"Move a {D.BIRD_NAME[b]} from {area_label(a)} to the Forest",
        )
        for b in range(D.NB)
    )
    for a in AREAS
)
TREE_TO_FOREST = tuple(
    Action("tree_to_forest", (("area", a),), f"Move the tree of {area_label(a)} to the Forest")
    for a in AREAS
)
REFILL_LAKE = tuple(
    Action("refill_lake", (("area", a),), f"Refill the lake of {area_label(a)}") for a in AREAS
)
NEST_ADD = tuple(
    tuple(
        Action(
            "nest_add",
            (("area", a), ("bird", D.BIRDS[b])),
            f"Put a {D.BIRD_NAME[b]} on the Nest in {area_label(a)}",
        )
        for b in range(D.NB)
    )
    for a in AREAS
)
NEST_REMOVE = tuple(
    tuple(
        Action(
            "nest_remove",
            (("area", a), ("bird", D.BIRDS[b])),
            f"Take a {D.BIRD_NAME[b]} off the Nest in {area_label(a)}",
        )
        for b in range(D.NB)
    )
    for a in AREAS
)
BONUS_BIRD = tuple(
    tuple(
        Action(
            "bonus_bird",
            (("bird", D.BIRDS[b]), ("area", a)),
            f"Take the bonus {D.BIRD_NAME[b]} into {area_label(a)}",
        )
        for a in AREAS
    )
    for b in range(D.NB)
)
BONUS_ELEMENT = {
    e: tuple(
        Action(
            "bonus_element",
            (("element", e), ("area", a)),
            f"Bonus: {'uncover the lake' if e == 'lake' else 'a ' + e} in {area_label(a)}",
        )
        for a in AREAS
    )
    for e in D.ELEMENTS
}
BONUS_EGG = tuple(
    Action("bonus_egg", (("bird", D.BIRDS[b]),), f"Bonus egg on the {D.BIRD_NAME[b]} icon")
    for b in range(D.NB)
)
SKIP_BONUS = Action("skip_bonus", (), "Forgo this bonus")
END_TURN = Action("end_turn", (), "End turn")

_KEEP_CACHE: dict[tuple[int, int], Action] = {}


def keep_event(seat: int, card: int) -> Action:
    """Secretly keep Event card ``card`` (the other dealt card goes back to the box)."""
    key = (seat, card)
    action = _KEEP_CACHE.get(key) if KEPT["actions"] else None
    if action is None:
        names = " + ".join(D.BIRD_NAME[b] for b in D.EVENT_BIRDS[card])
        action = Action(
            "keep_event",
            (("card", D.EVENT_IDS[card]),),
            f"Keep Event card {D.EVENT_IDS[card]} ({names})",
            secret=True,
            public_label=f"Seat {seat} kept an Event card",
        )
        if KEPT["actions"]:
            _KEEP_CACHE[key] = action
    return action


#: Every action kind (the proto ``Action`` oneof fields), in rulebook order.
KINDS = (
    "keep_event",
    "move_owner",
    "enter_standby",
    "choose_chip_bird",
    "move_employee",
    "place_bird",
    "release_bird",
    "buy_nest",
    "buy_tree",
    "buy_lake",
    "buy_forest_bird",
    "buy_additional_area",
    "advertise",
    "buy_special",
    "breed",
    "claim_milestone",
    "bird_to_forest",
    "tree_to_forest",
    "refill_lake",
    "nest_add",
    "nest_remove",
    "bonus_bird",
    "bonus_element",
    "bonus_egg",
    "skip_bonus",
    "end_turn",
)
