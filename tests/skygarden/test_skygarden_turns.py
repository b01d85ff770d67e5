"""Round flow: turn order, extra turns, Standby, rounds, preparation, Lucy, solo."""

from __future__ import annotations

import pytest
from skygarden_helpers import (
    HAWK,
    SHIM,
    TOUCAN,
    act,
    blank,
    find,
    finish_turn,
    kinds,
    started,
    turn_for,
)

from services.core.convert import scoreboard_to_proto
from services.core.engine import SoloResult
from services.core.engine.playout import random_playout
from services.skygarden.rules import ENGINE
from services.skygarden.rules import data as D
from services.skygarden.rules.flow import advance as _advance
from services.skygarden.rules.state import Lucy


def _all_hawks(st: dict) -> None:
    st.track = [HAWK] * D.TRACK_LEN


def _place_tokens(st: dict, positions: list[int]) -> None:
    """Put each seat's Owner token on a Main-track space (0 = waiting on Standby)."""
    for p, pos in zip(st.players, positions, strict=True):
        p.track_space = pos
        p.finished_round = False
        if pos:
            p.standby_slot = -1


def test_farthest_behind_plays_and_gets_extra_turns() -> None:
    """Important Note About Turn Order: the farthest-behind token plays; if it is still
    farthest behind after moving, it plays again at once."""
    st = started(3)
    _all_hawks(st)
    _place_tokens(st, [5, 3, 8])
    _advance(st)
    assert st.turn.seat == 1
    act(st, 1, "move_owner", space=4)
    finish_turn(st, 1)
    assert st.turn.seat == 1  # still behind seat 0 (5): extra turn
    act(st, 1, "move_owner", space=7)
    finish_turn(st, 1)
    assert st.turn.seat == 0


def test_waiting_standby_tokens_play_before_track_tokens() -> None:
    """AMBIGUITIES 8: tokens still waiting on Standby are behind every token on the track;
    among them the lowest Standby space goes first."""
    st = started(3)
    _all_hawks(st)
    order = sorted(range(3), key=lambda s: st.players[s].standby_slot)
    first, second, third = order
    assert st.turn.seat == first
    act(st, first, "move_owner", space=1)
    finish_turn(st, first)
    assert st.turn.seat == second
    act(st, second, "move_owner", space=2)
    finish_turn(st, second)
    assert st.turn.seat == third


def test_move_forward_at_least_one_and_never_onto_an_owner_token() -> None:
    """1. Move Your Owner Token / AMBIGUITIES 9: forward only, at least 1 space, never stop
    on an occupied space, but passing occupied spaces is fine."""
    st = started(3)
    _place_tokens(st, [4, 2, 5])
    _advance(st)
    assert st.turn.seat == 1
    spaces = [a.arg("space") for a in ENGINE.legal(st, 1) if a.kind == "move_owner"]
    assert spaces == [s for s in range(3, 20) if s not in (4, 5)]
    assert 6 in spaces  # past two occupied spaces
    assert find(st, 1, "enter_standby") is not None


def test_enter_standby_lowest_free_space_and_out_of_the_round() -> None:
    """Move to Standby: lowest available Standby space, the turn ends at once, and the
    token is skipped for the rest of the Action phase."""
    st = started(3)
    _all_hawks(st)
    _place_tokens(st, [6, 2, 9])
    _advance(st)
    act(st, 1, "enter_standby")
    assert st.players[1].standby_slot == 0 and st.players[1].finished_round
    assert st.turn.seat == 0
    act(st, 0, "enter_standby")
    assert st.players[0].standby_slot == 1
    assert st.turn.seat == 2  # seat 1 is out even though it is "behind"


def test_round_end_next_round_preparation_and_order() -> None:
    """2. Next Round Preparation: Forest chip birds become loose Forest birds, chips go
    back to the bag, the next round's orange chip comes in, the round marker advances,
    and the bottom Standby token starts."""
    st = started(3, seed=4)
    chip_birds = [c.bird for c in st.forest.chips if c.bird >= 0]
    loose_before = list(st.forest.birds)
    _place_tokens(st, [6, 2, 9])
    _advance(st)
    act(st, 1, "enter_standby")
    act(st, 0, "enter_standby")
    act(st, 2, "enter_standby")
    assert st.round == 2
    loose = list(loose_before)
    for bird in chip_birds:
        loose[bird] += 1
    assert st.forest.birds == loose
    assert [c for c in st.track if c >= D.ORANGE_BASE] == [D.ORANGE_BASE + 2]
    assert all(p.track_space == 0 and not p.finished_round for p in st.players)
    assert st.turn.seat == 1  # it took the 1st Standby space
    assert [p.standby_slot for p in st.players] == [1, 0, 2]


