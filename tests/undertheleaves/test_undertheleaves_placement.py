"""Phase 1: taking a market tile, then placing it (rotation, flip, adjacency)."""

import pytest
from undertheleaves_builder import (
    ENGINE,
    NO_CHOICE,
    build,
    place_tile,
    play_legal,
    play_turn,
    take_tile,
)

from services.core.engine import Action, IllegalAction
from services.undertheleaves.rules import state as st
from services.undertheleaves.rules.board import Board, cell_id
from services.undertheleaves.rules.catalogue import (
    FACES,
    GARDEN_TILES,
    OFFERED,
    ORIENTATIONS,
    ROTATIONS,
    TILES,
    Space,
    distinct_orientations,
    oriented,
)


def raw_action(kind, **args):
    return Action(kind, tuple(args.items()))


def copy(state):
    return ENGINE.decode(ENGINE.encode(state))


def rejected(state, action, seat=None):
    """The reason ``action`` is rejected; also checks the state did not change."""
    before = ENGINE.encode(state)
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, state.current if seat is None else seat, action)
    assert ENGINE.encode(state) == before
    return caught.value.reason


def cells_of(state, seat, x, y):
    garden = ENGINE.view(state, None)["gardens"][seat]
    tile = next(t for t in garden["tiles"] if (t["x"], t["y"]) == (x, y))
    return list(zip(tile["terrains"], tile["mushrooms"], strict=True))


def taken(seed=2, slot=0, **options):
    """A new 2-player game where the first seat has taken the tile in ``slot``."""
    state = ENGINE.setup(2, options, seed=seed)
    ENGINE.apply(state, state.current, take_tile(slot))
    return state


def test_rule_placement_any_of_the_3_market_tiles_next_to_the_start_tile():
    start = ENGINE.setup(2, {}, seed=2)
    takes = ENGINE.legal(start, start.current)
    assert [(a.kind, a.arg("slot")) for a in takes] == [("take_tile", s) for s in (0, 1, 2)]
    assert [a.label for a in takes] == [f"Take {t} (slot {s})" for s, t in enumerate(start.market)]
    for take in takes:
        state = ENGINE.apply(copy(start), start.current, take)
        legal = ENGINE.legal(state, state.current)
        assert {a.kind for a in legal} == {"place_tile"}
        assert {(a.arg("x"), a.arg("y")) for a in legal} == {(1, 0), (-1, 0), (0, 1), (0, -1)}
        # Colours need not match: every side, every orientation.
        assert len(legal) == 4 * 4 * 2
        assert len({a.key() for a in legal}) == len(legal)


def test_rule_placement_a_turn_is_take_tile_then_place_tile_by_the_same_seat():
    state = ENGINE.setup(2, NO_CHOICE, seed=2)
    seat, market = state.current, list(state.market)
    assert state.phase == st.TAKE_TILE and ENGINE.view(state, None)["phase"] == "PHASE_TAKE_TILE"
    ENGINE.apply(state, seat, take_tile(2))
    assert (state.phase, state.taken_tile, state.market) == (st.PLACE_TILE, market[2], market[:2])
    assert ENGINE.to_act(state) == [seat]
    view = ENGINE.view(state, 1 - seat)
    assert view["phase"] == "PHASE_PLACE_TILE"
    assert view["taken_tile"] == market[2]
    assert view["taken_spaces"] == [
        {"terrain": f"TERRAIN_{s.terrain.upper()}", "mushroom": s.mushroom}
        for s in TILES[market[2]].face
    ]
    assert [m["tile"] for m in view["market"]] == market[:2]
    ENGINE.apply(state, seat, place_tile(1, 0, 90))
    assert state.gardens[seat].tiles[-1] == (market[2], 1, 0, 90, False)
    assert (state.phase, state.taken_tile, state.current) == (st.TAKE_TILE, "", 1 - seat)


def test_rule_placement_needs_a_full_side_adjacent_to_a_placed_tile():
    state = taken()
    assert rejected(state, place_tile(1, 1)) == "TILE_NOT_ADJACENT"  # corner to corner only
    assert rejected(state, place_tile(2, 0)) == "TILE_NOT_ADJACENT"  # a gap
    seat = state.current
    ENGINE.apply(state, seat, place_tile(1, 0))
    # Later, next to any placed tile, including the new one.
    play_turn(state, 0, 0, 1)
    ENGINE.apply(state, seat, take_tile(0))
    legal = {(a.arg("x"), a.arg("y")) for a in ENGINE.legal(state, seat)}
    assert legal == {(-1, 0), (0, 1), (0, -1), (2, 0), (1, 1), (1, -1)}


