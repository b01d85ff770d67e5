"""Every card's ability, in hand-built scenarios (cards.json; Bird Abilities section)."""

from __future__ import annotations

import json

import pytest
from birdscaping_helpers import (
    act,
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
from services.birdscaping.rules.cards import (
    ID,
    N_CARDS,
    ONGOING_OPS,
    OP,
    SCORING_OPS,
    WHEN_ACTIVATED_OPS,
)
from services.birdscaping.rules.scoring import ability_points, score_parts
from services.birdscaping.rules.tableau import hand_limit

FILLER_OFFER = ["house_sparrow", "eurasian_magpie"]


def _abil(s, seat, key):
    rows = s.rows[seat]
    r = next(i for i in range(3) if ID[key] in rows[i])
    return ability_points(s, seat, ID[key], r)


def test_every_card_has_a_known_ability_op():
    """Data: each of the 18 cards carries an implemented effect op (checked at import)."""
    assert N_CARDS == 18
    assert set(OP) <= WHEN_ACTIVATED_OPS | SCORING_OPS | ONGOING_OPS
    assert len(set(OP)) == 17  # Magpie and Cuckoo share hand_limit_delta


# --------------------------------------------------------------- Robin


def test_robin_when_activated_draws_the_top_card():
    """Robin (When Activated): draw the top card of the deck."""
    s = make(
        hands={0: [], 1: []},
        rows={0: {"pond": ["robin"]}},
        deck=["grey_heron", "mallard"],
        offer=FILLER_OFFER,
    )
    act(s, 0, "activate_row", row="pond")
    assert hand(s, 0) == ["grey_heron"] and tilted(s, "robin")


def test_robin_rows_and_two_curious_birds():
    """Robin (rulebook hints): Garden or Pond only; discarding it drafts 2 cards."""
    s = make(hands={0: ["robin"], 1: []}, offer=["mallard", "dunnock"], fill_deck=True)
    act(s, 0, "draft_discard", card="robin")
    assert s.draft_left == 2


# --------------------------------------------------------------- Eurasian Wren


def test_eurasian_wren_scores_per_trees_card_when_in_trees():
    """Eurasian Wren (Scoring): in your Trees row, +1 per card in that row (itself included)."""
    s = make(
        hands={0: [], 1: []},
        rows={0: {"trees": ["woodpecker", "eurasian_wren", "eurasian_jay"]}},
        fill_deck=True,
    )
    assert _abil(s, 0, "eurasian_wren") == 3
    s = make(
        hands={0: [], 1: []},
        rows={0: {"garden": ["eurasian_wren"], "trees": ["woodpecker"]}},
        fill_deck=True,
    )
    assert _abil(s, 0, "eurasian_wren") == 0


def test_eurasian_wren_played_into_trees_is_announced_publicly():
    """Bird Abilities / Play a Card: a Scoring bird played into the row that triggers its
    ability is announced to the opponent (public view + the action label); not in Garden."""
    s = make(
        hands={0: ["eurasian_wren", "house_sparrow", "blue_tit"], 1: ["robin"]},
        offer=["mallard", "dunnock"],
        fill_deck=True,
    )
    trees = find(s, 0, "play_card", card="eurasian_wren", row="trees")
    garden = find(s, 0, "play_card", card="eurasian_wren", row="garden")
    assert "announced" in trees.label and not trees.secret
    assert "announced" not in garden.label
    ENGINE.apply(s, 0, trees)
    act(s, 0, "pay_discard", card="house_sparrow", area="nesting")
    act(s, 0, "pay_discard", card="blue_tit", area="food")
    other = ENGINE.view(s, 1)
    assert other["announcements"] == [
        {
            "seat": 0,
            "card": "eurasian_wren",
            "row": "ROW_TREES",
            "round": 1,
            "text": other["announcements"][0]["text"],
        }
    ]
    assert "Eurasian Wren" in other["announcements"][0]["text"]
    assert ENGINE.view(s, None)["announcements"] == other["announcements"]


def test_wren_in_garden_is_not_announced():
    """Eurasian Wren: its ability only works in Trees, so Garden play is not announced."""
    s = make(
        hands={0: ["eurasian_wren", "house_sparrow", "blue_tit"], 1: []},
        offer=["mallard", "dunnock"],
        fill_deck=True,
    )
    act(s, 0, "play_card", card="eurasian_wren", row="garden")
    act(s, 0, "pay_discard", card="house_sparrow", area="nesting")
    act(s, 0, "pay_discard", card="blue_tit", area="food")
    assert ENGINE.view(s, 1)["announcements"] == []


# --------------------------------------------------------------- Nuthatch


@pytest.mark.parametrize("with_woodpecker", [True, False])
def test_nuthatch_gives_an_extra_nesting_area_with_a_woodpecker(with_woodpecker):
    """Nuthatch (Ongoing): +1 nesting whenever it generates nesting (spent from Trees or
    discarded for nesting) if a Woodpecker is in your tableau."""
    own = {"trees": ["nuthatch"] + (["woodpecker"] if with_woodpecker else [])}
    s = make(
        hands={0: ["mallard", "dunnock"], 1: []},
        rows={0: own},
        tilted=["nuthatch"],
        offer=["robin", "great_tit"],
        fill_deck=True,
    )
    act(s, 0, "play_card", card="mallard", row="pond")  # 1 nesting + seed/insect
    spend = find(s, 0, "pay_spend", card="nuthatch")
    assert spend is not None
    ENGINE.apply(s, 0, spend)
    assert s.pay[3] == (2 if with_woodpecker else 1)
    # discarded from hand for nesting: Dunnock into Garden column 2 = 2 nesting + seed/insect
    own = {"garden": ["eurasian_magpie"]}
    if with_woodpecker:
        own["trees"] = ["woodpecker"]
    s = make(
        hands={0: ["dunnock", "nuthatch", "house_sparrow"], 1: []},
        rows={0: own},
        offer=["robin", "mallard"],
        fill_deck=True,
    )
    play = find(s, 0, "play_card", card="dunnock", row="garden")
    if not with_woodpecker:
        assert play is None  # Nuthatch 1 + Sparrow 1 nesting leaves no food
        return
    ENGINE.apply(s, 0, play)
    act(s, 0, "pay_discard", card="nuthatch", area="nesting")
    assert s.pay[3] == 2
    act(s, 0, "pay_discard", card="house_sparrow", area="food")
    assert row(s, 0, "garden") == ["eurasian_magpie", "dunnock"]


def test_nuthatch_ignores_the_opponents_woodpecker():
    """Nuthatch: the Woodpecker must be in your own tableau."""
    s = make(
        hands={0: ["mallard", "dunnock"], 1: []},
        rows={0: {"trees": ["nuthatch"]}, 1: {"trees": ["woodpecker"]}},
        tilted=["nuthatch"],
        offer=["robin", "great_tit"],
        fill_deck=True,
    )
    act(s, 0, "play_card", card="mallard", row="pond")
    act(s, 0, "pay_spend", card="nuthatch")
    assert s.pay[3] == 1


# --------------------------------------------------------------- Woodpecker


def test_woodpecker_looks_at_two_keeps_one_secretly_other_to_discard():
    """Woodpecker (When Activated): look at the top 2 cards, keep 1, the other goes face up to
    the discard pile; the choice is secret and the cards are shown only to the owner."""
    s = make(
        hands={0: [], 1: []},
        rows={0: {"trees": ["woodpecker"]}},
        deck=["grey_heron", "mallard", "robin"],
        offer=FILLER_OFFER,
    )
    act(s, 0, "activate_row", row="trees")
    assert s.step == "keep"
    assert sorted(legal_args(s, 0, "ability_keep")) == ["grey_heron", "mallard"]
    own, other = ENGINE.view(s, 0), ENGINE.view(s, 1)
    assert sorted(own["looked"]) == ["grey_heron", "mallard"]
    assert other["looked"] == [] and other["looked_count"] == 2
    assert '"grey_heron"' not in json.dumps(other)
    keep = find(s, 0, "ability_keep", card="mallard")
    assert keep.secret and keep.public_label
    ENGINE.apply(s, 0, keep)
    assert hand(s, 0) == ["mallard"] and keys(s.discard) == ["grey_heron"]
    assert s.step == "choose" and s.actions_left == 1


def test_woodpecker_with_one_card_left_in_the_deck():
    """Woodpecker: with a single deck card, that card is kept; the emptied deck then ends the
    round (AMB 8)."""
    s = make(
        hands={0: [], 1: []},
        rows={0: {"trees": ["woodpecker"]}},
        deck=["robin"],
        offer=FILLER_OFFER,
        discard=["mallard", "dunnock"],
    )
    act(s, 0, "activate_row", row="trees")
    act(s, 0, "ability_keep", card="robin")
    assert hand(s, 0) == ["robin"] and s.round == 2


# --------------------------------------------------------------- Song Thrush


def test_song_thrush_scores_four_if_upright_and_cannot_be_spent():
    """Song Thrush (Scoring): +4 if upright at game end. Its rows give it no resources, so once
    tilted it can only be made upright by the Untilt action."""
    s = make(
        hands={0: ["eurasian_wren", "house_sparrow"], 1: []},
        rows={0: {"garden": ["song_thrush"]}},
        fill_deck=True,
        offer=["robin", "mallard"],
    )
    assert _abil(s, 0, "song_thrush") == 4
    act(s, 0, "activate_row", row="garden")
    assert _abil(s, 0, "song_thrush") == 0
    assert "pay_spend" not in {a.kind for a in ENGINE.legal(s, 0)}
    assert legal_args(s, 0, "untilt") == ["song_thrush"]
    act(s, 0, "untilt", card="song_thrush")
    assert _abil(s, 0, "song_thrush") == 4


# --------------------------------------------------------------- Common Blackbird


def test_common_blackbird_takes_the_top_of_the_discard_pile():
    """Common Blackbird (When Activated): take the top card of the discard pile."""
    s = make(
        hands={0: [], 1: []},
        rows={0: {"pond": ["common_blackbird"]}},
        discard=["robin", "mallard"],
        offer=FILLER_OFFER,
        fill_deck=True,
    )
    act(s, 0, "activate_row", row="pond")
    assert hand(s, 0) == ["mallard"] and keys(s.discard) == ["robin"]
    s = make(
        hands={0: [], 1: []},
        rows={0: {"pond": ["common_blackbird"]}},
        offer=FILLER_OFFER,
        fill_deck=True,
    )
    act(s, 0, "activate_row", row="pond")  # empty pile: no effect
    assert hand(s, 0) == [] and tilted(s, "common_blackbird")


# --------------------------------------------------------------- Blue Tit


def test_blue_tit_scores_two_if_all_three_rows_have_a_card():
    """Blue Tit (Scoring): +2 if each of your three rows contains at least one card."""
    s = make(
        hands={0: [], 1: []},
        rows={0: {"trees": ["blue_tit"], "garden": ["dunnock"]}},
        fill_deck=True,
    )
    assert _abil(s, 0, "blue_tit") == 0
    s.rows[0][2].append(ID["mallard"])
    assert _abil(s, 0, "blue_tit") == 2


# --------------------------------------------------------------- Great Tit


def test_great_tit_tilts_an_upright_card_of_another_row():
    """Great Tit (When Activated): tilt (without activating) one untilted card in a different
    row."""
    s = make(
        hands={0: [], 1: []},
        rows={0: {"garden": ["robin", "great_tit"], "trees": ["woodpecker"], "pond": ["mallard"]}},
        tilted=["mallard"],
        offer=FILLER_OFFER,
        fill_deck=True,
    )
    act(s, 0, "activate_row", row="garden")
    assert s.step == "tilt"
    assert legal_args(s, 0, "ability_tilt") == ["woodpecker"]  # not Robin (same row), not Mallard
    act(s, 0, "ability_tilt", card="woodpecker")
    assert tilted(s, "woodpecker")
    assert s.look == [] and hand(s, 0) != [] and tilted(s, "robin")  # then Robin activated/drew


def test_great_tit_without_targets_has_no_effect():
    """Great Tit: with no upright card in another row nothing happens."""
    s = make(
        hands={0: [], 1: []}, rows={0: {"pond": ["great_tit"]}}, offer=FILLER_OFFER, fill_deck=True
    )
    act(s, 0, "activate_row", row="pond")
    assert s.step == "choose" and s.actions_left == 1


# --------------------------------------------------------------- European Goldfinch


def test_european_goldfinch_scores_other_garden_cards_with_seed():
    """European Goldfinch (Scoring): +1 per other Garden card whose food area shows a seed."""
    s = make(
        hands={0: [], 1: []},
        rows={
            0: {
                "garden": ["dunnock", "european_goldfinch", "robin", "nuthatch"],
                "trees": ["house_sparrow"],
            }
        },
        fill_deck=True,
    )
    assert _abil(s, 0, "european_goldfinch") == 2  # dunnock + nuthatch; robin (fruit) no


# --------------------------------------------------------------- House Sparrow


def test_house_sparrow_costs_no_nesting_area():
    """House Sparrow (Ongoing): playing it costs no nesting areas (AMB 17: ability wins)."""
    s = make(
        hands={0: ["house_sparrow", "mallard"], 1: []},
        rows={0: {"pond": ["robin", "grey_heron"]}},
        offer=["dunnock", "blue_tit"],
        fill_deck=True,
    )
    act(s, 0, "play_card", card="house_sparrow", row="pond")
    assert s.pay[2] == 0
    act(s, 0, "pay_discard", card="mallard", area="food")
    assert row(s, 0, "pond") == ["robin", "grey_heron", "house_sparrow"]


# --------------------------------------------------------------- Eurasian Jay


def test_eurasian_jay_waives_one_food_icon_for_other_trees_cards():
    """Eurasian Jay (Ongoing): playing another card into your Trees row costs one food icon
    less (of your choice); not for Garden or Pond plays."""
    s = make(
        hands={0: ["eurasian_wren", "house_sparrow"], 1: []},
        rows={0: {"trees": ["eurasian_jay"]}},
        offer=["robin", "mallard"],
        fill_deck=True,
    )
    # Trees column 2: 2 nesting; the insect is waived. The Sparrow gives only 1 nesting.
    assert find(s, 0, "play_card", card="eurasian_wren", row="trees") is None
    s = make(
        hands={0: ["eurasian_wren", "woodpecker"], 1: []},
        rows={0: {"trees": ["eurasian_jay"]}},
        offer=["robin", "mallard"],
        fill_deck=True,
    )
    act(s, 0, "play_card", card="eurasian_wren", row="trees")
    assert s.pay[7] == 1
    act(s, 0, "pay_discard", card="woodpecker", area="nesting")
    assert row(s, 0, "trees") == ["eurasian_jay", "eurasian_wren"]
    # Garden play: full cost (1 nesting + insect) - the Woodpecker alone cannot pay both
    s = make(
        hands={0: ["eurasian_wren", "woodpecker"], 1: []},
        rows={0: {"trees": ["eurasian_jay"]}},
        offer=["robin", "mallard"],
        fill_deck=True,
    )
    assert find(s, 0, "play_card", card="eurasian_wren", row="garden") is None


def test_eurasian_jay_house_sparrow_in_trees_costs_nothing():
    """Eurasian Jay + House Sparrow: no nesting and the single seed waived -> free play."""
    s = make(
        hands={0: ["house_sparrow"], 1: []},
        rows={0: {"trees": ["eurasian_jay"]}},
        offer=["robin", "mallard"],
        fill_deck=True,
    )
    act(s, 0, "play_card", card="house_sparrow", row="trees")
    assert row(s, 0, "trees") == ["eurasian_jay", "house_sparrow"]
    assert s.step == "choose"


# --------------------------------------------------------------- Eurasian Magpie


def test_eurasian_magpie_raises_the_hand_limit():
    """Eurasian Magpie (Ongoing): end-of-turn hand limit +1 (AMB 12)."""
    s = make(
        hands={0: ["robin", "mallard", "dunnock", "grey_heron"], 1: []},
        rows={0: {"pond": ["eurasian_magpie"]}},
        offer=["great_tit", "blue_tit"],
        fill_deck=True,
        actions_left=1,
    )
    assert hand_limit(s, 0) == 4
    act(s, 0, "activate_row", row="pond")
    assert s.turn == 1 and len(s.hands[0]) == 4  # 4 cards kept, no discard


# --------------------------------------------------------------- Common Kingfisher


def test_common_kingfisher_drafts_from_the_offer_then_replenishes():
    """Common Kingfisher (When Activated): draft 1 card from the offer, refill afterwards."""
    s = make(
        hands={0: [], 1: []},
        rows={0: {"pond": ["common_kingfisher"]}},
        offer=["robin", "mallard"],
        deck=["dunnock", "grey_heron"],
    )
    act(s, 0, "activate_row", row="pond")
    assert s.step == "koffer"
    assert legal_args(s, 0, "ability_take_offer") == ["robin", "mallard"]
    act(s, 0, "ability_take_offer", card="mallard")
    assert hand(s, 0) == ["mallard"]
    assert keys(s.offer) == ["robin", "dunnock"]


# --------------------------------------------------------------- Grey Heron


def test_grey_heron_three_points_with_a_full_pond_else_minus_one():
    """Grey Heron (Scoring): +3 if your Pond row has 4 cards, otherwise -1."""
    s = make(
        hands={0: [], 1: []}, rows={0: {"pond": ["grey_heron", "mallard", "robin"]}}, fill_deck=True
    )
    assert _abil(s, 0, "grey_heron") == -1
    s.rows[0][2].append(ID["common_kingfisher"])
    assert _abil(s, 0, "grey_heron") == 3
    assert score_parts(s, 0) == (5 + 2 + 2 + 4, 3)


# --------------------------------------------------------------- Mallard


def test_mallard_gives_an_extra_curious_bird_with_three_pond_cards():
    """Mallard (Ongoing): spent from your Pond row it gives +1 curious bird if the Pond row
    has 3 or more cards."""
    s = make(
        hands={0: [], 1: []},
        rows={0: {"pond": ["mallard", "robin"]}},
        tilted=["mallard"],
        offer=FILLER_OFFER,
        fill_deck=True,
    )
    act(s, 0, "draft_spend", card="mallard")
    assert s.draft_left == 2
    s = make(
        hands={0: [], 1: []},
        rows={0: {"pond": ["mallard", "robin", "grey_heron"]}},
        tilted=["mallard"],
        offer=FILLER_OFFER,
        fill_deck=True,
    )
    act(s, 0, "draft_spend", card="mallard")
    assert s.draft_left == 3


def test_mallard_bonus_not_when_discarded():
    """Mallard: the bonus applies to spending from the Pond row only, not to a discard."""
    s = make(
        hands={0: ["mallard"], 1: []},
        rows={0: {"pond": ["robin", "grey_heron", "house_sparrow"]}},
        offer=["blue_tit", "eurasian_magpie"],
        fill_deck=True,
    )
    act(s, 0, "draft_discard", card="mallard")
    assert s.draft_left == 2


# --------------------------------------------------------------- Eurasian Sparrowhawk


def test_eurasian_sparrowhawk_opponent_untilts_a_card_of_their_choice():
    """Eurasian Sparrowhawk (When Activated): your opponent must untilt one of their tilted
    cards (their choice, no resources)."""
    s = make(
        hands={0: [], 1: []},
        rows={
            0: {"trees": ["eurasian_sparrowhawk"]},
            1: {"garden": ["dunnock", "robin"], "trees": ["woodpecker"]},
        },
        tilted=["dunnock", "woodpecker"],
        offer=FILLER_OFFER,
        fill_deck=True,
    )
    act(s, 0, "activate_row", row="trees")
    assert ENGINE.to_act(s) == [1]
    assert ENGINE.legal(s, 0) == []
    assert sorted(legal_args(s, 1, "opponent_untilt")) == ["dunnock", "woodpecker"]
    act(s, 1, "opponent_untilt", card="woodpecker")
    assert not tilted(s, "woodpecker") and tilted(s, "dunnock")
    assert ENGINE.to_act(s) == [0] and s.actions_left == 1
    assert s.hands[1] == []


def test_eurasian_sparrowhawk_no_tilted_cards_or_solo_no_effect():
    """Eurasian Sparrowhawk: nothing happens if the opponent has no tilted card; in solo it has
    no effect (Solo Mode: effects on the other player are off)."""
    s = make(
        hands={0: [], 1: []},
        rows={0: {"trees": ["eurasian_sparrowhawk"]}, 1: {"garden": ["dunnock"]}},
        offer=FILLER_OFFER,
        fill_deck=True,
    )
    act(s, 0, "activate_row", row="trees")
    assert ENGINE.to_act(s) == [0] and s.step == "choose"
    solo = make(
        players=1,
        hands={0: []},
        rows={0: {"trees": ["eurasian_sparrowhawk"]}},
        offer=FILLER_OFFER,
        fill_deck=True,
    )
    act(solo, 0, "activate_row", row="trees")
    assert ENGINE.to_act(solo) == [0] and solo.step == "choose"


# --------------------------------------------------------------- Common Cuckoo


def test_common_cuckoo_can_never_be_spent_and_lowers_the_hand_limit():
    """Common Cuckoo (Ongoing): never spent; while in your tableau your hand limit is -1
    (with the Magpie: 3 + 1 - 1 = 3)."""
    s = make(
        hands={0: ["robin", "mallard", "dunnock"], 1: []},
        rows={0: {"pond": ["common_cuckoo"]}},
        tilted=["common_cuckoo"],
        offer=["great_tit", "blue_tit"],
        fill_deck=True,
        actions_left=1,
    )
    assert hand_limit(s, 0) == 2
    assert "draft_spend" not in kinds(s, 0)
    act(s, 0, "draw_card")
    assert s.step == "limit"
    act(s, 0, "hand_limit_discard", card="robin")
    act(s, 0, "hand_limit_discard", card="mallard")
    assert s.turn == 1
    s.rows[0][0].append(ID["eurasian_magpie"])
    assert hand_limit(s, 0) == 3


def test_common_cuckoo_not_spent_from_trees_or_garden():
    """Common Cuckoo: even tilted in Trees/Garden it never pays (and yields nothing anyway)."""
    s = make(
        hands={0: ["house_sparrow", "dunnock"], 1: []},
        rows={0: {"trees": ["common_cuckoo"], "garden": ["great_tit"]}},
        tilted=["common_cuckoo", "great_tit"],
        offer=["robin", "mallard"],
        fill_deck=True,
    )
    act(s, 0, "play_card", card="house_sparrow", row="pond")
    assert ("pay_spend", "common_cuckoo") not in {
        (a.kind, a.arg("card")) for a in ENGINE.legal(s, 0)
    }


def test_hand_limit_minimum_one_amb12():
    """AMB 12: hand-limit modifiers are additive, minimum 1."""
    s = make(hands={0: [], 1: []}, rows={0: {"pond": ["common_cuckoo"]}}, fill_deck=True)
    assert hand_limit(s, 0) == 2


# --------------------------------------------------------------- Dunnock


def test_dunnock_draws_then_discards_one():
    """Dunnock (When Activated): draw the top card, then discard 1 card from your hand."""
    s = make(
        hands={0: ["robin"], 1: []},
        rows={0: {"garden": ["dunnock"]}},
        deck=["grey_heron", "mallard"],
        offer=FILLER_OFFER,
    )
    act(s, 0, "activate_row", row="garden")
    assert s.step == "adiscard"
    assert sorted(legal_args(s, 0, "ability_discard")) == ["grey_heron", "robin"]
    act(s, 0, "ability_discard", card="robin")
    assert hand(s, 0) == ["grey_heron"] and keys(s.discard) == ["robin"]
    assert s.step == "choose"


def test_solo_nuthatch_ignores_a_woodpecker_in_the_ai_column():
    """Solo Mode example: no extra nesting area from the Nuthatch if the Woodpecker is in the
    AI player's column."""
    s = make(
        players=1,
        hands={0: ["mallard", "dunnock"]},
        rows={0: {"trees": ["nuthatch"]}},
        tilted=["nuthatch"],
        ai=["woodpecker"],
        offer=["robin", "great_tit"],
        fill_deck=True,
    )
    act(s, 0, "play_card", card="mallard", row="pond")
    act(s, 0, "pay_spend", card="nuthatch")
    assert s.pay[3] == 1


def test_card_anatomy_cost_example_two_insects_a_fruit_and_insect_or_fruit():
    """Card Anatomy example: a cost of two insects, a fruit and an insect-or-fruit must be paid
    in full ('+'), choosing one side of the '/' (Sparrowhawk: insect + insect + seed/fruit)."""
    s = make(
        hands={0: ["eurasian_sparrowhawk", "dunnock", "common_blackbird", "woodpecker"], 1: []},
        offer=["robin", "mallard"],
        fill_deck=True,
    )
    act(s, 0, "play_card", card="eurasian_sparrowhawk", row="trees")
    act(s, 0, "pay_discard", card="dunnock", area="food")  # insect + seed
    act(s, 0, "pay_discard", card="common_blackbird", area="food")  # fruit + insect
    act(s, 0, "pay_discard", card="woodpecker", area="nesting")
    assert row(s, 0, "trees") == ["eurasian_sparrowhawk"]
    s = make(
        hands={0: ["eurasian_sparrowhawk", "dunnock", "european_goldfinch", "woodpecker"], 1: []},
        offer=["robin", "mallard"],
        fill_deck=True,
    )
    assert find(s, 0, "play_card", card="eurasian_sparrowhawk") is None  # one insect short
