"""Every bird power, table-driven per template, every bird exercised by name.

Each test builds a hand-made state (wingspan_helpers.fresh), uses the power
through the real flow (a row activation for brown powers, a play for white
powers, an opponent's action for pink powers) and checks its effect.
Summary section: 補足: 鳥カードの情報 / 能力.
"""

from __future__ import annotations

import pytest
from wingspan_helpers import (
    E,
    activate,
    arg_is,
    at_turn,
    bird,
    decision,
    fresh,
    hand,
    kinds,
    pick,
    play,
    put,
)

from services.core.engine.rng import Rng
from services.wingspan.rules import cards, scenario
from services.wingspan.rules.cards import (
    BROWN,
    COLOR,
    FOOD_NAMES,
    HABS,
    LIMIT,
    NAME,
    NB,
    NEST,
    PARAMS,
    PINK,
    TEMPLATE,
    WHITE,
    WINGSPAN,
)
from services.wingspan.rules.power_table import EFFECT, ENTRY, PINK_HANDLER, WHITE_POWER

# ------------------------------------------------------------ birds per template
BIRDS = {
    "gain_food_supply": [
        "Blue-Gray Gnatcatcher",
        "Northern Cardinal",
        "Spotted Towhee",
        "Yellow-Bellied Sapsucker",
        "Painted Whitestart",
        "American Goldfinch",
        "Brown Pelican",
    ],
    "all_players_gain_food_supply": [
        "Baltimore Oriole",
        "Eastern Phoebe",
        "Osprey",
        "Red Crossbill",
        "Scissor-Tailed Flycatcher",
        "Black-Chinned Hummingbird",
    ],
    "gain_food_feeder": [
        "Acorn Woodpecker",
        "Blue Jay",
        "Clark's Nutcracker",
        "Great Crested Flycatcher",
        "Indigo Bunting",
        "Red-Bellied Woodpecker",
        "Red-Headed Woodpecker",
        "Rose-Breasted Grosbeak",
        "Steller's Jay",
        "Western Tanager",
    ],
    "gain_all_of_type_feeder": ["Bald Eagle", "Northern Flicker"],
    "each_player_gain_die_choose_start": ["Anna's Hummingbird", "Ruby-Throated Hummingbird"],
    "cache_food_supply": [
        "Carolina Chickadee",
        "Juniper Titmouse",
        "Mountain Chickadee",
        "Red-Breasted Nuthatch",
        "White-Breasted Nuthatch",
    ],
    "trade_food_supply": ["Green Heron"],
    "lay_egg": [
        "Baird's Sparrow",
        "California Quail",
        "Cassin's Sparrow",
        "Chipping Sparrow",
        "Grasshopper Sparrow",
        "Mourning Dove",
        "Northern Bobwhite",
        "Scaled Quail",
    ],
    "lay_egg_each_nest_type": ["Ash-Throated Flycatcher", "Bobolink", "Inca Dove", "Say's Phoebe"],
    "all_players_lay_egg_nest_type": [
        "Lazuli Bunting",
        "Pileated Woodpecker",
        "Western Meadowlark",
    ],
    "draw_cards": ["Black-Necked Stilt", "Carolina Wren", "Mallard"],
    "draw_cards_discard_end_of_turn": [
        "Black Tern",
        "Clark's Grebe",
        "Common Yellowthroat",
        "Forster's Tern",
        "Pied-Billed Grebe",
        "Ruddy Duck",
        "Wood Duck",
        "Red-Breasted Merganser",
    ],
    "all_players_draw_card": [
        "Northern Shoveler",
        "Purple Gallinule",
        "Spotted Sandpiper",
        "Wilson's Snipe",
        "Canvasback",
    ],
    "draft_players_plus_one": ["American Oystercatcher"],
    "draw_bonus_keep_one": [
        "Atlantic Puffin",
        "Bell's Vireo",
        "California Condor",
        "Cassin's Finch",
        "Cerulean Warbler",
        "Chestnut-Collared Longspur",
        "Greater Prairie-Chicken",
        "King Rail",
        "Painted Bunting",
        "Red-Cockaded Woodpecker",
        "Roseate Spoonbill",
        "Spotted Owl",
        "Sprague's Pipit",
        "Whooping Crane",
        "Wood Stork",
    ],
    "discard_egg_for_reward": [
        "American Crow",
        "Black-Crowned Night-Heron",
        "Chihuahuan Raven",
        "Common Raven",
        "Fish Crow",
        "Franklin's Gull",
        "Killdeer",
    ],
    "discard_food_tuck_from_deck": [
        "American White Pelican",
        "Black-Bellied Whistling-Duck",
        "Canada Goose",
        "Double-Crested Cormorant",
        "Sandhill Crane",
    ],
    "tuck_from_hand_then": [
        "American Coot",
        "American Robin",
        "Barn Swallow",
        "Brewer's Blackbird",
        "Bushtit",
        "Cedar Waxwing",
        "Common Grackle",
        "Dark-Eyed Junco",
        "Dickcissel",
        "House Finch",
        "Pine Siskin",
        "Purple Martin",
        "Pygmy Nuthatch",
        "Red-Winged Blackbird",
        "Ring-Billed Gull",
        "Tree Swallow",
        "Violet-Green Swallow",
        "Yellow-Headed Blackbird",
        "Yellow-Rumped Warbler",
        "Vaux's Swift",
        "White-Throated Swift",
    ],
    "predator_roll_dice_cache": [
        "American Kestrel",
        "Anhinga",
        "Barn Owl",
        "Black Skimmer",
        "Burrowing Owl",
        "Common Merganser",
        "Eastern Screech-Owl",
        "Ferruginous Hawk",
        "Mississippi Kite",
        "Snowy Egret",
        "White-Faced Ibis",
        "Willet",
        "Broad-Winged Hawk",
    ],
    "predator_look_tuck": [
        "Barred Owl",
        "Cooper's Hawk",
        "Golden Eagle",
        "Great Horned Owl",
        "Greater Roadrunner",
        "Northern Harrier",
        "Peregrine Falcon",
        "Red-Shouldered Hawk",
        "Red-Tailed Hawk",
        "Swainson's Hawk",
    ],
    "fewest_birds_in_habitat_reward": ["American Bittern", "Common Loon", "Hermit Thrush"],
    "move_if_rightmost": [
        "Bewick's Wren",
        "Blue Grosbeak",
        "Chimney Swift",
        "Common Nighthawk",
        "Lincoln's Sparrow",
        "Song Sparrow",
        "White-Crowned Sparrow",
        "Yellow-Breasted Chat",
    ],
    "play_additional_bird": [
        "Downy Woodpecker",
        "Eastern Bluebird",
        "Great Blue Heron",
        "Great Egret",
        "House Wren",
        "Mountain Bluebird",
        "Red-Eyed Vireo",
        "Ruby-Crowned Kinglet",
        "Savannah Sparrow",
        "Tufted Titmouse",
    ],
    "repeat_brown_power": ["Gray Catbird", "Northern Mockingbird"],
    "repeat_predator_power": ["Hooded Merganser"],
    "pink_on_lay_eggs_lay_egg": [
        "American Avocet",
        "Barrow's Goldeneye",
        "Bronzed Cowbird",
        "Brown-Headed Cowbird",
        "Yellow-Billed Cuckoo",
    ],
    "pink_on_play_bird_in_habitat": ["Belted Kingfisher", "Eastern Kingbird", "Horned Lark"],
    "pink_on_gain_food_rodent_cache": ["Loggerhead Shrike"],
    "pink_on_predator_success_gain_die": ["Black Vulture", "Black-Billed Magpie", "Turkey Vulture"],
    "no_power": [
        "American Woodcock",
        "Blue-Winged Warbler",
        "Hooded Warbler",
        "Prothonotary Warbler",
        "Trumpeter Swan",
        "Wild Turkey",
    ],
    "gain_die_feeder_any": ["American Redstart"],
    "draw_all_tray": ["Brant"],
}


