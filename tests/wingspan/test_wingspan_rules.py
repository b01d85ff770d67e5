"""The rules of the summary (wingspan-rules-summary-ja.txt), section by section."""

from __future__ import annotations

import pytest
from wingspan_helpers import (
    E,
    activate,
    arg_is,
    at_turn,
    bird,
    decision,
    food,
    fresh,
    hand,
    kinds,
    pick,
    put,
)

from services.core.engine import IllegalAction
from services.core.engine.rng import Rng
from services.wingspan.rules import cards, scenario
from services.wingspan.rules.cards import (
    BONUS_NAME,
    GOAL_TILE,
    LANGUAGE_BONUS,
    LIMIT,
    N_BASE,
    NAME,
    NB,
    POWERFUL,
)
from services.wingspan.rules.payment import affordable, payments


def _setup_done(s):
    while s.phase == 0:
        for seat in E.to_act(s):
            E.apply(s, seat, E.legal(s, seat)[0])


# ------------------------------------------------------------------ ゲームの準備
def test_setup_common_area():
    """ゲームの準備/共通の場: tray of 3, 5 dice of six faces, 4 goals of 4 tiles."""
    s = E.setup(4, {}, 3)
    assert len(s.tray) == 3 and len(s.feeder) == 5 and all(0 <= f < 6 for f in s.feeder)
    assert len(s.goals) == 4 and len({GOAL_TILE[g] for g in s.goals}) == 4
    assert len(s.bird_deck) == N_BASE - 3 - 4 * 5
    assert s.options["goal_side"] == "green"
    view = E.view(s, None)
    assert view["goal_side"] == "GOAL_SIDE_GREEN" and len(view["goals"]) == 4
    assert view["phase"] == "PHASE_SETUP" and view["to_act"] == [0, 1, 2, 3]


def test_goals_are_random_tiles_with_random_sides():
    sides = set()
    tiles = set()
    for seed in range(40):
        s = E.setup(2, {}, seed)
        sides.update(cards.GOAL_SIDE[g] for g in s.goals)
        tiles.update(GOAL_TILE[g] for g in s.goals)
    assert sides == {"A", "B"} and tiles == set(range(1, 9))


def test_setup_is_simultaneous_and_secret():
    """各プレイヤーごとの準備: keep any mix of 5 birds and food summing to 5, 1 of 2
    bonus cards; every seat decides at once, secretly."""
    s = E.setup(3, {}, 5)
    assert E.to_act(s) == [0, 1, 2]
    acts = E.legal(s, 1)
    assert len(acts) == 32 and all(a.kind == "keep_birds" and a.secret for a in acts)
    dealt = list(s.setup_birds[1])
    keep = next(a for a in acts if len(a.arg("birds")) == 3)
    E.apply(s, 1, keep)
    assert E.to_act(s) == [0, 1, 2]  # seat 1 now picks food: C(5, 2) = 10 ways
    food_acts = E.legal(s, 1)
    assert len(food_acts) == 10 and all(len(a.arg("foods")) == 2 for a in food_acts)
    E.apply(s, 1, food_acts[0])
    bonus_acts = E.legal(s, 1)
    assert [a.kind for a in bonus_acts] == ["keep_bonus", "keep_bonus"]
    E.apply(s, 1, bonus_acts[1])
    assert E.to_act(s) == [0, 2] and E.legal(s, 1) == []
    # others cannot see seat 1's choice yet
    assert E.view(s, 0)["players"][1]["food_total"] == 0
    assert E.view(s, 0)["players"][1]["setup_done"] is True
    for seat in (0, 2):
        while seat in E.to_act(s):
            E.apply(s, seat, E.legal(s, seat)[-1])
    assert s.phase == 1
    assert sorted(s.hands[1]) == sorted(keep.arg("birds"))
    assert sum(s.food[1]) == 2 and s.bonus_cards[1] == [bonus_acts[1].arg("bonus")]
    assert set(dealt) - set(keep.arg("birds")) <= set(s.bird_discard)
    # keeping all 5 birds keeps no food; keeping none keeps all 5 foods
    assert len(s.hands[0]) == 5 and sum(s.food[0]) == 0
    assert E.to_act(s) == [s.first_player] and s.cubes_left == [8, 8, 8]


