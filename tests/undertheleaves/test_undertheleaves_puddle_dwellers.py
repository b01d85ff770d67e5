"""Dwellers of the puddles: Diver, Skipper, Friendly, Shy (ambiguities 6, 9, 10).

Each class is one card: ``test_scores_*`` are gardens that attract it,
``test_no_*`` gardens that must not. A tile holds at most one puddle, in a
corner, so puddles only ever meet around one grid point.
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

DIVER = ["leaf_restless", "puddle_diver", "mushroom_host"]
SKIPPER = ["leaf_restless", "puddle_skipper", "mushroom_host"]
FRIENDLY = ["leaf_restless", "puddle_friendly", "mushroom_host"]
SHY = ["leaf_restless", "puddle_shy", "mushroom_host"]

# Two puddles side by side across a tile edge.
SIDE_BY_SIDE = """
O  ~ | ~  Y
P  P | G  G
"""

# Two puddles touching at a corner: (1, -1) and (2, -2).
DIAGONAL = """
P  P  | G  O*
O  ~  | Y  Y
------+------
.  .  | ~  V
.  .  | G  G
"""

# The same with a third puddle at (0, -2), diagonal to (1, -1).
THREE_DIAGONAL = """
P  P  | G  O*
O  ~  | Y  Y
------+------
~  Y  | ~  V
V  V  | G  G
"""

# The puddle (1, -1) with its 8 neighbours, all terrain.
SURROUNDED = """
P  P  | G  O*
O  ~  | Y  Y
------+------
P* O  | G* Y
Y  Y  | O  O
"""


class TestPuddleDiver:
    def test_scores_two_orthogonally_connected_puddle_cells(self):
        state = played(build(SIDE_BY_SIDE, play=(1, 0), cards=DIVER))
        assert arrived(state, "puddle_diver") == [(1, 0)]
        assert xys(state.gardens[0].dwellers[0].cells) == {(1, 0), (2, 0)}

    def test_no_for_puddles_touching_only_at_a_corner(self):
        state = played(build(DIAGONAL, play=(1, -1), cards=DIVER))
        assert anchors(state, "puddle_diver") == []

    def test_no_for_a_single_puddle(self):
        state = played(build("O  ~ | Y* V\nP  P | P  P", play=(1, 0), cards=DIVER))
        assert anchors(state, "puddle_diver") == []

    def test_scores_corner_puddles_joined_by_a_third(self):
        art = DIAGONAL.replace(".  .  | ~  V\n.  .  | G  G", "Y  ~  | ~  V\nV  V  | G  G")
        state = played(build(art, play=(0, -1), cards=DIVER))
        assert arrived(state, "puddle_diver") == [(1, -1)]
        assert xys(state.gardens[0].dwellers[0].cells) == {(1, -1), (1, -2), (2, -2)}

    def test_no_again_when_the_puddle_grows(self):
        """Ambiguity 6: once per puddle, even after it grows."""
        art = """
        .  .  | O  O
        .  .  | ~  G
        ------+------
        O  ~  | ~  Y
        P  P  | G  G
        """
        built = build(art, play=(1, 0), cards=DIVER, dwellers=[("puddle_diver", (1, -2))])
        state = played(built)
        assert anchors(state, "puddle_diver") == [(1, -2)]


class TestPuddleSkipper:
    def test_scores_puddle_terrain_puddle_in_a_row(self):
        state = played(build("O  ~ | Y  ~\nP  P | G  G", play=(1, 0), cards=SKIPPER))
        assert arrived(state, "puddle_skipper") == [(2, 0)]

    def test_scores_puddle_terrain_puddle_in_a_column(self):
        state = played(build("~  O\nP  P\n~  Y\nG  G", play=(0, -1), cards=SKIPPER))
        assert arrived(state, "puddle_skipper") == [(0, -1)]

    def test_no_with_two_cells_between_the_puddles(self):
        art = "O  ~ | O* Y | ~  V\nP  P | P  P | Y  Y"
        state = played(build(art, play=(2, 0), cards=SKIPPER))
        assert anchors(state, "puddle_skipper") == []

    def test_no_for_corner_puddles(self):
        state = played(build(DIAGONAL, play=(1, -1), cards=SKIPPER))
        assert anchors(state, "puddle_skipper") == []

    def test_no_again_for_the_same_middle_on_a_later_turn(self):
        """Ambiguity 6: each middle cell once."""
        art = "O  ~ | Y  ~\nP  P | G  G\nY  Y | .  .\nO* G | .  ."
        built = build(art, play=(0, -1), cards=SKIPPER, dwellers=[("puddle_skipper", (2, 0))])
        state = played(built)
        assert anchors(state, "puddle_skipper") == [(2, 0)]

    def test_scores_a_new_middle_that_reuses_a_puddle(self):
        """Ambiguity 6: the puddles may serve other middles."""
        art = "O  ~ | Y  ~ | V  ~\nP  P | G  G | Y  Y"
        built = build(art, play=(2, 0), cards=SKIPPER, dwellers=[("puddle_skipper", (2, 0))])
        state = played(built)
        assert arrived(state, "puddle_skipper") == [(4, 0)]  # (3, 0) serves both lines


class TestPuddleFriendly:
    def test_scores_on_the_puddle_the_player_chooses(self):
        state = played(build(DIAGONAL, play=(1, -1), cards=FRIENDLY))
        assert state.phase == st.PLACE_DWELLER and state.pending_card == "puddle_friendly"
        assert choices(state) == [(1, -1), (2, -2)]
        ENGINE.apply(state, 0, place_dweller("puddle_friendly", 2, -2))
        assert anchors(state, "puddle_friendly") == [(2, -2)]
        assert state.phase == st.TAKE_TILE and state.current == 1

    def test_no_for_orthogonally_adjacent_puddles(self):
        state = played(build(SIDE_BY_SIDE, play=(1, 0), cards=FRIENDLY))
        assert anchors(state, "puddle_friendly") == []
        assert state.phase == st.TAKE_TILE

    def test_scores_again_with_the_empty_puddle_of_an_earlier_pair(self):
        """Ambiguities 6 and 10: the empty partner of a pair may pair again."""
        built = build(
            THREE_DIAGONAL, play=(0, -1), cards=FRIENDLY, dwellers=[("puddle_friendly", (2, -2))]
        )
        state = played(built)
        assert choices(state) == [(1, -1), (0, -2)]
        ENGINE.apply(state, 0, place_dweller("puddle_friendly", 0, -2))
        assert anchors(state, "puddle_friendly") == [(2, -2), (0, -2)]

    def test_no_when_the_shared_puddle_holds_the_friendly(self):
        """Ambiguity 6: a pair qualifies only if neither puddle holds a Friendly."""
        built = build(
            THREE_DIAGONAL, play=(0, -1), cards=FRIENDLY, dwellers=[("puddle_friendly", (1, -1))]
        )
        state = played(built)
        assert anchors(state, "puddle_friendly") == [(1, -1)]
        assert state.phase == st.TAKE_TILE

    def test_ambiguity_10_the_choice_decides_what_pairs_again(self):
        # Two pairs share (1, -1): a piece there ends both; a piece at an end leaves the other pair.
        state = played(build(THREE_DIAGONAL, play=(0, -1), cards=FRIENDLY))
        assert choices(state) == [(1, -1), (0, -2), (2, -2)]
        shared = ENGINE.decode(ENGINE.encode(state))
        ENGINE.apply(shared, 0, place_dweller("puddle_friendly", 1, -1))
        assert anchors(shared, "puddle_friendly") == [(1, -1)]
        assert shared.phase == st.TAKE_TILE
        ENGINE.apply(state, 0, place_dweller("puddle_friendly", 0, -2))
        assert choices(state) == [(1, -1), (2, -2)]
        ENGINE.apply(state, 0, place_dweller("puddle_friendly", 1, -1))
        assert anchors(state, "puddle_friendly") == [(0, -2), (1, -1)]


class TestPuddleShy:
    def test_scores_a_puddle_whose_8_neighbours_are_terrain(self):
        """Ambiguity 9: all 8 neighbours exist and are terrain."""
        state = played(build(SURROUNDED, play=(1, -1), cards=SHY))
        assert arrived(state, "puddle_shy") == [(1, -1)]

    def test_no_with_a_puddle_among_the_neighbours(self):
        """Ambiguity 9: Shy needs all 8 neighbours to be terrain."""
        art = SURROUNDED.replace("G* Y", "~  Y")
        state = played(build(art, play=(1, -1), cards=SHY))
        assert anchors(state, "puddle_shy") == []

    def test_no_while_a_neighbour_is_missing(self):
        """Ambiguity 9: all 8 neighbours must exist."""
        art = SURROUNDED.replace("G* Y", ".  .").replace("O  O\n", ".  .\n")
        state = played(build(art, play=(0, -1), cards=SHY))
        assert anchors(state, "puddle_shy") == []

    def test_no_again_for_the_same_puddle(self):
        """Ambiguity 6: once per puddle cell."""
        art = SURROUNDED + "V* Y  | .  .\nO  O  | .  ."
        built = build(art, play=(0, -2), cards=SHY, dwellers=[("puddle_shy", (1, -1))])
        state = played(built)
        assert anchors(state, "puddle_shy") == [(1, -1)]