def _b(name):
    return bird(name)


def _swift(name: str) -> dict:
    """Swift-Start promo birds need the 180-card deck option."""
    return {"swift_start": True} if cards.SET[bird(name)] != "core" else {}


def _state(name: str, n: int = 2, seed: int = 3):
    return fresh(n, seed, **_swift(name))


# ------------------------------------------------------------------- deck walk
def test_every_bird_has_an_implemented_and_tested_power():
    """Walk the whole deck (170 base + 10 Swift-Start): each bird's template is
    listed above by name, and its colour has a registered handler."""
    listed = {name: tpl for tpl, names in BIRDS.items() for name in names}
    missing = []
    for b in range(NB):
        name = NAME[b]
        tpl = cards.TEMPLATES[TEMPLATE[b]]
        if listed.get(name) != tpl:
            missing.append(f"{name}: not tested under {tpl}")
        color = COLOR[b]
        if color == BROWN and (ENTRY[b] is None or EFFECT[b] is None):
            missing.append(f"{name}: no brown handler")
        if color == WHITE and WHITE_POWER[b] is None:
            missing.append(f"{name}: no white handler")
        if color == PINK and PINK_HANDLER[b] is None:
            missing.append(f"{name}: no pink handler")
        if tpl == "no_power":
            assert color == cards.COLOR_NONE
    assert not missing, "\n".join(missing)
    assert len(listed) == NB == 180


# -------------------------------------------------------------------- food
@pytest.mark.parametrize("name", BIRDS["gain_food_supply"])
def test_gain_food_supply(name):
    b = _b(name)
    s = _state(name)
    f, count = PARAMS[b].food, PARAMS[b].count
    if COLOR[b] == BROWN:
        put(s, 0, b)
        activate(s, 0, b)
        assert s.food[0][f] == count and sum(s.food[0]) == count
        assert at_turn(s, 0)
    else:
        play(s, 0, b)
        assert s.food[0][f] == count and sum(s.food[0]) == count
        assert at_turn(s, 1)


