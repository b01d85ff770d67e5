"""Phase 2, Hummingbirds: tiles of pollinized cells, row and column bonus (ambiguity 4)."""

from undertheleaves_builder import build, played

from services.undertheleaves.rules.board import Board
from services.undertheleaves.rules.creatures import settle_hummingbirds

# The centre tile (1, -1) and its four neighbours all qualify once it is placed.
PLUS = """
V  ~  | ~  V  | ~  Y
P  P  | P  V  | V  Y
------+-------+------
G  G  | G* Y  | V  Y*
~  O  | V  Y  | P  P
------+-------+------
O  O  | V  Y  | P  Y
Y  ~  | V  P* | P  ~
"""

# The bottom row of 4 tiles qualifies; the top row does not.
ROW_OF_4 = """
V  G* | V* G  | Y* G  | O  Y
Y  Y  | Y  G  | V  V  | O  V*
------+-------+-------+------
Y  P  | V  V  | V* O  | O  O
~  P  | P  G* | G  G  | G  ~
"""

# Tile (1, -1) is a puddle tile whose 3 terrain cells are pollinized.
PUDDLE_TILE = """
Y  Y  | G  G
O  P* | P* V
------+------
Y* P  | P  ~
O  O  | O  O
"""


def hummingbirds(state, seat=0):
    return dict(state.gardens[seat].hummingbirds)


def test_ambiguity_4_a_tile_whose_4_cells_are_pollinized_attracts_a_hummingbird():
    state = played(build(ROW_OF_4, play=(0, -1)))
    assert hummingbirds(state)[(0, -1)] == 1


def test_ambiguity_4_a_puddle_tile_needs_only_its_3_terrain_cells_pollinized():
    state = played(build(PUDDLE_TILE, play=(1, -1)))
    assert hummingbirds(state) == {(1, -1): 1}
    tile = next(t for t in state.gardens[0].tiles if t.position == (1, -1))
    assert sum(space.is_puddle for _, space in tile.spaces()) == 1


def test_ambiguity_4_a_tile_with_a_cell_outside_pollinized_sectors_attracts_none():
    state = played(build(PUDDLE_TILE, play=(1, -1)))
    # (0, -1): its yellow mushroom cell is alone.
    assert (0, -1) not in hummingbirds(state)
    state = played(build(ROW_OF_4, play=(0, -1)))
    assert all(y == -1 for _, y in hummingbirds(state))


def test_rule_hummingbirds_row_of_3_gives_the_middle_tile_another():
    built = build(ROW_OF_4, play=(2, -1))
    assert hummingbirds(built.state) == {(0, -1): 1}
    # Placing (2, -1) completes the row: (1, -1), a tile placed earlier, gets 2.
    assert hummingbirds(played(built)) == {(0, -1): 1, (1, -1): 2, (2, -1): 2, (3, -1): 1}


def test_ambiguity_4_in_a_line_of_4_every_inner_tile_gets_the_bonus():
    state = played(build(ROW_OF_4, play=(3, -1)))
    assert hummingbirds(state) == {(0, -1): 1, (1, -1): 2, (2, -1): 2, (3, -1): 1}


def test_rule_hummingbirds_column_of_3_and_row_of_3_give_at_most_3():
    state = played(build(PLUS, play=(1, -1)))
    counts = hummingbirds(state)
    assert counts[(1, -1)] == 3
    for neighbour in [(1, 0), (0, -1), (2, -1), (1, -2)]:
        assert counts[neighbour] == 1
    assert max(counts.values()) == 3


def test_rule_hummingbirds_column_of_3_gives_the_middle_tile_another():
    # The top tile only supports; the three below it qualify.
    art = """
    V  P*
    V  O
    -----
    V  ~
    V  P
    -----
    ~  P
    Y  P
    -----
    Y  P
    Y  ~
    """
    built = build(art, play=(0, -2))
    assert hummingbirds(played(built)) == {(0, -1): 1, (0, -2): 2, (0, -3): 1}


def test_ambiguity_4_hummingbird_counts_never_decrease():
    board = Board(build(ROW_OF_4).state.gardens[0].tiles)
    assert dict(settle_hummingbirds((((1, -1), 3), ((9, 9), 1)), board)) == {
        (0, -1): 1,
        (1, -1): 3,
        (2, -1): 2,
        (3, -1): 1,
        (9, 9): 1,
    }


def test_rule_hummingbirds_are_recounted_on_every_placement():
    # Placed in two steps: the row bonus arrives with the tile that completes it.
    built = build(ROW_OF_4, play=(1, -1))
    assert hummingbirds(built.state) == {(2, -1): 1, (3, -1): 1}
    assert hummingbirds(played(built)) == {(0, -1): 1, (1, -1): 2, (2, -1): 2, (3, -1): 1}


def test_ambiguity_4_the_kept_qualifying_tiles_equal_a_scan_of_every_tile():
    """A tile qualifies for hummingbirds when all its terrain cells lie in pollinized
    sectors (ambiguity 4). The set a board keeps as tiles join equals a scan of every
    tile after every placement of random games, on boards built at once and on copies."""
    from undertheleaves_builder import random_decisions

    from services.undertheleaves.rules.board import Board

    def scan(board):
        return {
            position
            for position, cells in board.tiles.items()
            if all(
                board.sector_of.get(c) is None or len(board.sector_of[c].cells) >= 3 for c in cells
            )
        }

    qualifying = 0
    for state in random_decisions(12):
        for garden in state.gardens:
            board = garden.get_board()
            assert board.qualified == scan(board)
            assert Board(garden.tiles).qualified == board.qualified
            assert board.copy().qualified == board.qualified
            qualifying += len(board.qualified)
    assert qualifying > 100
