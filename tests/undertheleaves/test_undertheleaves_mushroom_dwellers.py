"""Dwellers of the mushrooms: Host, Explorer, Collector, Loner (ambiguities 6, 8, 9, 10).

Each class is one card: ``test_scores_*`` are gardens that attract it,
``test_no_*`` gardens that must not.
"""

from undertheleaves_builder import (
    ENGINE,
    anchors,
    arrived,
    build,
    choices,
    place_dweller,
    played,
    xys,
)

from services.undertheleaves.rules import state as st

HOST = ["leaf_restless", "puddle_shy", "mushroom_host"]
EXPLORER = ["leaf_restless", "puddle_shy", "mushroom_explorer"]
COLLECTOR = ["leaf_restless", "puddle_shy", "mushroom_collector"]
LONER = ["leaf_restless", "puddle_shy", "mushroom_loner"]

# Two pink mushrooms side by side: a pink sector of 2 cells.
TWO_PINK_MUSHROOMS = """
O  P* | P* V
Y  Y  | G  G
"""

# Three mushrooms in row y=0 at x = 0, 2, 4.
ROW = """
G* O  | O* Y  | Y* V
P  P  | P  P  | P  P
"""

# Two mushrooms touching at a corner: (1, -1) and (2, -2).
DIAGONAL = """
P  P  | ~  Y
O  G* | G  G
------+------
.  .  | Y* V
.  .  | P  P
"""

# The mushroom (1, -1) with its 8 neighbours: puddles, no mushrooms.
SURROUNDED = """
P  P  | ~  Y
O  G* | G  G
------+------
~  O  | Y  ~
V  V  | P  P
"""


class TestMushroomHost:
    def test_scores_a_sector_with_2_mushrooms_even_unpollinized(self):
        state = played(build(TWO_PINK_MUSHROOMS, play=(1, 0), cards=HOST))
        assert arrived(state, "mushroom_host") == [(1, 0)]
        assert xys(state.gardens[0].dwellers[0].cells) == {(1, 0), (2, 0)}
        assert state.gardens[0].bee_sectors == ()

    def test_no_for_adjacent_mushrooms_of_different_colours(self):
        state = played(build("O  P* | O* P\nY  Y  | G  G", play=(1, 0), cards=HOST))
        assert anchors(state, "mushroom_host") == []

    def test_no_for_same_colour_mushrooms_touching_at_a_corner(self):
        art = """
        P  P  | ~  Y
        O  G* | O  O
        ------+------
        .  .  | G* V
        .  .  | Y  Y
        """
        state = played(build(art, play=(1, -1), cards=HOST))
        assert anchors(state, "mushroom_host") == []

    def test_no_again_when_the_sector_grows(self):
        """Ambiguity 6: once per sector, even after it grows."""
        art = """
        .  .  | V  V
        .  .  | P* Y
        ------+------
        O  P* | P* V
        Y  Y  | G  G
        """
        built = build(art, play=(1, 0), cards=HOST, dwellers=[("mushroom_host", (1, -2))])
        state = played(built)
        assert anchors(state, "mushroom_host") == [(1, -2)]
        assert len(state.gardens[0].bee_sectors[0].cells) == 3


class TestMushroomExplorer:
    def test_scores_3_mushrooms_in_a_row_on_the_middle_one(self):
        state = played(build(ROW, play=(2, 0), cards=EXPLORER))
        assert arrived(state, "mushroom_explorer") == [(2, 0)]

    def test_scores_in_a_column(self):
        art = "G* O\nP  P\nO* Y\nP  P\nY* V\nP  P"
        state = played(build(art, play=(0, -2), cards=EXPLORER))
        assert arrived(state, "mushroom_explorer") == [(0, -2)]

    def test_scores_at_any_distance(self):
        art = "G* O | ~  Y | O* Y | Y* V\nP  P | G  G | P  P | P  P"
        state = played(build(art, play=(3, 0), cards=EXPLORER))
        assert arrived(state, "mushroom_explorer") == [(4, 0)]

    def test_no_with_only_2_mushrooms_in_line(self):
        state = played(build("G* O | O* Y\nP  P | P  P", play=(1, 0), cards=EXPLORER))
        assert anchors(state, "mushroom_explorer") == []

    def test_ambiguity_8_no_on_a_diagonal_line(self):
        art = """
        G* O  | ~  Y  | .  .
        P  P  | G  G  | .  .
        ------+-------+------
        .  .  | O* Y  | ~  V
        .  .  | P  P  | G  G
        ------+-------+------
        .  .  | .  .  | Y* V
        .  .  | .  .  | P  P
        """
        state = played(build(art, play=(2, -2), cards=EXPLORER))
        assert anchors(state, "mushroom_explorer") == []

    def test_scores_a_new_line_reusing_an_end_mushroom(self):
        """Ambiguity 6: mushrooms without an Explorer may serve new lines."""
        art = ROW.replace("Y* V\n", "Y* V  | V* G\n").replace("P  P\n", "P  P  | P  P\n")
        built = build(art, play=(3, 0), cards=EXPLORER, dwellers=[("mushroom_explorer", (2, 0))])
        state = played(built)
        # (0, 0) ends both lines; (2, 0) holds an Explorer, so the line is 0, 4, 6.
        assert arrived(state, "mushroom_explorer") == [(4, 0)]

    COLUMN_UNDER_THE_MIDDLE = """
    G* O  | O* Y  | Y* V
    P  P  | P  P  | P  P
    ------+-------+------
    .  .  | V* O  | .  .
    .  .  | G  G  | .  .
    ------+-------+------
    .  .  | Y* P  | .  .
    .  .  | G  G  | .  .
    """

    def test_no_line_ending_on_a_mushroom_that_holds_an_explorer(self):
        """Ambiguity 6: a mushroom holding an Explorer never serves again, not even as an end."""
        built = build(
            self.COLUMN_UNDER_THE_MIDDLE,
            play=(1, -2),
            cards=EXPLORER,
            dwellers=[("mushroom_explorer", (2, 0))],
        )
        state = played(built)
        # (2, -2) is between (2, 0) and (2, -4), but (2, 0) holds an Explorer.
        assert anchors(state, "mushroom_explorer") == [(2, 0)]

    def test_ambiguity_6_a_piece_placed_this_turn_counts_at_once(self):
        # Both middles are new: an Explorer on (2, 0) first would end the column's line,
        # so the order matters and the player chooses; the column first keeps both.
        state = played(build(self.COLUMN_UNDER_THE_MIDDLE, play=(1, -2), cards=EXPLORER))
        assert state.phase == st.PLACE_DWELLER
        assert choices(state) == [(2, 0), (2, -2)]
        ENGINE.apply(state, 0, place_dweller("mushroom_explorer", 2, -2))
        assert anchors(state, "mushroom_explorer") == [(2, -2), (2, 0)]


