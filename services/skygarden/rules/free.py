"""Free Actions, listed at every point of a turn: Achieve Milestone Tiles (see
:mod:`.milestones`), Move to the Forest Board and Refill Lakes, Place and Remove Bird
Tokens on Nest Tiles; and the forced adjustment after an area shrinks."""

from __future__ import annotations

from typing import Any

from services.core.engine import Action

from . import actions as A
from . import data as D
from .aviary import capacity, check_shrink, nest_pair_ok, remove_bird, used
from .milestones import legal_claims
from .state import GameState, Pending, Player, narea


def legal_free(st: GameState, p: Player, out: list[Action]) -> None:
    """Free Actions: milestones, then per area its birds and tree to the Forest, its
    lake refilled, birds put on or taken off its nest (no removing from a nest added
    to this turn)."""
    legal_claims(st, p, out)
    nlock = st.turn.nest_locked
    areas = p.areas
    for ai in range(narea(p)):
        a = areas[ai]
        b = a.birds
        row = A.BIRD_TO_FOREST[ai]
        for bird in range(D.NB):
            if b[bird]:
                out.append(row[bird])
        if ai < D.NAREA:
            if a.tree:
                out.append(A.TREE_TO_FOREST[ai])
            if a.lake:
                out.append(A.REFILL_LAKE[ai])
        if a.nest:
            nb = a.nest_birds
            lock = nlock[ai]
            if len(nb) < D.NEST_CAP:
                for bird in range(D.NB):
                    if b[bird] > nb.count(bird) and nest_pair_ok(nb, bird):
                        out.append(A.NEST_ADD[ai][bird])
            if not lock and nb:  # no removing after adding to this nest this turn
                for bird in sorted(set(nb)):
                    out.append(A.NEST_REMOVE[ai][bird])


def legal_adjust(st: GameState, p: Player, area: int) -> list[Action]:
    """Move to the Forest Board and Refill Lakes: an area that shrank below its birds
    sends birds to the Forest until they fit."""
    b = p.areas[area].birds
    return [A.BIRD_TO_FOREST[area][bird] for bird in range(D.NB) if b[bird]]


def bird_to_forest(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """Move to the Forest Board and Refill Lakes: a bird leaves its area for the Forest
    board (ends a pending adjustment once the area fits)."""
    p = st.players[seat]
    ai = args["area"]
    a = p.areas[ai]
    bird = D.BIDX[args["bird"]]
    remove_bird(a, bird)
    st.forest.birds[bird] += 1
    pending = st.turn.pending
    if pending and pending[0].kind == Pending.ADJUST and used(a) <= capacity(a):
        pending.pop(0)


def tree_to_forest(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """Move to the Forest Board and Refill Lakes: a tree goes back to the Forest."""
    ai = args["area"]
    a = st.players[seat].areas[ai]
    a.tree = 0
    st.forest.trees += 1
    check_shrink(st, ai, a)


def refill_lake(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """Move to the Forest Board and Refill Lakes: an uncovered lake is covered again."""
    ai = args["area"]
    a = st.players[seat].areas[ai]
    a.lake = 0
    check_shrink(st, ai, a)


def nest_add(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """Place and Remove Bird Tokens on Nest Tiles: a bird of the area sits on its nest;
    that nest gives no bird back this turn."""
    ai = args["area"]
    st.players[seat].areas[ai].nest_birds.append(D.BIDX[args["bird"]])
    st.turn.nest_locked[ai] = 1


def nest_remove(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """Place and Remove Bird Tokens on Nest Tiles: a bird comes off the nest (it stays
    in the area)."""
    ai = args["area"]
    st.players[seat].areas[ai].nest_birds.remove(D.BIDX[args["bird"]])
