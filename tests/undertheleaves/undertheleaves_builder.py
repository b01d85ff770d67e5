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

:func:`build` returns a state in which seat 0 is to take a tile, with the
pieces a garden would hold: each pollinized sector has 1 bee (or as many as
``bees`` says), each tile its hummingbirds, and the dwellers listed in
``dwellers``. With ``play=(x, y)`` the block at that position is left out of
the garden and put in market slot 0, and the ``place_tile`` action that puts
it back (after ``take_tile(0)``) is returned beside the state.

Cells are given and returned as ``(x, y)`` pairs; the engine's int cells
convert with :func:`xy` and :func:`xys`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from services.core.engine import Action, Rng
from services.undertheleaves.rules import ENGINE
from services.undertheleaves.rules import state as st
from services.undertheleaves.rules.board import Board, PlacedTile, Position, cell_id, cell_xy
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
from services.undertheleaves.rules.hidden import unseen_tiles
from services.undertheleaves.rules.state import BeeSector, Dweller, Garden, Options, State

#: Cards whose arrivals never ask for a decision: every turn is take_tile, place_tile.
NO_CHOICE = {"dwellers": ["leaf_restless", "puddle_diver", "mushroom_host"]}

#: A cell as ``(x, y)``.
Cell = tuple[int, int]

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
    #: The place_tile action for ``play``, to apply after take_tile(0) (None without it).
    action: Action | None


def _settled_garden(
    tiles: list[PlacedTile],
    dwellers: Sequence[tuple[str, Cell]],
    bees: Mapping[Cell, int],
    options: Options,
) -> Garden:
    board = Board(tiles)
    sectors = []
    for sector in sorted(board.pollinized, key=lambda g: (g.terrain, g.anchor)):
        count = next((n for cell, n in bees.items() if cell_id(*cell) in sector.cells), 1)
        if count:
            sectors.append(BeeSector(sector.terrain, sector.sorted_cells, count))
    garden = Garden(tiles=tiles, bee_sectors=sectors, hummingbirds=settle_hummingbirds((), board))
    for card, (x, y) in dwellers:
        cell = cell_id(x, y)
        offered = options_for(card, board, garden.dwellers, -1, options)
        match = [p for p in offered if p.anchor == cell] or [p for p in offered if cell in p.cells]
        if len(match) != 1:
            raise ValueError(f"{card} offers no single placement at {(x, y)}: {offered}")
        piece = Dweller(card, match[0].anchor, tuple(sorted(match[0].cells)), -1)
        garden.dwellers = (*garden.dwellers, piece)
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
    """A state where seat 0, whose garden is ``art``, is to take a tile.

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
        action = place_tile(held.x, held.y, held.rotation, held.flipped)
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
    setup.phase = st.TAKE_TILE
    return Built(setup, action)


def take_tile(slot: int) -> Action:
    return Action("take_tile", (("slot", slot),))


def place_tile(x: int, y: int, rotation: int = 0, flipped: bool = False) -> Action:
    return Action("place_tile", (("x", x), ("y", y), ("rotation", rotation), ("flipped", flipped)))


def play_turn(
    state: State, slot: int, x: int, y: int, rotation: int = 0, flipped: bool = False
) -> State:
    """The current seat takes the tile in ``slot`` and places it."""
    ENGINE.apply(state, state.current, take_tile(slot))
    return ENGINE.apply(state, state.current, place_tile(x, y, rotation, flipped))


def play_legal(state: State, seat: int, pick: int = 0) -> State:
    """``seat`` takes the first market tile and makes its ``pick``-th legal placement."""
    ENGINE.apply(state, seat, ENGINE.legal(state, seat)[0])
    legal = ENGINE.legal(state, seat)
    return ENGINE.apply(state, seat, legal[pick % len(legal)])


def place_dweller(card: str, x: int, y: int) -> Action:
    return Action("place_dweller", (("card", card), ("x", x), ("y", y)))


def played(built: Built) -> State:
    """The state after seat 0 takes market slot 0 and plays the built action."""
    assert built.action is not None, "build(..., play=...) first"
    ENGINE.apply(built.state, 0, take_tile(0))
    return ENGINE.apply(built.state, 0, built.action)


def xy(cell: int) -> Cell:
    """An engine cell as ``(x, y)``."""
    return cell_xy(cell)


def xys(cells: Iterable[int]) -> set[Cell]:
    """Engine cells as a set of ``(x, y)``."""
    return {cell_xy(c) for c in cells}


def arrived(state: State, card: str, seat: int = 0) -> list[Cell]:
    """Anchors of the ``card`` pieces that arrived in the last turn played or being played."""
    turn = state.turn if state.phase == st.PLACE_DWELLER else state.turn - 1
    return [
        cell_xy(d.anchor) for d in state.gardens[seat].dwellers if d.card == card and d.turn == turn
    ]


def anchors(state: State, card: str, seat: int = 0) -> list[Cell]:
    """Anchors of every ``card`` piece in the garden."""
    return [cell_xy(d.anchor) for d in state.gardens[seat].dwellers if d.card == card]


def choices(state: State) -> list[Cell]:
    """The cells offered by the pending place_dweller decision."""
    return [(a.arg("x"), a.arg("y")) for a in ENGINE.legal(state, state.current)]  # type: ignore[misc]


def random_decisions(games: int) -> Iterator[State]:
    """The state after every decision of ``games`` random games (seeds 0 up, 2 to 4
    players in turn), each decision a random legal action of the seat to act."""
    for seed in range(games):
        state = ENGINE.setup(2 + seed % 3, {}, seed)
        chooser = Rng(seed)
        while not ENGINE.is_over(state):
            seat = ENGINE.to_act(state)[0]
            actions = ENGINE.legal(state, seat)
            ENGINE.apply(state, seat, actions[chooser.below(len(actions))])
            yield state


def with_other_bag(state: st.State, shift: int) -> st.State:
    """The same table with another bag: the unseen tiles rotated by ``shift`` (so tiles
    out of the game come in and bag tiles go out), and another generator."""
    other = st.clone(state)
    unseen = unseen_tiles(state)
    shift %= max(1, len(unseen))
    rotated = unseen[shift:] + unseen[:shift]
    other.bag = list(reversed(rotated[: len(state.bag)]))
    other.rng = state.rng ^ 0x5A5A5A5A
    return other
