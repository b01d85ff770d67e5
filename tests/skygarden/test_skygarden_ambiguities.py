"""One test per resolution in AMBIGUITIES.md (section 1.4), named by its number."""

from __future__ import annotations

from collections import Counter

from skygarden_helpers import (
    FLAMINGO,
    HAWK,
    JAVA,
    OWL,
    SHIM,
    SWAN,
    TOUCAN,
    WWE,
    act,
    blank,
    emp_index,
    find,
    finish_turn,
    kinds,
    land,
    set_event,
    started,
    turn_for,
)

from services.core.engine.playout import random_playout
from services.skygarden.rules import ENGINE
from services.skygarden.rules import data as D
from services.skygarden.rules.breeding import breed
from services.skygarden.rules.economy import event_income
from services.skygarden.rules.flow import advance as _advance
from services.skygarden.rules.state import PendingDecision


def _blue_spaces(st: dict) -> list[int]:
    return [s + 1 for s, c in enumerate(st.track) if D.BLUE_BASE <= c < D.ORANGE_BASE]


def test_amb_01_linear_track_with_five_sections() -> None:
    """AMBIGUITIES 1: the track is a line S1|B|S2|B|S3|B|S4|B|S5; after space 19 only
    Standby remains."""
    assert D.SECTIONS == ((1, 2, 3), (5, 6, 7), (9, 10, 11), (13, 14, 15), (17, 18, 19))
    assert D.FIXED_BLUE == (4, 8, 12, 16)
    st = started(3)
    st.players[0].track_space, st.players[0].standby_slot = 19, -1
    turn_for(st, 0)
    assert [a.kind for a in ENGINE.legal(st, 0) if a.kind in ("move_owner", "enter_standby")] == [
        "enter_standby"
    ]


def test_amb_02_track_length_19_from_the_chip_count() -> None:
    """AMBIGUITIES 2: 16 green - 2 Forest + 4 blue + 1 orange = 19 spaces."""
    assert len(D.GREEN) - D.FOREST_DRAWS + D.NBLUE + 1 == D.TRACK_LEN == 19
    assert len(started(4).track) == 19


def test_amb_03_blue_chips_fixed_in_two_player_and_solo_random_otherwise() -> None:
    """AMBIGUITIES 3: 2p (and solo) put the blue chips on 4/8/12/16; 3-4p at random."""
    layouts = set()
    for seed in range(8):
        assert _blue_spaces(ENGINE.setup(2, {}, seed)) == [4, 8, 12, 16]
        assert _blue_spaces(ENGINE.setup(1, {}, seed)) == [4, 8, 12, 16]
        layouts.add(tuple(_blue_spaces(ENGINE.setup(3, {}, seed))))
    assert len(layouts) > 1


def test_amb_04_double_sided_round_chip_for_rounds_3_and_4() -> None:
    """AMBIGUITIES 4: round 3 is the Swan face; round 4 (4 players) its Toucan/Swan back."""
    assert D.ORANGE[3] == (SWAN,)
    assert D.ORANGE[4] == (TOUCAN, SWAN)
    st = started(4, seed=3)
    for rnd in (2, 3, 4):
        for p in st.players:
            p.finished_round = True
            p.standby_slot = -1
        for seat, p in enumerate(st.players):
            p.standby_slot = seat
        _advance(st)
        assert st.round == rnd
        assert [c for c in st.track if c >= D.ORANGE_BASE] == [D.ORANGE_BASE + rnd]
    space = st.track.index(D.ORANGE_BASE + 4) + 1
    seat = st.turn.seat
    act(st, seat, "move_owner", space=space)
    assert [a.arg("bird") for a in ENGINE.legal(st, seat)] == ["toucan", "swan"]


