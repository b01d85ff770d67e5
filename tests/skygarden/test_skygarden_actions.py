"""Chip actions, placement rules, additional purchases, space actions, free actions."""

from __future__ import annotations

import pytest
from skygarden_helpers import (
    FLAMINGO,
    HAWK,
    JAVA,
    OWL,
    RIFLE,
    SHIM,
    SWAN,
    TOUCAN,
    WWE,
    act,
    blank,
    emp_index,
    find,
    kinds,
    land,
    set_event,
    started,
    turn_for,
)

from services.skygarden.rules import ENGINE
from services.skygarden.rules import data as D
from services.skygarden.rules.state import ForestChip

FREE = {
    "claim_milestone",
    "bird_to_forest",
    "tree_to_forest",
    "refill_lake",
    "nest_add",
    "nest_remove",
}
PURCHASES = {"buy_nest", "buy_tree", "buy_lake", "buy_forest_bird", "buy_additional_area"}


def _game(players: int = 3, seed: int = 1) -> tuple[dict, dict]:
    st = started(players, seed)
    p = st.players[0]
    blank(p)
    set_event(p, "E7")  # Hawk + Swan: 0 sets in the tests below, income 1
    p.funds = 0
    return st, p


def _moves(st: dict, seat: int = 0) -> list[int]:
    return [a.arg("steps") for a in ENGINE.legal(st, seat) if a.kind == "move_employee"]


# ---------------------------------------------------------------- green / orange chips


def test_green_chip_bird_from_supply_then_mandatory_employee_move() -> None:
    """If the chip is green: take the bird from the supply, then the Employee must move
    1-3 spaces before anything else (no end of turn, no purchases, no placement)."""
    st, p = _game()
    supply = st.supply[HAWK]
    land(st, 0, 3, HAWK, emp=emp_index("P1"))
    assert st.supply[HAWK] == supply - 1
    assert st.turn.chip_bird == HAWK
    assert kinds(st, 0) - FREE == {"move_employee"}
    assert _moves(st) == [1, 2, 3]
    act(st, 0, "move_employee", steps=2)
    assert D.EMP_IDS[p.employee] == "P3"
    places = sorted(a.arg("area") for a in ENGINE.legal(st, 0) if a.kind == "place_bird")
    assert places == sorted(D.EMP_ADJ[emp_index("P3")])
    assert "end_turn" not in kinds(st, 0)  # the bird must be placed or released first
    act(st, 0, "place_bird", area=places[0])
    assert p.areas[places[0]].birds[HAWK] == 1
    assert "end_turn" in kinds(st, 0)


def test_employee_fourth_and_fifth_step_cost_one_fund_each() -> None:
    """Additional Employee Movement: 4th step 1 fund, 5th 1 more; never more than 5."""
    for funds, options in ((0, [1, 2, 3]), (1, [1, 2, 3, 4]), (2, [1, 2, 3, 4, 5])):
        st, p = _game()
        p.funds = funds
        land(st, 0, 3, HAWK, emp=emp_index("P1"))  # no Event arrow within 5 steps
        assert _moves(st) == options
    act(st, 0, "move_employee", steps=5)
    assert p.funds == 0 and D.EMP_IDS[p.employee] == "P6"


def test_first_employee_move_passes_the_event_arrow_for_one_fund() -> None:
    """Events: the arrow is right after the start space, so the first move gives the
    leftmost Event income (1 fund)."""
    st, p = _game()
    assert p.employee == D.EMP_START
    land(st, 0, 3, HAWK)
    act(st, 0, "move_employee", steps=1)
    assert p.funds == 1


