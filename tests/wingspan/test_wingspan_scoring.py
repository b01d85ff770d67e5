"""Every bonus card and every round goal (green and blue sides).

Summary sections: 得点計算, ヴァリアント/目標ボード; data: bonus_cards.json, goals.json.
"""

from __future__ import annotations

import pytest
from wingspan_helpers import fresh, put

from services.wingspan.rules import cards
from services.wingspan.rules.cards import (
    BONUS_ELIG,
    BONUS_NAME,
    BONUS_STATIC,
    COST,
    FLOCKING,
    GOAL_CAT,
    GOAL_PARAM,
    HABS,
    LIMIT,
    N_BASE,
    NB,
    NBONUS,
    NEST,
    NGOALS,
    PREDATOR,
    VP,
    WILD,
    WINGSPAN,
)
from services.wingspan.rules.scoring import (
    blue_points,
    bonus_count,
    bonus_points,
    goal_count,
    green_points,
    score_round_goal,
)

# ---------------------------------------------------------------- bonus cards
_RECOMPUTE = {
    "Backyard Birder": lambda b: VP[b] < 4,
    "Bird Counter": lambda b: FLOCKING[b],
    "Bird Feeder": lambda b: COST[b][1] > 0,
    "Enclosure Builder": lambda b: NEST[b] in (2, 4),
    "Falconer": lambda b: PREDATOR[b],
    "Fishery Manager": lambda b: COST[b][2] > 0,
    "Food Web Expert": lambda b: COST[b][0] > 0 and sum(COST[b]) == COST[b][0] and not WILD[b],
    "Forester": lambda b: HABS[b] == (0,),
    "Large Bird Specialist": lambda b: WINGSPAN[b] > 65,
    "Nest Box Builder": lambda b: NEST[b] in (1, 4),
    "Omnivore Specialist": lambda b: WILD[b] > 0,
    "Passerine Specialist": lambda b: WINGSPAN[b] <= 30,
    "Platform Builder": lambda b: NEST[b] in (3, 4),
    "Prairie Manager": lambda b: HABS[b] == (1,),
    "Rodentologist": lambda b: COST[b][4] > 0,
    "Viticulturalist": lambda b: COST[b][3] > 0,
    "Wetland Scientist": lambda b: HABS[b] == (2,),
    "Wildlife Gardener": lambda b: NEST[b] in (0, 4),
}


@pytest.mark.parametrize("name", sorted(_RECOMPUTE))
def test_static_bonus_eligibility_matches_card_fields(name):
    k = BONUS_NAME.index(name)
    for b in range(NB):
        assert BONUS_ELIG[k][b] == bool(_RECOMPUTE[name](b)), cards.NAME[b]


def _place_many(s, seat, birds):
    """Put birds on a board, each in a habitat it allows that still has room."""
    for b in birds:
        h = next(h for h in HABS[b] if len(s.rows[seat][h]) < 5)
        put(s, seat, b, h)


