"""Round End, Game End, Scoring tie-breaks and Solo Mode (rulebook sections; AMB n)."""

from __future__ import annotations

from birdscaping_helpers import act, hand, keys, make, tilted

from services.birdscaping.rules import ENGINE
from services.birdscaping.rules.cards import ID
from services.core.engine import SoloResult


def cid(key: str) -> int:
    """Card id of a key."""
    return ID[key]


# --------------------------------------------------------------- Round End


def test_deck_depletion_starts_the_next_round():
    """Round End: drawing the last card shuffles the discard pile and the 2 offer birds into the
    new deck (round II) and deals a new offer of 2."""
    s = make(
        hands={0: [], 1: []},
        deck=["robin"],
        offer=["mallard", "dunnock"],
        discard=["blue_tit", "great_tit", "house_sparrow"],
    )
    act(s, 0, "draw_card")
    assert s.round == 2
    assert hand(s, 0) == ["robin"]
    assert s.discard == []
    assert len(s.offer) == 2 and len(s.deck) == 3
    assert sorted(keys(s.offer + s.deck)) == sorted(
        ["mallard", "dunnock", "blue_tit", "great_tit", "house_sparrow"]
    )
    assert s.step == "choose" and s.actions_left == 1  # the turn goes on


def test_round_end_when_last_card_flips_into_the_offer():
    """Round End / Game End: the deck also runs out when its last card replenishes the offer."""
    s = make(
        hands={0: ["robin"], 1: []},
        deck=["house_sparrow"],
        offer=["mallard", "dunnock"],
        discard=["blue_tit", "great_tit"],
    )
    act(s, 0, "draft_discard", card="robin")
    act(s, 0, "draft_from_offer", card="mallard")
    act(s, 0, "draft_stop")
    assert s.round == 2
    # pool: blue_tit, great_tit, robin (discard) + dunnock, house_sparrow (offer)
    assert len(s.offer) == 2 and len(s.deck) == 3 and hand(s, 0) == ["mallard"]


def test_tilt_state_persists_between_rounds_amb11():
    """AMB 11: nothing resets at round end; tilted cards stay tilted."""
    s = make(
        hands={0: [], 1: []},
        rows={0: {"garden": ["dunnock"]}},
        tilted=["dunnock"],
        deck=["robin"],
        offer=["mallard", "blue_tit"],
        discard=["great_tit", "house_sparrow"],
    )
    act(s, 0, "draw_card")
    assert s.round == 2 and tilted(s, "dunnock")


def test_ability_draw_emptying_the_deck_ends_the_round_after_it_resolves_amb8():
    """AMB 8: a When Activated draw that empties the deck ends the round after the ability
    (here before the next card of the row is activated)."""
    s = make(
        hands={0: [], 1: []},
        rows={0: {"garden": ["common_blackbird", "robin"]}},
        deck=["house_sparrow"],
        offer=["mallard", "blue_tit"],
        discard=["great_tit", "eurasian_jay"],
    )
    act(s, 0, "activate_row", row="garden")
    # Robin drew the last card -> new round; then the Blackbird took the new discard top,
    # which is empty after the reshuffle.
    assert s.round == 2
    assert hand(s, 0) == ["house_sparrow"]
    assert s.discard == []


def test_game_has_four_rounds_round4_depletion_triggers_the_end():
    """Game End: when the final card of the round-4 deck is taken the end is triggered."""
    s = make(
        hands={0: [], 1: []},
        round=4,
        first=1,
        turn=0,
        deck=["robin"],
        offer=["mallard", "blue_tit"],
        discard=["great_tit", "house_sparrow"],
    )
    act(s, 0, "draw_card")
    assert s.round == 4 and s.end_triggered and s.deck == []
    # not the first player: the game ends at the end of this turn
    assert s.end_after == 0
    act(s, 0, "draft_discard", card="robin")
    act(s, 0, "draft_stop")
    assert ENGINE.is_over(s)
    assert ENGINE.score(s).final


def test_first_player_triggers_end_other_player_gets_a_final_turn():
    """Game End: if the first player triggered the end, they finish their turn and the other
    player gets one final turn."""
    s = make(
        hands={0: [], 1: ["robin"]},
        round=4,
        first=0,
        turn=0,
        deck=["dunnock", "house_sparrow"],
        offer=["mallard", "blue_tit"],
        discard=["great_tit"],
    )
    act(s, 0, "draw_card")
    act(s, 0, "draw_card")  # takes the last card: trigger by the first player
    assert s.end_triggered and s.end_after == 1
    assert not ENGINE.is_over(s) and s.turn == 1
    act(s, 1, "draft_discard", card="robin")
    act(s, 1, "draft_from_offer", card="mallard")
    act(s, 1, "draft_stop")
    assert s.offer == [cid("blue_tit")]  # no replenishment from an empty deck
    act(s, 1, "draft_discard", card="mallard")
    act(s, 1, "draft_from_offer", card="blue_tit")
    act(s, 1, "draft_from_discard")
    assert ENGINE.is_over(s)