def test_event_income_pays_for_extra_steps_in_the_same_move() -> None:
    """AMBIGUITIES 10: passing the arrow pays at once and can fund the 4th/5th step;
    income from crossing on the 4th step itself comes too late to pay that step."""
    st, p = _game()
    land(st, 0, 3, HAWK, emp=emp_index("P5"))  # crosses on step 2
    assert _moves(st) == [1, 2, 3, 4]
    act(st, 0, "move_employee", steps=4)
    assert p.funds == 0 and D.EMP_IDS[p.employee] == "P3"
    st, p = _game()
    land(st, 0, 3, HAWK, emp=emp_index("P3"))  # crosses on step 4
    assert _moves(st) == [1, 2, 3]
    st, p = _game()
    p.funds = 1
    land(st, 0, 3, HAWK, emp=emp_index("P3"))
    assert _moves(st) == [1, 2, 3, 4, 5]
    act(st, 0, "move_employee", steps=5)
    assert p.funds == 0  # 1 - 1 + 1 - 1


def test_event_income_capped_at_fifteen_funds() -> None:
    """Funds: at most 15, the excess is lost (also for Event income)."""
    st, p = _game()
    p.funds = 15
    land(st, 0, 3, HAWK)
    act(st, 0, "move_employee", steps=1)
    assert p.funds == 15


def test_orange_round_chip_with_two_birds_offers_the_choice() -> None:
    """If the chip is orange: like a green chip; the round-2 and round-4 chips offer a
    choice of two birds."""
    st, _p = _game()
    land(st, 0, 3, D.ORANGE_BASE + 2)
    assert [a.arg("bird") for a in ENGINE.legal(st, 0)] == ["hawk", "flamingo"]
    supply = st.supply[FLAMINGO]
    act(st, 0, "choose_chip_bird", bird="flamingo")
    assert st.supply[FLAMINGO] == supply - 1
    assert st.turn.chip_bird == FLAMINGO
    assert "move_employee" in kinds(st, 0)
    st, _p = _game()
    land(st, 0, 3, D.ORANGE_BASE + 1)  # round 1: a single Toucan, no choice
    assert st.turn.chip_bird == TOUCAN


# ---------------------------------------------------------------- placement rules


def test_area_size_four_plus_two_with_tree_or_lake() -> None:
    """Placement Rules: size 4, 6 with a tree or a lake; sizes 1/1/1/2/2/3."""
    st, p = _game()
    assert [D.SIZE[b] for b in (SHIM, WWE, TOUCAN, HAWK, FLAMINGO, SWAN)] == [1, 1, 1, 2, 2, 3]
    target = D.EMP_ADJ[emp_index("P1")][0]
    a = p.areas[target]
    a.birds[SWAN] = 1
    land(st, 0, 3, HAWK, emp=emp_index("P6"))
    act(st, 0, "move_employee", steps=1)
    assert find(st, 0, "place_bird", area=target) is None  # 3 + 2 > 4
    a.tree = 1
    assert find(st, 0, "place_bird", area=target) is not None  # 3 + 2 <= 6
    act(st, 0, "place_bird", area=target)
    a.birds[SHIM] = 1
    assert sum(D.SIZE[i] * c for i, c in enumerate(a.birds)) == 6


def test_one_special_bird_of_a_kind_per_area() -> None:
    """Special Bird tokens / AMBIGUITIES 15: never two of the same kind in one area."""
    st, p = _game()
    p.funds = 15
    p.areas[0].birds[JAVA] = 1
    land(st, 0, 2, D.BLUE_BASE)
    java_areas = [
        a.arg("area")
        for a in ENGINE.legal(st, 0)
        if a.kind == "buy_special" and a.arg("bird") == "java_sparrow"
    ]
    assert 0 not in java_areas and java_areas == [1, 2, 3, 4, 5]
    owl_areas = [
        a.arg("area")
        for a in ENGINE.legal(st, 0)
        if a.kind == "buy_special" and a.arg("bird") == "snowy_owl"
    ]
    assert 0 in owl_areas  # a different kind may share the area


