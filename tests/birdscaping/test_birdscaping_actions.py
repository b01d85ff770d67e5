"""How to Play and Actions 1-5 (rulebook sections named per test; AMB n = AMBIGUITIES.md)."""

from __future__ import annotations

import pytest
from birdscaping_helpers import (
    act,
    all_cards_accounted,
    find,
    hand,
    keys,
    kinds,
    legal_args,
    make,
    row,
    tilted,
)

from services.birdscaping.rules import ENGINE
from services.core.engine import IllegalAction

# --------------------------------------------------------------- How to Play: two actions


def test_two_actions_per_turn_any_combination_even_the_same_twice():
    """How to Play / Actions: two actions per turn, in any combination (the same one twice)."""
    s = make(hands={0: [], 1: []}, offer=["robin", "mallard"], fill_deck=True)
    act(s, 0, "draw_card")
    assert s.turn == 0 and s.actions_left == 1
    act(s, 0, "draw_card")
    assert s.turn == 1 and s.actions_left == 2
    assert len(s.hands[0]) == 2


def test_players_alternate_turns():
    """How to Play: players alternate taking turns."""
    s = make(hands={0: [], 1: []}, offer=["robin", "mallard"], fill_deck=True, actions_left=1)
    act(s, 0, "draw_card")
    assert ENGINE.to_act(s) == [1]
    assert ENGINE.legal(s, 0) == []
    s.actions_left = 1
    act(s, 1, "draw_card")
    assert ENGINE.to_act(s) == [0]


# --------------------------------------------------------------- 1) Activate a Feature Row


def test_activate_row_right_to_left_resolving_abilities_in_order():
    """1) Activate a Feature Row: start with the right-most card, tilt each card and resolve
    its When Activated ability before the next one."""
    s = make(
        hands={0: [], 1: []},
        rows={0: {"garden": ["robin", "common_blackbird"]}},
        deck=["dunnock", "house_sparrow"],
        discard=["blue_tit"],
        offer=["great_tit", "eurasian_magpie"],
    )
    act(s, 0, "activate_row", row="garden")
    # Blackbird (right) took the discard top first, then Robin drew the deck top.
    assert hand(s, 0) == ["blue_tit", "dunnock"]
    assert tilted(s, "robin") and tilted(s, "common_blackbird")
    assert s.actions_left == 1  # one action regardless of how many cards


def test_activate_row_needs_a_card_in_the_row():
    """1) Activate a Feature Row: choose a row that has at least one card in it."""
    s = make(hands={0: []}, rows={0: {"pond": ["mallard"]}}, fill_deck=True)
    assert legal_args(s, 0, "activate_row", "row") == ["ROW_POND"]


def test_activate_row_skips_already_tilted_cards_amb2():
    """AMB 2: only upright cards are activated; tilted ones are skipped and do not re-trigger."""
    s = make(
        hands={0: [], 1: []},
        rows={0: {"garden": ["robin", "common_blackbird"]}},
        tilted=["robin"],
        deck=["dunnock", "house_sparrow"],
        discard=["blue_tit"],
        offer=["great_tit", "eurasian_magpie"],
    )
    act(s, 0, "activate_row", row="garden")
    assert hand(s, 0) == ["blue_tit"]  # Robin did not draw
    assert len(s.deck) == 2


def test_activate_row_only_activates_that_row():
    """1) Activate a Feature Row: you only activate the cards in the chosen row."""
    s = make(
        hands={0: [], 1: []},
        rows={0: {"garden": ["robin"], "pond": ["mallard"]}},
        fill_deck=True,
        offer=["great_tit", "eurasian_magpie"],
    )
    act(s, 0, "activate_row", row="pond")
    assert tilted(s, "mallard") and not tilted(s, "robin")


# --------------------------------------------------------------- 2) Play a Card