class TestMushroomCollector:
    def test_scores_on_the_mushroom_the_player_chooses(self):
        state = played(build(DIAGONAL, play=(1, -1), cards=COLLECTOR))
        assert state.phase == st.PLACE_DWELLER and state.pending_card == "mushroom_collector"
        assert choices(state) == [(1, -1), (2, -2)]
        ENGINE.apply(state, 0, place_dweller("mushroom_collector", 1, -1))
        assert anchors(state, "mushroom_collector") == [(1, -1)]
        assert state.current == 1

    def test_no_for_orthogonally_adjacent_mushrooms(self):
        state = played(build(TWO_PINK_MUSHROOMS, play=(1, 0), cards=COLLECTOR))
        assert anchors(state, "mushroom_collector") == []

    THIRD = """
    P  P  | ~  Y
    O  G* | G  G
    ------+------
    O* V  | Y* V
    Y  Y  | P  P
    """

    def test_scores_again_with_the_empty_mushroom_of_an_earlier_pair(self):
        """Ambiguities 6 and 10: the empty partner of a pair may pair again."""
        built = build(
            self.THIRD, play=(0, -1), cards=COLLECTOR, dwellers=[("mushroom_collector", (2, -2))]
        )
        state = played(built)
        assert choices(state) == [(1, -1), (0, -2)]
        ENGINE.apply(state, 0, place_dweller("mushroom_collector", 1, -1))
        assert anchors(state, "mushroom_collector") == [(2, -2), (1, -1)]

    def test_no_when_the_shared_mushroom_holds_the_collector(self):
        """Ambiguity 6: a pair qualifies only if neither mushroom holds a Collector."""
        built = build(
            self.THIRD, play=(0, -1), cards=COLLECTOR, dwellers=[("mushroom_collector", (1, -1))]
        )
        state = played(built)
        assert anchors(state, "mushroom_collector") == [(1, -1)]
        assert state.phase == st.TAKE_TILE


class TestMushroomLoner:
    def test_scores_a_mushroom_with_8_neighbours_none_a_mushroom_puddles_allowed(self):
        """Ambiguity 9: all 8 neighbours exist; puddles are fine, mushrooms are not."""
        state = played(build(SURROUNDED, play=(1, -1), cards=LONER))
        assert arrived(state, "mushroom_loner") == [(1, -1)]
        board_puddles = [c for t in state.gardens[0].tiles for c, s in t.spaces() if s.is_puddle]
        assert {(0, -2), (2, 0)} <= xys(board_puddles)  # two of its neighbours

    def test_no_with_a_mushroom_among_the_neighbours(self):
        """Ambiguity 9: no mushroom among the 8 neighbours."""
        art = """
        P  P  | ~  Y
        O  G* | G  G
        ------+------
        ~  O  | Y* V
        V  V  | P  P
        """
        state = played(build(art, play=(1, -1), cards=LONER))
        assert anchors(state, "mushroom_loner") == []

    def test_no_while_a_neighbour_is_missing(self):
        """Ambiguity 9: all 8 neighbours must exist."""
        art = SURROUNDED.replace("Y  ~", ".  .").replace("P  P\n", ".  .\n")
        state = played(build(art, play=(0, -1), cards=LONER))
        assert anchors(state, "mushroom_loner") == []

    def test_no_again_for_the_same_mushroom(self):
        """Ambiguity 6: once per mushroom."""
        art = SURROUNDED + "Y* P  | .  .\nO  O  | .  ."
        built = build(art, play=(0, -2), cards=LONER, dwellers=[("mushroom_loner", (1, -1))])
        state = played(built)
        assert anchors(state, "mushroom_loner") == [(1, -1)]