@pytest.mark.parametrize("name", BIRDS["all_players_gain_food_supply"])
def test_all_players_gain_food_supply(name):
    b = _b(name)
    s = _state(name, n=3)
    f = PARAMS[b].food
    put(s, 0, b)
    activate(s, 0, b)
    assert kinds(s) == ["use_power", "decline"]
    pick(s, "use_power")
    assert [s.food[p][f] for p in range(3)] == [1, 1, 1]
    # declining changes nothing
    activate(s, 0, b)
    pick(s, "decline")
    assert [s.food[p][f] for p in range(3)] == [1, 1, 1]


@pytest.mark.parametrize("name", BIRDS["gain_food_feeder"])
def test_gain_food_feeder(name):
    b = _b(name)
    s = _state(name)
    mask, may_cache = PARAMS[b].food_mask, PARAMS[b].may_cache
    foods = [f for f in range(5) if mask >> f & 1]
    # one die of each wanted food plus a non-matching fish (or fruit) die
    other = 2 if 2 not in foods else 3
    s.feeder = [*foods, other]
    put(s, 0, b)
    activate(s, 0, b)
    acts = E.legal(s, 0)
    taken = {
        FOOD_NAMES.index(a.arg("food").split("_", 1)[1].lower())
        for a in acts
        if a.kind == "take_die"
    }
    assert taken == set(foods)
    assert ("decline" in kinds(s)) and (
        any(a.arg("cache") for a in acts if a.kind == "take_die") == bool(may_cache)
    )
    if may_cache:
        pick(s, arg_is("take_die", cache=True))
        assert s.cached_food[b] == 1 and sum(s.food[0]) == 0
    else:
        pick(s, arg_is("take_die", cache=False))
        assert sum(s.food[0]) == 1 and s.food[0][foods[0]] == 1
    assert len(s.feeder) == len(foods)
    # nothing matching (and not all alike): nothing to decide
    s.feeder = [other, 4] if other != 4 else [other, 2]
    activate(s, 0, b)
    assert at_turn(s, 0)


@pytest.mark.parametrize("name", BIRDS["gain_all_of_type_feeder"])
def test_gain_all_of_type_feeder(name):
    b = _b(name)
    s = _state(name)
    f = PARAMS[b].food
    # fish, fish, inv/seed, rodent, invertebrate
    s.feeder = [2, 2, 5, 4, 0]
    play(s, 0, b)
    expected = 2  # Bald Eagle: 2 fish; Northern Flicker: invertebrate + inv/seed
    assert s.food[0][f] == expected
    assert len(s.feeder) == 3


@pytest.mark.parametrize("name", BIRDS["gain_all_of_type_feeder"])
@pytest.mark.parametrize("feeder", [[4, 4, 4], [3], [5, 5], [2, 2, 2, 2, 2], [0, 0]])
def test_gain_all_of_type_feeder_may_reroll(name, feeder):
    """Summary ② (振り直し) holds whenever food is gained from the feeder: with
    one face left (one die, or all alike), "gain all [fish / invertebrates]"
    first offers to reroll all five dice, as the gain-food action does; the
    dice are then taken from the rerolled feeder."""
    b = _b(name)
    s = _state(name)
    f = PARAMS[b].food
    s.feeder = list(feeder)
    play(s, 0, b)
    assert kinds(s, 0) == ["use_power", "reroll_feeder"]
    view = E.view(s, 0)["decision"]
    assert (view["kind"], view["bird"]) == ("DECISION_KIND_TAKE_DIE", b)
    predict = Rng(s.rng.state)
    rolled = [predict.below(6) for _ in range(5)]
    pick(s, "reroll_feeder", 0)
    while not at_turn(s, 1):  # rolled alike again (1 in 1296): reroll again
        rolled = [predict.below(6) for _ in range(5)]
        pick(s, "reroll_feeder", 0)
    got = sum(1 for d in rolled if d == f or (d == cards.DUAL and f < 2))
    assert s.food[0][f] == got and sum(s.food[0]) == got
    if got < 5:
        assert sorted(s.feeder) == sorted(d for d in rolled if d != f and not (d == 5 and f < 2))


@pytest.mark.parametrize("name", BIRDS["gain_all_of_type_feeder"])
def test_gain_all_of_type_feeder_without_reroll(name):
    """Keeping the alike dice: all of them are taken when they are the food
    (and the emptied feeder is rolled at once), none when they are not."""
    b = _b(name)
    f = PARAMS[b].food
    for feeder, got in (([f, f], 2), ([3, 3], 0)):
        s = _state(name)
        s.feeder = list(feeder)
        play(s, 0, b)
        predict = Rng(s.rng.state)
        pick(s, "use_power", 0)
        assert s.food[0][f] == got and at_turn(s, 1)
        assert s.feeder == ([predict.below(6) for _ in range(5)] if got else feeder)


@pytest.mark.parametrize("name", BIRDS["each_player_gain_die_choose_start"])
def test_each_player_gain_die_choose_start(name):
    b = _b(name)
    s = _state(name, n=3)
    s.feeder = [0, 1, 2, 3, 4]
    put(s, 0, b)
    activate(s, 0, b)
    assert kinds(s) == ["choose_player"] * 3 + ["decline"]
    pick(s, arg_is("choose_player", seat=2))
    order = []
    for _ in range(3):
        seat = E.to_act(s)[0]
        order.append(seat)
        pick(s, "take_die", seat)
    assert order == [2, 0, 1]
    assert [sum(s.food[p]) for p in range(3)] == [1, 1, 1]
    assert len(s.feeder) == 2 and at_turn(s, 0)