def test_amb_05_space_icons_by_player_count() -> None:
    """AMBIGUITIES 5: an icon is used when players >= its min_players; 2p uses the 2+
    icons only; solo ignores all."""
    from services.skygarden.rules.space import icons_active

    for players in (1, 2, 3, 4):
        st = ENGINE.setup(players, {}, 1)
        for space in range(1, 20):
            expected = [i for i, low in D.ICONS[space] if players >= low and players > 1]
            assert icons_active(st, space) == expected
    st = ENGINE.setup(2, {}, 1)
    assert icons_active(st, 17) == [] and icons_active(st, 5) == ["breed"]
    assert icons_active(ENGINE.setup(3, {}, 1), 17) == ["breed"]
    assert icons_active(ENGINE.setup(3, {}, 1), 15) == []
    assert icons_active(ENGINE.setup(4, {}, 1), 15) == ["purchase_special_bird"]


def test_amb_06_random_start_order_lucy_third() -> None:
    """AMBIGUITIES 6: random Standby order, bottom (1st) first; 2p: players on 1st/2nd,
    Lucy on 3rd."""
    firsts = set()
    for seed in range(40):
        st = started(2, seed)
        assert sorted(p.standby_slot for p in st.players) == [0, 1]
        assert st.lucy.standby_slot == 2
        firsts.add(st.turn.seat)
    assert firsts == {0, 1}


def test_amb_07_standby_vp_3_2_1_0_and_lucy_takes_a_space() -> None:
    """AMBIGUITIES 7: Standby VP 3/2/1/0; Lucy occupies a Standby space and can push a
    player down."""
    assert D.STANDBY_VP == (3, 2, 1, 0)
    st = started(2, seed=1)
    p0, p1 = st.players
    st.round = st.rounds  # last round: the Standby spaces are final
    p0.track_space, p0.standby_slot, p0.sections_done = 18, -1, 0b11111
    p1.track_space, p1.standby_slot, p1.sections_done = 19, -1, 0b11111
    st.lucy.track_space, st.lucy.standby_slot = 17, -1
    _advance(st)  # Lucy is farthest behind and blocked: she takes the 1st space
    assert st.lucy.finished_round and st.lucy.standby_slot == 0
    act(st, 0, "enter_standby")
    act(st, 1, "enter_standby")
    assert st.phase == "over"
    assert (p0.standby_slot, p1.standby_slot) == (1, 2)
    cats = [s.categories["standby"] for s in ENGINE.score(st).seats]
    assert cats == [2, 1]


def test_amb_08_waiting_tokens_are_behind_and_finished_tokens_out() -> None:
    """AMBIGUITIES 8: any token still waiting on Standby plays before track tokens; a
    token that went to Standby this round is out until the next round."""
    st = started(4, seed=2)
    order = sorted(range(4), key=lambda s: st.players[s].standby_slot)
    act(st, order[0], "move_owner", space=1)
    finish_turn(st, order[0])
    assert st.turn.seat == order[1]  # waiting token, though space 1 is "behind"
    act(st, order[1], "enter_standby")
    assert st.players[order[1]].standby_slot == 0  # the lowest free space
    assert st.turn.seat == order[2]
    act(st, order[2], "move_owner", space=2)
    finish_turn(st, order[2])
    act(st, order[3], "move_owner", space=3)
    finish_turn(st, order[3])
    assert st.turn.seat == order[0]
    assert order[1] not in ENGINE.to_act(st)


def test_amb_09_passing_occupied_spaces_and_forced_standby() -> None:
    """AMBIGUITIES 9: you may pass occupied spaces but not stop on them; if every space
    ahead is occupied you must go to Standby."""
    st = started(3)
    st.players[0].track_space, st.players[0].standby_slot = 17, -1
    st.players[1].track_space, st.players[1].standby_slot = 18, -1
    st.players[2].track_space, st.players[2].standby_slot = 19, -1
    turn_for(st, 0)
    assert kinds(st, 0) & {"move_owner", "enter_standby"} == {"enter_standby"}
    st.players[1].track_space = 5
    turn_for(st, 1)
    spaces = [a.arg("space") for a in ENGINE.legal(st, 1) if a.kind == "move_owner"]
    assert 17 not in spaces and 19 not in spaces and 18 in spaces