#: Hand-worked points of each static bonus card for a board holding ``count`` of
#: its birds, read off the printed cards ("2-3 birds: 3, 4+ birds: 7" pays 0 for
#: 0-1 birds, 3 for 2-3 and 7 for 4 or more; "2 per bird" pays twice the count).
#: A count appears only where the board can hold that many (Forester, Prairie
#: Manager and Wetland Scientist birds live in one habitat: 5 at most).
PRINTED_POINTS: dict[str, dict[int, int]] = {
    # "2-3 birds: 3 / 4+ birds: 7"
    "Anatomist": {0: 0, 1: 0, 2: 3, 3: 3, 4: 7, 6: 7},
    "Cartographer": {0: 0, 1: 0, 2: 3, 3: 3, 4: 7, 6: 7},
    "Viticulturalist": {0: 0, 1: 0, 2: 3, 3: 3, 4: 7, 6: 7},
    # "2-3 birds: 3 / 4+ birds: 8"
    "Fishery Manager": {0: 0, 1: 0, 2: 3, 3: 3, 4: 8, 6: 8},
    "Prairie Manager": {0: 0, 1: 0, 2: 3, 3: 3, 4: 8, 5: 8},
    # "3-4 birds: 4 / 5 birds: 8"
    "Forester": {0: 0, 2: 0, 3: 4, 4: 4, 5: 8},
    # "3-4 birds: 3 / 5 birds: 7"
    "Wetland Scientist": {0: 0, 2: 0, 3: 3, 4: 3, 5: 7},
    # "4-5 birds: 3 / 6+ birds: 6"
    "Large Bird Specialist": {0: 0, 3: 0, 4: 3, 5: 3, 6: 6, 8: 6},
    "Passerine Specialist": {0: 0, 3: 0, 4: 3, 5: 3, 6: 6, 8: 6},
    "Photographer": {0: 0, 3: 0, 4: 3, 5: 3, 6: 6, 8: 6},
    # "4-5 birds: 4 / 6+ birds: 7"
    "Enclosure Builder": {0: 0, 3: 0, 4: 4, 5: 4, 6: 7, 8: 7},
    "Nest Box Builder": {0: 0, 3: 0, 4: 4, 5: 4, 6: 7, 8: 7},
    "Platform Builder": {0: 0, 3: 0, 4: 4, 5: 4, 6: 7, 8: 7},
    "Wildlife Gardener": {0: 0, 3: 0, 4: 4, 5: 4, 6: 7, 8: 7},
    # "5-6 birds: 3 / 7+ birds: 6"
    "Backyard Birder": {0: 0, 4: 0, 5: 3, 6: 3, 7: 6, 9: 6},
    # "5-7 birds: 3 / 8+ birds: 7"
    "Bird Feeder": {0: 0, 4: 0, 5: 3, 7: 3, 8: 7, 10: 7},
    # "2 per bird"
    "Bird Counter": {0: 0, 1: 2, 3: 6, 5: 10},
    "Falconer": {0: 0, 1: 2, 3: 6, 5: 10},
    "Food Web Expert": {0: 0, 1: 2, 3: 6, 5: 10},
    "Historian": {0: 0, 1: 2, 3: 6, 5: 10},
    "Omnivore Specialist": {0: 0, 1: 2, 3: 6, 5: 10},
    "Rodentologist": {0: 0, 1: 2, 3: 6, 5: 10},
}

STATIC = [BONUS_NAME[k] for k in range(NBONUS) if BONUS_STATIC[k]]


def test_every_static_card_has_hand_worked_points():
    assert sorted(PRINTED_POINTS) == sorted(STATIC)


def _board_with(k: int, count: int):
    """A fresh board holding ``count`` birds that count for static card ``k`` and
    one that does not, with ``k`` as seat 0's only bonus card."""
    elig = [b for b in range(N_BASE) if BONUS_ELIG[k][b]]
    other = [b for b in range(N_BASE) if not BONUS_ELIG[k][b]]
    s = fresh()
    chosen = []
    room = {0: 5, 1: 5, 2: 5}
    for b in elig:
        if len(chosen) == count:
            break
        h = next((h for h in HABS[b] if room[h]), None)
        if h is not None:
            room[h] -= 1
            chosen.append(b)
    assert len(chosen) == count, "the board cannot hold that many"
    _place_many(s, 0, chosen)
    filler = next(b for b in other if any(len(s.rows[0][h]) < 5 for h in HABS[b]))
    _place_many(s, 0, [filler])
    s.bonus_cards[0] = [k]
    return s


@pytest.mark.parametrize("name", STATIC)
def test_static_bonus_card_scoring(name):
    """Each static card pays what its printed ladder says for the birds that count:
    the highest tier reached, or so much per bird; below the first tier, 0."""
    from services.wingspan.rules import ENGINE

    k = BONUS_NAME.index(name)
    for count, points in PRINTED_POINTS[name].items():
        s = _board_with(k, count)
        assert bonus_count(s, 0, k) == count
        assert bonus_points(k, count) == points, (name, count)
        s.phase = 2
        assert ENGINE.score(s).seats[0].categories["bonus_cards"] == points, (name, count)