def test_setup_keep_no_bird_keeps_every_food():
    """Keeping no bird keeps all five foods, keeping all five keeps none: the
    food decision then has one option, and is still asked (so the number of
    setup decisions, public in the log, is 3 whatever a seat keeps)."""
    s = E.setup(2, {}, 8)
    for seat, keep in ((0, 0), (1, 5)):
        birds = next(a for a in E.legal(s, seat) if len(a.arg("birds")) == keep)
        E.apply(s, seat, birds)
        assert s.setup_stage[seat] == 1
        (only,) = E.legal(s, seat)
        assert only.kind == "keep_food" and len(only.arg("foods")) == 5 - keep
        E.apply(s, seat, only)
        E.apply(s, seat, E.legal(s, seat)[0])
    assert s.food == [[1, 1, 1, 1, 1], [0, 0, 0, 0, 0]]
    assert s.hands[0] == [] and len(s.hands[1]) == 5


def test_setup_illegal_choice_rejected():
    s = E.setup(2, {}, 8)
    before = E.encode(s)
    bad = E.legal(s, 1)[3]
    with pytest.raises(IllegalAction):
        E.apply(s, 0, bad)  # seat 1's dealt birds are not seat 0's
    with pytest.raises(IllegalAction):
        E.apply(s, 7, bad)
    assert E.encode(s) == before


# ------------------------------------------------------------- ① play a bird
def test_play_bird_habitat_and_columns():
    """①: only into a habitat printed on the card; egg cost 0,1,1,2,2 by column."""
    s = fresh()
    b = bird("Mallard")  # wetland only, seed or invertebrate? (slash cost)
    hand(s, 0, b)
    food(s, 0, seed=1)
    acts = [a for a in E.legal(s, 0) if a.kind == "play_bird"]
    assert [a.arg("habitat") for a in acts] == ["HABITAT_WETLAND"]
    # second column costs an egg: without eggs it cannot be played there
    put(s, 0, "Trumpeter Swan", "wetland")
    assert "play_bird" not in kinds(s, 0)
    swan = s.rows[0][2][0]
    s.eggs[swan] = 1
    s.eggs_by_seat[0] = 1
    s.decisions += 1
    pick(s, "play_bird", 0)
    assert s.rows[0][2] == [swan, b] and s.eggs[swan] == 0 and s.food[0] == [0] * 5
    assert s.cubes_left[0] == 7 and at_turn(s, 1)


@pytest.mark.parametrize(("column", "eggs"), [(0, 0), (1, 1), (2, 1), (3, 2), (4, 2)])
def test_egg_cost_by_column(column, eggs):
    s = fresh()
    fillers = [b for b in range(N_BASE) if 2 in cards.HABS[b]][:column]
    for f in fillers:
        put(s, 0, f, "wetland")
    egg_bird = put(s, 0, "Wild Turkey", "grassland", eggs=5)
    hand(s, 0, "Trumpeter Swan")
    food(s, 0, seed=3, fish=3, fruit=3)
    pick(s, arg_is("play_bird", bird=bird("Trumpeter Swan")), 0)
    while decision(s)[1] == 0 and not at_turn(s, 0):
        pick(s, lambda a: True, 0)
    assert s.eggs[egg_bird] == 5 - eggs


def test_full_habitat_cannot_take_a_bird():
    s = fresh()
    for b in [b for b in range(N_BASE) if 2 in cards.HABS[b]][:5]:
        put(s, 0, b, "wetland", eggs=1)
    hand(s, 0, "Mallard")
    food(s, 0, seed=5)
    assert "play_bird" not in kinds(s, 0)


