"""Breeding and eggs: the Breed space action, How to Collect Eggs, the Egg marker."""

from __future__ import annotations

from . import data as D
from .aviary import nest_egg_type
from .state import GameState, Player, narea


def advance_egg(p: Player, amount: int) -> None:
    """How to Collect Eggs: move the Egg marker right (it stops at the last space)."""
    p.egg_marker = min(D.EGG_MAX, p.egg_marker + amount)


def collect_egg(st: GameState, p: Player, bird: int) -> None:
    """How to Collect Eggs: a new type takes a token, a known type moves the marker."""
    box = p.nest_box
    if not box[bird]:
        if st.egg_supply > 0:
            box[bird] = 1
            st.egg_supply -= 1
    else:
        advance_egg(p, 1)


def breed(st: GameState, p: Player) -> None:
    """Breed: every nest holding a breeding pair lays one egg."""
    for a in p.areas[: narea(p)]:
        if a.nest:
            egg = nest_egg_type(a.nest_birds)
            if egg >= 0:
                collect_egg(st, p, egg)


def can_breed(p: Player) -> bool:
    """Breed: the space action is offered only when some nest holds a breeding pair."""
    return any(a.nest and nest_egg_type(a.nest_birds) >= 0 for a in p.areas[: narea(p)])
