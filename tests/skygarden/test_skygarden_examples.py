"""The rulebook's worked examples, with their numbers."""

from __future__ import annotations

from skygarden_helpers import (
    FLAMINGO,
    HAWK,
    SHIM,
    SWAN,
    TOUCAN,
    WWE,
    act,
    blank,
    emp_index,
    find,
    land,
    set_event,
    started,
    turn_for,
)

from services.skygarden.rules import data as D
from services.skygarden.rules.aviary import capacity, fits, used


def test_example_placement_rules_two_hawks_flamingo_nest_lake() -> None:
    """Placement Rules example: 2 Hawks + 1 Flamingo + Nest + lake = size 6 in an area of 6."""
    st = started(3)
    p = st.players[0]
    blank(p)
    a = p.areas[0]
    a.nest = 1
    a.lake = 1
    a.birds[HAWK] = 2
    a.birds[FLAMINGO] = 1
    assert used(a) == 6
    assert capacity(a) == 6  # 4 + 2 for the lake
    assert not fits(a, SHIM)  # a 7th size would break the rule
    a.lake = 0
    assert capacity(a) == 4 and used(a) > capacity(a)


def test_example_breed_two_shimaenaga_eggs_and_one_toucan_egg() -> None:
    """Breed example: 4 nest areas (2 with 2 Shimaenaga, 1 with 2 Toucans, 1 unmatched);
    no Shimaenaga egg yet, a Toucan egg already: a token on Shimaenaga and the Egg
    marker +2."""
    st = started(3)
    p = st.players[0]
    blank(p)
    areas = p.areas
    for ai, pair in ((0, [SHIM, SHIM]), (1, [SHIM, SHIM]), (2, [TOUCAN, TOUCAN]), (3, [HAWK])):
        areas[ai].nest = 1
        for bird in pair:
            areas[ai].birds[bird] += 1
        areas[ai].nest_birds = list(pair)
    areas[3].birds[FLAMINGO] += 1  # unmatched: a Hawk and a Flamingo, one on the nest
    p.nest_box[TOUCAN] = 1
    space = next(s for s in range(1, 20) if "breed" in [i for i, _ in D.ICONS[s]])
    land(st, 0, space, D.BLUE_BASE)
    act(st, 0, "advertise", ad="forest")
    eggs_before = st.egg_supply
    act(st, 0, "breed")
    assert p.nest_box[SHIM] == 1 and p.nest_box[TOUCAN] == 1
    assert sum(p.nest_box) == 2
    assert p.egg_marker == 2
    assert st.egg_supply == eggs_before - 1
    # the nests and their birds stay
    assert areas[0].nest_birds == [SHIM, SHIM] and areas[2].nest_birds == [TOUCAN, TOUCAN]


def test_example_event_income_two_sets_give_three_funds() -> None:
    """Events example: White-Eye + Hawk card, 2 White-Eyes in the upper and 2 Hawks in the
    lower Event area = 2 sets; passing the Event icon gives 3 funds at once."""
    st = started(3)
    p = st.players[0]
    blank(p)
    set_event(p, "E2")
    assert D.EVENT_BIRDS[p.event_card] == (WWE, HAWK)
    upper, lower = D.EVENT_AREAS
    p.areas[upper].birds[WWE] = 2
    p.areas[lower].birds[HAWK] = 2
    p.funds = 2
    land(st, 0, 1, SHIM, emp=emp_index("P6"))
    act(st, 0, "move_employee", steps=1)
    assert p.funds == 2 + 3


def test_example_rare_bird_advertisement_one_swan_one_toucan_gives_two() -> None:
    """Advertisement example: Rare Bird with 1 Swan and 1 Toucan = 1 x 1 x 2 = 2 funds."""
    st = started(3)
    p = st.players[0]
    blank(p)
    p.areas[0].birds[SWAN] = 1
    p.areas[4].birds[TOUCAN] = 1
    p.funds = 0
    land(st, 0, 2, D.BLUE_BASE)
    act(st, 0, "advertise", ad="rare_bird")
    assert p.funds == 2


def test_example_additional_purchases_lake_then_area_then_hawk() -> None:
    """Additional Purchases example: a Flamingo with no room; pay 2 to uncover a lake,
    place it; pay 4 for the Additional Area; pay 2 for a Forest Hawk placed there."""
    st = started(3)
    p = st.players[0]
    blank(p)
    turn_for(st, 0)
    p.employee = emp_index("P6")
    target = D.EMP_ADJ[emp_index("P1")][0]  # an area next to P1
    p.areas[target].birds[HAWK] = 2  # full: size 4 of 4
    st.forest.birds[HAWK] = 1
    p.funds = 10
    set_event(p, "E7")  # Hawk + Swan: no sets, so the Event pays 1 fund
    land(st, 0, 3, FLAMINGO)
    act(st, 0, "move_employee", steps=1)
    assert p.funds == 11
    assert find(st, 0, "place_bird", area=target) is None  # no room yet
    act(st, 0, "buy_lake", area=target)
    act(st, 0, "place_bird", area=target)
    act(st, 0, "buy_additional_area", side="lake")
    act(st, 0, "buy_forest_bird", bird="hawk", area=D.AX)
    assert p.funds == 11 - 2 - 4 - 2
    assert p.areas[target].birds[FLAMINGO] == 1 and p.areas[target].lake == 1
    assert p.areas[D.AX].birds[HAWK] == 1 and p.additional_area == "lake"
