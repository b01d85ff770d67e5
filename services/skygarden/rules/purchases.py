"""Additional Purchases on a green or orange turn: nests, trees, lakes, a Forest bird,
the Additional Area Tile (AMBIGUITIES 14)."""

from __future__ import annotations

from typing import Any

from services.core.engine import Action

from . import actions as A
from . import data as D
from .aviary import fits, forest_has, take_forest_bird
from .state import GameState, Player


def legal_purchases(st: GameState, p: Player, adj: tuple[int, ...], out: list[Action]) -> None:
    """Additional Purchases: in the areas the Employee feeds, nests, trees and lakes
    (unlimited), one Forest bird a turn, the Additional Area once a game
    (AMBIGUITIES 13, 14)."""
    funds = p.funds
    forest = st.forest
    areas = p.areas
    t = st.turn
    for ai in adj:
        a = areas[ai]
        if funds >= D.COST_NEST and forest.nests > 0 and not a.nest:
            out.append(A.BUY_NEST[ai])
        if ai < D.NAREA and not a.tree and not a.lake:
            if funds >= D.COST_TREE and forest.trees > 0:
                out.append(A.BUY_TREE[ai])
            if funds >= D.COST_LAKE:
                out.append(A.BUY_LAKE[ai])
    if funds >= D.COST_FBIRD and t.forest_birds_bought < D.FBIRD_LIMIT:
        for bird in range(D.NB):
            if forest_has(st, bird):
                for ai in adj:
                    if fits(areas[ai], bird):
                        out.append(A.BUY_FOREST_BIRD[bird][ai])
    if not p.additional_area and funds >= D.COST_AX:
        for side in D.AX_SIDES:
            if side != "tree" or forest.trees > 0:
                out.append(A.BUY_AX[side])


def buy_nest(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """Additional Purchases: a Nest tile from the Forest for an area."""
    p = st.players[seat]
    p.funds -= D.COST_NEST
    st.forest.nests -= 1
    p.areas[args["area"]].nest = 1


def buy_tree(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """Additional Purchases: a tree from the Forest for an area."""
    p = st.players[seat]
    p.funds -= D.COST_TREE
    st.forest.trees -= 1
    p.areas[args["area"]].tree = 1


def buy_lake(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """Additional Purchases: uncover an area's lake."""
    p = st.players[seat]
    p.funds -= D.COST_LAKE
    p.areas[args["area"]].lake = 1


def buy_forest_bird(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """Additional Purchases: one bird from the Forest board a turn (AMBIGUITIES 14)."""
    p = st.players[seat]
    bird = D.BIDX[args["bird"]]
    p.funds -= D.COST_FBIRD
    take_forest_bird(st, bird)
    p.areas[args["area"]].birds[bird] += 1
    st.turn.forest_birds_bought += 1


def buy_additional_area(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """Additional Area Tile: bought once a game, on its tree or its lake side."""
    p = st.players[seat]
    p.funds -= D.COST_AX
    side = args["side"]
    p.additional_area = side
    ax = p.areas[D.AX]
    if side == "tree":
        st.forest.trees -= 1
        ax.tree = 1
    else:
        ax.lake = 1