def test_amb_10_crossing_the_event_arrow() -> None:
    """AMBIGUITIES 10: crossing P6->P1 pays even when the move ends on P1; capped at 15;
    the income can pay the 4th/5th step of the same move."""
    st = started(3)
    p = st.players[0]
    blank(p)
    set_event(p, "E7")
    p.funds = 0
    land(st, 0, 3, HAWK, emp=emp_index("P6"))
    act(st, 0, "move_employee", steps=1)
    assert D.EMP_IDS[p.employee] == "P1" and p.funds == 1
    st = started(3)
    p = st.players[0]
    set_event(p, "E7")
    p.funds = 0
    land(st, 0, 3, HAWK, emp=emp_index("P6"))
    assert [a.arg("steps") for a in ENGINE.legal(st, 0) if a.kind == "move_employee"] == [
        1,
        2,
        3,
        4,
    ]


def test_amb_11_event_marker_goes_down() -> None:
    """AMBIGUITIES 11: the Event marker always shows the current complete sets; it goes
    down when birds leave the Event areas."""
    st = started(3)
    p = st.players[0]
    blank(p)
    set_event(p, "E2")
    up, low = D.EVENT_AREAS
    p.areas[up].birds[WWE] = 2
    p.areas[low].birds[HAWK] = 2
    assert event_income(p) == 3
    turn_for(st, 0)
    act(st, 0, "bird_to_forest", area=low, bird="hawk")
    assert event_income(p) == 2
    assert ENGINE.view(st, 0)["seats"][0]["event_marker"] == 1
    p.areas[0].birds[HAWK] = 5  # not an Event area: does not count
    assert event_income(p) == 2


def test_amb_12_unplaceable_chip_bird_goes_to_the_forest() -> None:
    """AMBIGUITIES 12: a chip bird that cannot be placed goes to the Forest board, never
    back to the supply."""
    st = started(3)
    p = st.players[0]
    blank(p)
    p.funds = 0
    for ai in D.EMP_ADJ[emp_index("P1")]:
        p.areas[ai].birds[HAWK] = 2
    supply = st.supply[SWAN]
    forest = st.forest.birds[SWAN]
    land(st, 0, 3, SWAN, emp=emp_index("P6"))
    act(st, 0, "move_employee", steps=1)
    assert "place_bird" not in kinds(st, 0)
    assert "end_turn" not in kinds(st, 0)
    act(st, 0, "release_bird")
    assert st.forest.birds[SWAN] == forest + 1
    assert st.supply[SWAN] == supply - 1
    assert "end_turn" in kinds(st, 0)


def test_amb_13_supply_exhaustion() -> None:
    """AMBIGUITIES 13: an empty supply gives no chip bird but the Employee still moves and
    purchases stay allowed; empty Forest elements, special cards and bonus birds are
    simply not available."""
    st = started(3)
    p = st.players[0]
    blank(p)
    p.funds = 10
    st.supply[HAWK] = 0
    st.forest.trees = 0
    st.forest.nests = 0
    land(st, 0, 3, HAWK)
    assert st.turn.chip_bird == -1
    assert "move_employee" in kinds(st, 0)
    act(st, 0, "move_employee", steps=1)
    k = kinds(st, 0)
    assert "buy_lake" in k and "end_turn" in k
    assert "buy_tree" not in k and "buy_nest" not in k
    assert find(st, 0, "buy_additional_area", side="tree") is None
    assert find(st, 0, "buy_additional_area", side="lake") is not None
    st = started(3)
    p = st.players[0]
    p.funds = 15
    st.special_left = [0, 0, 1]
    land(st, 0, 2, D.BLUE_BASE)
    assert {a.arg("bird") for a in ENGINE.legal(st, 0) if a.kind == "buy_special"} == {"snowy_owl"}
    st.turn.pending = [PendingDecision("bonus_bird", 1)]
    st.bonus_birds = [0] * D.NREG
    assert [a.kind for a in ENGINE.legal(st, 0)] == ["skip_bonus"]


