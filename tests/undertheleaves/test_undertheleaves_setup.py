"""Components, setup and options."""

from collections import Counter

import pytest
from undertheleaves_builder import ENGINE

from services.core.engine import OptionError
from services.undertheleaves.rules.board import PlacedTile
from services.undertheleaves.rules.catalogue import (
    CARDS,
    CARDS_BY_FAMILY,
    COLOURS,
    GARDEN_TILES,
    START_TILES,
)


def test_rule_components_50_garden_tiles_and_4_start_tiles():
    assert len(GARDEN_TILES) == 50
    assert len(START_TILES) == 4
    assert len({t.id for t in (*GARDEN_TILES, *START_TILES)}) == 54
    with_puddle = [t for t in GARDEN_TILES if any(s.is_puddle for s in t.face)]
    assert len(with_puddle) == 20
    assert all(sum(s.mushroom for s in t.face) == 0 for t in with_puddle)
    assert all(sum(s.mushroom for s in t.face) == 1 for t in GARDEN_TILES if t not in with_puddle)
    spaces = Counter(s.terrain for t in GARDEN_TILES for s in t.face)
    assert spaces == {**dict.fromkeys(COLOURS, 36), "puddle": 20}
    mushrooms = Counter(s.terrain for t in GARDEN_TILES for s in t.face if s.mushroom)
    assert mushrooms == dict.fromkeys(COLOURS, 6)
    for tile in START_TILES:
        tl, tr, bl, br = tile.face
        assert tl.is_puddle and br.mushroom
        assert len({tr.terrain, bl.terrain, br.terrain}) == 3


def test_rule_components_12_dweller_cards_4_per_family():
    assert len(CARDS) == 12
    assert {f: len(ids) for f, ids in CARDS_BY_FAMILY.items()} == {
        "leaf": 4,
        "puddle": 4,
        "mushroom": 4,
    }
    assert {c.id for c in CARDS.values() if c.first_game} == {
        "leaf_thoughtful",
        "puddle_diver",
        "mushroom_host",
    }


@pytest.mark.parametrize(("players", "bag_size"), [(2, 26), (3, 38), (4, 50)])
def test_rule_setup_bag_holds_26_38_50_tiles_by_player_count(players, bag_size):
    state = ENGINE.setup(players, {}, seed=11)
    # 3 of the tiles in play are drawn face up into the market.
    assert len(state.market) == 3
    assert len(state.bag) + len(state.market) == bag_size
    assert len(set(state.bag) | set(state.market)) == bag_size
    assert ENGINE.view(state, 0)["bag_count"] == bag_size - 3


def test_rule_setup_removed_tiles_differ_between_seeds():
    bags = {frozenset(ENGINE.setup(2, {}, seed=s).bag) for s in range(20)}
    assert len(bags) == 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rule_setup_each_player_has_a_distinct_random_start_tile_at_origin_unrotated(players):
    state = ENGINE.setup(players, {}, seed=5)
    starts = [g.tiles for g in state.gardens]
    assert all(len(tiles) == 1 for tiles in starts)
    assert all(tiles[0] == PlacedTile(tiles[0].tile, 0, 0, 0, False) for tiles in starts)
    assert len({tiles[0].tile for tiles in starts}) == players
    assert {tiles[0].tile for tiles in starts} <= {t.id for t in START_TILES}
    dealt = {ENGINE.setup(4, {}, seed=s).gardens[0].tiles[0].tile for s in range(40)}
    assert dealt == {t.id for t in START_TILES}


def test_rule_setup_gardens_start_without_pieces():
    state = ENGINE.setup(4, {}, seed=3)
    assert all(not g.bee_sectors and not g.hummingbirds and not g.dwellers for g in state.gardens)


def test_ambiguity_13_first_player_is_random():
    firsts = Counter(ENGINE.setup(4, {}, seed=s).first_seat for s in range(200))
    assert set(firsts) == {0, 1, 2, 3}
    state = ENGINE.setup(3, {}, seed=9)
    assert ENGINE.to_act(state) == [state.first_seat]


def test_rule_dwellers_option_random_is_the_default_one_card_per_family():
    seen = set()
    for seed in range(100):
        cards = ENGINE.setup(2, {}, seed=seed).cards
        assert [CARDS[c].family for c in cards] == ["leaf", "puddle", "mushroom"]
        seen.update(cards)
    assert seen == set(CARDS)
    assert (
        ENGINE.setup(2, {"dwellers": "random"}, seed=4).cards == ENGINE.setup(2, {}, seed=4).cards
    )


def test_rule_dwellers_option_first_game_is_thoughtful_diver_host():
    state = ENGINE.setup(2, {"dwellers": "first_game"}, seed=1)
    assert state.cards == ("leaf_thoughtful", "puddle_diver", "mushroom_host")


def test_rule_dwellers_option_explicit_list_one_per_family_in_any_order():
    state = ENGINE.setup(2, {"dwellers": ["mushroom_loner", "leaf_runner", "puddle_shy"]}, seed=1)
    assert state.cards == ("leaf_runner", "puddle_shy", "mushroom_loner")
    assert [c["id"] for c in ENGINE.view(state, None)["dweller_cards"]] == list(state.cards)


@pytest.mark.parametrize(
    "bad",
    [
        ["leaf_runner", "leaf_flirty", "puddle_shy"],  # two leaves, no mushroom
        ["leaf_runner", "puddle_shy"],  # too few
        ["leaf_runner", "puddle_shy", "mushroom_loner", "mushroom_host"],  # too many
        ["leaf_runner", "puddle_shy", "mushroom_nobody"],  # unknown id
        "leaf_runner,puddle_shy,mushroom_loner",  # a string is not a list
        "everything",
        3,
    ],
)
def test_rule_dwellers_option_rejects_anything_else(bad):
    with pytest.raises(OptionError) as caught:
        ENGINE.setup(2, {"dwellers": bad}, seed=1)
    assert caught.value.field_name == "dwellers"


@pytest.mark.parametrize("players", [0, 1, 5, "2"])
def test_rule_players_2_to_4(players):
    with pytest.raises(OptionError) as caught:
        ENGINE.setup(players, {}, seed=1)
    assert caught.value.field_name == "players"


def test_rule_options_are_checked():
    with pytest.raises(OptionError) as caught:
        ENGINE.setup(2, {"allow_flips": True}, seed=1)
    assert caught.value.field_name == "allow_flips"
    with pytest.raises(OptionError) as caught:
        ENGINE.setup(2, {"allow_flip": "yes"}, seed=1)
    assert caught.value.field_name == "allow_flip"


def test_rule_option_defaults():
    options = ENGINE.setup(2, {}, seed=1).options
    assert options.allow_flip is True
    assert options.thoughtful_one_per_sector_per_turn is True
    assert options.existing_sector_bonus_once_per_colour_per_turn is True