@pytest.mark.parametrize(("players", "rounds"), [(1, 3), (2, 3), (3, 3), (4, 4)])
def test_game_flow_round_count(players: int, rounds: int) -> None:
    """Game Flow: 3 rounds (1-3 players), 4 rounds with 4 players."""
    state, board, _ = random_playout(ENGINE, players, 8)
    assert state.rounds == rounds == state.round
    assert board.final


def test_final_round_skips_preparation() -> None:
    """Next Round Preparation is skipped after the last round: straight to scoring."""
    st = started(3, seed=2)
    st.round = st.rounds
    track = list(st.track)
    _place_tokens(st, [3, 2, 1])
    _advance(st)
    for seat in (2, 1, 0):
        act(st, seat, "enter_standby")
    assert st.phase == "over"
    assert st.track == track
    assert ENGINE.score(st).final


# ---------------------------------------------------------------- 2 players and Lucy


def test_two_player_lucy_setup_and_movement() -> None:
    """Two-Player Rules: Lucy starts on the 3rd Standby space, moves to the nearest free
    space when farthest behind, gains nothing, and blocks the players."""
    st = started(2, seed=3)
    lucy = st.lucy
    assert lucy == Lucy(track_space=0, standby_slot=D.LUCY_SLOT, finished_round=False)
    assert D.STANDBY_LABELS[D.LUCY_SLOT] == "3rd"
    assert sorted(p.standby_slot for p in st.players) == [0, 1]
    first = st.turn.seat
    second = 1 - first
    act(st, first, "move_owner", space=2)
    finish_turn(st, first)
    assert st.turn.seat == second
    act(st, second, "move_owner", space=1)
    finish_turn(st, second)
    # Lucy was farthest behind (waiting on Standby): she moved to space 3, the nearest free
    assert lucy.track_space == 3 and lucy.standby_slot == -1
    assert st.turn.seat == second
    spaces = [a.arg("space") for a in ENGINE.legal(st, second) if a.kind == "move_owner"]
    assert 3 not in spaces
    assert st.players[first].funds >= 0  # Lucy took no chip for anyone


def test_lucy_goes_to_standby_when_no_space_is_free() -> None:
    """Two-Player Rules: Lucy goes to the lowest free Standby space when she cannot move;
    AMBIGUITIES 7: she can take a Standby space ahead of a player."""
    st = started(2, seed=3)
    lucy = st.lucy
    p0, p1 = st.players
    p0.track_space, p0.standby_slot, p0.finished_round, p0.sections_done = 19, -1, False, 0b11111
    p1.track_space, p1.standby_slot, p1.finished_round, p1.sections_done = 18, -1, False, 0b11111
    lucy.track_space, lucy.standby_slot, lucy.finished_round = 17, -1, False
    _advance(st)
    assert lucy.finished_round and lucy.standby_slot == 0
    assert st.turn.seat == 1
    act(st, 1, "enter_standby")
    assert p1.standby_slot == 1
    act(st, 0, "enter_standby")
    assert st.round == 2
    assert p0.standby_slot == 2
    assert ENGINE.score(st).seats[0].categories["standby"] == D.STANDBY_VP[2]


def test_two_player_sections_exactly_one_stop_each() -> None:
    """Two-Player Rules, Sections / AMBIGUITIES 21: one green/orange stop in every section,
    no skipping a section, no second stop in a section, blue separators optional,
    Standby only after section 5."""
    st = started(2, seed=3)
    seat = st.turn.seat
    legal = ENGINE.legal(st, seat)
    spaces = [a.arg("space") for a in legal if a.kind == "move_owner"]
    assert spaces == [1, 2, 3]  # section 1 only (the separator 4 would skip it)
    assert "enter_standby" not in kinds(st, seat)
    act(st, seat, "move_owner", space=2)
    assert st.players[seat].sections_done == 1
    finish_turn(st, seat)
    p = st.players[seat]
    p.track_space = 2
    turn_for(st, seat)
    st.lucy.track_space = 0
    st.players[1 - seat].track_space = 0
    spaces = [a.arg("space") for a in ENGINE.legal(st, seat) if a.kind == "move_owner"]
    assert spaces == [4, 5, 6, 7]  # not 3 (section 1 again), not past section 2
    act(st, seat, "move_owner", space=4)  # a blue separator: no section used
    assert p.sections_done == 1
    finish_turn(st, seat)
    p.sections_done = 0b11111
    p.track_space = 18
    turn_for(st, seat)
    assert [
        a.kind for a in ENGINE.legal(st, seat) if a.kind in ("move_owner", "enter_standby")
    ] == ["enter_standby"]