def test_amb_14_purchase_limits_and_blue_turns() -> None:
    """AMBIGUITIES 14: nests/trees/lakes unlimited, 1 Forest bird per turn, 1 Additional
    Area per game; blue turns: no purchases, no Employee move, but the space action
    still follows the chip action."""
    st = started(3)
    p = st.players[0]
    blank(p)
    p.funds = 15
    st.forest.birds[HAWK] = 2
    land(st, 0, 3, SHIM)
    act(st, 0, "move_employee", steps=3)
    adj = D.EMP_ADJ[p.employee]
    act(st, 0, "buy_nest", area=adj[0])
    act(st, 0, "buy_nest", area=adj[1])
    act(st, 0, "buy_tree", area=adj[0])
    act(st, 0, "buy_lake", area=adj[1])
    act(st, 0, "buy_forest_bird", bird="hawk", area=adj[0])
    assert "buy_forest_bird" not in kinds(st, 0)
    p.funds = 15
    act(st, 0, "buy_additional_area", side="lake")
    assert "buy_additional_area" not in kinds(st, 0)
    finish_turn(st, 0)
    turn_for(st, 0)
    p.track_space = 0
    p.funds = 15
    space = next(s for s in range(1, 20) if D.ICONS[s] and D.ICONS[s][0] == ("breed", 2))
    p.areas[4].nest, p.areas[4].nest_birds = 1, [HAWK, HAWK]
    p.areas[4].birds[HAWK] = 2
    land(st, 0, space, D.BLUE_BASE)
    assert "breed" not in kinds(st, 0)  # the chip action first
    act(st, 0, "advertise", ad="small_bird")
    assert "breed" in kinds(st, 0)
    assert not kinds(st, 0) & {"buy_nest", "buy_tree", "buy_lake", "move_employee"}


def test_amb_15_special_birds_never_sit_on_nests_except_java_sparrow() -> None:
    """AMBIGUITIES 15: nest birds are Regular (Java Sparrow excepted); one special bird of
    a kind per area."""
    st = started(3)
    p = st.players[0]
    blank(p)
    a = p.areas[0]
    a.nest = 1
    a.birds[OWL] = 1
    a.birds[JAVA] = 1
    turn_for(st, 0)
    adds = {x.arg("bird") for x in ENGINE.legal(st, 0) if x.kind == "nest_add"}
    assert adds == {"java_sparrow"}
    p.areas[1].birds[JAVA] = 1
    from services.skygarden.rules.aviary import fits

    assert not fits(p.areas[1], JAVA) and fits(p.areas[1], OWL)


def test_amb_16_egg_of_choice_and_golden_egg() -> None:
    """AMBIGUITIES 16: the regular egg bonus fills an empty bird icon (Egg marker +1 if
    all six are full); the golden egg only from the early tile (+1 marker if owned)."""
    from services.skygarden.rules.milestones import gain_bonus as _gain_bonus

    st = started(3)
    p = st.players[0]
    turn_for(st, 0)
    p.nest_box = [1, 1, 1, 1, 1, 0, 0]
    _gain_bonus(st, p, {"type": "egg_token_of_choice"})
    assert [a.arg("bird") for a in ENGINE.legal(st, 0)] == ["swan"]
    act(st, 0, "bonus_egg", bird="swan")
    assert p.nest_box == [1, 1, 1, 1, 1, 1, 0]
    _gain_bonus(st, p, {"type": "egg_token_of_choice"})
    assert p.egg_marker == 1 and st.turn.pending == []
    _gain_bonus(st, p, {"type": "golden_egg"})
    assert p.nest_box[D.GOLDEN] == 1 and p.egg_marker == 1
    _gain_bonus(st, p, {"type": "golden_egg"})
    assert p.egg_marker == 2


