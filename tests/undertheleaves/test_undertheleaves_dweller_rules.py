"""Garden Dwellers: rules common to every card (ambiguities 5, 6, 10) and card coverage."""

import inspect

import pytest
import test_undertheleaves_leaf_dwellers
import test_undertheleaves_mushroom_dwellers
import test_undertheleaves_puddle_dwellers
from undertheleaves_builder import (
    ENGINE,
    anchors,
    arrived,
    build,
    choices,
    place_dweller,
    place_tile,
    play_legal,
    played,
    take_tile,
    xys,
)

from services.core.engine import IllegalAction
from services.undertheleaves.rules import state as st
from services.undertheleaves.rules.catalogue import CARDS
from services.undertheleaves.rules.dwellers import RULES

# A Friendly pair made by (1, -1) and a Collector pair that was already there.
TWO_CHOICES = """
P  P  | G  O* | P  P  | .  .
O  ~  | Y  Y  | O  G* | .  .
------+-------+-------+------
.  .  | ~  V  | .  .  | Y* V
.  .  | G  G  | .  .  | P  P
"""
CHOOSERS = ["leaf_restless", "puddle_friendly", "mushroom_collector"]

# A pink square holding two pink mushrooms: Thoughtful and Host on the same cells.
SQUARE_WITH_MUSHROOMS = """
Y  Y  | G  G
O  P* | P* V
------+------
Y* P  | P  ~
O  O  | O  O
"""


def test_rule_dwellers_every_card_has_a_rule():
    assert set(RULES) == set(CARDS)


def test_rule_dwellers_every_card_has_scenarios_that_score_and_that_must_not():
    modules = [
        test_undertheleaves_leaf_dwellers,
        test_undertheleaves_puddle_dwellers,
        test_undertheleaves_mushroom_dwellers,
    ]
    classes = {name: cls for m in modules for name, cls in inspect.getmembers(m, inspect.isclass)}
    for card in CARDS:
        name = "Test" + "".join(part.title() for part in card.split("_"))
        assert name in classes, f"no {name} for {card}"
        tests = [t for t in dir(classes[name]) if t.startswith("test_")]
        assert any(t.startswith("test_scores") for t in tests), card
        assert any(t.startswith("test_no") for t in tests), card


def test_ambiguity_5_checks_run_leaf_then_puddle_then_mushroom():
    state = played(build(TWO_CHOICES, play=(1, -1), cards=CHOOSERS))
    assert (state.phase, state.pending_card) == (st.PLACE_DWELLER, "puddle_friendly")
    ENGINE.apply(state, 0, place_dweller("puddle_friendly", 1, -1))
    assert (state.phase, state.pending_card) == (st.PLACE_DWELLER, "mushroom_collector")
    assert state.current == 0
    ENGINE.apply(state, 0, place_dweller("mushroom_collector", 6, -2))
    assert state.phase == st.TAKE_TILE and state.current == 1
    assert [d.card for d in state.gardens[0].dwellers] == ["puddle_friendly", "mushroom_collector"]


def test_ambiguity_5_pieces_arrive_in_check_order_within_a_turn():
    state = played(build(SQUARE_WITH_MUSHROOMS, play=(1, -1)))
    assert [d.card for d in state.gardens[0].dwellers] == ["leaf_thoughtful", "mushroom_host"]


def test_rule_dwellers_a_space_may_hold_dwellers_of_different_families():
    state = played(build(SQUARE_WITH_MUSHROOMS, play=(1, -1)))
    thoughtful, host = state.gardens[0].dwellers
    assert xys(thoughtful.cells) & xys(host.cells) == {(1, -1), (2, -1), (1, -2), (2, -2)}
    assert arrived(state, "mushroom_host") == [(1, -1)]


def test_rule_dwellers_a_pattern_counts_at_the_first_check_after_it_exists():
    """The whole garden is checked after every tile, not only around the new one."""
    art = "O  ~ | ~  Y\nP  P | G  G\nY  Y | .  .\nO* G | .  ."
    built = build(art, play=(0, -1), cards=["leaf_restless", "puddle_diver", "mushroom_host"])
    assert anchors(built.state, "puddle_diver") == []
    assert arrived(played(built), "puddle_diver") == [(1, 0)]


def test_rule_dwellers_only_the_active_seats_garden_is_checked():
    other = "O  ~ | ~  Y\nP  P | G  G"
    built = build(
        "G* O\nP  P", others=[other], cards=["leaf_restless", "puddle_diver", "mushroom_host"]
    )
    state = built.state
    play_legal(state, 0)
    assert anchors(state, "puddle_diver", seat=1) == []
    play_legal(state, 1)
    assert anchors(state, "puddle_diver", seat=1) == [(1, 0)]


def test_ambiguity_10_a_choice_is_a_place_dweller_decision_of_the_same_seat():
    state = played(build(TWO_CHOICES, play=(1, -1), cards=CHOOSERS))
    assert ENGINE.to_act(state) == [0]
    assert ENGINE.legal(state, 1) == []
    legal = ENGINE.legal(state, 0)
    assert [a.kind for a in legal] == ["place_dweller", "place_dweller"]
    assert [a.label for a in legal] == ["Friendly on (1, -1)", "Friendly on (2, -2)"]
    view = ENGINE.view(state, 1)
    assert view["phase"] == "PHASE_PLACE_DWELLER"
    assert view["pending_card"] == "puddle_friendly"
    assert [(o["x"], o["y"]) for o in view["pending_options"]] == [(1, -1), (2, -2)]
    assert choices(state) == [(1, -1), (2, -2)]


@pytest.mark.parametrize(
    ("seat", "action", "reason"),
    [
        (1, place_dweller("puddle_friendly", 1, -1), "NOT_YOUR_TURN"),
        (0, place_dweller("mushroom_collector", 5, -1), "WRONG_CARD"),
        (0, place_dweller("puddle_friendly", 0, 0), "NOT_A_DWELLER_OPTION"),
        (0, place_dweller("puddle_friendly", 1, -2), "NOT_A_DWELLER_OPTION"),
    ],
)
def test_ambiguity_10_bad_dweller_choices_are_rejected_without_change(seat, action, reason):
    state = played(build(TWO_CHOICES, play=(1, -1), cards=CHOOSERS))
    before = ENGINE.encode(state)
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, seat, action)
    assert caught.value.reason == reason
    assert ENGINE.encode(state) == before


def test_ambiguity_10_no_tile_is_taken_or_placed_while_a_choice_is_pending():
    state = played(build(TWO_CHOICES, play=(1, -1), cards=CHOOSERS))
    for action in (take_tile(0), place_tile(3, -1)):
        with pytest.raises(IllegalAction) as caught:
            ENGINE.apply(state, 0, action)
        assert caught.value.reason == "UNEXPECTED_ACTION"