def test_food_cost_and_slash_and_wild():
    """補足/餌コスト: A+B pays all, A/B pays one, wild is any food."""
    osprey = bird("Osprey")  # 1 fish
    assert affordable(osprey, [0, 0, 1, 0, 0])
    chickadee = bird("Carolina Chickadee")  # invertebrate / seed
    assert cards.MODE[chickadee] == cards.MODE_OR
    assert payments(chickadee, [1, 1, 0, 0, 0]) == [(0, 1, 0, 0, 0), (1, 0, 0, 0, 0)]
    loon = bird("Common Loon")  # fish + wild
    assert payments(loon, [0, 0, 1, 2, 1]) == [(0, 0, 1, 0, 1), (0, 0, 1, 1, 0)]
    assert not affordable(loon, [0, 0, 1, 0, 0])


def test_two_for_one_substitution_only_when_lacking():
    """①: any 2 food pay for 1 food the player does not have."""
    osprey = bird("Osprey")  # 1 fish
    assert payments(osprey, [0, 1, 0, 1, 0]) == [(0, 1, 0, 1, 0)]
    assert payments(osprey, [0, 2, 0, 1, 0]) == [(0, 1, 0, 1, 0), (0, 2, 0, 0, 0)]
    # with a fish in hand, the fish must be used
    assert payments(osprey, [0, 2, 1, 0, 0]) == [(0, 0, 1, 0, 0)]
    assert not affordable(osprey, [0, 1, 0, 0, 0])
    chickadee = bird("Carolina Chickadee")  # invertebrate / seed, none held
    assert payments(chickadee, [0, 0, 1, 1, 0]) == [(0, 0, 1, 1, 0)]
    # free birds cost nothing
    assert affordable(bird("Turkey Vulture"), [0, 0, 0, 0, 0])


def test_pay_food_is_a_decision_when_several_ways():
    s = fresh()
    b = hand(s, 0, "Common Loon")[0]
    food(s, 0, fish=1, fruit=1, rodent=1)
    pick(s, "play_bird", 0)
    acts = E.legal(s, 0)
    assert [a.kind for a in acts] == ["pay_food", "pay_food"]
    pick(s, arg_is("pay_food", rodent=1), 0)
    assert s.food[0] == [0, 0, 0, 1, 0] and b in s.rows[0][2]


# ------------------------------------------------------------------ ② forest
@pytest.mark.parametrize(
    ("birds", "base", "bonus"),
    [(0, 1, False), (1, 1, True), (2, 2, False), (3, 2, True), (4, 3, False), (5, 3, True)],
)
def test_gain_food_amounts_and_bonus(birds, base, bonus):
    """②: 1,1+,2,2+,3,3+ dice; '+' spaces discard a card for one more."""
    s = fresh()
    forest = [
        b for b in range(N_BASE) if cards.HABS[b] == (0,) and cards.COLOR[b] == cards.COLOR_NONE
    ]
    forest += [b for b in range(N_BASE) if 0 in cards.HABS[b] and cards.COLOR[b] == cards.WHITE]
    for b in forest[:birds]:
        put(s, 0, b, "forest")
    card = hand(s, 0, "Mallard")[0]
    s.feeder = [3, 3, 3, 3, 4]  # fruit x4, rodent: never all alike while taking
    pick(s, arg_is("take_action", habitat="HABITAT_FOREST"), 0)
    if bonus:
        assert sorted(kinds(s, 0)) == ["decline", "discard_card"]
        pick(s, "discard_card", 0)
        assert card in s.bird_discard
    taken = 0
    while decision(s) == ("DECISION_KIND_TAKE_DIE", 0):
        pick(s, "take_die", 0)
        taken += 1
    assert taken == base + (1 if bonus else 0)
    assert sum(s.food[0]) == taken


def test_gain_food_bonus_can_be_declined():
    s = fresh()
    put(s, 0, "Wild Turkey", "forest")
    hand(s, 0, "Mallard")
    s.feeder = [3, 3, 3, 4, 4]
    pick(s, arg_is("take_action", habitat="HABITAT_FOREST"), 0)
    pick(s, "decline", 0)
    pick(s, "take_die", 0)
    assert sum(s.food[0]) == 1 and s.hands[0] == [bird("Mallard")] and at_turn(s, 1)