def test_an_end_position_worked_by_hand():
    """A whole score sheet (rulebook, End of game: birds, bonus cards, end-of-round
    goals, eggs, food on cards, tucked cards), worked out from the printed cards.

    Forest: Barn Owl (5 points, 1 egg, 2 cached rodents), American Robin (1 point,
    flocking, 2 tucked cards). Grassland: Canada Goose (3 points, flocking,
    2 eggs, 4 tucked cards). Wetland: Bald Eagle (9 points, 1 egg), Mallard
    (0 points, 3 eggs). Bonus card Bird Counter, "2 per bird with a flocking
    power": the Robin and the Goose, 4. No round goal scored.
    Birds 5 + 1 + 3 + 9 + 0 = 18; eggs 1 + 2 + 1 + 3 = 7; food 2; tucked 2 + 4 = 6.
    """
    from services.wingspan.rules import ENGINE

    s = fresh()
    owl = put(s, 0, "Barn Owl", "forest", eggs=1)
    robin = put(s, 0, "American Robin", "forest")
    goose = put(s, 0, "Canada Goose", "grassland", eggs=2)
    put(s, 0, "Bald Eagle", "wetland", eggs=1)
    put(s, 0, "Mallard", "wetland", eggs=3)
    s.cached_food[owl] = 2
    s.tucked[robin] = 2
    s.tucked[goose] = 4
    s.bonus_cards[0] = [BONUS_NAME.index("Bird Counter")]
    s.phase = 2
    sheet = ENGINE.score(s).seats[0]
    assert sheet.categories == {
        "birds": 18,
        "bonus_cards": 4,
        "goals": 0,
        "eggs": 7,
        "cached_food": 2,
        "tucked_cards": 6,
    }
    assert sheet.total == 37


def test_bonus_tier_examples():
    """Printed ladders, e.g. Backyard Birder 5-6: 3, 7+: 6; Forester 3-4: 4, 5: 8."""
    bb = BONUS_NAME.index("Backyard Birder")
    assert [bonus_points(bb, c) for c in (4, 5, 6, 7, 9)] == [0, 3, 3, 6, 6]
    fo = BONUS_NAME.index("Forester")
    assert [bonus_points(fo, c) for c in (2, 3, 4, 5)] == [0, 4, 4, 8]
    bc = BONUS_NAME.index("Bird Counter")
    assert bonus_points(bc, 3) == 6


def test_breeding_manager():
    """Birds with at least 4 eggs: 1 point each."""
    k = BONUS_NAME.index("Breeding Manager")
    s = fresh()
    big = [b for b in range(N_BASE) if LIMIT[b] >= 4][:3]
    for i, b in enumerate(big):
        put(s, 0, b, HABS[b][0], eggs=3 + i)  # 3, 4, 5 eggs
    assert bonus_count(s, 0, k) == 2 and bonus_points(k, 2) == 2


def test_oologist():
    """Birds with at least 1 egg: 7-8 birds: 3, 9+: 6."""
    k = BONUS_NAME.index("Oologist")
    s = fresh()
    birds = [b for b in range(N_BASE) if LIMIT[b] >= 1][:10]
    _place_many(s, 0, birds)
    for b in birds[:9]:
        s.eggs[b] = 1
    assert bonus_count(s, 0, k) == 9
    assert [bonus_points(k, c) for c in (6, 7, 8, 9)] == [0, 3, 3, 6]


def test_ecologist():
    """Birds in your habitat with the fewest birds: 2 points each."""
    k = BONUS_NAME.index("Ecologist")
    s = fresh()
    forest = [b for b in range(N_BASE) if HABS[b] == (0,)][:3]
    grass = [b for b in range(N_BASE) if HABS[b] == (1,)][:2]
    wet = [b for b in range(N_BASE) if HABS[b] == (2,)][:4]
    _place_many(s, 0, forest + grass + wet)
    assert bonus_count(s, 0, k) == 2 and bonus_points(k, 2) == 4


def test_visionary_leader():
    """Bird cards in hand at game end: 5-7: 4, 8+: 7."""
    k = BONUS_NAME.index("Visionary Leader")
    s = fresh()
    s.hands[0] = list(range(8))
    assert bonus_count(s, 0, k) == 8
    assert [bonus_points(k, c) for c in (4, 5, 7, 8)] == [0, 4, 4, 7]


def test_every_bonus_card_is_covered():
    runtime = {"Breeding Manager", "Oologist", "Ecologist", "Visionary Leader"}
    assert set(STATIC) | runtime == set(BONUS_NAME) and len(BONUS_NAME) == 26