def test_two_player_game_lasts_three_rounds_and_lucy_scores_nothing() -> None:
    """Two-Player Rules: the game ends after round 3; Lucy gains no victory points."""
    state, board, _ = random_playout(ENGINE, 2, 12)
    assert state.round == 3
    assert [s.seat for s in board.seats] == [0, 1]
    for p in state.players:  # every player stopped once in each of the 5 sections
        assert p.sections_done == 0b11111


# ---------------------------------------------------------------- solo


def test_solo_fixed_blue_chips_single_use_and_kept_between_rounds() -> None:
    """Solo Rules: blue chips on fixed spaces, each usable once per game (flipped face
    down), never returned to the bag; the other chips are re-laid each round."""
    st = started(1, seed=5)
    for pos, code in zip(D.FIXED_BLUE, range(D.NBLUE), strict=True):
        assert st.track[pos - 1] == D.BLUE_BASE + code
    p = st.players[0]
    act(st, 0, "move_owner", space=D.FIXED_BLUE[0])
    assert "advertise" in kinds(st, 0)
    act(st, 0, "advertise", ad="forest")
    assert st.blue_face_down[0] == 1
    finish_turn(st, 0)
    act(st, 0, "enter_standby")
    act(st, 0, "end_turn")
    assert st.round == 2
    assert st.blue_face_down[0] == 1
    for pos, code in zip(D.FIXED_BLUE, range(D.NBLUE), strict=True):
        assert st.track[pos - 1] == D.BLUE_BASE + code
    act(st, 0, "move_owner", space=D.FIXED_BLUE[0])
    assert st.turn.step == "after"  # face down: no chip action
    assert "advertise" not in kinds(st, 0) and "buy_special" not in kinds(st, 0)
    assert p.standby_slot == -1


def test_solo_ignores_space_icons() -> None:
    """Solo Rules, Space Actions: Breed and Purchase-Special icons are ignored."""
    st = started(1, seed=5)
    p = st.players[0]
    blank(p)
    p.areas[0].nest, p.areas[0].nest_birds = 1, [SHIM, SHIM]
    p.areas[0].birds[SHIM] = 2
    breed_space = next(s for s in range(1, 20) if D.ICONS[s] and D.ICONS[s][0][0] == "breed")
    st.track[breed_space - 1] = TOUCAN
    act(st, 0, "move_owner", space=breed_space)
    act(st, 0, "move_employee", steps=1)
    act(st, 0, "release_bird")
    assert "breed" not in kinds(st, 0)
    assert ENGINE.view(st, 0)["track"][breed_space - 1]["icons"] == []


def test_solo_standby_bottom_space_and_breeding_1_1_2() -> None:
    """Solo Rules / AMBIGUITIES 24: entering Standby (always the bottom space) breeds
    1, 1 and 2 times in rounds 1, 2 and 3."""
    st = started(1, seed=5)
    p = st.players[0]
    blank(p)
    p.areas[0].nest, p.areas[0].nest_birds = 1, [SHIM, SHIM]
    p.areas[0].birds[SHIM] = 2
    expected = []
    for rnd in (1, 2, 3):
        assert st.round == rnd
        act(st, 0, "enter_standby")
        assert p.standby_slot == 0
        expected.append((sum(p.nest_box), p.egg_marker))
        act(st, 0, "end_turn")
    # round 1: new Shimaenaga egg token; round 2: marker +1; round 3: marker +2
    assert expected == [(1, 0), (1, 1), (1, 3)]
    assert st.phase == "over"
    board = ENGINE.score(st)
    assert board.seats[0].categories["standby"] == D.STANDBY_VP[0]