def test_amb_17_discounted_special_bird_is_optional() -> None:
    """AMBIGUITIES 17: the bonus special-bird purchase may be declined (bonus lost, the
    early tile still removed)."""
    st = started(3)
    p = st.players[0]
    blank(p)
    st.milestone_tiles = [D.TILE_IDS.index("C3")] * 9
    p.funds = 7
    turn_for(st, 0)
    for slot in (3, 4, 5):
        act(st, 0, "claim_milestone", slot=slot)
    assert st.turn.pending == [("special", 3)]
    assert "skip_bonus" in kinds(st, 0)
    act(st, 0, "skip_bonus")
    assert st.early_bonus_left[D.LINE_NAMES.index("r2")] is False
    assert p.funds == 7 and sum(p.areas[0].birds) == 0


def test_amb_18_milestone_vp_by_count_and_shared_tiles() -> None:
    """AMBIGUITIES 18: milestone VP indexed by tiles achieved (0..9); several players may
    achieve the same tile."""
    assert len(D.MILESTONE_VP) == 10 and D.MILESTONE_VP[0] == 0
    st = started(3)
    st.milestone_tiles = [D.TILE_IDS.index("C3")] * 9
    for seat in (0, 1, 2):
        st.players[seat].funds = 8
        turn_for(st, seat)
        act(st, seat, "claim_milestone", slot=4)
    assert st.milestone_claims[4] == [0, 1, 2]
    assert all(s.categories["milestones"] == D.MILESTONE_VP[1] for s in ENGINE.score(st).seats)


def test_amb_19_only_the_first_finisher_gets_the_early_tile() -> None:
    """AMBIGUITIES 19: the first to complete a line takes its Early Bonus tile, later
    players the printed bonus."""
    st = started(3)
    st.milestone_tiles = [D.TILE_IDS.index("C3")] * 9
    gains = []
    for seat in (2, 0):
        p = st.players[seat]
        p.funds = 7
        turn_for(st, seat)
        for slot in (2, 5, 8):  # c3: Egg marker +2 early, +1 regular
            act(st, seat, "claim_milestone", slot=slot)
        while st.turn.pending:
            act(st, seat, ENGINE.legal(st, seat)[0].kind, **dict(ENGINE.legal(st, seat)[0].args))
        gains.append(p.egg_marker)
    assert gains == [2, 1]


def test_amb_20_next_round_preparation() -> None:
    """AMBIGUITIES 20: loose chip birds join the Forest, all 16 green + 4 blue chips and
    the new round chip are re-laid: 2 Forest chips with supply birds, 19 track spaces."""
    st = started(3, seed=9)
    st.forest.chips[0].bird = -1  # bought earlier
    chip_bird = st.forest.chips[1].bird
    loose = list(st.forest.birds)
    supply = list(st.supply)
    for p in st.players:
        p.finished_round = True
    _advance(st)
    assert st.round == 2
    loose[chip_bird] += 1
    assert st.forest.birds == loose
    chips = Counter(c for c in st.track if c < D.BLUE_BASE) + Counter(
        c.chip_bird for c in st.forest.chips
    )
    assert chips == Counter(D.GREEN)
    assert len(_blue_spaces(st)) == 4
    for chip in st.forest.chips:
        assert chip.bird == chip.chip_bird
        supply[chip.chip_bird] -= 1
    assert st.supply == supply


