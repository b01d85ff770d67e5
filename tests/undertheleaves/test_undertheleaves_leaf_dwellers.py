"""Dwellers of the leaves: Thoughtful, Restless, Flirty, Runner (ambiguities 6, 7).

Each class is one card: ``test_scores_*`` are gardens that attract it,
``test_no_*`` gardens that must not.
"""

import pytest
from undertheleaves_builder import (
    ENGINE,
    anchors,
    arrived,
    build,
    choices,
    place_dweller,
    play_legal,
    played,
    take_tile,
    xys,
)

from services.undertheleaves.rules import state as st
from services.undertheleaves.rules.board import Board, PlacedTile
from services.undertheleaves.rules.catalogue import START_TILES
from services.undertheleaves.rules.dwellers import options_for
from services.undertheleaves.rules.state import Options

THOUGHTFUL = ["leaf_thoughtful", "puddle_diver", "mushroom_host"]
RESTLESS = ["leaf_restless", "puddle_diver", "mushroom_host"]
FLIRTY = ["leaf_flirty", "puddle_diver", "mushroom_host"]
RUNNER = ["leaf_runner", "puddle_diver", "mushroom_host"]

# Two pink pairs facing each other: a 2x2 pink square at (0..1, -2..-1).
SQUARE = """
G* O
P  P
----
P  P
Y  O*
"""

# Four pink cells in an L: no square, no straight run of 4.
L_SHAPE = """
G* O
P  P
----
P  O*
P  Y
"""

# Pink cells fill x=0..2, y=-2..-1: two overlapping squares, both completed by (0, -1).
TWO_SQUARES = """
G* O  | Y  Y
P  P  | P  V*
------+------
P  P  | P* V
Y  O* | G  G
"""

# Pink cells fill x=1..4, y=-2..-1: squares at x=1, 2 and 3, completed together by (1, -1).
THREE_SQUARES = """
Y  Y  | G* Y  | G  G
O  P* | P  P  | P* V
------+-------+------
Y* P  | P  P  | P* O
O  O  | V  O* | V  V
"""

# Five pink cells once (1, 0) is placed.
FIVE = """
G* O  | Y  Y
P  P  | P  V*
------+------
P  P  | .  .
Y  O* | .  .
"""


def next_turn_of_seat_0(state):
    """Seat 1 places a tile next to its start tile, then seat 0 one far from its pink cells."""
    play_legal(state, 1)
    ENGINE.apply(state, 0, take_tile(0))
    far = next(a for a in ENGINE.legal(state, 0) if a.arg("x") == -1 and a.arg("y") == 0)
    ENGINE.apply(state, 0, far)
    return state