def test_rule_placement_position_must_be_empty():
    assert rejected(taken(), place_tile(0, 0)) == "POSITION_OCCUPIED"


def test_rule_placement_tile_leaves_market_and_market_refills_from_bag():
    state = ENGINE.setup(2, {}, seed=2)
    seat, chosen, rest = state.current, state.market[1], [state.market[0], state.market[2]]
    drawn = state.bag[-1]
    play_turn(state, 1, 0, -1)
    assert state.gardens[seat].tiles[-1].tile == chosen
    assert state.market == [*rest, drawn]
    assert len(state.bag) == 26 - 3 - 1


def test_rule_turn_passes_clockwise_to_the_next_seat():
    state = ENGINE.setup(3, NO_CHOICE, seed=8)
    order = []
    for _ in range(6):
        order.append(state.current)
        play_turn(state, 0, 0, -len(state.gardens[state.current].tiles))
    first = order[0]
    assert order == [(first + i) % 3 for i in range(6)]


def test_rule_rotation_turns_the_tile_clockwise():
    # T01 as printed: tl green+mushroom, tr orange, bl pink, br pink.
    state = build("~ P\nV Y*", bag=5).state
    assert state.market[0] == "T01"
    play_turn(state, 0, 1, 0, rotation=90)
    pink, green, orange = (
        ("TERRAIN_PINK", False),
        ("TERRAIN_GREEN", True),
        ("TERRAIN_ORANGE", False),
    )
    assert cells_of(state, 0, 1, 0) == [pink, green, pink, orange]
    # The view's lists are in reading order: tl=(2x, 2y), tr=(2x+1, 2y), bl=(2x, 2y-1),
    # br=(2x+1, 2y-1); for the tile at (1, 0): (2, 0), (3, 0), (2, -1), (3, -1).
    board = Board(state.gardens[0].tiles)
    at = [(2, 0), (3, 0), (2, -1), (3, -1)]
    assert [board.terrain[cell_id(x, y)] for x, y in at] == ["pink", "green", "pink", "orange"]
    assert [cell_id(x, y) in board.mushrooms for x, y in at] == [False, True, False, False]


@pytest.mark.parametrize("rotation", [45, 360, -90])
def test_rule_rotation_is_0_90_180_or_270(rotation):
    assert rejected(taken(), place_tile(1, 0, rotation=rotation)) == "BAD_ROTATION"


def test_ambiguity_1_flip_mirrors_the_tile_left_to_right_after_rotating():
    state = build("~ P\nV Y*", bag=5).state
    assert state.market[0] == "T01"
    play_turn(state, 0, 1, 0, rotation=90, flipped=True)
    pink, green, orange = (
        ("TERRAIN_PINK", False),
        ("TERRAIN_GREEN", True),
        ("TERRAIN_ORANGE", False),
    )
    assert cells_of(state, 0, 1, 0) == [green, pink, orange, pink]
    assert ENGINE.view(state, 0)["gardens"][0]["tiles"][1]["flipped"] is True


def test_ambiguity_1_flip_gives_8_distinct_orientations_of_every_garden_tile():
    for tile in GARDEN_TILES:
        faces = {oriented(tile.id, r, f) for r in ROTATIONS for f in (False, True)}
        assert len(faces) == 8, tile.id
        assert OFFERED[tile.id] == {True: ORIENTATIONS, False: ORIENTATIONS[::2]}


def test_ambiguity_1_allow_flip_false_forbids_flipped_placements():
    state = taken(allow_flip=False)
    legal = ENGINE.legal(state, state.current)
    assert len(legal) == 4 * 4
    assert not any(a.arg("flipped") for a in legal)
    assert rejected(state, place_tile(1, 0, flipped=True)) == "FLIP_NOT_ALLOWED"
    ENGINE.apply(state, state.current, place_tile(1, 0, rotation=270))


def test_rule_placement_every_distinct_face_is_offered_once():
    """Orientations showing the same face are offered once (the first in rotation order).

    Every real tile has 8 distinct faces, so this only shows on a made-up face."""
    p, y = Space("pink"), Space("yellow")
    assert distinct_orientations((p, p, p, p), True) == ((0, False),)
    # Mirror-symmetric (pink above yellow): a flip shows what a turn shows; 4 faces.
    assert distinct_orientations((p, p, y, y), True) == (
        (0, False),
        (90, False),
        (90, True),
        (180, False),
    )
    assert distinct_orientations((p, p, y, y), False) == tuple((r, False) for r in ROTATIONS)
    # Symmetric under a half turn.
    assert distinct_orientations((p, y, y, p), False) == ((0, False), (90, False))
    assert distinct_orientations((p, y, y, p), True) == ((0, False), (0, True))
    face = (p, Space("green", True), y, Space("orange"))
    assert distinct_orientations(face, True) == ORIENTATIONS