@pytest.mark.parametrize("name", BIRDS["cache_food_supply"])
def test_cache_food_supply(name):
    b = _b(name)
    s = _state(name)
    put(s, 0, b)
    activate(s, 0, b)
    assert s.cached_food[b] == 1 and sum(s.food[0]) == 0 and at_turn(s, 0)


@pytest.mark.parametrize("name", BIRDS["trade_food_supply"])
def test_trade_food_supply(name):
    b = _b(name)
    s = _state(name)
    put(s, 0, b)
    s.food[0] = [0, 1, 0, 0, 0]
    activate(s, 0, b)
    assert len(E.legal(s, 0)) == 5  # seed for 4 others + decline
    pick(s, arg_is("trade_food", give="FOOD_SEED", take="FOOD_RODENT"))
    assert s.food[0] == [0, 0, 0, 0, 1]
    s.food[0] = [0, 0, 0, 0, 0]
    activate(s, 0, b)
    assert at_turn(s, 0)  # nothing to trade


@pytest.mark.parametrize("name", BIRDS["gain_die_feeder_any"])
def test_gain_die_feeder_any(name):
    b = _b(name)
    s = _state(name)
    s.feeder = [3, 4]
    put(s, 0, b)
    activate(s, 0, b)
    assert sorted(kinds(s)) == ["decline", "take_die", "take_die"]
    pick(s, arg_is("take_die", food="FOOD_RODENT"))
    assert s.food[0][4] == 1 and s.feeder == [3]


# ------------------------------------------------------------------------ eggs
@pytest.mark.parametrize("name", BIRDS["lay_egg"])
def test_lay_egg(name):
    b = _b(name)
    s = _state(name)
    put(s, 0, b)
    if PARAMS[b].on_this_bird:  # on this bird
        activate(s, 0, b)
        assert s.eggs[b] == 1 and at_turn(s, 0)
        s.eggs[b] = LIMIT[b]
        activate(s, 0, b)
        assert s.eggs[b] == LIMIT[b]
    else:
        other = put(s, 0, "Mallard", "wetland")
        activate(s, 0, b)
        assert sorted(kinds(s)) == ["lay_egg", "lay_egg"]
        pick(s, arg_is("lay_egg", bird=other))
        assert s.eggs[other] == 1 and s.eggs[b] == 0 and s.eggs_by_seat[0] == 1


@pytest.mark.parametrize("name", BIRDS["lay_egg_each_nest_type"])
def test_lay_egg_each_nest_type(name):
    b = _b(name)
    s = _state(name)
    nest = PARAMS[b].nest
    hb = HABS[b][0]
    away = [x for x in range(170) if hb not in HABS[x] and LIMIT[x] > 1]
    same = next(x for x in away if NEST[x] == nest)
    wild = next(x for x in away if NEST[x] == cards.WILD_NEST)
    differ = next(x for x in away if NEST[x] not in (nest, cards.WILD_NEST))
    put(s, 0, same, HABS[same][0])
    put(s, 0, wild, HABS[wild][0])
    put(s, 0, differ, HABS[differ][0])
    play(s, 0, b, hb)
    assert s.eggs[same] == 1 and s.eggs[wild] == 1 and s.eggs[differ] == 0
    assert s.eggs[b] == (1 if cards.NEST_OK[nest][b] else 0)


@pytest.mark.parametrize("name", BIRDS["all_players_lay_egg_nest_type"])
def test_all_players_lay_egg_nest_type(name):
    b = _b(name)
    s = _state(name)
    nest = PARAMS[b].nest
    ok = cards.NEST_OK[nest]
    nests = [x for x in range(170) if ok[x] and LIMIT[x] > 1 and x != b]
    a1, a2, o1 = nests[0], nests[1], nests[2]
    put(s, 0, b)
    put(s, 0, a1, HABS[a1][0])
    put(s, 0, a2, HABS[a2][0])
    put(s, 1, o1, HABS[o1][0])
    activate(s, 0, b)
    pick(s, "use_power")
    first = pick(s, "lay_egg", 0).arg("bird")
    # the second egg goes on another nest bird, and may be declined
    acts = E.legal(s, 0)
    assert first not in [a.arg("bird") for a in acts if a.kind == "lay_egg"]
    assert "decline" in [a.kind for a in acts]
    pick(s, "lay_egg", 0)
    # the opponent lays one (one choice: applied at once)
    assert s.eggs[o1] == 1
    mine = sum(s.eggs[x] for x in (b, a1, a2))
    assert mine == 2 and at_turn(s, 0)


# ----------------------------------------------------------------------- cards
@pytest.mark.parametrize("name", BIRDS["draw_cards"])
def test_draw_cards(name):
    b = _b(name)
    s = _state(name)
    count = PARAMS[b].count
    if COLOR[b] == BROWN:
        put(s, 0, b)
        activate(s, 0, b)
    else:
        play(s, 0, b)
    tray_card = s.tray[0]
    pick(s, arg_is("draw_from_tray", bird=tray_card), 0)
    for _ in range(count - 1):
        pick(s, "draw_from_deck", 0)
    assert len(s.hands[0]) == count and tray_card in s.hands[0]