def test_play_nesting_cost_equals_column_and_leftmost_space_amb5():
    """2) Play a Card / Paying Nesting Area Costs, AMB 5: the bird goes in the left-most open
    space; it costs nesting areas equal to that column (cards in the row + 1)."""
    s = make(
        hands={0: ["blue_tit", "eurasian_wren", "dunnock"], 1: []},
        rows={0: {"trees": ["great_tit"]}},
        offer=["robin", "mallard"],
        fill_deck=True,
    )
    # blue_tit (seed/insect) into Trees column 2 needs 2 nesting: wren (1) + dunnock (1) for
    # nesting leaves no food -> only possible with 2 nesting from one card; here not payable.
    assert find(s, 0, "play_card", card="blue_tit", row="trees") is None
    # Garden is empty: column 1, one nesting + one seed/insect.
    act(s, 0, "play_card", card="blue_tit", row="garden")
    assert s.pay[2] == 1
    act(s, 0, "pay_discard", card="eurasian_wren", area="nesting")
    act(s, 0, "pay_discard", card="dunnock", area="food")
    assert row(s, 0, "garden") == ["blue_tit"]
    s2 = make(
        hands={0: ["blue_tit", "woodpecker", "dunnock"], 1: []},
        rows={0: {"trees": ["great_tit"]}},
        offer=["robin", "mallard"],
        fill_deck=True,
    )
    act(s2, 0, "play_card", card="blue_tit", row="trees")
    assert s2.pay[2] == 2
    act(s2, 0, "pay_discard", card="woodpecker", area="nesting")
    act(s2, 0, "pay_discard", card="dunnock", area="food")
    assert row(s2, 0, "trees") == ["great_tit", "blue_tit"]


def test_play_at_most_four_cards_per_row_amb5():
    """Player Tableaus / AMB 5: a row holds at most 4 cards; a full row takes no more."""
    s = make(
        hands={0: ["house_sparrow", "great_tit"], 1: []},
        rows={0: {"pond": ["mallard", "grey_heron", "common_kingfisher", "robin"]}},
        offer=["dunnock", "blue_tit"],
        fill_deck=True,
    )
    rows_ok = legal_args(s, 0, "play_card", "row")
    assert "ROW_POND" not in rows_ok
    assert "ROW_TREES" in rows_ok


def test_play_feature_row_restrictions():
    """2) Play a Card / Feature Row Restrictions: a bird may only enter a compatible row
    (Robin: Garden or Pond)."""
    s = make(
        hands={0: ["robin", "eurasian_magpie", "common_blackbird", "woodpecker"], 1: []},
        offer=["dunnock", "blue_tit"],
        fill_deck=True,
    )
    rows_ok = {
        a.arg("row")
        for a in ENGINE.legal(s, 0)
        if a.kind == "play_card" and a.arg("card") == "robin"
    }
    assert rows_ok == {"ROW_GARDEN", "ROW_POND"}


def test_discarded_card_gives_only_one_resource_area():
    """2) Paying Food Costs, IMPORTANT: a discarded card yields one resource area only."""
    # Wren (insect) into an empty Garden row: 1 nesting + 1 insect. Blue Tit alone offers 1
    # nesting OR 1 insect, never both.
    s = make(hands={0: ["eurasian_wren", "blue_tit"], 1: []}, fill_deck=True)
    assert find(s, 0, "play_card", card="eurasian_wren") is None
    s = make(hands={0: ["eurasian_wren", "blue_tit", "house_sparrow"], 1: []}, fill_deck=True)
    act(s, 0, "play_card", card="eurasian_wren", row="garden")
    options = {(a.arg("card"), a.arg("area")) for a in ENGINE.legal(s, 0)}
    # Blue Tit for nesting would leave only the Sparrow's seed for the insect: not offered.
    assert options == {("blue_tit", "AREA_FOOD"), ("house_sparrow", "AREA_NESTING")}
    act(s, 0, "pay_discard", card="blue_tit", area="food")
    # Blue Tit was used for food: the nesting must come from the House Sparrow.
    assert {(a.arg("card"), a.arg("area")) for a in ENGINE.legal(s, 0)} == {
        ("house_sparrow", "AREA_NESTING")
    }
    act(s, 0, "pay_discard", card="house_sparrow", area="nesting")
    assert row(s, 0, "garden") == ["eurasian_wren"]


def test_discard_ignores_row_restrictions_robin_gives_two_nesting():
    """2) Paying Food Costs: discarding ignores the discarded bird's row restrictions (the
    Robin can be discarded for 2 nesting areas although it cannot enter the Trees row)."""
    s = make(
        hands={0: ["woodpecker", "robin", "dunnock", "eurasian_wren"], 1: []},
        rows={0: {"trees": ["great_tit"]}},
        offer=["mallard", "blue_tit"],
        fill_deck=True,
    )
    act(s, 0, "play_card", card="woodpecker", row="trees")
    act(s, 0, "pay_discard", card="robin", area="nesting")
    assert s.pay[3] == 2