def test_one_nest_one_tree_and_never_tree_with_lake() -> None:
    """Placement Rules: one Nest tile and one tree per area; a tree sits on the Cover
    tile, so tree and lake exclude each other."""
    st, p = _game()
    p.funds = 15
    left, right = D.EMP_ADJ[emp_index("P1")]
    p.areas[left].nest = p.areas[left].tree = 1
    p.areas[right].lake = 1
    land(st, 0, 3, HAWK, emp=emp_index("P6"))
    act(st, 0, "move_employee", steps=1)
    assert find(st, 0, "buy_nest", area=left) is None
    assert find(st, 0, "buy_tree", area=left) is None
    assert find(st, 0, "buy_lake", area=left) is None
    assert find(st, 0, "buy_nest", area=right) is not None
    assert find(st, 0, "buy_tree", area=right) is None
    assert find(st, 0, "buy_lake", area=right) is None


# ---------------------------------------------------------------- additional purchases


def test_no_additional_purchase_before_the_employee_moves() -> None:
    """Additional Purchases: only after the Employee has moved."""
    st, p = _game()
    p.funds = 15
    land(st, 0, 3, HAWK)
    assert not kinds(st, 0) & PURCHASES
    act(st, 0, "move_employee", steps=1)
    assert {"buy_nest", "buy_tree", "buy_lake", "buy_additional_area"} <= kinds(st, 0)


def test_purchases_cost_two_and_go_next_to_the_employee() -> None:
    """Additional Purchases: Nest, tree, lake for 2 funds each, in an adjacent area,
    as many as wanted."""
    st, p = _game()
    p.funds = 12
    land(st, 0, 3, HAWK, emp=emp_index("P6"))
    act(st, 0, "move_employee", steps=2)  # P2: areas A2, A3 (+1 Event income)
    adjacent = D.EMP_ADJ[p.employee]
    for kind in ("buy_nest", "buy_tree", "buy_lake"):
        assert sorted(a.arg("area") for a in ENGINE.legal(st, 0) if a.kind == kind) == sorted(
            adjacent
        )
    trees = st.forest.trees
    nests = st.forest.nests
    act(st, 0, "buy_nest", area=adjacent[0])
    act(st, 0, "buy_tree", area=adjacent[0])
    act(st, 0, "buy_nest", area=adjacent[1])
    act(st, 0, "buy_lake", area=adjacent[1])
    assert p.funds == 13 - 8
    assert st.forest.trees == trees - 1 and st.forest.nests == nests - 2
    assert p.areas[adjacent[0]].tree and p.areas[adjacent[1]].lake


def test_one_forest_bird_per_turn_and_chip_birds_not_replenished() -> None:
    """Additional Purchases / AMBIGUITIES 14: one Forest bird per turn (2 funds), from
    loose birds or a Forest chip; a bird bought off a chip is not replaced."""
    st, p = _game()
    p.funds = 10
    st.forest.birds = [0] * D.NB
    st.forest.chips = [ForestChip(SWAN, SWAN), ForestChip(SHIM, -1)]
    st.forest.birds[OWL] = 1
    land(st, 0, 3, SHIM)
    act(st, 0, "move_employee", steps=1)
    birds = {a.arg("bird") for a in ENGINE.legal(st, 0) if a.kind == "buy_forest_bird"}
    assert birds == {"swan", "snowy_owl"}
    act(st, 0, "buy_forest_bird", bird="swan", area=D.EMP_ADJ[p.employee][0])
    assert st.forest.chips[0] == ForestChip(SWAN, -1)
    assert "buy_forest_bird" not in kinds(st, 0)
    assert p.funds == 11 - 2


def test_additional_area_once_per_game_always_adjacent() -> None:
    """Additional Area tile: 4 funds, once per game, 7th area always adjacent, not an
    Event area; the tree side takes a free tree that can never go to the Forest, the
    lake side's lake can never be refilled."""
    st, p = _game()
    p.funds = 15
    land(st, 0, 3, SWAN)
    act(st, 0, "move_employee", steps=3)
    trees = st.forest.trees
    act(st, 0, "buy_additional_area", side="tree")
    assert p.funds == 15 - 4
    assert st.forest.trees == trees - 1
    assert p.areas[D.AX].tree == 1
    assert "buy_additional_area" not in kinds(st, 0)
    assert find(st, 0, "place_bird", area=D.AX) is not None
    assert find(st, 0, "buy_nest", area=D.AX) is not None
    assert find(st, 0, "buy_tree", area=D.AX) is None and find(st, 0, "buy_lake", area=D.AX) is None
    assert find(st, 0, "tree_to_forest", area=D.AX) is None
    assert D.AX not in D.EVENT_AREAS
    st, p = _game()
    p.funds = 15
    land(st, 0, 3, SWAN)
    act(st, 0, "move_employee", steps=1)
    act(st, 0, "buy_additional_area", side="lake")
    assert p.areas[D.AX].lake == 1
    assert find(st, 0, "refill_lake", area=D.AX) is None
    assert ENGINE.score(st).seats[0].categories["additional_area"] == D.AX_VP == 3


