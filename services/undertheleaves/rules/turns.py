"""A turn, step by step: take a tile from the market, place it, let bees,
hummingbirds and dwellers arrive (asking the seat where a dweller card offers
a real choice), then refill the market or end the game.

The rules and the numbered ambiguity resolutions are listed in
docs/games/undertheleaves.md, each with the tests that pin it down.
"""

from __future__ import annotations

from typing import Any

from services.core.engine import IllegalAction
from services.undertheleaves.rules import state as st
from services.undertheleaves.rules.board import XS, YS, Board, PlacedTile
from services.undertheleaves.rules.catalogue import FACES, OFFERED, ROTATIONS
from services.undertheleaves.rules.creatures import settle_bees, settle_hummingbirds
from services.undertheleaves.rules.dwellers import Placement, options_for, resolve
from services.undertheleaves.rules.state import State


def take_tile(state: State, args: dict[str, Any]) -> None:
    """Phase 1: Placing a garden tile: first take one of the 3 market tiles
    (``NO_SUCH_SLOT`` otherwise)."""
    slot = args["slot"]
    if not 0 <= slot < len(state.market):
        raise IllegalAction("NO_SUCH_SLOT", f"the market has slots 0 to {len(state.market) - 1}")
    state.taken_tile = state.market.pop(slot)
    state.phase = st.PLACE_TILE


def place_tile(state: State, args: dict[str, Any]) -> None:
    """Phase 1: Placing a garden tile: the tile goes on a free position sharing a full
    side with a placed tile, in one of its distinct orientations (flipped only
    if the game allows it, ambiguity 1); then bees and hummingbirds settle
    (ambiguities 3 and 4) and the dwellers arrive (Phase 2)."""
    x, y, rotation, flipped = args["x"], args["y"], args["rotation"], args["flipped"]
    if rotation not in ROTATIONS:
        raise IllegalAction("BAD_ROTATION", "rotation must be 0, 90, 180 or 270")
    allow_flip = state.options.allow_flip
    if flipped and not allow_flip:
        raise IllegalAction("FLIP_NOT_ALLOWED", "this game does not allow flipped tiles")
    garden = state.gardens[state.current]
    _, taken = garden.frontier()
    if (x, y) in taken:
        raise IllegalAction("POSITION_OCCUPIED", f"a tile is already at ({x}, {y})")
    if not (
        (x + 1, y) in taken or (x - 1, y) in taken or (x, y + 1) in taken or (x, y - 1) in taken
    ):
        raise IllegalAction("TILE_NOT_ADJACENT", "a tile must share a full side with a placed tile")
    tile = state.taken_tile
    offered = OFFERED[tile][allow_flip]
    if (rotation, flipped) not in offered:
        face = FACES[tile][(rotation, flipped)]
        same = next((o for o in offered if FACES[tile][o] == face), (0, False))
        raise IllegalAction(
            "DUPLICATE_ORIENTATION",
            f"{tile} shows the same face rotated {same[0]}°"
            + (", flipped" if same[1] else "")
            + ", which is offered instead",
        )
    garden.place(PlacedTile(tile, x, y, rotation, flipped))
    board = garden.get_board()
    state.taken_tile = ""
    garden.bee_sectors = settle_bees(garden.bee_sectors, board, state.options)
    garden.hummingbirds = settle_hummingbirds(garden.hummingbirds, board)
    dwellers_arrive(state, board, first_card=0)


def place_dweller(state: State, args: dict[str, Any]) -> None:
    """Garden Dwellers, a real choice (ambiguity 10): the seat puts the pending card's
    piece on one of the places offered, then the remaining cards resolve."""
    if args["card"] != state.pending_card:
        raise IllegalAction("WRONG_CARD", f"the pending choice is for {state.pending_card}")
    chosen = next(
        (
            p
            for p in dweller_options(state)
            if XS[p.anchor] == args["x"] and YS[p.anchor] == args["y"]
        ),
        None,
    )
    if chosen is None:
        raise IllegalAction("NOT_A_DWELLER_OPTION", f"({args['x']}, {args['y']}) is not offered")
    garden = state.gardens[state.current]
    piece = st.Dweller(state.pending_card, chosen.anchor, tuple(sorted(chosen.cells)), state.turn)
    garden.dwellers = (*garden.dwellers, piece)
    dwellers_arrive(state, garden.get_board(), first_card=state.cards.index(state.pending_card))


def dweller_options(state: State) -> list[Placement]:
    """Garden Dwellers: where the pending card's piece may go in the current
    seat's garden (only the active seat's garden is checked)."""
    garden = state.gardens[state.current]
    return options_for(
        state.pending_card, garden.get_board(), garden.dwellers, state.turn, state.options
    )


def dwellers_arrive(state: State, board: Board, first_card: int) -> None:
    """Phase 2: Possible arrival of new beings: dwellers arrive in card order
    (leaf, puddle, mushroom), from ``first_card``
    on; the turn stops at the first real choice (ambiguity 5), else ends."""
    garden = state.gardens[state.current]
    for card in state.cards[first_card:]:
        held = list(garden.dwellers)
        choice = resolve(card, board, held, state.turn, state.options)
        if len(held) != len(garden.dwellers):
            garden.dwellers = tuple(held)
        if choice:
            state.phase, state.pending_card = st.PLACE_DWELLER, card
            return
    end_turn(state)


def end_turn(state: State) -> None:
    """End of Turn: refill the market and pass to the next seat clockwise; End
    of the Game when it cannot be refilled (ambiguity 2)."""
    state.turn += 1
    state.pending_card = ""
    if not state.bag:
        state.phase = st.OVER
        return
    state.market.append(state.bag.pop())
    state.current = (state.current + 1) % state.players
    state.phase = st.TAKE_TILE