def test_spend_trees_for_nesting_and_garden_for_food_amb4():
    """2) Spend cards in your tableau, AMB 4: tilted Trees cards give nesting, tilted Garden
    cards give food; spending untilts them."""
    s = make(
        hands={0: ["eurasian_wren"], 1: []},
        rows={0: {"trees": ["woodpecker"], "garden": ["dunnock"]}},
        tilted=["woodpecker", "dunnock"],
        offer=["mallard", "blue_tit"],
        fill_deck=True,
    )
    act(s, 0, "play_card", card="eurasian_wren", row="garden")  # column 2: 2 nesting + insect
    assert kinds(s, 0) == {"pay_spend"}
    act(s, 0, "pay_spend", card="woodpecker")
    act(s, 0, "pay_spend", card="dunnock")
    assert row(s, 0, "garden") == ["dunnock", "eurasian_wren"]
    assert not tilted(s, "woodpecker") and not tilted(s, "dunnock")
    assert not tilted(s, "eurasian_wren")  # a new bird enters upright
    assert s.discard == []


def test_pond_cards_and_upright_cards_do_not_pay_for_play_amb4():
    """AMB 4: a tableau card yields only its row's area; Pond cards give curious birds (useless
    to play a card) and upright cards cannot be spent."""
    s = make(
        hands={0: ["eurasian_wren"], 1: []},
        rows={0: {"pond": ["grey_heron"], "trees": ["woodpecker"]}},
        tilted=["grey_heron"],
        offer=["mallard", "blue_tit"],
        fill_deck=True,
    )
    assert find(s, 0, "play_card", card="eurasian_wren") is None


def test_food_cost_alternatives_slash_and_plus():
    """2) Paying Food Costs: '+' icons must all be paid, '/' lets you pick one (Robin:
    insect + insect/fruit)."""
    s = make(
        hands={0: ["robin", "common_blackbird", "house_sparrow"], 1: []},
        offer=["mallard", "blue_tit"],
        fill_deck=True,
    )
    act(s, 0, "play_card", card="robin", row="pond")
    act(s, 0, "pay_discard", card="common_blackbird", area="food")  # fruit + insect
    act(s, 0, "pay_discard", card="house_sparrow", area="nesting")
    assert row(s, 0, "pond") == ["robin"]
    # seed cannot stand in for insect/fruit
    s = make(
        hands={0: ["robin", "european_goldfinch", "house_sparrow", "mallard"], 1: []},
        offer=["dunnock", "blue_tit"],
        fill_deck=True,
    )
    assert find(s, 0, "play_card", card="robin") is None


def test_unused_resources_are_lost():
    """2) Play a Card: you lose any resources you did not use (one bird per action)."""
    s = make(
        hands={0: ["house_sparrow", "woodpecker", "eurasian_wren", "blue_tit"], 1: []},
        offer=["mallard", "dunnock"],
        fill_deck=True,
    )
    act(s, 0, "play_card", card="eurasian_wren", row="garden")  # 1 nesting + insect
    act(s, 0, "pay_discard", card="woodpecker", area="nesting")  # 2 nesting, 1 wasted
    act(s, 0, "pay_discard", card="blue_tit", area="food")
    act(s, 0, "order_discard", card="woodpecker")
    assert s.pay is None and s.step == "choose"
    # the next play pays in full again (House Sparrow: no nesting, seed) and nothing is left
    assert find(s, 0, "play_card", card="house_sparrow") is None


def test_each_payment_step_must_contribute_amb3():
    """AMB 3: a spent (or discarded) card must contribute at least 1 needed resource: once the
    nesting is paid no more nesting sources are offered, and a zero-yield card is never
    offered."""
    s = make(
        hands={0: ["eurasian_wren", "woodpecker", "blue_tit"], 1: []},
        rows={0: {"garden": ["song_thrush"], "trees": ["great_tit"]}},
        tilted=["song_thrush", "great_tit"],
        offer=["mallard", "dunnock"],
        fill_deck=True,
    )
    act(s, 0, "play_card", card="eurasian_wren", row="garden")  # column 2: 2 nest + insect
    offered = {(a.kind, a.arg("card")) for a in ENGINE.legal(s, 0)}
    assert ("pay_spend", "song_thrush") not in offered  # Song Thrush has no food
    act(s, 0, "pay_discard", card="woodpecker", area="nesting")
    offered = [(a.kind, a.arg_dict()) for a in ENGINE.legal(s, 0)]
    assert offered == [("pay_discard", {"card": "blue_tit", "area": "AREA_FOOD"})]