def test_purchases_end_when_the_space_action_starts() -> None:
    """3. Space actions come after the chip action and any additional purchases."""
    st, p = _game()
    p.funds = 15
    p.areas[0].nest, p.areas[0].nest_birds = 1, [HAWK, HAWK]
    p.areas[0].birds[HAWK] = 2
    space = next(s for s in range(1, 20) if D.ICONS[s] and D.ICONS[s][0] == ("breed", 2))
    land(st, 0, space, SHIM)
    act(st, 0, "move_employee", steps=1)
    assert "breed" not in kinds(st, 0)  # the chip bird first
    act(st, 0, "release_bird")
    assert "breed" in kinds(st, 0) and "buy_nest" in kinds(st, 0)
    act(st, 0, "breed")
    assert not kinds(st, 0) & PURCHASES
    assert "end_turn" in kinds(st, 0)


# ---------------------------------------------------------------- blue chips


def test_blue_chip_no_employee_move_and_no_purchases() -> None:
    """If the chip is blue: advertisement or special bird; no Employee move and no
    additional purchases on that turn."""
    st, p = _game()
    p.funds = 15
    land(st, 0, 2, D.BLUE_BASE)
    assert kinds(st, 0) - FREE == {"advertise", "buy_special"}
    act(st, 0, "advertise", ad="forest")
    assert not kinds(st, 0) & (PURCHASES | {"move_employee", "advertise"})
    assert "end_turn" in kinds(st, 0)


@pytest.mark.parametrize(
    ("ad", "birds", "trees", "lakes", "gain"),
    [
        ("small_bird", {SHIM: 2, WWE: 3}, 0, 0, 4),
        ("small_bird", {SHIM: 5, WWE: 4}, 0, 0, 6),  # 8, capped at 6
        ("forest", {HAWK: 3}, 2, 0, 5),
        ("forest", {HAWK: 6}, 3, 0, 7),  # 9, capped at 7
        ("lakeside", {FLAMINGO: 2}, 0, 3, 5),
        ("lakeside", {FLAMINGO: 5}, 0, 4, 7),  # capped
        ("rare_bird", {SWAN: 1, TOUCAN: 1}, 0, 0, 2),
        ("rare_bird", {SWAN: 2, TOUCAN: 3}, 0, 0, 8),  # 12, capped at 8
        ("rare_bird", {SWAN: 3}, 0, 0, 0),
    ],
)
def test_advertisements_and_their_caps(ad, birds, trees, lakes, gain) -> None:
    """Advertisement: the four formulas and caps, counting all areas (sets may span
    areas); AMBIGUITIES 22: the Additional Area counts too."""
    st, p = _game()
    p.additional_area = "lake"
    p.areas[D.AX].lake = 1
    lakes -= 1
    for i, (bird, count) in enumerate(birds.items()):
        p.areas[i].birds[bird] = count  # spread over several areas
    for ai in range(trees):
        p.areas[ai].tree = 1
    for ai in range(max(0, lakes)):
        p.areas[3 + ai % 3].lake = 1
    land(st, 0, 2, D.BLUE_BASE)
    act(st, 0, "advertise", ad=ad)
    assert p.funds == gain