def test_dual_die_gives_either_food():
    """餌ダイスの面に2種類: the invertebrate/seed face gives one of the two."""
    s = fresh()
    s.feeder = [5, 2]
    pick(s, arg_is("take_action", habitat="HABITAT_FOREST"), 0)
    labels = sorted((a.arg("face"), a.arg("food")) for a in E.legal(s, 0) if a.kind == "take_die")
    assert labels == [
        ("DIE_FACE_FISH", "FOOD_FISH"),
        ("DIE_FACE_INVERTEBRATE_OR_SEED", "FOOD_INVERTEBRATE"),
        ("DIE_FACE_INVERTEBRATE_OR_SEED", "FOOD_SEED"),
    ]
    pick(s, arg_is("take_die", food="FOOD_SEED"), 0)
    assert s.food[0][1] == 1 and s.feeder == [2]


@pytest.mark.parametrize(
    ("feeder", "reroll"),
    [
        ([3], True),
        ([2, 2, 2], True),
        ([5, 5], True),
        ([5, 0], False),
        ([0, 1], False),
        ([1, 2, 3], False),
    ],
)
def test_birdfeeder_reroll_rule(feeder, reroll):
    """②: reroll all 5 when 1 die is left or all show one face (the
    invertebrate/seed face is its own face)."""
    s = fresh()
    s.feeder = list(feeder)
    pick(s, arg_is("take_action", habitat="HABITAT_FOREST"), 0)
    assert ("reroll_feeder" in kinds(s, 0)) == reroll
    if reroll:
        pick(s, "reroll_feeder", 0)
        assert len(s.feeder) == 5


def test_birdfeeder_is_rolled_the_moment_its_last_die_is_taken():
    """Official rule (the birdfeeder is never empty): taking the last die rolls
    all five dice back into the feeder at once, not when a die is next needed."""
    s = fresh()
    s.feeder = [3]
    pick(s, arg_is("take_action", habitat="HABITAT_FOREST"), 0)
    predict = Rng(s.rng.state)
    pick(s, "take_die", 0)
    assert s.food[0][3] == 1 and at_turn(s, 1)
    assert s.feeder == [predict.below(6) for _ in range(5)]
    assert E.view(s, None)["dice_outside"] == 0


def test_power_taking_the_last_die_refills_the_feeder():
    """Official rule (the birdfeeder is never empty), for a power: a die gained
    by a power (here Anna's Hummingbird: each player takes one) refills the
    emptied feeder even when no one takes a die after it."""
    s = fresh(2)
    put(s, 0, "Anna's Hummingbird", "forest")
    s.feeder = [3, 4, 4]
    pick(s, arg_is("take_action", habitat="HABITAT_FOREST"), 0)
    pick(s, arg_is("take_die", food="FOOD_FRUIT"), 0)  # the action's one die
    pick(s, arg_is("choose_player", seat=0), 0)
    pick(s, "take_die", 0)
    predict = Rng(s.rng.state)
    pick(s, "take_die", 1)  # the last die: the feeder is rolled again at once
    assert at_turn(s, 1) and s.food[1][4] == 1
    assert s.feeder == [predict.below(6) for _ in range(5)]


def test_predator_never_rolls_five_dice_against_an_empty_feeder():
    """Official rule (the birdfeeder is never empty): a gain-food action that
    takes the last die refills the feeder before the row's brown powers, so
    Eastern Screech-Owl then rolls no die at all and cannot succeed (with a
    lazily refilled feeder it rolled all five and succeeded about 60% of the
    time)."""
    hits = 0
    for seed in range(40):
        s = fresh(2, seed)
        owl = put(s, 0, "Eastern Screech-Owl", "forest")
        s.feeder = [3]
        pick(s, arg_is("take_action", habitat="HABITAT_FOREST"), 0)
        pick(s, "take_die", 0)
        assert len(s.feeder) == 5
        pick(s, "use_power", 0)
        hits += s.cached_food[owl]
    assert hits == 0