def test_rule_placement_an_orientation_not_offered_is_rejected(monkeypatch):
    """As if the taken tile showed the same face rotated 180° as unrotated."""
    state = taken(slot=0)
    tile = state.taken_tile
    offered = tuple(o for o in ORIENTATIONS if o != (180, False))
    monkeypatch.setitem(OFFERED[tile], True, offered)
    monkeypatch.setitem(FACES[tile], (180, False), FACES[tile][(0, False)])
    legal = ENGINE.legal(state, state.current)
    assert (180, False) not in {(a.arg("rotation"), a.arg("flipped")) for a in legal}
    assert len(legal) == 4 * 7
    assert rejected(state, place_tile(1, 0, 180)) == "DUPLICATE_ORIENTATION"


def test_rule_placement_illegal_actions_are_rejected_without_change():
    state = ENGINE.setup(2, {}, seed=2)
    seat = state.current
    assert rejected(state, take_tile(0), seat=1 - seat) == "NOT_YOUR_TURN"
    assert rejected(state, take_tile(3)) == "NO_SUCH_SLOT"
    assert rejected(state, take_tile(-1)) == "NO_SUCH_SLOT"
    assert rejected(state, raw_action("place_dweller", card="puddle_diver", x=0, y=0)) == (
        "UNEXPECTED_ACTION"
    )
    assert rejected(state, place_tile(1, 0)) == "UNEXPECTED_ACTION"  # take a tile first
    assert rejected(state, raw_action("take_tile")) == "BAD_ARGS"
    assert rejected(state, raw_action("take_tile", slot=True)) == "BAD_ARGS"
    assert rejected(state, raw_action("take_tile", slot=0, x=1)) == "BAD_ARGS"
    ENGINE.apply(state, seat, take_tile(0))
    assert rejected(state, place_tile(1, 0), seat=1 - seat) == "NOT_YOUR_TURN"
    assert rejected(state, take_tile(0)) == "UNEXPECTED_ACTION"  # one tile per turn
    assert rejected(
        state, raw_action("place_tile", slot=0, x=1, y=0, rotation=0, flipped=False)
    ) == ("BAD_ARGS")
    assert rejected(state, raw_action("place_tile", x=1, y=0)) == "BAD_ARGS"
    assert rejected(state, raw_action("place_tile", x=1, y=0, rotation=0, flipped=0)) == "BAD_ARGS"
    assert rejected(state, raw_action("place_tile", x=1.0, y=0, rotation=0, flipped=False)) == (
        "BAD_ARGS"
    )


def test_rule_placement_legal_list_is_exactly_what_apply_accepts():
    state = ENGINE.setup(2, NO_CHOICE, seed=21)
    for _ in range(6):  # grow the gardens a little
        play_legal(state, state.current, pick=17)
    assert state.phase == st.TAKE_TILE
    legal = {a.key() for a in ENGINE.legal(state, state.current)}
    accepted = set()
    for slot in range(-1, 4):
        action = take_tile(slot)
        try:
            ENGINE.apply(copy(state), state.current, action)
        except IllegalAction:
            continue
        accepted.add(action.key())
    assert accepted == legal and len(legal) == 3
    ENGINE.apply(state, state.current, take_tile(1))
    legal = {a.key() for a in ENGINE.legal(state, state.current)}
    accepted = set()
    for x in range(-5, 6):
        for y in range(-5, 6):
            for rotation in (0, 90, 180, 270, 30):
                for flipped in (False, True):
                    action = place_tile(x, y, rotation, flipped)
                    try:
                        ENGINE.apply(copy(state), state.current, action)
                    except IllegalAction:
                        continue
                    accepted.add(action.key())
    assert accepted == legal


def test_each_cell_of_a_tile_leads_back_to_its_tile():
    """Coordinates (data README): the tile at (x, y) holds cells (2x, 2y), (2x+1, 2y),
    (2x, 2y-1) and (2x+1, 2y-1); ``tile_of`` finds (x, y) again from each of them."""
    from services.undertheleaves.rules.board import tile_cells, tile_of

    for x in range(-12, 13):
        for y in range(-12, 13):
            assert {tile_of(cell) for cell in tile_cells(x, y)} == {(x, y)}