def test_paradise_riflebird_adds_two_funds_per_advertisement() -> None:
    """Special bird card (assumed ability): +2 funds per Riflebird after the cap."""
    st, p = _game()
    p.areas[0].birds[HAWK] = 6
    p.areas[0].tree = 1  # 6 Hawks + 1 tree = 7 = the cap
    p.areas[1].birds[RIFLE] = 1
    p.areas[2].birds[RIFLE] = 1
    land(st, 0, 2, D.BLUE_BASE)
    act(st, 0, "advertise", ad="forest")
    assert p.funds == 7 + 4


def test_blue_special_purchase_pays_card_cost_places_anywhere() -> None:
    """Purchase a Special Bird Token: pay the card cost, place in any area."""
    st, p = _game()
    p.funds = 6
    p.employee = emp_index("P1")
    land(st, 0, 2, D.BLUE_BASE)
    offered = {
        (a.arg("bird"), a.arg("area")) for a in ENGINE.legal(st, 0) if a.kind == "buy_special"
    }
    assert ("snowy_owl", 4) in offered  # not next to the Employee, still allowed
    left = st.special_left[OWL - D.NREG]
    act(st, 0, "buy_special", bird="snowy_owl", area=4)
    assert p.funds == 0 and st.special_left[OWL - D.NREG] == left - 1
    assert p.areas[4].birds[OWL] == 1
    assert st.turn.step == "after"


def test_unaffordable_special_bird_not_offered() -> None:
    """If you don't have sufficient funds, you cannot take actions that require payment."""
    st, p = _game()
    p.funds = 4
    land(st, 0, 2, D.BLUE_BASE)
    birds = {a.arg("bird") for a in ENGINE.legal(st, 0) if a.kind == "buy_special"}
    assert birds == {"java_sparrow"}


def test_space_action_purchase_special_bird() -> None:
    """3. Space actions: the Purchase-Special icon repeats the blue chip's purchase."""
    st, p = _game()
    p.funds = 15
    space = next(
        s for s in range(1, 20) if D.ICONS[s] and D.ICONS[s][0] == ("purchase_special_bird", 2)
    )
    land(st, 0, space, SHIM)
    act(st, 0, "move_employee", steps=1)
    act(st, 0, "release_bird")
    act(st, 0, "buy_special", bird="java_sparrow", area=5)
    assert p.funds == 15 - 3  # Event income 1 was lost over the 15 cap
    assert st.turn.space_action_used and "buy_special" not in kinds(st, 0)


# ---------------------------------------------------------------- nests and breeding


def test_nest_holds_two_regular_birds_of_one_type() -> None:
    """Nest Tile: up to 2 birds, both Regular and of the same type."""
    st, p = _game()
    a = p.areas[0]
    a.nest = 1
    a.birds[HAWK] = 1
    a.birds[FLAMINGO] = 1
    a.birds[OWL] = 0
    turn_for(st, 0)
    assert {x.arg("bird") for x in ENGINE.legal(st, 0) if x.kind == "nest_add"} == {
        "hawk",
        "flamingo",
    }
    act(st, 0, "nest_add", area=0, bird="hawk")
    assert find(st, 0, "nest_add", area=0, bird="flamingo") is None
    assert find(st, 0, "nest_add", area=0, bird="hawk") is None  # only one Hawk here
    a2 = p.areas[1]
    a2.nest = 1
    a2.birds[RIFLE] = 1
    assert find(st, 0, "nest_add", area=1, bird="paradise_riflebird") is None


def test_java_sparrow_breeds_with_one_regular_bird() -> None:
    """Special bird card (assumed ability) / AMBIGUITIES 15: a Java Sparrow may share a
    nest with one Regular bird; the egg is of the Regular bird's type."""
    st, p = _game()
    a = p.areas[0]
    a.nest = 1
    a.birds[JAVA] = 1
    a.birds[SWAN] = 1
    turn_for(st, 0)
    act(st, 0, "nest_add", area=0, bird="java_sparrow")
    act(st, 0, "nest_add", area=0, bird="swan")
    space = next(s for s in range(1, 20) if D.ICONS[s] and D.ICONS[s][0] == ("breed", 2))
    st.players[0].track_space = 0
    land(st, 0, space, D.BLUE_BASE)
    act(st, 0, "advertise", ad="forest")
    act(st, 0, "breed")
    assert p.nest_box[SWAN] == 1