def test_amb_21_two_player_section_rule() -> None:
    """AMBIGUITIES 21: one green/orange stop per section, no skipping, no second stop;
    separators optional; Standby only after section 5; Lucy ignores sections."""
    st = started(2, seed=6)
    seat = st.turn.seat
    p = st.players[seat]
    p.track_space, p.standby_slot, p.sections_done = 6, -1, 0b11  # stopped in sections 1 and 2
    st.players[1 - seat].track_space = 0
    st.lucy.track_space, st.lucy.standby_slot = 9, -1
    turn_for(st, seat)
    spaces = [a.arg("space") for a in ENGINE.legal(st, seat) if a.kind == "move_owner"]
    assert spaces == [8, 10, 11]  # separator 8, section 3 minus Lucy's space
    assert "enter_standby" not in kinds(st, seat)
    lucy_spaces = []
    st.lucy.track_space = 3
    from services.skygarden.rules.flow import lucy_move as _lucy_move

    _lucy_move(st)
    lucy_spaces.append(st.lucy.track_space)
    assert lucy_spaces == [4]  # a blue separator is fine for Lucy


def test_amb_22_bird_scoring_and_counting_details() -> None:
    """AMBIGUITIES 22: small-bird sets = min per area; the Additional Area's tree counts;
    ads, milestones count the Additional Area, Event sets only the Event areas; special
    birds count for none of these."""
    st = started(3)
    p = st.players[0]
    blank(p)
    p.additional_area = "tree"
    ax = p.areas[D.AX]
    ax.tree = 1
    ax.birds[SHIM], ax.birds[WWE] = 3, 2
    ax.birds[HAWK] = 1
    st.phase = "over"
    set_event(p, "E1")
    assert ENGINE.score(st).seats[0].categories["birds"] == 2 * 4 + 3
    from services.skygarden.rules.economy import ad_gain
    from services.skygarden.rules.milestones import tile_ok

    assert ad_gain(p, D.AD_IDS.index("small_bird")) == 4
    assert ad_gain(p, D.AD_IDS.index("forest")) == 2  # 1 Hawk + the Additional Area tree
    assert tile_ok(p, D.TILE_IDS.index("A1"))  # 3 Shimaenaga
    assert event_income(p) == 1  # no set in the Event areas
    p.areas[0].birds[OWL] = 1
    p.areas[1].birds[JAVA] = 1
    assert ad_gain(p, D.AD_IDS.index("small_bird")) == 4
    assert not tile_ok(p, D.TILE_IDS.index("B1"))  # 3 Hawks: specials are not Hawks


def test_amb_23_ties_share_the_place() -> None:
    """AMBIGUITIES 23: all tied players win; no tie-break, tied seats share a rank."""
    st = started(4)
    for p in st.players:
        blank(p)
        p.standby_slot = 3
    board = ENGINE.score(st)
    assert [s.rank for s in board.seats] == [1, 1, 1, 1]
    assert board.winners == [0, 1, 2, 3]


def test_amb_24_solo_breeds_on_entering_standby() -> None:
    """AMBIGUITIES 24: solo breeding happens on entering Standby, 1/1/2 times."""
    assert D.SOLO_BREEDS == {1: 1, 2: 1, 3: 2}
    st = started(1)
    p = st.players[0]
    blank(p)
    p.areas[2].nest, p.areas[2].nest_birds = 1, [FLAMINGO, FLAMINGO]
    p.areas[2].birds[FLAMINGO] = 2
    st.round = 3
    act(st, 0, "enter_standby")
    assert p.nest_box[FLAMINGO] == 1 and p.egg_marker == 1  # two breeds: token, then marker
    act(st, 0, "end_turn")  # free actions could come first (Free Actions)
    assert st.phase == "over"
    p.egg_marker = 0
    breed(st, p)
    assert p.egg_marker == 1


def test_random_two_player_games_respect_sections() -> None:
    """AMBIGUITIES 21 in play: random 2-player games end with 5 sections per player."""
    for seed in range(3):
        state, _, _ = random_playout(ENGINE, 2, seed)
        assert all(p.sections_done == 0b11111 for p in state.players)