# ---------------------------------------------------------------------- goals
def _board_for_goal(s, seat, g, amount):
    """Give ``seat`` a board on which goal ``g`` counts ``amount``."""
    cat, p = GOAL_CAT[g], GOAL_PARAM[g]
    used = {b for rows in s.rows for row in rows for b in row}
    big = [
        b for b in range(N_BASE) if LIMIT[b] >= 4 and cards.COLOR[b] != cards.PINK and b not in used
    ]
    if cat in (cards.G_BIRDS_HAB, cards.G_EGGS_HAB):
        pool = [b for b in big if p in HABS[b]]
        if cat == cards.G_BIRDS_HAB:
            for b in pool[:amount]:
                put(s, seat, b, p)
        else:
            b = pool[0]
            put(s, seat, b, p)
            s.eggs[b] = amount
    elif cat == cards.G_TOTAL_BIRDS:
        _place_many(s, seat, big[:amount])
    elif cat == cards.G_EGG_SETS:
        for h in range(3):
            for k in range(2):  # two birds per habitat: up to 8 eggs each row
                b = next(x for x in big if h in HABS[x] and x not in used)
                used.add(b)
                put(s, seat, b, h)
                s.eggs[b] = min(4, amount + h) if k == 0 else max(0, amount + h - 4)
    else:
        ok = cards.NEST_OK[p]
        pool = [b for b in range(N_BASE) if ok[b] and LIMIT[b] >= 2 and b not in used]
        wrong = next(b for b in big if not ok[b])
        if cat == cards.G_NEST_WITH_EGG:
            _place_many(s, seat, pool[: amount + 1])
            for b in pool[:amount]:
                s.eggs[b] = 2
        else:
            _place_many(s, seat, pool[:2])
            s.eggs[pool[0]] = min(amount, 4)
            s.eggs[pool[1]] = amount - min(amount, 4)
        _place_many(s, seat, [wrong])
        s.eggs[wrong] = 3  # never counts


@pytest.mark.parametrize("g", range(NGOALS), ids=[cards.GOAL_NAME[g] for g in range(NGOALS)])
@pytest.mark.parametrize("side", ["green", "blue"])
def test_every_goal_on_both_sides(g, side):
    """Counts 3, 1, 0, 6 for seats 0..3 in round 2 (index 1)."""
    s = fresh(4, 2, goal_side=side)
    amounts = [3, 1, 0, 6]
    for seat, amount in enumerate(amounts):
        _board_for_goal(s, seat, g, amount)
    assert [goal_count(s, p, g) for p in range(4)] == amounts
    s.goals[1] = g
    score_round_goal(s, 1)
    if side == "green":  # round 2: 5 / 2 / 1
        assert s.goal_points[1] == [2, 1, 0, 5]
    else:
        assert s.goal_points[1] == [3, 1, 0, 5]


def test_green_ties_split_rounded_down():
    """Summary example: two tied firsts on 6/3 places get (6+3)//2 = 4 each."""
    assert green_points([4, 4, 1], 2) == [4, 4, 2]
    # next player after a tie takes the following place
    assert green_points([4, 4, 1, 1], 3) == [5, 5, 1, 1]  # (7+4)//2, (3+0)//2
    assert green_points([2, 2, 2], 0) == [1, 1, 1]  # (4+1+0)//3
    # zero scores nothing and takes no place
    assert green_points([0, 0], 3) == [0, 0]
    assert green_points([0, 3, 0, 0, 1], 0) == [0, 4, 0, 0, 1]
    # fourth place and below score nothing
    assert green_points([5, 4, 3, 2, 1], 3) == [7, 4, 3, 0, 0]


def test_blue_one_point_per_item_up_to_five():
    assert blue_points([0, 2, 5, 9]) == [0, 2, 5, 5]


def test_goal_counts_wild_nests():
    """Star nests count as every nest type (補足/巣のタイプ)."""
    s = fresh()
    star = next(b for b in range(N_BASE) if NEST[b] == cards.WILD_NEST and LIMIT[b] >= 2)
    put(s, 0, star, HABS[star][0], eggs=2)
    for g in range(NGOALS):
        if GOAL_CAT[g] == cards.G_EGGS_NEST:
            assert goal_count(s, 0, g) == 2
        if GOAL_CAT[g] == cards.G_NEST_WITH_EGG:
            assert goal_count(s, 0, g) == 1