def test_egg_marker_stops_at_the_rightmost_space() -> None:
    """How to Collect Eggs: an owned egg type moves the Egg marker; at the end, nothing."""
    st, p = _game()
    from services.skygarden.rules.breeding import breed

    a = p.areas[0]
    a.nest, a.nest_birds = 1, [HAWK, HAWK]
    a.birds[HAWK] = 2
    p.nest_box[HAWK] = 1
    p.egg_marker = D.EGG_MAX - 1
    breed(st, p)
    assert p.egg_marker == D.EGG_MAX
    breed(st, p)
    assert p.egg_marker == D.EGG_MAX


def test_nest_moves_cannot_be_undone_in_the_same_turn() -> None:
    """Place and Remove Bird Tokens on Nest Tiles, kept bounded: within one turn a nest
    may lose birds and then gain birds, but once a bird was put on it, nothing comes off
    it again that turn (no on/off loops for a random bot; any configuration is still
    reachable in one turn)."""
    st, p = _game()
    a = p.areas[0]
    a.nest = 1
    a.birds[SHIM] = 2
    a.birds[HAWK] = 2
    a.nest_birds = [HAWK]
    turn_for(st, 0)
    assert find(st, 0, "nest_add", area=0, bird="hawk") is not None
    act(st, 0, "nest_remove", area=0, bird="hawk")  # change the nest's type: remove ...
    act(st, 0, "nest_add", area=0, bird="shimaenaga")  # ... then add
    assert find(st, 0, "nest_remove", area=0) is None  # no undo this turn
    act(st, 0, "nest_add", area=0, bird="shimaenaga")
    assert find(st, 0, "nest_add", area=0) is None and find(st, 0, "nest_remove", area=0) is None
    assert a.nest_birds == [SHIM, SHIM]
    turn_for(st, 0)  # next turn: removing is allowed again
    act(st, 0, "nest_remove", area=0, bird="shimaenaga")
    act(st, 0, "nest_remove", area=0, bird="shimaenaga")
    assert a.nest_birds == []
    # bound: per area and turn at most NEST_CAP removals then NEST_CAP additions
    turn_for(st, 0)
    ops = 0
    while True:
        legal = [x for x in ENGINE.legal(st, 0) if x.kind in ("nest_add", "nest_remove")]
        if not legal:
            break
        ENGINE.apply(st, 0, legal[-1])
        ops += 1
    assert ops <= 2 * D.NEST_CAP


# ---------------------------------------------------------------- free actions


def test_birds_and_trees_to_the_forest_and_refill_lakes() -> None:
    """Move to the Forest Board and Refill Lakes: any time during your turn; Forest birds
    (special ones too) can then be bought by anyone."""
    st, p = _game()
    p.areas[0].birds[OWL] = 1
    p.areas[0].tree = 1
    p.areas[1].lake = 1
    p.areas[1].birds[HAWK] = 1
    p.areas[1].nest_birds = [HAWK]
    p.areas[1].nest = 1
    turn_for(st, 0)
    trees = st.forest.trees
    act(st, 0, "bird_to_forest", area=0, bird="snowy_owl")
    act(st, 0, "tree_to_forest", area=0)
    act(st, 0, "refill_lake", area=1)
    act(st, 0, "bird_to_forest", area=1, bird="hawk")
    assert st.forest.birds[OWL] == 1 and st.forest.birds[HAWK] == 1
    assert st.forest.trees == trees + 1
    assert p.areas[1].lake == 0 and p.areas[1].nest_birds == []
    assert ENGINE.legal(st, 1) == []  # only during your own turn