# --------------------------------------------------------------- ③ grassland
@pytest.mark.parametrize(
    ("birds", "base", "bonus"),
    [(0, 2, False), (1, 2, True), (2, 3, False), (3, 3, True), (4, 4, False), (5, 4, True)],
)
def test_lay_eggs_amounts_and_bonus(birds, base, bonus):
    """③: 2,2+,3,3+,4,4+ eggs; '+' spaces return a food for one more."""
    s = fresh()
    grass = [b for b in range(N_BASE) if 1 in cards.HABS[b] and cards.COLOR[b] != cards.BROWN]
    for b in grass[:birds]:
        put(s, 0, b, "grassland")
    nest = put(s, 0, "Trumpeter Swan", "wetland")  # 2 eggs max
    nest2 = put(s, 0, "Hooded Warbler", "forest")  # 3 eggs max
    food(s, 0, seed=1)
    pick(s, arg_is("take_action", habitat="HABITAT_GRASSLAND"), 0)
    if bonus:
        assert sorted(kinds(s, 0)) == ["decline", "discard_food"]
        pick(s, "discard_food", 0)
        assert s.food[0] == [0] * 5
    capacity = sum(LIMIT[b] for row in s.rows[0] for b in row)
    laid = 0
    while decision(s) == ("DECISION_KIND_LAY_EGG", 0):
        pick(s, "lay_egg", 0)
        laid += 1
    assert laid == min(capacity, base + (1 if bonus else 0))
    assert s.eggs[nest] <= 2 and s.eggs[nest2] <= 3


def test_egg_limit_is_respected():
    s = fresh()
    swan = put(s, 0, "Trumpeter Swan", "wetland", eggs=LIMIT[bird("Trumpeter Swan")])
    pick(s, arg_is("take_action", habitat="HABITAT_GRASSLAND"), 0)
    assert s.eggs[swan] == LIMIT[swan] and at_turn(s, 1)


# ----------------------------------------------------------------- ④ wetland
@pytest.mark.parametrize(
    ("birds", "base", "bonus"),
    [(0, 1, False), (1, 1, True), (2, 2, False), (3, 2, True), (4, 3, False), (5, 3, True)],
)
def test_draw_cards_amounts_and_bonus(birds, base, bonus):
    """④: 1,1+,2,2+,3,3+ cards; '+' spaces discard an egg for one more."""
    s = fresh()
    wet = [b for b in range(N_BASE) if 2 in cards.HABS[b] and cards.COLOR[b] != cards.BROWN]
    for b in wet[:birds]:
        put(s, 0, b, "wetland")
    egg = put(s, 0, "Wild Turkey", "grassland", eggs=1)
    pick(s, arg_is("take_action", habitat="HABITAT_WETLAND"), 0)
    if bonus:
        assert sorted(kinds(s, 0)) == ["decline", "pay_egg"]
        pick(s, "pay_egg", 0)
        assert s.eggs[egg] == 0
    drawn = 0
    while decision(s) == ("DECISION_KIND_DRAW_CARD", 0):
        pick(s, "draw_from_deck" if drawn % 2 else "draw_from_tray", 0)
        drawn += 1
    assert drawn == base + (1 if bonus else 0) == len(s.hands[0])


def test_tray_refills_at_end_of_turn():
    """④: cards taken from the tray are replaced when the turn ends."""
    s = fresh()
    put(s, 0, "Trumpeter Swan", "wetland")
    first = s.tray[0]
    pick(s, arg_is("take_action", habitat="HABITAT_WETLAND"), 0)
    pick(s, arg_is("draw_from_tray", bird=first), 0)
    assert len(s.tray) == 3 and first not in s.tray and at_turn(s, 1)


def test_tray_is_not_refilled_during_the_turn():
    s = fresh()
    for b in [b for b in range(N_BASE) if 2 in cards.HABS[b] and cards.COLOR[b] == cards.WHITE][:4]:
        put(s, 0, b, "wetland")
    pick(s, arg_is("take_action", habitat="HABITAT_WETLAND"), 0)  # 3 cards
    pick(s, "draw_from_tray", 0)
    assert len(s.tray) == 2
    pick(s, "draw_from_tray", 0)
    pick(s, "draw_from_tray", 0)
    assert at_turn(s, 1) and len(s.tray) == 3