def test_payment_never_dead_ends():
    """Decisions are atomic and complete: every payment step offered keeps the rest payable."""
    s = make(
        hands={0: ["grey_heron", "robin", "common_blackbird", "dunnock", "eurasian_jay"], 1: []},
        offer=["mallard", "blue_tit"],
        fill_deck=True,
    )
    act(s, 0, "play_card", card="grey_heron", row="pond")  # insect + fruit + insect/seed, 1 nest
    while s.step == "pay":
        options = ENGINE.legal(s, 0)
        assert options
        ENGINE.apply(s, 0, options[-1])
    assert row(s, 0, "pond") == ["grey_heron"]
    assert all_cards_accounted(s)


def test_discard_order_chosen_by_the_discarder():
    """Discarding Cards: discarding several cards in one action, you choose their order on the
    discard pile."""
    for top in ("house_sparrow", "blue_tit"):
        s = make(
            hands={0: ["eurasian_wren", "blue_tit", "house_sparrow"], 1: []},
            offer=["mallard", "dunnock"],
            fill_deck=True,
        )
        act(s, 0, "play_card", card="eurasian_wren", row="garden")
        act(s, 0, "pay_discard", card="blue_tit", area="food")
        act(s, 0, "pay_discard", card="house_sparrow", area="nesting")
        assert s.step == "order"
        assert sorted(legal_args(s, 0, "order_discard")) == ["blue_tit", "house_sparrow"]
        bottom = "blue_tit" if top == "house_sparrow" else "house_sparrow"
        act(s, 0, "order_discard", card=bottom)
        assert keys(s.discard) == [bottom, top]
        assert s.step == "choose"


def test_play_card_is_not_offered_when_unaffordable():
    """2) Play a Card: you must pay the food and nesting costs first."""
    s = make(hands={0: ["grey_heron"], 1: []}, fill_deck=True)
    assert "play_card" not in kinds(s, 0)


# --------------------------------------------------------------- 3) Draft Cards


def test_draft_by_discarding_one_card_for_its_curious_birds_amb6():
    """3) Draft Cards 1), AMB 6: discard 1 card, draft up to its curious birds from the offer,
    the discard pile (top down) or the deck; the discarded card goes on the pile afterwards."""
    s = make(
        hands={0: ["robin"], 1: []},
        offer=["mallard", "dunnock"],
        discard=["blue_tit", "great_tit"],
        deck=["house_sparrow", "eurasian_jay", "eurasian_magpie"],
    )
    act(s, 0, "draft_discard", card="robin")
    assert s.draft_left == 2 and s.set_aside >= 0
    options = [(a.kind, a.arg_dict()) for a in ENGINE.legal(s, 0)]
    assert options == [
        ("draft_from_offer", {"card": "mallard"}),
        ("draft_from_offer", {"card": "dunnock"}),
        ("draft_from_discard", {"card": "great_tit"}),  # only the top card
        ("draft_from_deck", {}),
        ("draft_stop", {}),
    ]
    act(s, 0, "draft_from_discard")
    act(s, 0, "draft_from_discard")  # working down the pile
    assert hand(s, 0) == ["great_tit", "blue_tit"]
    assert keys(s.discard) == ["robin"]  # Robin placed after the draft
    assert s.step == "choose" and s.actions_left == 1


def test_draft_is_up_to_and_may_stop_early_amb6():
    """AMB 6: drafting is 'up to' the curious birds."""
    s = make(
        hands={0: ["robin"], 1: []},
        offer=["mallard", "dunnock"],
        deck=["house_sparrow", "eurasian_jay", "eurasian_magpie"],
    )
    act(s, 0, "draft_discard", card="robin")
    act(s, 0, "draft_from_deck")
    act(s, 0, "draft_stop")
    assert hand(s, 0) == ["house_sparrow"]
    assert s.actions_left == 1


def test_draft_replenishes_offer_only_after_the_whole_action():
    """Replenishing the Bird Offer: after a multi-card draft, refill only at the end."""
    s = make(
        hands={0: ["robin"], 1: []},
        offer=["mallard", "dunnock"],
        deck=["house_sparrow", "eurasian_jay", "eurasian_magpie"],
    )
    act(s, 0, "draft_discard", card="robin")
    act(s, 0, "draft_from_offer", card="mallard")
    assert keys(s.offer) == ["dunnock"]
    assert legal_args(s, 0, "draft_from_offer") == ["dunnock"]  # no new card revealed
    act(s, 0, "draft_from_offer", card="dunnock")
    assert keys(s.offer) == ["house_sparrow", "eurasian_jay"]
    assert hand(s, 0) == ["mallard", "dunnock"]


