"""End of the Game and scoring (ambiguities 2, 11, 12)."""

import random

import pytest
from undertheleaves_builder import (
    ENGINE,
    NO_CHOICE,
    build,
    place_dweller,
    place_tile,
    played,
    take_tile,
)

from services.core.engine import IllegalAction
from services.undertheleaves.rules import state as st
from services.undertheleaves.rules.state import BeeSector, Dweller


def play_to_the_end(state, pick=0):
    turns = {seat: 0 for seat in range(state.players)}
    history = []
    while not ENGINE.is_over(state):
        seat = state.current
        if state.phase == st.TAKE_TILE:
            turns[seat] += 1
            history.append((len(state.bag), len(state.market)))
        legal = ENGINE.legal(state, seat)
        ENGINE.apply(state, seat, legal[pick % len(legal)])
    return turns, history


@pytest.mark.parametrize(("players", "tiles"), [(2, 26), (3, 38), (4, 50)])
def test_ambiguity_2_the_game_ends_when_the_market_cannot_be_refilled(players, tiles):
    state = ENGINE.setup(players, NO_CHOICE, seed=players)
    turns, history = play_to_the_end(state, pick=7)
    # 12 turns each, 13-tile gardens, 2 tiles left in the market and none in the bag.
    assert turns == dict.fromkeys(range(players), 12)
    assert all(len(g.tiles) == 13 for g in state.gardens)
    assert len(state.market) == 2 and state.bag == []
    assert state.turn == tiles - 2
    # The turn before the last started with an empty bag and a full market.
    assert history[-1] == (0, 3)
    assert history[-2] == (1, 3)
    assert ENGINE.to_act(state) == []
    assert all(ENGINE.legal(state, seat) == [] for seat in range(players))


def test_ambiguity_2_the_last_turn_finishes_its_dweller_choices_first():
    art = "P  P  | G  O*\nO  ~  | Y  Y\n.  .  | ~  V\n.  .  | G  G"
    cards = ["leaf_restless", "puddle_friendly", "mushroom_host"]
    state = played(build(art, play=(1, -1), cards=cards, bag=0))
    assert not ENGINE.is_over(state) and state.phase == st.PLACE_DWELLER
    ENGINE.apply(state, 0, place_dweller("puddle_friendly", 1, -1))
    assert ENGINE.is_over(state)
    assert ENGINE.view(state, None)["current_seat"] == -1


def test_rule_no_action_after_the_end():
    state = ENGINE.setup(2, NO_CHOICE, seed=2)
    play_to_the_end(state)
    for action in (take_tile(0), place_tile(1, 0)):
        with pytest.raises(IllegalAction) as caught:
            ENGINE.apply(state, 0, action)
        assert caught.value.reason == "GAME_OVER"


def give(state, seat, bees=0, hummingbirds=0, leaf=0, puddle=0, mushroom=0):
    """Put pieces in a garden directly (scoring only counts them)."""
    garden = state.gardens[seat]
    garden.bee_sectors = (BeeSector("pink", (90,), bees),) if bees else ()
    garden.hummingbirds = (((90, 0), hummingbirds),) if hummingbirds else ()
    garden.dwellers = tuple(
        Dweller(card, 90, (90,), 0)
        for card, n in (("leaf_runner", leaf), ("puddle_shy", puddle), ("mushroom_loner", mushroom))
        for _ in range(n)
    )