def test_deck_reshuffles_discard_pile():
    """④: an empty deck is made again from the shuffled discard pile."""
    s = fresh()
    s.bird_discard.extend(s.bird_deck[:-1])
    s.bird_deck = s.bird_deck[-1:]
    total = len(s.bird_discard) + 1
    pick(s, arg_is("take_action", habitat="HABITAT_WETLAND"), 0)
    pick(s, "draw_from_deck", 0)
    assert len(s.bird_deck) == 0
    assert at_turn(s, 1)
    scenario.start_turn(s, 0)
    pick(s, arg_is("take_action", habitat="HABITAT_WETLAND"), 0)
    pick(s, "draw_from_deck", 0)
    assert s.bird_discard == [] and len(s.bird_deck) == total - 2 - 0


def test_draw_with_no_cards_anywhere_does_nothing():
    s = fresh()
    s.bird_deck = []
    s.bird_discard = []
    s.tray = []
    pick(s, arg_is("take_action", habitat="HABITAT_WETLAND"), 0)
    assert at_turn(s, 1) and s.hands[0] == []


# ------------------------------------------------------------- brown powers
def test_brown_powers_right_to_left_after_the_action():
    """②-2): after the action, the row's brown powers from right to left."""
    s = fresh()
    left = put(s, 0, "Carolina Chickadee", "forest")  # cache a seed
    right = put(s, 0, "Blue-Gray Gnatcatcher", "forest")  # gain an invertebrate
    s.feeder = [3, 3, 4, 4, 4]
    pick(s, arg_is("take_action", habitat="HABITAT_FOREST"), 0)  # 2 dice (3rd column)
    pick(s, "take_die", 0)
    assert s.food[0][0] == 0 and s.cached_food[left] == 0  # powers wait for the action
    pick(s, "take_die", 0)
    assert s.food[0][0] == 1 and s.cached_food[left] == 1 and right in s.rows[0][0]
    assert at_turn(s, 1)


def test_optional_brown_power_can_be_declined():
    s = fresh()
    hawk = put(s, 0, "Red-Tailed Hawk", "forest")
    deck = len(s.bird_deck)
    pick(s, arg_is("take_action", habitat="HABITAT_FOREST"), 0)
    pick(s, "take_die", 0)
    assert kinds(s, 0) == ["use_power", "decline"]
    pick(s, "decline", 0)
    assert s.tucked[hawk] == 0 and len(s.bird_deck) == deck and at_turn(s, 1)


# ----------------------------------------------------------------- round end
def _finish_turns(s, count):
    """Let players take 'lay eggs' with no birds until ``count`` turns passed."""
    for _ in range(count):
        seat = E.to_act(s)[0]
        pick(s, arg_is("take_action", habitat="HABITAT_GRASSLAND"), seat)
        while E.to_act(s) and not at_turn(s, E.to_act(s)[0]):
            pick(s, lambda a: True)


def test_round_end():
    """ラウンドの終了: cubes return (one fewer each round), goal scored, tray
    replaced, first player passes on."""
    s = fresh(2, 4)
    tray = list(s.tray)
    _finish_turns(s, 15)
    assert s.round == 0 and s.cubes_left == [0, 1]
    _finish_turns(s, 1)
    assert s.round == 1 and s.cubes_left == [7, 7] and s.first_player == 1 and at_turn(s, 1)
    assert s.goal_points[0] == [0, 0] and s.goal_counts[0] == [0, 0]
    assert not set(tray) & set(s.tray) and set(tray) <= set(s.bird_discard)
    _finish_turns(s, 14)
    assert s.round == 2 and s.cubes_left == [6, 6] and s.first_player == 0
    _finish_turns(s, 12)
    assert s.round == 3 and s.cubes_left == [5, 5] and s.first_player == 1
    _finish_turns(s, 10)
    assert E.is_over(s) and E.score(s).final