def test_draft_discarding_needs_a_curious_bird():
    """3) Draft Cards 1): a discarded card gives its curious birds; a card with none cannot pay
    (AMB 3 spirit: no zero-yield payments)."""
    s = make(hands={0: ["nuthatch", "robin"], 1: []}, fill_deck=True, offer=["mallard", "dunnock"])
    assert legal_args(s, 0, "draft_discard") == ["robin"]


def test_draft_only_one_card_discarded():
    """3) Draft Cards, Note: you may not discard more than one card for a draft action."""
    s = make(
        hands={0: ["robin", "mallard"], 1: []},
        offer=["great_tit", "dunnock"],
        fill_deck=True,
    )
    act(s, 0, "draft_discard", card="robin")
    assert "draft_discard" not in kinds(s, 0)
    assert "draft_spend" not in kinds(s, 0)


def test_draft_by_spending_tilted_pond_cards_not_both_methods():
    """3) Draft Cards 2) and REMINDER: spend any number of tilted Pond cards first, then draft
    up to their curious birds; never combined with a discard."""
    s = make(
        hands={0: ["robin"], 1: []},
        rows={0: {"pond": ["common_kingfisher", "grey_heron", "song_thrush"]}},
        tilted=["common_kingfisher", "grey_heron", "song_thrush"],
        offer=["great_tit", "dunnock"],
        fill_deck=True,
    )
    # Song Thrush has no curious bird: it cannot be spent (AMB 3).
    assert sorted(legal_args(s, 0, "draft_spend")) == ["common_kingfisher", "grey_heron"]
    act(s, 0, "draft_spend", card="common_kingfisher")
    assert kinds(s, 0) == {"draft_spend", "draft_spend_done"}
    act(s, 0, "draft_spend", card="grey_heron")
    assert kinds(s, 0) == {"draft_spend_done"}
    act(s, 0, "draft_spend_done")
    assert s.draft_left == 4
    assert "draft_discard" not in kinds(s, 0)
    assert not tilted(s, "common_kingfisher") and not tilted(s, "grey_heron")
    for _ in range(4):
        act(s, 0, "draft_from_deck")
    assert len(s.hands[0]) == 5
    assert s.step == "choose"


def test_draft_deck_runs_out_mid_action_amb7():
    """3) NOTE ON ROUND END, AMB 7: the deck is not reset during a Draft Cards action; no deck
    card can be taken until the action ends; then the round ends."""
    s = make(
        hands={0: ["robin"], 1: []},
        offer=["mallard", "dunnock"],
        discard=["blue_tit"],
        deck=["house_sparrow"],
    )
    act(s, 0, "draft_discard", card="robin")
    act(s, 0, "draft_from_deck")
    assert s.deck == [] and s.round == 1
    assert "draft_from_deck" not in kinds(s, 0)
    act(s, 0, "draft_from_offer", card="mallard")
    # action over: discard pile (blue_tit, robin) + offer (dunnock) become the round-2 deck
    assert s.round == 2
    assert len(s.offer) == 2 and len(s.deck) == 1 and s.discard == []
    assert hand(s, 0) == ["house_sparrow", "mallard"]


# --------------------------------------------------------------- 4) Untilt, 5) Draw


def test_untilt_a_card_gives_no_resources():
    """4) Untilt a Card: untilt one tilted card; it provides nothing."""
    s = make(
        hands={0: [], 1: []},
        rows={0: {"garden": ["song_thrush", "dunnock"]}},
        tilted=["song_thrush"],
        offer=["mallard", "blue_tit"],
        fill_deck=True,
    )
    assert legal_args(s, 0, "untilt") == ["song_thrush"]
    act(s, 0, "untilt", card="song_thrush")
    assert not tilted(s, "song_thrush")
    assert s.hands[0] == [] and s.actions_left == 1


def test_draw_a_card_takes_the_top_of_the_deck():
    """5) Draw a Card: draw the top card of the deck, no cost."""
    s = make(hands={0: [], 1: []}, deck=["grey_heron", "robin"], offer=["mallard", "blue_tit"])
    act(s, 0, "draw_card")
    assert hand(s, 0) == ["grey_heron"]