@pytest.mark.parametrize("name", BIRDS["draw_cards_discard_end_of_turn"])
def test_draw_cards_discard_end_of_turn(name):
    b = _b(name)
    s = _state(name)
    count = PARAMS[b].count
    put(s, 0, b)
    activate(s, 0, b)
    pick(s, "use_power")
    for _ in range(count):
        pick(s, "draw_from_deck", 0)
    assert len(s.hands[0]) == count and at_turn(s, 0)
    # end the turn (lay eggs with no room): one card is discarded
    pick(s, arg_is("take_action", habitat="HABITAT_GRASSLAND"))
    if count > 1:
        assert kinds(s, 0) == ["discard_card"] * count
        pick(s, "discard_card", 0)
    assert len(s.hands[0]) == count - 1 and at_turn(s, 1)


@pytest.mark.parametrize("name", BIRDS["all_players_draw_card"])
def test_all_players_draw_card(name):
    b = _b(name)
    s = _state(name, n=4)
    top = list(reversed(s.bird_deck[-4:]))
    put(s, 0, b)
    activate(s, 0, b)
    pick(s, "use_power")
    assert [s.hands[p] for p in range(4)] == [[c] for c in top]


@pytest.mark.parametrize("name", BIRDS["draft_players_plus_one"])
def test_draft_players_plus_one(name):
    b = _b(name)
    s = _state(name, n=3)
    top = list(reversed(s.bird_deck[-4:]))
    play(s, 0, b)
    assert s.draft == top
    assert E.view(s, 2)["draft"][0]["bird"] == top[0]
    for seat in (0, 1, 2):
        assert E.to_act(s) == [seat]
        pick(s, "draft_card", seat)
    assert len(s.hands[0]) == 2 and len(s.hands[1]) == 1 and len(s.hands[2]) == 1
    assert sorted(s.hands[0] + s.hands[1] + s.hands[2]) == sorted(top)
    assert s.draft == [] and at_turn(s, 1)


@pytest.mark.parametrize("name", BIRDS["draw_bonus_keep_one"])
def test_draw_bonus_keep_one(name):
    b = _b(name)
    s = _state(name)
    offered = list(reversed(s.bonus_deck[-2:]))
    discards = len(s.bonus_discard)
    play(s, 0, b)
    acts = E.legal(s, 0)
    assert [a.arg("bonus") for a in acts] == offered and all(a.secret for a in acts)
    assert E.view(s, 1)["players"][0]["bonus_offer"] == []
    assert len(E.view(s, 0)["players"][0]["bonus_offer"]) == 2
    pick(s, arg_is("keep_bonus", bonus=offered[1]), 0)
    assert s.bonus_cards[0] == [offered[1]] and len(s.bonus_discard) == discards + 1


@pytest.mark.parametrize("name", BIRDS["draw_all_tray"])
def test_draw_all_tray(name):
    b = _b(name)
    s = _state(name)
    tray = list(s.tray)
    play(s, 0, b)
    assert set(tray) <= set(s.hands[0]) and len(s.tray) == 3  # refilled at turn end


# ------------------------------------------------------------------ conversions
@pytest.mark.parametrize("name", BIRDS["discard_egg_for_reward"])
def test_discard_egg_for_reward(name):
    b = _b(name)
    s = _state(name)
    other_only, reward, count = PARAMS[b].others_only, PARAMS[b].reward, PARAMS[b].count
    put(s, 0, b, eggs=1)
    other = put(s, 0, "Mallard", "wetland" if HABS[b][0] != 2 else "forest", eggs=1)
    if HABS[b][0] == 2:
        other = put(s, 0, "Hooded Warbler", "forest", eggs=1)
        s.rows[0][2] = [b]
    activate(s, 0, b)
    eggs_from = [a.arg("bird") for a in E.legal(s, 0) if a.kind == "pay_egg"]
    assert (b in eggs_from) == (not other_only)
    assert "decline" in kinds(s)
    pick(s, arg_is("pay_egg", bird=other))
    assert s.eggs[other] == 0
    if reward == cards.RW_WILD:
        for _ in range(count):
            assert len(E.legal(s, 0)) == 5
            pick(s, arg_is("choose_food", food="FOOD_FISH"))
        assert s.food[0][2] == count
    else:
        pick(s, "draw_from_deck")
        pick(s, "draw_from_deck")
        assert len(s.hands[0]) == 2
    assert at_turn(s, 0)


@pytest.mark.parametrize("name", BIRDS["discard_food_tuck_from_deck"])
def test_discard_food_tuck_from_deck(name):
    b = _b(name)
    s = _state(name)
    f, count = PARAMS[b].food, PARAMS[b].count
    put(s, 0, b)
    activate(s, 0, b)
    assert at_turn(s, 0)  # no such food: nothing to ask
    s.food[0][f] = 1
    deck = len(s.bird_deck)
    activate(s, 0, b)
    pick(s, "use_power")
    assert s.tucked[b] == count and s.food[0][f] == 0 and len(s.bird_deck) == deck - count