class TestLeafThoughtful:
    def test_scores_a_2x2_square_inside_one_sector(self):
        state = played(build(SQUARE, play=(0, -1), cards=THOUGHTFUL))
        assert arrived(state, "leaf_thoughtful") == [(0, -2)]
        piece = state.gardens[0].dwellers[0]
        assert xys(piece.cells) == {(0, -2), (1, -2), (0, -1), (1, -1)}

    def test_no_square_in_an_l_shaped_sector(self):
        state = played(build(L_SHAPE, play=(0, -1), cards=THOUGHTFUL))
        assert anchors(state, "leaf_thoughtful") == []
        assert [len(b.cells) for b in state.gardens[0].bee_sectors] == [4]

    def test_no_square_of_puddles(self):
        art = """
        P  P  | G  G
        O  ~  | ~  Y
        ------+------
        V  ~  | ~  G
        Y  Y  | V  V
        """
        state = played(build(art, play=(1, -1), cards=THOUGHTFUL))
        assert anchors(state, "leaf_thoughtful") == []
        assert anchors(state, "puddle_diver") == [(1, -1)]

    def test_no_square_overlapping_an_earlier_thoughtful(self):
        """Ambiguity 6: no cell serves two Thoughtful squares."""
        built = build(
            TWO_SQUARES, play=(1, -1), cards=THOUGHTFUL, dwellers=[("leaf_thoughtful", (0, -2))]
        )
        state = played(built)
        assert anchors(state, "leaf_thoughtful") == [(0, -2)]
        assert arrived(state, "leaf_thoughtful") == []

    def test_scores_the_players_choice_among_overlapping_squares(self):
        state = played(build(TWO_SQUARES, play=(0, -1), cards=THOUGHTFUL))
        assert state.phase == st.PLACE_DWELLER and state.pending_card == "leaf_thoughtful"
        assert choices(state) == [(0, -2), (1, -2)]
        ENGINE.apply(state, 0, place_dweller("leaf_thoughtful", 1, -2))
        assert anchors(state, "leaf_thoughtful") == [(1, -2)]
        assert state.phase == st.TAKE_TILE and state.current == 1

    def test_ambiguity_7_one_per_sector_per_turn_by_default(self):
        state = played(build(THREE_SQUARES, play=(1, -1), cards=THOUGHTFUL))
        assert choices(state) == [(1, -2), (2, -2), (3, -2)]
        ENGINE.apply(state, 0, place_dweller("leaf_thoughtful", 1, -2))
        # The square at x=3 does not overlap, but the sector already had its Thoughtful this turn.
        assert anchors(state, "leaf_thoughtful") == [(1, -2)]
        assert state.current == 1
        next_turn_of_seat_0(state)
        assert anchors(state, "leaf_thoughtful") == [(1, -2), (3, -2)]

    @pytest.mark.parametrize(
        ("first", "expected"), [((1, -2), [(1, -2), (3, -2)]), ((2, -2), [(2, -2)])]
    )
    def test_ambiguity_7_option_off_every_non_overlapping_square_in_the_same_turn(
        self, first, expected
    ):
        options = {"thoughtful_one_per_sector_per_turn": False}
        state = played(build(THREE_SQUARES, play=(1, -1), cards=THOUGHTFUL, options=options))
        assert choices(state) == [(1, -2), (2, -2), (3, -2)]
        ENGINE.apply(state, 0, place_dweller("leaf_thoughtful", *first))
        assert sorted(arrived(state, "leaf_thoughtful")) == sorted(expected)
        assert state.current == 1


class TestLeafRestless:
    def test_scores_a_pollinized_sector_of_5(self):
        state = played(build(FIVE, play=(1, 0), cards=RESTLESS))
        assert arrived(state, "leaf_restless") == [(0, -1)]
        assert len(state.gardens[0].dwellers[0].cells) == 5

    def test_no_for_a_sector_of_4(self):
        state = played(build(SQUARE, play=(0, -1), cards=RESTLESS))
        assert anchors(state, "leaf_restless") == []

    def test_no_again_when_the_sector_grows(self):
        """Ambiguity 6: once per sector, even after it grows."""
        art = FIVE.replace("P  P  | .  .\nY  O* | .  .", "P  P  | P* V\nY  O* | G  G")
        built = build(art, play=(1, -1), cards=RESTLESS, dwellers=[("leaf_restless", (0, -1))])
        state = played(built)
        assert [len(b.cells) for b in state.gardens[0].bee_sectors] == [6]
        assert anchors(state, "leaf_restless") == [(0, -1)]

    MERGE = """
    G* O  | Y  Y  | V  V
    P  P  | P  V* | P* Y
    ------+-------+------
    P  P  | P  P  | P* O
    Y  O* | V  Y* | V  V
    """

    def test_no_again_when_the_sector_merges_with_another(self):
        """Ambiguity 6: once per sector, even after a merge."""
        built = build(
            self.MERGE, play=(1, -1), cards=RESTLESS, dwellers=[("leaf_restless", (0, -1))]
        )
        state = played(built)
        assert [len(b.cells) for b in state.gardens[0].bee_sectors] == [9]
        assert anchors(state, "leaf_restless") == [(0, -1)]

    def test_scores_a_merged_sector_without_restless(self):
        state = played(build(self.MERGE, play=(1, -1), cards=RESTLESS))
        assert arrived(state, "leaf_restless") == [(0, -1)]