def test_game_ends_and_final_scoring_categories():
    """得点計算: birds' points, bonus cards, goals, eggs, cached food, tucked cards."""
    s = fresh(2, 4)
    turkey = put(s, 0, "Wild Turkey", "grassland", eggs=2)
    s.cached_food[turkey] = 3
    s.tucked[turkey] = 4
    s.bonus_cards[0] = [BONUS_NAME.index("Prairie Manager")]
    _finish_turns(s, 52)
    board = E.score(s)
    cats = board.seats[0].categories
    assert cats["birds"] == cards.VP[turkey]
    assert cats["eggs"] >= 2 and cats["cached_food"] == 3 and cats["tucked_cards"] == 4
    assert cats["bonus_cards"] == 0  # 1 grassland-only bird: below the first tier
    assert board.final


def test_tie_break_by_remaining_food():
    """得点計算: equal totals are broken by the most food tokens left."""
    s = fresh(2, 4)
    s.food = [[1, 0, 0, 0, 0], [2, 0, 0, 0, 0]]
    _finish_turns(s, 52)
    s.food = [[1, 0, 0, 0, 0], [2, 0, 0, 0, 0]]
    board = E.score(s)
    assert board.seats[0].total == board.seats[1].total
    assert board.winners == [1]
    s.food = [[2, 0, 0, 0, 0], [2, 0, 0, 0, 0]]
    assert E.score(s).winners == [0, 1]


# ------------------------------------------------------------------- variants
def test_variant_no_powerful_birds():
    s = E.setup(2, {"no_powerful_birds": True}, 1)
    cards_in_game = set(s.bird_deck) | set(s.tray) | {b for d in s.setup_birds for b in d}
    assert not cards_in_game & set(POWERFUL) and len(cards_in_game) == N_BASE - 4
    assert {NAME[b] for b in POWERFUL} == {
        "Chihuahuan Raven",
        "Common Raven",
        "Franklin's Gull",
        "Killdeer",
    }


def test_variant_no_language_bonus_cards():
    s = E.setup(2, {"no_language_bonus_cards": True}, 1)
    bonus = set(s.bonus_deck) | {k for d in s.setup_bonus for k in d}
    assert len(bonus) == 22 and not bonus & set(LANGUAGE_BONUS)
    assert {BONUS_NAME[k] for k in LANGUAGE_BONUS} == {
        "Anatomist",
        "Cartographer",
        "Historian",
        "Photographer",
    }
    assert len(set(E.setup(2, {}, 1).bonus_deck)) == 26 - 4


def test_variant_swift_start_deck_has_180_cards():
    s = E.setup(2, {"swift_start": True}, 1)
    cards_in_game = set(s.bird_deck) | set(s.tray) | {b for d in s.setup_birds for b in d}
    assert len(cards_in_game) == NB == 180
    assert len(set(E.setup(2, {}, 1).bird_deck)) == N_BASE - 3 - 10


def test_variant_blue_goal_side_scores_per_item():
    s = fresh(2, 4, goal_side="blue")
    s.goals[0] = cards.GOAL_CAT.index(cards.G_TOTAL_BIRDS)
    for b in [
        b for b in range(N_BASE) if 0 in cards.HABS[b] and cards.COLOR[b] == cards.COLOR_NONE
    ][:2]:
        put(s, 0, b, "forest")
    _finish_turns(s, 16)
    assert s.goal_points[0] == [2, 0]


def test_illegal_action_mid_turn_is_rejected():
    s = fresh()
    pick(s, arg_is("take_action", habitat="HABITAT_FOREST"), 0)
    before = E.encode(s)
    with pytest.raises(IllegalAction) as err:
        E.apply(s, 0, E.legal(s, 0)[0].__class__("take_action", (("habitat", "HABITAT_FOREST"),)))
    assert err.value.reason == "NOT_LEGAL" and E.encode(s) == before


def test_activate_helper_sanity():
    s = fresh()
    b = put(s, 0, "Carolina Chickadee", "forest")
    activate(s, 0, b)
    assert s.cached_food[b] == 1 and at_turn(s, 0)
