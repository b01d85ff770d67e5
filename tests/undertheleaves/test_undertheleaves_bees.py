"""Phase 2, Bees: pollinized sectors (rulebook "Bees" and ambiguity 3)."""

import pytest
from undertheleaves_builder import build, played, xys

from services.undertheleaves.rules.board import Board, PlacedTile
from services.undertheleaves.rules.catalogue import GARDEN_TILES, ROTATIONS


def bees(state, seat=0):
    """(colour, sector size, bees) of every bee sector, sorted."""
    return sorted((b.colour, len(b.cells), b.bees) for b in state.gardens[seat].bee_sectors)


# A pink pair (T01) and a tile adding one pink cell beside it: 3 pink in a row.
THREE_PINK = """
G* O  | Y  Y
P  P  | P  V*
"""


def test_rule_bees_a_new_sector_of_3_same_colour_cells_attracts_a_bee():
    assert bees(played(build(THREE_PINK, play=(1, 0)))) == [("pink", 3, 1)]


def test_rule_bees_two_same_colour_cells_attract_nothing():
    state = played(build("G* O | Y  Y\nP  P | G  O*", play=(1, 0)))
    assert bees(state) == []


def test_rule_bees_sectors_are_orthogonal_diagonal_cells_do_not_join():
    art = """
    G* O  | Y  Y
    P  P  | O* G
    ------+------
    .  .  | P* V
    .  .  | G  G
    """
    # (2, -2) touches the pink pair only at a corner.
    assert bees(played(build(art, play=(1, -1)))) == []


def test_ambiguity_3_a_sector_that_grows_keeps_its_bees_and_gains_none():
    art = THREE_PINK + "P  P  | .  .\nY  O* | .  ."
    state = build(art, play=(0, -1), bees={(0, -1): 2})
    assert bees(state.state) == [("pink", 3, 2)]
    assert bees(played(state)) == [("pink", 5, 2)]


MERGE = """
G* O  | Y  Y
P  P  | P  V*
------+------
P  Y* | .  .
P  V  | .  .
------+------
P  P  | P* V
Y  O* | G  G
"""


def test_ambiguity_3_merging_sectors_combines_their_bees_and_adds_none():
    built = build(MERGE, play=(0, -1), bees={(0, -1): 2, (0, -4): 1})
    assert bees(built.state) == [("pink", 3, 1), ("pink", 3, 2)]
    assert bees(played(built)) == [("pink", 8, 3)]


BONUS = """
G* O  | Y  Y
P  P  | P  V*
------+------
O  V* | .  .
G  G  | .  .
------+------
P  P  | P* V
Y  O* | G  G
"""


def test_rule_bees_a_new_sector_gives_each_older_sector_of_its_colour_a_bee():
    built = build(BONUS, play=(1, -2))
    assert bees(built.state) == [("pink", 3, 1)]
    # The new pink sector gets 1 bee and the older pink sector 1 more.
    assert bees(played(built)) == [("pink", 3, 1), ("pink", 3, 2)]


def test_rule_bees_a_new_sector_of_another_colour_leaves_older_sectors_alone():
    art = """
    G* O  | Y  Y
    P  P  | P  V*
    ------+------
    O  O  | O* G
    Y  V* | Y  Y
    """
    built = build(art, play=(1, -1))
    assert bees(built.state) == [("pink", 3, 1)]
    assert bees(played(built)) == [("orange", 3, 1), ("pink", 3, 1)]


FLAG = """
G* O  | Y  Y  | ~  Y  | O* V  | V  V
P  P  | P  V* | O  O  | P  P  | P* Y
------+-------+-------+-------+------
O  V* | .  .  | .  .  | .  .  | .  .
G  G  | .  .  | .  .  | .  .  | .  .
------+-------+-------+-------+------
P  P  | P* V  | .  .  | .  .  | .  .
Y  O* | G  G  | .  .  | .  .  | .  .
"""


@pytest.mark.parametrize(("once", "older_bees"), [(True, 2), (False, 3)])
def test_ambiguity_3_several_new_sectors_of_a_colour_give_older_ones_one_bee_per_turn(
    once, older_bees
):
    """Option existing_sector_bonus_once_per_colour_per_turn (default true).

    With real tiles this cannot happen in play (see the next test), so the
    state is built with a second pink sector that was never checked.
    """
    options = {"existing_sector_bonus_once_per_colour_per_turn": once}
    built = build(FLAG, play=(1, -2), bees={(6, -1): 0}, options=options)
    assert ("pink", 3, 1) in bees(built.state)  # the older sector; (6, -1) has none yet
    after = played(built).gardens[0].bee_sectors
    pink = {min(xys(b.cells)): b.bees for b in after if b.colour == "pink"}
    assert pink == {(0, -1): older_bees, (6, -1): 1, (0, -4): 1}


def test_ambiguity_3_one_tile_never_starts_two_sectors_of_one_colour():
    """Every colour's cells on a tile are connected, so a placement starts at
    most one new sector per colour: the flag above only matters for built states."""
    for tile in GARDEN_TILES:
        for rotation in ROTATIONS:
            board = Board([PlacedTile(tile.id, 0, 0, rotation)])
            colours = [g.terrain for g in board.sectors]
            assert len(colours) == len(set(colours)), tile.id


def test_rule_bees_no_limit_on_bees_per_sector_and_ambiguity_13_unlimited_pieces():
    built = build(BONUS, play=(1, -2), bees={(0, -1): 99})
    assert bees(played(built)) == [("pink", 3, 1), ("pink", 3, 100)]


def test_ambiguity_3_a_bee_sector_lies_inside_the_sector_of_its_first_cell():
    """Settling bees (ambiguity 3) finds each earlier bee sector inside the sector that
    now holds its first cell: the quick check (colour, size, last cell) gives exactly
    the full cell-by-cell check after every placement of random games."""
    from undertheleaves_builder import random_decisions

    from services.undertheleaves.rules.creatures import lies_inside

    checked = 0
    for state in random_decisions(12):
        for garden in state.gardens:
            board = garden.get_board()
            for record in garden.bee_sectors:
                for group in {*board.sectors}:
                    if record.cells[0] in group.cells:
                        full = group.terrain == record.colour and len(group.cells) >= 3
                        full = full and group.cells.issuperset(record.cells)
                        assert lies_inside(record, group) == full
                        checked += 1
    assert checked > 1000