@pytest.mark.parametrize("name", BIRDS["tuck_from_hand_then"])
def test_tuck_from_hand_then(name):
    b = _b(name)
    s = _state(name, **{})
    reward, mask = PARAMS[b].reward, PARAMS[b].food_mask
    put(s, 0, b)
    other = put(s, 0, "Trumpeter Swan", "wetland") if HABS[b][0] != 2 else None
    if other is None:
        other = put(s, 0, "Wild Turkey", "grassland")
    activate(s, 0, b)
    assert at_turn(s, 0)  # empty hand: nothing to tuck
    card = hand(s, 0, "Hooded Warbler")[0]
    activate(s, 0, b)
    assert kinds(s) == ["tuck_card", "decline"]
    a = E.legal(s, 0)[0]
    assert a.secret and "Hooded Warbler" not in a.public_label
    pick(s, "tuck_card")
    assert s.tucked[b] == 1 and card not in s.hands[0]
    if reward == cards.RW_DRAW:
        pick(s, "draw_from_deck")
        assert len(s.hands[0]) == 1
    elif reward == cards.RW_FOOD:
        foods = [f for f in range(5) if mask >> f & 1]
        if len(foods) > 1:
            assert len(E.legal(s, 0)) == len(foods)
            pick(s, "choose_food")
        assert sum(s.food[0][f] for f in foods) == 1
    elif reward == cards.RW_EGG_THIS:
        assert s.eggs[b] == 1
    else:  # lay_egg_any
        pick(s, arg_is("lay_egg", bird=other))
        assert s.eggs[other] == 1
    assert at_turn(s, 0)


# ------------------------------------------------------------------- predators
@pytest.mark.parametrize("name", BIRDS["predator_roll_dice_cache"])
@pytest.mark.parametrize("in_feeder", [1, 2, 5])
def test_predator_roll_dice_cache(name, in_feeder):
    b = _b(name)
    s = _state(name)
    target = PARAMS[b].food
    vulture = put(s, 1, "Turkey Vulture")
    s.feeder = [0] * in_feeder
    put(s, 0, b)
    activate(s, 0, b)
    assert kinds(s) == ["use_power", "decline"]
    predict = Rng(s.rng.state)
    hit = any(predict.below(6) == target for _ in range(5 - in_feeder))
    pick(s, "use_power")
    assert s.cached_food[b] == (1 if hit else 0)
    if hit:  # success triggers the opponent's pink power, asked out of turn
        assert E.to_act(s) == [1]
        pick(s, "decline", 1)
        assert s.pink_used[vulture] == 0
    assert at_turn(s, 0)


def test_predator_roll_dice_hits_and_misses():
    """With a controlled generator, a hit caches the food and a miss does not
    (four dice outside the feeder, the most there can be: the feeder is never
    empty)."""
    b = _b("Anhinga")
    hits = set()
    for seed in range(40):
        s = fresh(2, seed)
        s.feeder = [0]
        put(s, 0, b)
        activate(s, 0, b)
        pick(s, "use_power")
        hits.add(s.cached_food[b])
    assert hits == {0, 1}


@pytest.mark.parametrize("name", BIRDS["predator_look_tuck"])
def test_predator_look_tuck(name):
    b = _b(name)
    s = _state(name)
    limit = PARAMS[b].wingspan_below
    small = next(x for x in range(170) if WINGSPAN[x] < limit and x not in s.tray and x != b)
    large = next(x for x in range(170) if WINGSPAN[x] >= limit and x not in s.tray and x != b)
    put(s, 0, b)
    for card, tucked in ((small, 1), (large, 0)):
        s.bird_deck.remove(card)
        s.bird_deck.append(card)
        discards = len(s.bird_discard)
        activate(s, 0, b)
        pick(s, "use_power")
        assert s.tucked[b] == 1
        if not tucked:
            assert s.bird_discard[-1] == card and len(s.bird_discard) == discards + 1


# ---------------------------------------------------------- board conditions
@pytest.mark.parametrize("name", BIRDS["fewest_birds_in_habitat_reward"])
def test_fewest_birds_in_habitat_reward(name):
    b = _b(name)
    s = _state(name, n=3)
    reward = PARAMS[b].reward
    put(s, 0, b)  # seat 0 has 1 bird in that habitat
    put(s, 1, "Wild Turkey", "grassland")  # seat 1 and 2 have none there
    s.feeder = [0, 1, 2, 3, 4]
    activate(s, 0, b)
    pick(s, "use_power")
    got = []
    while not at_turn(s, 0):
        seat = E.to_act(s)[0]
        got.append(seat)
        pick(s, "take_die" if reward == cards.RW_DIE else "draw_from_deck", seat)
    assert got == [1, 2]
    if reward == cards.RW_DIE:
        assert [sum(s.food[p]) for p in range(3)] == [0, 1, 1]
    else:
        assert [len(s.hands[p]) for p in range(3)] == [0, 1, 1]