def test_forced_adjustment_when_an_area_shrinks() -> None:
    """Move to the Forest / Refill Lakes note: when an area shrinks below its birds, the
    player must adjust at once (birds to the Forest) before anything else."""
    st, p = _game()
    a = p.areas[2]
    a.lake = 1
    a.birds[SWAN] = 1
    a.birds[HAWK] = 1
    a.birds[SHIM] = 1
    turn_for(st, 0)
    act(st, 0, "refill_lake", area=2)
    assert st.turn.pending == [("adjust", 2)]
    legal = ENGINE.legal(st, 0)
    assert {(x.kind, x.arg("area")) for x in legal} == {("bird_to_forest", 2)}
    act(st, 0, "bird_to_forest", area=2, bird="shimaenaga")
    assert st.turn.pending == [("adjust", 2)]  # 5 > 4 still
    act(st, 0, "bird_to_forest", area=2, bird="hawk")
    assert st.turn.pending == []
    assert "move_owner" in kinds(st, 0)


def _cage(st: dict, tile_id: str) -> None:
    st.milestone_tiles = [D.TILE_IDS.index(tile_id)] * 9


def test_milestone_claim_row_bonus_early_tile_to_first_finisher() -> None:
    """Achieve Milestone Tiles / AMBIGUITIES 18-19: a met tile can be claimed once per
    player; completing a row gives the Early Bonus tile to the first finisher, the
    printed regular bonus to later ones; several players may claim the same tile."""
    st, p = _game()
    _cage(st, "C3")  # 7 funds or more
    p.funds = 7
    turn_for(st, 0)
    assert {a.arg("slot") for a in ENGINE.legal(st, 0) if a.kind == "claim_milestone"} == set(
        range(9)
    )
    for slot in (0, 1):
        act(st, 0, "claim_milestone", slot=slot)
    assert p.funds == 7 and p.milestones_achieved == 2
    act(st, 0, "claim_milestone", slot=2)  # row r1 complete: early bonus 4 funds
    assert p.funds == 11
    assert st.early_bonus_left[D.LINE_NAMES.index("r1")] is False
    assert find(st, 0, "claim_milestone", slot=2) is None
    q = st.players[1]
    blank(q)
    q.funds = 7
    turn_for(st, 1)
    for slot in (0, 1, 2):
        act(st, 1, "claim_milestone", slot=slot)
    assert q.funds == 9  # regular bonus: 2 funds
    assert st.milestone_claims[0] == [0, 1]


def test_milestone_claim_may_be_delayed() -> None:
    """Achieve Milestone Tiles: you may choose not to claim a met tile (no bonus yet)
    and claim it later; once claimed the condition need not hold."""
    st, p = _game()
    _cage(st, "C3")
    p.funds = 8
    turn_for(st, 0)
    act(st, 0, "claim_milestone", slot=0)
    act(st, 0, "claim_milestone", slot=1)
    assert p.funds == 8  # row not complete: nothing yet
    p.funds = 3
    turn_for(st, 0)
    assert find(st, 0, "claim_milestone", slot=2) is None  # condition no longer met
    p.funds = 7
    act(st, 0, "claim_milestone", slot=2)
    assert p.funds == 11
    assert p.milestones_achieved == 3


@pytest.mark.parametrize(
    ("slots", "line"),
    [((0, 3, 6), "c1"), ((1, 4, 7), "c2"), ((2, 5, 8), "c3"), ((3, 4, 5), "r2"), ((6, 7, 8), "r3")],
)
def test_every_line_bonus(slots: tuple[int, ...], line: str) -> None:
    """Bonuses for Achieving Milestones: each row/column gives its bonus (early first)."""
    st, p = _game()
    _cage(st, "C3")
    p.funds = 15
    turn_for(st, 0)
    for slot in slots:
        act(st, 0, "claim_milestone", slot=slot)
    pending = st.turn.pending
    if line == "c1":  # early: 2 tree/lake/nest anywhere
        assert pending == [("elements", 2)]
        act(st, 0, "bonus_element", element="tree", area=4)
        act(st, 0, "bonus_element", element="nest", area=4)
        assert p.areas[4].tree == 1 and p.areas[4].nest == 1 and pending == []
    elif line == "c2":  # early: golden egg
        assert p.nest_box[D.GOLDEN] == 1 and pending == []
    elif line == "c3":  # early: Egg marker +2
        assert p.egg_marker == 2
    elif line == "r2":  # early: special bird at -3
        assert pending == [("special", 3)]
        act(st, 0, "buy_special", bird="snowy_owl", area=3)
        assert p.funds == 15 - 3
    else:  # r3: bonus bird (no early tile)
        assert pending == [("bonus_bird", 1)]
        act(st, 0, "bonus_bird", bird="swan", area=5)
        assert p.areas[5].birds[SWAN] == 1 and st.bonus_birds[SWAN] == 0
        assert "swan" not in ENGINE.view(st, None)["bonus_birds"]