class TestLeafFlirty:
    FOUR_KINDS = """
    P  G* | Y  V
    P  O  | ~  V
    """

    def test_scores_a_2x2_block_of_4_different_terrains(self):
        state = played(build(self.FOUR_KINDS, play=(1, 0), cards=FLIRTY))
        assert arrived(state, "leaf_flirty") == [(1, -1)]
        assert xys(state.gardens[0].dwellers[0].cells) == {(1, -1), (2, -1), (1, 0), (2, 0)}

    def test_no_with_a_terrain_twice(self):
        state = played(build("P  G* | Y* V\nP  O  | O  V", play=(1, 0), cards=FLIRTY))
        assert anchors(state, "leaf_flirty") == []

    OVERLAPPING = """
    Y  ~  | O* V
    Y  P  | G  V
    ------+------
    .  .  | ~  Y
    .  .  | O  O
    """

    def test_scores_the_players_choice_among_overlapping_blocks(self):
        state = played(build(self.OVERLAPPING, play=(1, 0), cards=FLIRTY))
        assert choices(state) == [(1, -1), (2, -2)]
        ENGINE.apply(state, 0, place_dweller("leaf_flirty", 2, -2))
        assert anchors(state, "leaf_flirty") == [(2, -2)]
        assert state.current == 1

    def test_no_block_sharing_a_cell_with_an_earlier_flirty(self):
        """Ambiguity 6: no cell serves two Flirty blocks."""
        built = build(
            self.OVERLAPPING, play=(1, -1), cards=FLIRTY, dwellers=[("leaf_flirty", (1, -1))]
        )
        state = played(built)
        assert anchors(state, "leaf_flirty") == [(1, -1)]

    def test_no_for_the_start_tile_itself(self):
        """Every start tile is a puddle and 3 colours; its own block never counts (as on BGA)."""
        for tile in START_TILES:
            board = Board([PlacedTile(tile.id, 0, 0)])
            assert len(set(board.terrain.values())) == 4
            assert options_for("leaf_flirty", board, [], 0, Options()) == []
        # In play: whatever is placed next to it, the start block (anchor (0, -1)) is never taken.
        start = ENGINE.setup(2, {"dwellers": FLIRTY}, seed=3)
        placements = 0
        for take in ENGINE.legal(start, start.current):
            taken = ENGINE.apply(ENGINE.decode(ENGINE.encode(start)), start.current, take)
            for action in ENGINE.legal(taken, taken.current):
                state = ENGINE.decode(ENGINE.encode(taken))
                ENGINE.apply(state, state.current, action)
                assert (0, -1) not in anchors(state, "leaf_flirty", start.current)
                placements += 1
        assert placements == 3 * 32


class TestLeafRunner:
    def test_scores_4_in_a_row(self):
        state = played(build("G* O | G* Y\nP  P | P  P", play=(1, 0), cards=RUNNER))
        assert arrived(state, "leaf_runner") == [(0, -1)]

    def test_scores_4_in_a_column(self):
        art = """
        P  G*
        P  O
        ----
        P  O*
        P  Y
        """
        state = played(build(art, play=(0, -1), cards=RUNNER))
        assert arrived(state, "leaf_runner") == [(0, 0)]

    def test_no_for_a_square_of_4(self):
        state = played(build(SQUARE, play=(0, -1), cards=RUNNER))
        assert anchors(state, "leaf_runner") == []

    def test_no_for_an_l_of_4(self):
        state = played(build(L_SHAPE, play=(0, -1), cards=RUNNER))
        assert anchors(state, "leaf_runner") == []

    def test_no_again_when_the_sector_grows(self):
        """Ambiguity 6: once per sector, even after it grows."""
        art = "G* O | G* Y\nP  P | P  P\nP  P | .  .\nY  O*| .  ."
        built = build(art, play=(0, -1), cards=RUNNER, dwellers=[("leaf_runner", (0, -1))])
        state = played(built)
        assert anchors(state, "leaf_runner") == [(0, -1)]