def test_solo_last_standby_breeds_meet_a_milestone_claimed_before_the_end() -> None:
    """Free Actions ("also during a turn when you are transitioning to the Standby
    phase") with Solo Rules, Moving to Standby (AMBIGUITIES 24): the round-3 Standby
    breeds move the Egg marker onto space 6, which meets milestone C4; the turn stays
    open for free actions, so C4 is claimed before final scoring."""
    st = started(1, seed=5)
    st.round = 3
    st.milestone_tiles[0] = D.TILE_IDS.index("C4")  # Egg marker on space 6 or further
    p = st.players[0]
    blank(p)
    p.areas[0].nest, p.areas[0].nest_birds = 1, [SHIM, SHIM]
    p.areas[0].birds[SHIM] = 2
    p.nest_box[SHIM] = 1
    p.egg_marker = 4
    assert find(st, 0, "claim_milestone", slot=0) is None
    act(st, 0, "enter_standby")
    assert p.egg_marker == 6 and p.standby_slot == 0  # two breeds, each +1 on the marker
    assert st.phase == "play" and ENGINE.to_act(st) == [0]
    assert ENGINE.view(st, 0)["turn"]["step"] == "STEP_STANDBY"
    assert {"claim_milestone", "end_turn"} <= kinds(st, 0)
    assert not kinds(st, 0) & {"move_owner", "enter_standby", "move_employee", "breed"}
    act(st, 0, "claim_milestone", slot=0)
    act(st, 0, "end_turn")
    assert ENGINE.is_over(st)
    assert ENGINE.score(st).seats[0].categories["milestones"] == D.MILESTONE_VP[1]


def test_standby_ends_the_turn_at_once_with_more_players() -> None:
    """Move to Standby: "Your turn ends immediately"; with 2+ players entering Standby
    changes nothing a free action depends on, so no Standby step is asked."""
    st = started(3, seed=4)
    seat = st.turn.seat
    act(st, seat, "enter_standby")
    assert st.turn.seat != seat and st.turn.step == "move"


def test_solo_result_targets_130_and_150() -> None:
    """Solo Rules, End of Game: the targets are 130 and 150 VP (the rules data's). The
    score board's typed solo result names them and the highest one reached; a game
    that reaches none is lost and has no winner (issue: solo result typed)."""
    assert D.SOLO_TARGETS == (130, 150)
    state, board, _ = random_playout(ENGINE, 1, 3)
    assert board.seats[0].total < 130, "a random solo game is far from the targets"
    assert board.solo == SoloResult(won=False, targets=(130, 150), target_reached=0)
    assert board.winners == [] and board.extras == {}
    view = ENGINE.view(state, 0)
    assert view["winners"] == [] and view["solo"] == {
        "won": False,
        "targets": [130, 150],
        "target_reached": 0,
    }
    message = scoreboard_to_proto(board)
    assert not message.solo.won and list(message.winners) == []
    assert not message.solo.HasField("opponent_score")
    p = state.players[0]
    p.milestones_achieved = 9
    p.funds = 0
    for a in p.areas[:6]:
        a.birds = [0] * D.NB
        a.tree, a.lake = 0, 1
        a.birds[D.BIDX["swan"]] = 2
    p.nest_box = [1] * D.BOX_SIZE
    p.egg_marker = D.EGG_MAX
    board = ENGINE.score(state)
    # 6 areas x 2 Swans x 5 (lake) = 60, 28 milestones, 7 x 8 eggs, 3 standby = 147
    assert board.seats[0].total == 147
    assert board.solo == SoloResult(won=True, targets=(130, 150), target_reached=130)
    assert board.winners == [0]
    assert ENGINE.view(state, None)["winners"] == [0]
    p.additional_area = "lake"
    p.areas[D.AX].lake = 1
    board = ENGINE.score(state)
    assert board.seats[0].total == 150  # + 3 for the Additional Area
    assert board.solo == SoloResult(won=True, targets=(130, 150), target_reached=150)
    assert ENGINE.view(state, 0)["solo"]["target_reached"] == 150


def test_multiplayer_games_have_no_solo_result() -> None:
    """ScoreBoard.solo is for solo games only."""
    st = started(2)
    assert ENGINE.score(st).solo is None
    assert "solo" not in ENGINE.view(st, 0)