def test_fewer_than_three_cards_for_round4_ends_the_game_immediately():
    """Game End note: at the end of round 3 there must be at least 3 cards in the offer and
    discard pile; otherwise the game ends immediately (AMB 9)."""
    s = make(
        hands={0: [], 1: []},
        round=3,
        deck=["robin"],
        offer=["mallard", "blue_tit"],
        discard=[],
    )
    act(s, 0, "draw_card")
    assert ENGINE.is_over(s) and s.ended_early
    assert ENGINE.score(s).extras["ended_early"]
    s = make(
        hands={0: [], 1: []},
        round=3,
        deck=["robin"],
        offer=["mallard", "blue_tit"],
        discard=["dunnock"],
    )
    act(s, 0, "draw_card")
    assert not ENGINE.is_over(s)
    assert s.round == 4 and len(s.deck) == 1 and len(s.offer) == 2


# --------------------------------------------------------------- Scoring


def test_scoring_card_points_plus_abilities_and_tiebreaks_amb14():
    """Scoring: sum card points and Scoring abilities; AMB 14 ties: most cards, then fewest
    tilted cards, then a shared win."""
    s = make(
        hands={0: [], 1: []},
        rows={
            0: {"trees": ["woodpecker"], "garden": ["dunnock"]},  # 3 + 2 = 5, 2 cards
            1: {"pond": ["grey_heron"]},  # 5 - 1 (Heron: pond not full) = 4
        },
        fill_deck=True,
    )
    board = ENGINE.score(s)
    assert board.seats[0].total == 5 and board.seats[1].total == 4
    assert board.seats[1].categories == {"card_points": 5, "scoring_abilities": -1}
    assert board.winners == [0]
    assert not board.final
    # equal totals: more cards wins
    s = make(
        hands={0: [], 1: []},
        rows={0: {"trees": ["woodpecker"]}, 1: {"garden": ["house_sparrow", "dunnock"]}},
        fill_deck=True,
    )
    board = ENGINE.score(s)
    assert board.seats[0].total == board.seats[1].total == 3
    assert board.winners == [1]
    # equal cards: fewer tilted wins
    s = make(
        hands={0: [], 1: []},
        rows={0: {"trees": ["woodpecker"]}, 1: {"trees": ["eurasian_jay"]}},
        tilted=["woodpecker"],
        fill_deck=True,
    )
    assert ENGINE.score(s).winners == [1]
    # everything equal: shared
    s.tilt = [0] * len(s.tilt)
    assert ENGINE.score(s).winners == [0, 1]


# --------------------------------------------------------------- Solo Mode


def _solo(**kw):
    return make(players=1, hands={0: kw.pop("hand", [])}, **kw)


def test_solo_ai_turn_discards_the_oldest_rightmost_offer_card():
    """Solo Mode: on its turn the AI discards the oldest (right-most) offer card; the offer is
    then replenished (new cards enter on the left)."""
    s = _solo(offer=["mallard", "blue_tit"], deck=["robin", "dunnock", "great_tit"], actions_left=1)
    act(s, 0, "draw_card")
    assert keys(s.discard) == ["mallard"]
    assert keys(s.offer) == ["blue_tit", "dunnock"]
    assert s.turn == 0 and s.actions_left == 2


def test_solo_drafting_the_rightmost_slides_the_other_right():
    """Solo Mode: if the right-most bird is drafted, the other slides right before the refill,
    so it becomes the oldest."""
    s = _solo(
        hand=["robin"],
        offer=["mallard", "blue_tit"],
        deck=["dunnock", "great_tit", "grey_heron"],
        actions_left=1,
    )
    act(s, 0, "draft_discard", card="robin")
    act(s, 0, "draft_from_offer", card="mallard")
    act(s, 0, "draft_stop")
    assert keys(s.offer)[0] == "dunnock"  # AI then discarded blue_tit (slid right)
    assert keys(s.discard) == ["robin", "blue_tit"]


def test_solo_ai_receives_two_cards_before_rounds_2_3_4():
    """Solo Mode: before rounds 2, 3 and 4 the AI takes the top 2 cards of the new deck."""
    s = _solo(
        offer=["mallard", "blue_tit"],
        deck=["robin"],
        discard=["dunnock", "great_tit", "house_sparrow", "eurasian_jay", "eurasian_magpie"],
        ai=["grey_heron"],
    )
    act(s, 0, "draw_card")
    assert s.round == 2 and len(s.ai) == 3
    assert len(s.deck) + len(s.offer) == 5


def test_solo_easy_mode_ai_receives_one_card_at_round_2_amb15():
    """AMB 15: in easy mode the AI receives 1 card instead of 2 at the start of round 2;
    rounds 3 and 4 are unchanged."""
    base = {
        "offer": ["mallard", "blue_tit"],
        "deck": ["robin"],
        "discard": ["dunnock", "great_tit", "house_sparrow", "eurasian_jay", "eurasian_magpie"],
    }
    s = _solo(difficulty="easy", **base)
    act(s, 0, "draw_card")
    assert len(s.ai) == 1
    s = _solo(difficulty="easy", round=2, **base)
    act(s, 0, "draw_card")
    assert len(s.ai) == 2


