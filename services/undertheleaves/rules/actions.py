"""The actions a seat may take, built once and shared, and the check of an
action's arguments (names and exact types, else ``BAD_ARGS``).

Actions are immutable, so every ``take_tile`` and ``place_tile`` action is
built once and kept in module tables with its arguments already checked
(cache ``actions`` in :mod:`caches`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from services.core.engine import Action, IllegalAction
from services.undertheleaves.rules.board import XS, YS, block
from services.undertheleaves.rules.caches import KEPT
from services.undertheleaves.rules.catalogue import CARDS
from services.undertheleaves.rules.dwellers import Placement

TAKE_TILE_ARGS: Mapping[str, type] = {"slot": int}
PLACE_TILE_ARGS: Mapping[str, type] = {"x": int, "y": int, "rotation": int, "flipped": bool}
PLACE_DWELLER_ARGS: Mapping[str, type] = {"card": str, "x": int, "y": int}

#: id of an action built here -> (that action, its args as a dict): already checked.
_CHECKED: dict[int, tuple[Action, dict[str, Any]]] = {}
#: (slot, tile) -> the take_tile action.
_TAKE_ACTIONS: dict[tuple[int, str], Action] = {}
#: Offered orientations -> tile position -> its place_tile actions, in order.
_PLACE_ACTIONS: dict[tuple[tuple[int, bool], ...], dict[tuple[int, int], tuple[Action, ...]]] = {}


def checked_args(action: Action, spec: Mapping[str, type]) -> dict[str, Any]:
    """The action's args checked against ``spec`` (names and exact types), or BAD_ARGS."""
    if KEPT["actions"]:
        known = _CHECKED.get(id(action))
        if known is not None and known[0] is action:
            return known[1]  # built here: a take_tile or place_tile action (its kind was checked)
    args = dict(action.args)
    if len(args) != len(action.args) or args.keys() != spec.keys():
        raise IllegalAction("BAD_ARGS", f"{action.kind} takes {', '.join(spec)}")
    for name, kind in spec.items():
        if type(args[name]) is not kind:
            raise IllegalAction("BAD_ARGS", f"{name} must be {kind.__name__}")
    return args


def take_tile_action(slot: int, tile: str) -> Action:
    """Taking the tile in market slot ``slot`` (built once per slot and tile)."""
    action = _TAKE_ACTIONS.get((slot, tile)) if KEPT["actions"] else None
    if action is None:
        action = Action("take_tile", (("slot", slot),), f"Take {tile} (slot {slot})")
        if KEPT["actions"]:
            _TAKE_ACTIONS[(slot, tile)] = action
            _CHECKED[id(action)] = (action, dict(action.args))
    return action


def place_tile_actions(
    orientations: tuple[tuple[int, bool], ...], positions: list[tuple[int, int]]
) -> list[Action]:
    """The place_tile actions at each of ``positions``, one per offered
    orientation, position by position (each built once)."""
    if not KEPT["actions"]:
        return [a for x, y in positions for a in _build_place_tile_actions(orientations, x, y)]
    table = _PLACE_ACTIONS.get(orientations)
    if table is None:
        table = _PLACE_ACTIONS[orientations] = {}
    actions: list[Action] = []
    for x, y in positions:
        at = table.get((x, y))
        if at is None:
            at = table[(x, y)] = _build_place_tile_actions(orientations, x, y)
            for action in at:
                _CHECKED[id(action)] = (action, dict(action.args))
        actions += at
    return actions


def _build_place_tile_actions(
    orientations: tuple[tuple[int, bool], ...], x: int, y: int
) -> tuple[Action, ...]:
    return tuple(
        Action(
            "place_tile",
            (("x", x), ("y", y), ("rotation", rotation), ("flipped", flipped)),
            f"Place at ({x}, {y}), rotated {rotation}°" + (", flipped" if flipped else ""),
        )
        for rotation, flipped in orientations
    )


def place_dweller_action(card: str, placement: Placement) -> Action:
    """Placing ``card``'s piece at ``placement`` (drawn on its anchor cell; a 2×2
    block is named by its corners)."""
    x, y = XS[placement.anchor], YS[placement.anchor]
    where = f"({x}, {y})"
    if len(placement.cells) == 4 and placement.cells == block(placement.anchor):
        where = f"the square ({x}, {y})-({x + 1}, {y + 1})"
    return Action(
        "place_dweller",
        (("card", card), ("x", x), ("y", y)),
        f"{CARDS[card].name} on {where}",
    )