def test_regular_line_bonuses_after_the_early_tile_is_gone() -> None:
    """Regular bonus tiles: 1 element, an egg of your choice, Egg marker +1, special -1."""
    st, p = _game()
    _cage(st, "C3")
    for li in range(len(st.early_bonus_left)):
        st.early_bonus_left[li] = False
    p.funds = 15
    turn_for(st, 0)
    for slot in (0, 3, 6):
        act(st, 0, "claim_milestone", slot=slot)
    assert st.turn.pending == [("elements", 1)]
    act(st, 0, "bonus_element", element="lake", area=0)
    assert p.areas[0].lake == 1 and st.turn.pending == []
    for slot in (1, 4, 7):
        act(st, 0, "claim_milestone", slot=slot)
    assert st.turn.pending == [("egg", 1)]
    eggs = {a.arg("bird") for a in ENGINE.legal(st, 0)}
    assert eggs == set(D.REG)  # a bird icon, never the golden one
    act(st, 0, "bonus_egg", bird="flamingo")
    assert p.nest_box[FLAMINGO] == 1
    p.funds = 14
    act(st, 0, "claim_milestone", slot=2)  # r1: 2 funds, the excess over 15 is lost
    assert p.funds == 15
    act(st, 0, "claim_milestone", slot=5)  # r2: a special bird at -1, optional
    assert st.turn.pending == [("special", 1)]
    assert find(st, 0, "buy_special", bird="java_sparrow", area=0).label.startswith(
        "Buy a Java Sparrow for 2 funds"
    )
    act(st, 0, "skip_bonus")
    act(st, 0, "claim_milestone", slot=8)  # c3: Egg marker +1; r3: a bonus bird
    assert p.egg_marker == 1
    assert st.turn.pending == [("bonus_bird", 1)]
    assert "skip_bonus" not in kinds(st, 0)
    act(st, 0, "bonus_bird", bird="hawk", area=2)
    assert p.milestones_achieved == 9 and st.turn.pending == []
    assert ENGINE.score(st).seats[0].categories["milestones"] == D.MILESTONE_VP[9]


def test_milestone_conditions_of_every_kind() -> None:
    """Appendix: Milestone tiles (A/B: birds in all areas or one area; C: elements,
    funds, Egg marker; D: special birds)."""
    from services.skygarden.rules.milestones import tile_ok

    _st, p = _game()
    t = D.TILE_IDS.index
    assert not tile_ok(p, t("A1"))
    p.areas[0].birds[SHIM] = 2
    p.areas[5].birds[SHIM] = 1
    assert tile_ok(p, t("A1"))
    assert not tile_ok(p, t("A3"))
    p.areas[5].birds[HAWK] = 1
    assert tile_ok(p, t("A3"))  # Shimaenaga + Hawk in one area
    p.areas[0].nest = p.areas[1].nest = 1
    assert not tile_ok(p, t("C1"))
    p.areas[2].nest = 1
    assert tile_ok(p, t("C1"))
    p.egg_marker = 6
    assert tile_ok(p, t("C4"))
    p.areas[3].birds[JAVA] = 1
    assert not tile_ok(p, t("D1")) and not tile_ok(p, t("D2"))
    p.areas[5].birds[OWL] = 1
    assert tile_ok(p, t("D1")) and tile_ok(p, t("D2"))
