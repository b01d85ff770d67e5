"""Setup / The Initial Draft, Solo Mode setup, options (rulebook sections named per test)."""

from __future__ import annotations

import json

import pytest
from birdscaping_helpers import all_cards_accounted, keys

from services.birdscaping.rules import ENGINE
from services.birdscaping.rules.cards import KEY
from services.core.engine import OptionError


def _keep_first(s, seat):
    action = ENGINE.legal(s, seat)[0]
    ENGINE.apply(s, seat, action)
    return action


def test_initial_draft_deals_four_each_and_both_seats_decide_at_once():
    """Setup / The Initial Draft step 1: shuffle 18, deal 4 to each player; both act."""
    s = ENGINE.setup(2, {}, 11)
    assert s.phase == "draft"
    assert ENGINE.to_act(s) == [0, 1]
    assert [len(p) for p in s.packets] == [4, 4]
    assert len(s.deck) == 10
    assert len(ENGINE.legal(s, 0)) == 4
    assert len(ENGINE.legal(s, 1)) == 4
    assert all(a.kind == "draft_keep" for a in ENGINE.legal(s, 0))


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_initial_draft_accepts_the_two_decisions_in_either_order(order):
    """The Initial Draft step 2: each keeps 1 and passes 3 to the other player."""
    s = ENGINE.setup(2, {}, 12)
    before = [list(p) for p in s.packets]
    picks = {}
    first, second = order
    picks[first] = _keep_first(s, first)
    assert ENGINE.to_act(s) == [second]
    assert ENGINE.legal(s, first) == []
    picks[second] = _keep_first(s, second)
    # both kept: packets are passed
    assert ENGINE.to_act(s) == [0, 1]
    for seat in (0, 1):
        kept = picks[seat].arg("card")
        assert keys(s.hands[seat]) == [kept]
        passed = [KEY[c] for c in before[seat] if KEY[c] != kept]
        assert sorted(keys(s.packets[1 - seat])) == sorted(passed)
    assert s.pick_no == 2


def test_initial_draft_three_picks_then_leftovers_form_the_offer():
    """The Initial Draft steps 3-5: keep from 3, then from 2; the 2 unchosen start the offer;
    the remaining 10 cards are the deck."""
    s = ENGINE.setup(2, {}, 13)
    for _pick in range(3):
        _keep_first(s, 1)
        if _pick < 2:
            assert [len(p) for p in s.packets] == [4 - _pick, 3 - _pick]
        _keep_first(s, 0)
    assert s.phase == "play"
    assert [len(h) for h in s.hands] == [3, 3]
    assert len(s.offer) == 2
    assert len(s.deck) == 10
    assert s.discard == []
    assert s.turn == s.first
    assert s.actions_left == 2
    assert all_cards_accounted(s)


def test_initial_draft_decisions_are_secret_and_hidden_from_the_other_seat():
    """Hidden information: neither seat sees the other's choice, packet or hand."""
    s = ENGINE.setup(2, {}, 14)
    action = ENGINE.legal(s, 0)[0]
    assert action.secret
    assert action.public_label == "Seat 0 kept a card"
    ENGINE.apply(s, 0, action)
    kept = action.arg("card")
    other = json.dumps(ENGINE.view(s, 1))
    spectator = json.dumps(ENGINE.view(s, None))
    assert f'"{kept}"' not in other
    assert f'"{kept}"' not in spectator
    for c in s.packets[0]:
        assert f'"{KEY[c]}"' not in other
    mine = ENGINE.view(s, 0)
    assert mine["seats"][0]["hand"] == [kept]
    assert sorted(mine["draft_packet"]) == sorted(keys(s.packets[0]))
    assert ENGINE.view(s, 1)["seats"][0]["draft_decided"] is True
    assert ENGINE.view(s, 1)["seats"][0]["draft_packet_count"] == 3


def test_first_player_is_random_and_recorded_amb13():
    """AMB 13: 'best bird story' becomes random; the engine records the first player."""
    firsts = {ENGINE.setup(2, {}, seed).first for seed in range(20)}
    assert firsts == {0, 1}
    s = ENGINE.setup(2, {}, 3)
    assert ENGINE.view(s, None)["first_player"] == s.first


def test_solo_setup_draw_four_keep_three_give_one_to_the_ai():
    """Solo Mode: draw the top 4 cards, keep 3, give the remaining card to the AI; the player
    takes the first turn; the offer is dealt from the deck."""
    s = ENGINE.setup(1, {}, 21)
    assert s.phase == "give"
    assert ENGINE.to_act(s) == [0]
    actions = ENGINE.legal(s, 0)
    assert len(actions) == 4 and {a.kind for a in actions} == {"solo_give"}
    given = actions[2].arg("card")
    ENGINE.apply(s, 0, actions[2])
    assert keys(s.ai) == [given]
    assert len(s.hands[0]) == 3
    assert len(s.offer) == 2
    assert len(s.deck) == 12
    assert s.turn == 0 and s.first == 0 and s.actions_left == 2
    assert all_cards_accounted(s)


def test_solo_hard_mode_ai_keeps_the_top_card_at_round_1_start():
    """Solo Mode / Hard Mode: the AI also draws and keeps the top deck card at round 1 start."""
    s = ENGINE.setup(1, {"difficulty": "hard"}, 22)
    ENGINE.apply(s, 0, ENGINE.legal(s, 0)[0])
    assert len(s.ai) == 2
    assert len(s.deck) == 11
    easy = ENGINE.setup(1, {"difficulty": "easy"}, 22)
    ENGINE.apply(easy, 0, ENGINE.legal(easy, 0)[0])
    assert len(easy.ai) == 1


def test_options_are_validated():
    """Options: difficulty easy/normal/hard (solo); unknown names, bad values and bad player
    counts raise OptionError."""
    with pytest.raises(OptionError) as err:
        ENGINE.setup(3, {}, 1)
    assert err.value.field_name == "players"
    with pytest.raises(OptionError):
        ENGINE.setup(0, {}, 1)
    with pytest.raises(OptionError) as err:
        ENGINE.setup(1, {"colour": "red"}, 1)
    assert err.value.field_name == "colour"
    with pytest.raises(OptionError) as err:
        ENGINE.setup(1, {"difficulty": "brutal"}, 1)
    assert err.value.field_name == "difficulty"
    with pytest.raises(OptionError):
        ENGINE.setup(2, {"difficulty": "hard"}, 1)
    assert ENGINE.setup(2, {"difficulty": "normal"}, 1).players == 2
    assert ENGINE.setup(1, {}, 1).difficulty == "normal"


def test_engine_identity():
    """The exported ENGINE: name and player counts."""
    assert ENGINE.name == "birdscaping"
    assert (ENGINE.min_players, ENGINE.max_players) == (1, 2)