def test_rule_scoring_counts_every_piece_by_kind():
    state = ENGINE.setup(2, {}, seed=1)
    give(state, 0, bees=5, hummingbirds=3, leaf=2, puddle=1, mushroom=0)
    give(state, 1, bees=1, hummingbirds=0, leaf=0, puddle=1, mushroom=4)
    board = ENGINE.score(state)
    zero, one = board.seats
    assert zero.categories == {
        "bees": 5,
        "hummingbirds": 3,
        "leaf": 2,
        "puddle": 1,
        "mushroom": 0,
        "leaf_majority": 2,
        "puddle_majority": 2,
        "mushroom_majority": 0,
    }
    assert zero.total == 5 + 3 + 2 + 1 + 2 + 2
    assert one.total == 1 + 1 + 4 + 2 + 2
    assert ENGINE.view(state, 0)["gardens"][0]["score"] == zero.total
    assert ENGINE.view(state, 0)["gardens"][0]["pieces"] == {
        "bees": 5,
        "hummingbirds": 3,
        "leaf": 2,
        "puddle": 1,
        "mushroom": 0,
    }


def test_ambiguity_11_majority_bonus_goes_to_every_tied_leader():
    state = ENGINE.setup(3, {}, seed=1)
    give(state, 0, leaf=3, mushroom=1)
    give(state, 1, leaf=3, puddle=2)
    give(state, 2, leaf=1, puddle=2, mushroom=1)
    cats = [s.categories for s in ENGINE.score(state).seats]
    assert [c["leaf_majority"] for c in cats] == [2, 2, 0]
    assert [c["puddle_majority"] for c in cats] == [0, 2, 2]
    assert [c["mushroom_majority"] for c in cats] == [2, 0, 2]


def test_ambiguity_11_no_majority_bonus_when_nobody_has_the_family():
    state = ENGINE.setup(2, {}, seed=1)
    give(state, 0, bees=2, leaf=1)
    give(state, 1, bees=3)
    cats = [s.categories for s in ENGINE.score(state).seats]
    assert [c["puddle_majority"] for c in cats] == [0, 0]
    assert [c["mushroom_majority"] for c in cats] == [0, 0]
    assert [c["leaf_majority"] for c in cats] == [2, 0]


def test_ambiguity_12_a_tie_goes_to_most_hummingbirds_then_most_bees_then_is_shared():
    state = ENGINE.setup(4, {}, seed=1)
    give(state, 0, bees=4, hummingbirds=2)  # 6
    give(state, 1, bees=3, hummingbirds=3)  # 6, more hummingbirds
    give(state, 2, bees=5, hummingbirds=1)  # 6
    give(state, 3, bees=4, hummingbirds=2)  # 6, same as seat 0
    board = ENGINE.score(state)
    assert [s.total for s in board.seats] == [6, 6, 6, 6]
    assert [s.tiebreak for s in board.seats] == [(2, 4), (3, 3), (1, 5), (2, 4)]
    assert [s.rank for s in board.seats] == [2, 1, 4, 2]
    assert board.winners == [1]
    give(state, 1, bees=4, hummingbirds=2)
    assert ENGINE.score(state).winners == [0, 1, 3]  # shared victory


def test_rule_scoring_is_valid_mid_game_and_final_at_the_end():
    state = ENGINE.setup(2, NO_CHOICE, seed=9)
    assert ENGINE.score(state).final is False
    assert [s.total for s in ENGINE.score(state).seats] == [0, 0]
    play_to_the_end(state, pick=3)
    board = ENGINE.score(state)
    assert board.final is True
    assert sorted(s.rank for s in board.seats)[0] == 1


def test_view_totals_equal_the_scored_categories_summed():
    """Ambiguity 11: the view's garden score is the seat's categories (pieces and
    majority bonuses) summed, as Score reports them, after every decision."""
    from services.undertheleaves.rules.engine import UnderTheLeaves

    engine = UnderTheLeaves()
    for seed in range(6):
        players = 2 + seed % 3
        state = engine.setup(players, {}, seed)
        chooser = random.Random(seed)
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            actions = engine.legal(state, seat)
            state = engine.apply(state, seat, actions[chooser.randrange(len(actions))])
            scored = {s.seat: sum(s.categories.values()) for s in engine.score(state).seats}
            shown = {g["seat"]: g["score"] for g in engine.view(state, None)["gardens"]}
            assert shown == scored