@pytest.mark.parametrize("name", BIRDS["move_if_rightmost"])
def test_move_if_rightmost(name):
    b = _b(name)
    s = _state(name)
    h0 = HABS[b][0]
    put(s, 0, b, h0, eggs=1)
    s.cached_food[b] = 1
    activate(s, 0, b)
    dests = [a.arg("habitat") for a in E.legal(s, 0) if a.kind == "move_bird"]
    assert len(dests) == len(HABS[b]) - 1 and "decline" in kinds(s)
    a = pick(s, "move_bird")
    h1 = cards.HAB_IDX[a.arg("habitat")]
    assert s.rows[0][h1] == [b] and s.rows[0][h0] == [] and s.eggs[b] == 1 and s.cached_food[b] == 1
    # not the rightmost bird: no move offered
    other = next(x for x in range(170) if h1 in HABS[x] and COLOR[x] == cards.COLOR_NONE)
    put(s, 0, other, h1)
    activate(s, 0, b)
    assert at_turn(s, 0)


# ------------------------------------------------------------------------ meta
@pytest.mark.parametrize("name", BIRDS["play_additional_bird"])
def test_play_additional_bird(name):
    b = _b(name)
    s = _state(name)
    hab = PARAMS[b].habitat
    h = HABS[b][0] if hab < 0 else hab
    second = next(x for x in range(170) if h in HABS[x] and cards.MODE[x] == cards.MODE_NONE)
    spare = next(k for k in range(3) if k not in (h, HABS[b][0]))
    filler = next(x for x in range(170) if spare in HABS[x] and COLOR[x] == BROWN)
    put(s, 0, filler, spare, eggs=1)  # pays the egg of the second bird's column
    hand(s, 0, second)
    play(s, 0, b, HABS[b][0])
    acts = E.legal(s, 0)
    assert [a.kind for a in acts] == ["play_bird", "decline"]
    assert acts[0].arg("habitat") == "HABITAT_" + cards.HAB_NAMES[h].upper()
    pick(s, "play_bird", 0)
    assert second in s.rows[0][h] and second not in s.hands[0]
    assert s.cubes_left[0] == 7  # the extra bird costs no cube


@pytest.mark.parametrize("name", BIRDS["repeat_brown_power"])
def test_repeat_brown_power(name):
    b = _b(name)
    s = _state(name)
    put(s, 0, b, "forest")
    chickadee = put(s, 0, "Carolina Chickadee", "forest")
    crow = put(s, 0, "Gray Catbird" if name != "Gray Catbird" else "Northern Mockingbird", "forest")
    activate(s, 0, b)
    targets = [a.arg("bird") for a in E.legal(s, 0) if a.kind == "repeat_power"]
    assert targets == [chickadee]  # not itself, not another repeat power
    pick(s, "repeat_power")
    assert s.cached_food[chickadee] == 1 and s.cached_food[b] == 0 and s.cached_food[crow] == 0


@pytest.mark.parametrize("name", BIRDS["repeat_predator_power"])
def test_repeat_predator_power(name):
    b = _b(name)
    s = _state(name)
    put(s, 0, b, "wetland")
    put(s, 0, "Mallard", "wetland")
    pred = put(s, 0, "Willet", "wetland")
    activate(s, 0, b)
    assert [a.arg("bird") for a in E.legal(s, 0) if a.kind == "repeat_power"] == [pred]
    s.feeder = [0]
    predict = Rng(s.rng.state)
    hit = any(predict.below(6) == 2 for _ in range(4))
    pick(s, "repeat_power")
    assert s.cached_food[pred] == (1 if hit else 0) and s.cached_food[b] == 0


# ------------------------------------------------------------------------ pink
@pytest.mark.parametrize("name", BIRDS["pink_on_lay_eggs_lay_egg"])
def test_pink_on_lay_eggs_lay_egg(name):
    b = _b(name)
    s = _state(name, n=3)
    nest, excl = PARAMS[b].nest, PARAMS[b].exclude_this
    ok = cards.NEST_OK[nest]
    target = next(x for x in range(170) if ok[x] and LIMIT[x] > 1 and x != b)
    wrong = next(x for x in range(170) if not ok[x] and LIMIT[x] > 1)
    put(s, 2, b)
    put(s, 2, target, HABS[target][0])
    put(s, 2, wrong, HABS[wrong][0])
    put(s, 0, "Wild Turkey", "grassland")
    pick(s, arg_is("take_action", habitat="HABITAT_GRASSLAND"), 0)
    while E.to_act(s) == [0]:
        pick(s, "lay_egg", 0)
    assert E.to_act(s) == [2]  # asked out of turn
    options = [a.arg("bird") for a in E.legal(s, 2) if a.kind == "lay_egg"]
    assert target in options and wrong not in options
    assert (b in options) == (not excl and ok[b] and LIMIT[b] > 0)
    assert "decline" in kinds(s, 2)
    pick(s, arg_is("lay_egg", bird=target), 2)
    assert s.eggs[target] == 1 and s.pink_used[b] == 1 and at_turn(s, 1)