def test_forced_draw_when_nothing_else_is_possible():
    """5) Draw a Card: with actions left and no other possible action you must draw."""
    s = make(hands={0: [], 1: []}, offer=["mallard", "blue_tit"], fill_deck=True)
    assert [a.kind for a in ENGINE.legal(s, 0)] == ["draw_card"]


def test_empty_deck_and_no_action_loses_the_action_amb10():
    """AMB 10: a forced draw from an empty deck cannot happen before the end; if it does the
    action is lost (forfeit_action)."""
    s = make(hands={0: [], 1: []}, round=4, offer=[], deck=[])
    s.end_triggered = True
    s.end_after = 1
    assert [a.kind for a in ENGINE.legal(s, 0)] == ["forfeit_action"]
    act(s, 0, "forfeit_action")
    act(s, 0, "forfeit_action")
    assert s.turn == 1


def test_hand_limit_three_at_end_of_turn_with_chosen_discards_amb12():
    """3) Draft Cards (hand limit), AMB 12: at the end of your turn keep at most 3 cards; you
    choose the discards (in order); during the turn the hand may exceed 3."""
    s = make(
        hands={0: ["robin", "mallard", "dunnock"], 1: []},
        offer=["great_tit", "blue_tit"],
        deck=["house_sparrow", "eurasian_jay", "eurasian_magpie"],
    )
    act(s, 0, "draw_card")
    assert s.step == "choose" and len(s.hands[0]) == 4
    act(s, 0, "draw_card")
    assert s.step == "limit" and s.turn == 0
    assert sorted(legal_args(s, 0, "hand_limit_discard")) == sorted(hand(s, 0))
    act(s, 0, "hand_limit_discard", card="mallard")
    assert s.step == "limit"
    act(s, 0, "hand_limit_discard", card="robin")
    assert keys(s.discard) == ["mallard", "robin"]
    assert s.turn == 1 and len(s.hands[0]) == 3


def test_hand_limit_only_checked_at_the_end_of_your_own_turn_amb12():
    """AMB 12: the hand limit is checked only at the end of the owner's turn."""
    s = make(
        hands={0: [], 1: ["robin", "mallard", "dunnock", "grey_heron", "blue_tit"]},
        offer=["great_tit", "eurasian_jay"],
        fill_deck=True,
        actions_left=1,
    )
    act(s, 0, "draw_card")
    assert s.turn == 1 and s.step == "choose" and len(s.hands[1]) == 5


def test_illegal_action_rejected_without_change():
    """apply validates first: a rejected action raises IllegalAction and changes nothing."""
    s = make(hands={0: ["robin"], 1: []}, offer=["great_tit", "blue_tit"], fill_deck=True)
    before = ENGINE.encode(s)
    bad = find(s, 0, "draw_card")
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(s, 1, bad)
    assert err.value.reason == "NOT_YOUR_TURN"
    from services.core.engine import Action

    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(s, 0, Action("untilt", (("card", "robin"),)))
    assert err.value.reason == "NOT_LEGAL"
    assert ENGINE.encode(s) == before


# --------------------------------------------------------------- Important Terms


def test_spend_and_untilt_return_a_tilted_card_upright_amb1():
    """Important Terms, AMB 1: 'spend' and 'untilt' both turn a (right-)tilted card upright;
    'tilt' (Great Tit) turns a card without resolving its ability; 'activate' tilts and
    resolves."""
    s = make(
        hands={0: ["eurasian_wren"], 1: []},
        rows={0: {"trees": ["woodpecker"], "garden": ["dunnock", "great_tit"]}},
        tilted=["dunnock"],
        offer=["mallard", "blue_tit"],
        deck=["robin", "grey_heron", "house_sparrow", "song_thrush"],
    )
    act(s, 0, "activate_row", row="garden")  # Great Tit activated: tilts the Woodpecker
    act(s, 0, "ability_tilt", card="woodpecker")
    assert tilted(s, "woodpecker") and tilted(s, "great_tit")
    assert s.look == [] and len(s.deck) == 4  # the Woodpecker's ability did not resolve
    assert tilted(s, "dunnock")  # already tilted: skipped (AMB 2), Dunnock did not draw
    act(s, 0, "play_card", card="eurasian_wren", row="trees")  # column 2: 2 nesting + insect
    act(s, 0, "pay_spend", card="woodpecker")
    act(s, 0, "pay_spend", card="dunnock")
    assert not tilted(s, "woodpecker") and not tilted(s, "dunnock")
    assert tilted(s, "great_tit")
