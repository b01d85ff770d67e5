"""Build Under the Leaves states by hand, for scenario tests.

A garden is drawn one token per cell, top row first::

    G* O  | P  P
    P  P  | Y  O*

Tokens: ``P`` pink, ``Y`` yellow, ``O`` orange, ``V`` purple (violet),
``G`` green, ``~`` puddle; a trailing ``*`` puts a mushroom on the cell;
``.`` is no cell. ``|`` and lines made of ``-``/``+`` only help the eye.

Every 2×2 block of cells is one tile. The top-left cell of the drawing is cell
``(0, 0)``: the cell in column ``c`` and row ``r`` is ``(c, -r)``, and the block
in block-column ``i`` and block-row ``j`` is the tile at position ``(i, -j)``
(so ``y`` grows upwards, as in the engine).

Each block is realised with a real tile of the catalogue, turned and flipped as
needed, and no tile is used twice: every garden built here could be built at
the table. A block no free tile can realise is an error that says so.

:func:`build` returns a state in which seat 0 is to play, with the pieces a
garden would hold: each pollinized sector has 1 bee (or as many as ``bees``
says), each tile its hummingbirds, and the dwellers listed in ``dwellers``.
With ``play=(x, y)`` the block at that position is left out of the garden and
put in market slot 0, and the ``place_tile`` action that puts it back is
returned beside the state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from services.core.engine import Action
from services.undertheleaves.rules import ENGINE
from services.undertheleaves.rules import state as st
from services.undertheleaves.rules.board import Board, Cell, PlacedTile, Position
from services.undertheleaves.rules.catalogue import (
    FIRST_GAME_CARDS,
    GARDEN_TILES,
    MARKET_SIZE,
    ROTATIONS,
    START_TILES,
    Face,
    Space,
    oriented,
)
from services.undertheleaves.rules.creatures import settle_hummingbirds
from services.undertheleaves.rules.dwellers import options_for
from services.undertheleaves.rules.state import BeeSector, Dweller, Garden, Options, State

#: Cards whose arrivals never ask for a decision: every turn is one place_tile.
NO_CHOICE = {"dwellers": ["leaf_restless", "puddle_diver", "mushroom_host"]}

TERRAINS = {"P": "pink", "Y": "yellow", "O": "orange", "V": "purple", "G": "green", "~": "puddle"}


def parse(art: str) -> dict[Position, Face]:
    """The drawing's blocks: tile position -> the four spaces (tl, tr, bl, br)."""
    rows = []
    for line in art.strip("\n").splitlines():
        tokens = line.replace("|", " ").split()
        if tokens and not set("".join(tokens)) <= set("-+"):
            rows.append(tokens)
    if len(rows) % 2 or any(len(r) != len(rows[0]) or len(r) % 2 for r in rows):
        raise ValueError("a drawing needs an even number of rows, all of one even length")
    blocks: dict[Position, Face] = {}
    for j in range(0, len(rows), 2):
        for i in range(0, len(rows[0]), 2):
            tokens = (rows[j][i], rows[j][i + 1], rows[j + 1][i], rows[j + 1][i + 1])
            if all(t == "." for t in tokens):
                continue
            if "." in tokens:
                raise ValueError(f"block at ({i // 2}, {-j // 2}) is partly empty")
            blocks[(i // 2, -j // 2)] = tuple(_space(t) for t in tokens)  # type: ignore[assignment]
    return blocks


def _space(token: str) -> Space:
    mushroom = token.endswith("*")
    letter = token.rstrip("*")
    if letter not in TERRAINS:
        raise ValueError(f"unknown token {token!r}")
    return Space(TERRAINS[letter], mushroom)


def realise(face: Face, used: set[str], allow_flip: bool = True) -> tuple[str, int, bool]:
    """A free tile and an orientation showing ``face``: (tile id, rotation, flipped).

    Garden tiles are preferred; a start tile is used only when no garden tile fits.
    """
    for tile in (*GARDEN_TILES, *START_TILES):
        if tile.id in used:
            continue
        for rotation in ROTATIONS:
            for flipped in (False, True) if allow_flip else (False,):
                if oriented(tile.id, rotation, flipped) == face:
                    used.add(tile.id)
                    return tile.id, rotation, flipped
    drawn = " ".join(s.terrain + ("*" if s.mushroom else "") for s in face)
    raise ValueError(f"no free tile shows (tl tr bl br) {drawn}")


def garden_tiles(art: str, used: set[str], allow_flip: bool = True) -> dict[Position, PlacedTile]:
    """The drawing's tiles, each realised with a free real tile."""
    placed = {}
    for (x, y), face in parse(art).items():
        tile, rotation, flipped = realise(face, used, allow_flip)
        placed[(x, y)] = PlacedTile(tile, x, y, rotation, flipped)
    return placed


@dataclass
class Built:
    state: State
    #: The place_tile action for ``play`` (None without it).
    action: Action | None


def _settled_garden(
    tiles: list[PlacedTile],
    dwellers: Sequence[tuple[str, Cell]],
    bees: Mapping[Cell, int],
    options: Options,
) -> Garden:
    board = Board(tiles)
    sectors = []
    for sector in board.pollinized:
        count = next((n for cell, n in bees.items() if cell in sector.cells), 1)
        if count:
            sectors.append(BeeSector(sector.terrain, sector.cells, count))
    garden = Garden(tiles=tiles, bee_sectors=sectors, hummingbirds=settle_hummingbirds({}, board))
    for card, cell in dwellers:
        offered = options_for(card, board, garden.dwellers, -1, options)
        match = [p for p in offered if p.anchor == cell] or [p for p in offered if cell in p.cells]
        if len(match) != 1:
            raise ValueError(f"{card} offers no single placement at {cell}: {offered}")
        garden.dwellers.append(Dweller(card, match[0].anchor, match[0].cells, -1))
    return garden


def build(
    art: str,
    *,
    play: Position | None = None,
    cards: Sequence[str] = FIRST_GAME_CARDS,
    options: Mapping[str, Any] | None = None,
    dwellers: Sequence[tuple[str, Cell]] = (),
    bees: Mapping[Cell, int] | None = None,
    others: Sequence[str] = (),
    others_dwellers: Mapping[int, Sequence[tuple[str, Cell]]] | None = None,
    bag: int = 10,
    turn: int = 6,
) -> Built:
    """A state where seat 0, whose garden is ``art``, is to place a tile.

    ``cards`` are the 3 dweller cards in play (one per family, any order);
    ``options`` the game options. ``dwellers`` lists pieces already in seat 0's
    garden as ``(card, cell)``: the placement that card offers with that anchor
    (or holding that cell), claimed in an earlier turn. ``bees`` maps a cell to
    the bees of the sector holding it (default 1 per pollinized sector; 0 leaves
    the sector without a bee record, as if it had never been checked).
    ``others`` are the gardens of seats 1, 2, ... (default: seat 1 has only a
    start tile); ``others_dwellers`` their pieces by seat. ``bag`` tiles stay
    in the bag; ``turn`` turns have been played.
    """
    setup = ENGINE.setup(
        max(2, 1 + len(others)), {**(options or {}), "dwellers": list(cards)}, seed=1
    )
    flags = setup.options
    used: set[str] = set()
    tiles = garden_tiles(art, used, flags.allow_flip)
    action = None
    market = []
    if play is not None:
        held = tiles.pop(play)
        market.append(held.tile)
        action = Action(
            "place_tile",
            (
                ("slot", 0),
                ("x", held.x),
                ("y", held.y),
                ("rotation", held.rotation),
                ("flipped", held.flipped),
            ),
        )
    gardens = [_settled_garden(list(tiles.values()), dwellers, bees or {}, flags)]
    for seat, other in enumerate(others, start=1):
        other_tiles = list(garden_tiles(other, used, flags.allow_flip).values())
        placed = (others_dwellers or {}).get(seat, ())
        gardens.append(_settled_garden(other_tiles, placed, {}, flags))
    if not others:  # seat 1 has only a start tile
        start = next(t.id for t in START_TILES if t.id not in used)
        gardens.append(Garden(tiles=[PlacedTile(start, 0, 0)]))
    spare = [t.id for t in GARDEN_TILES if t.id not in used]
    market += spare[: MARKET_SIZE - len(market)]
    setup.market = market
    setup.bag = spare[MARKET_SIZE : MARKET_SIZE + bag]
    setup.gardens = gardens
    setup.first_seat = setup.current = 0
    setup.turn = turn
    setup.phase = st.PLACE_TILE
    return Built(setup, action)


def place_tile(slot: int, x: int, y: int, rotation: int = 0, flipped: bool = False) -> Action:
    return Action(
        "place_tile",
        (("slot", slot), ("x", x), ("y", y), ("rotation", rotation), ("flipped", flipped)),
    )


def place_dweller(card: str, x: int, y: int) -> Action:
    return Action("place_dweller", (("card", card), ("x", x), ("y", y)))


def played(built: Built) -> State:
    """The state after seat 0 plays the built action."""
    assert built.action is not None, "build(..., play=...) first"
    return ENGINE.apply(built.state, 0, built.action)


def arrived(state: State, card: str, seat: int = 0) -> list[Cell]:
    """Anchors of the ``card`` pieces that arrived in the last turn played or being played."""
    turn = state.turn if state.phase == st.PLACE_DWELLER else state.turn - 1
    return [d.anchor for d in state.gardens[seat].dwellers if d.card == card and d.turn == turn]


def anchors(state: State, card: str, seat: int = 0) -> list[Cell]:
    """Anchors of every ``card`` piece in the garden."""
    return [d.anchor for d in state.gardens[seat].dwellers if d.card == card]


def choices(state: State) -> list[Cell]:
    """The cells offered by the pending place_dweller decision."""
    return [(a.arg("x"), a.arg("y")) for a in ENGINE.legal(state, state.current)]  # type: ignore[misc]