def test_pink_power_once_between_turns():
    """A pink power fires at most once between its owner's turns."""
    s = fresh(3, 5)
    cuckoo = put(s, 2, "Yellow-Billed Cuckoo")
    bowl = put(s, 2, "American Robin", "grassland")
    put(s, 0, "Wild Turkey", "grassland")
    put(s, 1, "Trumpeter Swan", "wetland")
    pick(s, arg_is("take_action", habitat="HABITAT_GRASSLAND"), 0)
    while E.to_act(s) == [0]:
        pick(s, "lay_egg", 0)
    assert E.to_act(s) == [2]
    pick(s, arg_is("lay_egg", bird=bowl), 2)
    assert s.pink_used[cuckoo] == 1
    # seat 1 lays eggs too: the cuckoo is spent until seat 2's turn
    pick(s, arg_is("take_action", habitat="HABITAT_GRASSLAND"), 1)
    while E.to_act(s) == [1]:
        pick(s, "lay_egg", 1)
    assert at_turn(s, 2)
    assert s.pink_used[cuckoo] == 0  # reset as its owner's turn begins


def _back_to_seat0(s):
    """Hand the turn back to seat 0 (test shortcut)."""
    assert decision(s)[0] == "DECISION_KIND_TURN"
    scenario.start_turn(s, 0)


@pytest.mark.parametrize("name", BIRDS["pink_on_play_bird_in_habitat"])
def test_pink_on_play_bird_in_habitat(name):
    b = _b(name)
    s = _state(name, n=3)
    hab, reward, f = PARAMS[b].habitat, PARAMS[b].reward, PARAMS[b].food
    put(s, 2, b)
    other_hab = (hab + 1) % 3
    quiet = [x for x in range(170) if COLOR[x] in (BROWN, cards.COLOR_NONE)]
    wrong = next(x for x in quiet if other_hab in HABS[x] and hab not in HABS[x])
    right = next(x for x in quiet if hab in HABS[x] and x != wrong)
    hand(s, 2, "Mallard")
    play(s, 0, wrong, other_hab)
    assert at_turn(s, 1) and s.pink_used[b] == 0 and s.food[2] == [0] * 5
    _back_to_seat0(s)
    play(s, 0, right, hab)
    assert E.to_act(s) == [2]  # asked out of turn
    if reward == cards.RW_FOOD:
        assert kinds(s, 2) == ["use_power", "decline"]
        pick(s, "use_power", 2)
        assert s.food[2][f] == 1 and s.pink_used[b] == 1
    else:
        assert E.to_act(s) == [2]
        assert kinds(s, 2) == ["tuck_card", "decline"]
        pick(s, "tuck_card", 2)
        assert s.tucked[b] == 1 and s.hands[2] == [] and s.pink_used[b] == 1
    assert at_turn(s, 1)


@pytest.mark.parametrize("name", BIRDS["pink_on_gain_food_rodent_cache"])
def test_pink_on_gain_food_rodent_cache(name):
    b = _b(name)
    s = _state(name, n=3)
    put(s, 2, b)
    s.feeder = [0, 1, 4]
    pick(s, arg_is("take_action", habitat="HABITAT_FOREST"), 0)
    pick(s, arg_is("take_die", food="FOOD_SEED"), 0)
    assert s.cached_food[b] == 0  # no rodent gained
    _back_to_seat0(s)
    pick(s, arg_is("take_action", habitat="HABITAT_FOREST"), 0)
    pick(s, arg_is("take_die", food="FOOD_RODENT"), 0)
    assert E.to_act(s) == [2]  # asked out of turn
    pick(s, "use_power", 2)
    assert s.cached_food[b] == 1 and s.pink_used[b] == 1 and at_turn(s, 1)
    # declining does not use it: the next trigger asks again
    _back_to_seat0(s)
    s.pink_used[b] = 0
    s.feeder = [4, 4, 1]
    pick(s, arg_is("take_action", habitat="HABITAT_FOREST"), 0)
    pick(s, arg_is("take_die", food="FOOD_RODENT"), 0)
    pick(s, "decline", 2)
    assert s.cached_food[b] == 1 and s.pink_used[b] == 0


@pytest.mark.parametrize("name", BIRDS["pink_on_predator_success_gain_die"])
def test_pink_on_predator_success_gain_die(name):
    b = _b(name)
    for seed in range(60):
        s = fresh(2, seed)
        put(s, 1, b)
        pred = put(s, 0, "Barn Owl")
        s.feeder = [3, 0]
        predict = Rng(s.rng.state)
        if not any(predict.below(6) == 4 for _ in range(3)):
            continue
        activate(s, 0, pred)
        pick(s, "use_power")
        assert E.to_act(s) == [1]
        assert sorted(kinds(s, 1)) == ["decline", "take_die", "take_die"]
        pick(s, arg_is("take_die", food="FOOD_FRUIT"), 1)
        assert s.food[1][3] == 1 and s.pink_used[b] == 1 and s.feeder == [0]
        assert at_turn(s, 0)
        return
    raise AssertionError("no seed gave a successful hunt")


@pytest.mark.parametrize("name", BIRDS["no_power"])
def test_no_power(name):
    b = _b(name)
    s = _state(name)
    before_food = [list(f) for f in s.food]
    play(s, 0, b)
    assert b in s.rows[0][HABS[b][0]]
    assert s.food == [[0] * 5, before_food[1]] and at_turn(s, 1)
