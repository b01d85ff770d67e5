"""A garden tile in the view: its 4 cells as two packed lists in reading order.

``GardenTile.terrains`` and ``GardenTile.mushrooms`` hold the cells of the tile
at (x, y) in the order top-left (2x, 2y), top-right (2x+1, 2y), bottom-left
(2x, 2y-1), bottom-right (2x+1, 2y-1); there is no sub-message per cell. The
CLI derives each cell's position from that order and draws the same map as
when every cell carried its own x and y.
"""

import importlib
import io

import pytest
from rich.console import Console
from undertheleaves_builder import ENGINE, build

from clients.cli import render
from services.core.convert import view_to_proto
from services.core.engine import Rng
from services.undertheleaves.rules.board import Board, cell_id, cell_xy
from services.undertheleaves.rules.catalogue import START_TILES, TILES

#: The documented order: (dx, dy) from the tile's top-left cell (2x, 2y).
READING_ORDER = [(0, 0), (1, 0), (0, -1), (1, -1)]

# A plus sign of 5 tiles: (1, 0), (0, -1), (1, -1), (2, -1) and (1, -2).
PLUS = """
.  .  | ~  V  | .  .
.  .  | P  V  | .  .
------+-------+------
G  G  | G* Y  | V  Y*
~  O  | V  Y  | P  P
------+-------+------
.  .  | V  Y  | .  .
.  .  | V  P* | .  .
"""


@pytest.fixture(scope="module")
def types_pb2():
    return importlib.import_module("roost.undertheleaves.v1.types_pb2")


def terrain_name(terrain):
    return f"TERRAIN_{terrain.upper()}"


def test_view_start_tile_lists_are_the_printed_spaces_tl_tr_bl_br():
    state = ENGINE.setup(4, {}, seed=5)
    view = ENGINE.view(state, None)
    seen = set()
    for garden in view["gardens"]:
        (start,) = garden["tiles"]
        assert (start["x"], start["y"], start["rotation"], start["flipped"]) == (0, 0, 0, False)
        face = TILES[start["tile"]].face
        assert start["terrains"] == [terrain_name(s.terrain) for s in face]
        assert start["mushrooms"] == [s.mushroom for s in face]
        # Every start tile has its puddle top-left and its mushroom bottom-right.
        assert start["terrains"][0] == "TERRAIN_PUDDLE"
        assert start["mushrooms"] == [False, False, False, True]
        # ... which are the cells (0, 0) and (1, -1) of the garden.
        board = Board(state.gardens[garden["seat"]].tiles)
        assert board.terrain[cell_id(0, 0)] == "puddle"
        assert board.mushrooms == {cell_id(1, -1)}
        seen.add(start["tile"])
    assert seen == {t.id for t in START_TILES}


def test_view_tile_lists_follow_the_garden_cells_in_reading_order():
    for seed in range(3):
        state = played_out(2 + seed, seed)
        for garden, tiles in zip(ENGINE.view(state, 0)["gardens"], state.gardens, strict=True):
            board = Board(tiles.tiles)
            assert len(garden["tiles"]) == len(tiles.tiles) > 1
            for tile in garden["tiles"]:
                cells = [
                    cell_id(2 * tile["x"] + dx, 2 * tile["y"] + dy) for dx, dy in READING_ORDER
                ]
                assert tile["terrains"] == [terrain_name(board.terrain[c]) for c in cells]
                assert tile["mushrooms"] == [c in board.mushrooms for c in cells]


def test_view_garden_tile_is_packed_without_cell_messages(types_pb2):
    assert "GardenCell" not in types_pb2.DESCRIPTOR.message_types_by_name
    fields = types_pb2.GardenTile.DESCRIPTOR.fields_by_name
    assert "cells" not in fields
    assert (fields["terrains"].number, fields["mushrooms"].number) == (8, 9)
    tile = types_pb2.GardenTile(
        terrains=["TERRAIN_PUDDLE", "TERRAIN_PINK", "TERRAIN_GREEN", "TERRAIN_PURPLE"],
        mushrooms=[False, False, False, True],
    )
    # One length-delimited record per list (field 8 and 9, wire type 2).
    assert tile.SerializeToString() == bytes([0x42, 4, 6, 1, 5, 4, 0x4A, 4, 0, 0, 0, 1])


def garden_map(state, seat=0):
    """The CLI's map of a seat's garden, one line per row, trailing spaces cut."""
    view_class = importlib.import_module("roost.undertheleaves.v1.types_pb2").View
    message = view_to_proto(ENGINE.view(state, seat), view_class)
    drawn = render.cell_map(render.cells_of(message.gardens[seat]))
    assert drawn is not None
    return [line.rstrip() for line in drawn.plain.splitlines()]


def test_cli_map_draws_each_cell_where_the_reading_order_puts_it():
    # The drawing's top-left cell is (0, 0) and y grows upwards, as in the map.
    # Letters: p pink, y yellow, o orange, u purple, g green, d puddle; capital: mushroom.
    assert garden_map(build(PLUS).state) == [
        "  0 . . d u . .",
        " -1 . . p u . .",
        " -2 g g G y u Y",
        " -3 d o u y p p",
        " -4 . . u y . .",
        " -5 . . u P . .",
        "    x 0..5",
        "p pink  y yellow  o orange  u purple  g green  d puddle  (capital: mushroom)",
    ]


def played_out(players, seed, decisions=None):
    """A random game of ``players``, played to the end or for ``decisions`` decisions."""
    state = ENGINE.setup(players, {}, seed)
    chooser = Rng(seed)
    while not ENGINE.is_over(state) and decisions != 0:
        seat = state.current
        legal = ENGINE.legal(state, seat)
        ENGINE.apply(state, seat, legal[chooser.below(len(legal))])
        decisions = None if decisions is None else decisions - 1
    return state


def test_cli_map_letters_match_the_garden_cells_of_a_played_game():
    state = played_out(2, 9)
    letters = {
        "pink": "p",
        "yellow": "y",
        "orange": "o",
        "purple": "u",
        "green": "g",
        "puddle": "d",
    }
    for seat, garden in enumerate(state.gardens):
        board = Board(garden.tiles)
        rows = garden_map(state, seat)
        lo, hi = (int(n) for n in rows[-2].split()[1].split(".."))
        drawn = {}
        for row in rows[:-2]:
            y, *tokens = row.split()
            assert len(tokens) == hi - lo + 1
            drawn.update({(lo + i, int(y)): t for i, t in enumerate(tokens) if t != "."})
        expected = {
            cell_xy(cell): letters[terrain].upper() if cell in board.mushrooms else letters[terrain]
            for cell, terrain in board.terrain.items()
        }
        assert drawn == expected


def test_cli_draws_a_whole_late_view(types_pb2):
    message = types_pb2.View(**ENGINE.view(played_out(3, 2, decisions=30), 0))
    console = Console(file=io.StringIO(), width=200, color_system=None, record=True)
    console.print(render.panel_of(message, "view"))
    text = console.export_text()
    assert all(f"Gardens: seat {seat}" in text for seat in range(3))
    # A list of tiles alone is drawn as a map of its cells too.
    assert len(render.maps_of("tiles", list(message.gardens[0].tiles))) == 1