def test_solo_player_triggering_the_end_ends_after_their_turn():
    """Solo Mode: the game ends after the player's turn if the player took the last card of
    the round-4 deck."""
    s = _solo(round=4, offer=["mallard", "blue_tit"], deck=["robin"], discard=["dunnock"])
    act(s, 0, "draw_card")
    assert s.end_triggered and not ENGINE.is_over(s)
    act(s, 0, "draft_discard", card="robin")
    act(s, 0, "draft_stop")
    assert ENGINE.is_over(s)
    assert keys(s.offer) == ["mallard", "blue_tit"]  # the AI took no further turn
    assert keys(s.discard) == ["dunnock", "robin"]


def test_solo_ai_triggering_the_end_gives_the_player_one_final_turn():
    """Solo Mode: if the AI causes the final round-4 card to be drawn, the player gets one
    final turn."""
    s = _solo(
        round=4, offer=["mallard", "blue_tit"], deck=["robin"], actions_left=1, hand=["dunnock"]
    )
    act(s, 0, "draft_discard", card="dunnock")
    act(s, 0, "draft_stop")
    # AI discarded mallard, robin flipped into the offer: the deck is empty, end triggered
    assert s.end_triggered and s.end_after == 0
    assert not ENGINE.is_over(s) and s.turn == 0 and s.actions_left == 2
    assert keys(s.offer) == ["blue_tit", "robin"] and keys(s.discard) == ["dunnock", "mallard"]
    assert [a.kind for a in ENGINE.legal(s, 0)] == ["forfeit_action"]
    act(s, 0, "forfeit_action")
    assert not ENGINE.is_over(s)
    act(s, 0, "forfeit_action")
    assert ENGINE.is_over(s)


def test_solo_scoring_abilities_and_opponent_effects_off_amb16():
    """Solo Mode / AMB 16: Scoring abilities have no effect; the AI scores printed points."""
    s = _solo(
        hand=[],
        rows={0: {"trees": ["eurasian_wren", "woodpecker"], "garden": ["song_thrush"]}},
        ai=["grey_heron", "common_kingfisher"],  # 9 points
        fill_deck=True,
        offer=["mallard", "blue_tit"],
    )
    board = ENGINE.score(s)
    assert board.seats[0].categories == {"card_points": 7, "scoring_abilities": 0}
    assert board.solo == SoloResult(won=False, opponent_score=9)
    assert ENGINE.view(s, 0)["announcements"] == []


def test_solo_you_win_only_with_more_points_than_the_ai_amb16():
    """Solo Mode: "If you scored more points than the AI, you win" (AMB 16: strictly more).

    The result is the score board's typed ``solo`` field: a lost game (fewer points, or a
    tie) has no winner and reports the AI's score; no solo strings in ``extras``."""
    s = _solo(
        hand=[],
        rows={0: {"trees": ["eurasian_wren", "woodpecker"], "garden": ["song_thrush"]}},
        ai=["grey_heron", "common_kingfisher"],  # 9 points
        fill_deck=True,
        offer=["mallard", "blue_tit"],
    )
    s.phase = "over"
    board = ENGINE.score(s)  # 7 against the AI's 9: lost
    assert board.final and board.solo == SoloResult(won=False, opponent_score=9)
    assert board.winners == [] and board.seats[0].rank == 1
    assert not {"solo_result", "ai_points"} & set(board.extras)
    s.rows[0][2].append(cid("common_cuckoo"))  # 7 + 6 = 13 > 9
    board = ENGINE.score(s)
    assert board.solo == SoloResult(won=True, opponent_score=9) and board.winners == [0]
    s.ai.extend([cid("eurasian_jay"), cid("house_sparrow")])  # 9 + 3 + 1 = 13: a tie
    board = ENGINE.score(s)
    assert board.solo == SoloResult(won=False, opponent_score=13)  # a tie is not a win
    assert board.winners == []


def test_solo_result_mid_game_says_whether_the_player_is_ahead_amb16():
    """Solo Mode mid-game: ``solo.won`` is whether the player is ahead of the AI now."""
    s = _solo(hand=[], rows={0: {"pond": ["grey_heron"]}}, ai=["robin"], fill_deck=True)
    board = ENGINE.score(s)  # 5 against the AI's 2
    assert not board.final and board.solo == SoloResult(won=True, opponent_score=2)
    s.ai.append(cid("common_cuckoo"))  # 5 against 8
    assert ENGINE.score(s).solo == SoloResult(won=False, opponent_score=8)


def test_two_player_games_have_no_solo_result():
    """The solo result exists in solo games only."""
    s = make(hands={0: [], 1: []}, fill_deck=True, offer=["mallard", "dunnock"])
    assert ENGINE.score(s).solo is None
