"""Round goals, bonus cards and the score sheet."""

from __future__ import annotations

from services.core.engine.contract import ScoreBoard, SeatScore

from .cards import (
    BLUE_MAX,
    BONUS_ELIG,
    BONUS_PER_BIRD,
    BONUS_STATIC,
    BONUS_TIERS,
    G_BIRDS_HAB,
    G_EGG_SETS,
    G_EGGS_HAB,
    G_EGGS_NEST,
    G_NEST_WITH_EGG,
    G_TOTAL_BIRDS,
    GOAL_CAT,
    GOAL_PARAM,
    GREEN_POINTS,
    NEST_OK,
    RUNTIME_BREEDING,
    RUNTIME_ECOLOGIST,
    RUNTIME_OOLOGIST,
    RUNTIME_VISIONARY,
    VP,
)

CATEGORIES = ("birds", "bonus_cards", "goals", "eggs", "cached_food", "tucked_cards")


def goal_count(s, seat: int, g: int) -> int:
    """What goal ``g`` counts for ``seat`` now (goals.json ``counts``).

    Summary 目標ボード."""
    rows = s.rows[seat]
    eggs = s.eggs
    cat = GOAL_CAT[g]
    p = GOAL_PARAM[g]
    if cat == G_BIRDS_HAB:
        return len(rows[p])
    if cat == G_EGGS_HAB:
        return sum(eggs[b] for b in rows[p])
    if cat == G_TOTAL_BIRDS:
        return len(rows[0]) + len(rows[1]) + len(rows[2])
    if cat == G_EGG_SETS:
        return min(sum(eggs[b] for b in row) for row in rows)
    ok = NEST_OK[p]
    if cat == G_NEST_WITH_EGG:
        return sum(1 for row in rows for b in row if ok[b] and eggs[b])
    if cat == G_EGGS_NEST:
        return sum(eggs[b] for row in rows for b in row if ok[b])
    raise ValueError(cat)


def green_points(counts: list[int], rnd: int) -> list[int]:
    """Green side: rank by count; tied players add the points of the places
    they cover and split them rounding down; a count of 0 scores nothing and
    takes no place (summary: ヴァリアント/目標ボード).

    Summary 得点計算 and 目標ボード."""
    table = GREEN_POINTS[rnd]
    pts = [0] * len(counts)
    ranked = sorted((c for c in set(counts) if c > 0), reverse=True)
    place = 0
    for c in ranked:
        tied = [i for i, x in enumerate(counts) if x == c]
        total = sum(table[p] for p in range(place, place + len(tied)) if p < len(table))
        for i in tied:
            pts[i] = total // len(tied)
        place += len(tied)
    return pts


def blue_points(counts: list[int]) -> list[int]:
    """Blue side: one point per item, at most 5 per round.

    Summary 目標ボード (ヴァリアント)."""
    return [min(c, BLUE_MAX) for c in counts]


def score_round_goal(s, rnd: int) -> None:
    """Summary ラウンド終了時の処理: rank the round's goal and record the points of each seat."""
    g = s.goals[rnd]
    counts = [goal_count(s, p, g) for p in range(s.players)]
    s.goal_counts[rnd] = counts
    if s.options["goal_side"] == "blue":
        s.goal_points[rnd] = blue_points(counts)
    else:
        s.goal_points[rnd] = green_points(counts, rnd)


def bonus_count(s, seat: int, k: int) -> int:
    """How many birds (or cards) bonus card ``k`` counts for ``seat``.

    Summary 得点計算 (bonus cards)."""
    rows = s.rows[seat]
    if BONUS_STATIC[k]:
        elig = BONUS_ELIG[k]
        return sum(1 for row in rows for b in row if elig[b])
    eggs = s.eggs
    if k == RUNTIME_BREEDING:
        return sum(1 for row in rows for b in row if eggs[b] >= 4)
    if k == RUNTIME_OOLOGIST:
        return sum(1 for row in rows for b in row if eggs[b] >= 1)
    if k == RUNTIME_ECOLOGIST:
        return min(len(row) for row in rows)
    if k == RUNTIME_VISIONARY:
        return len(s.hands[seat])
    raise ValueError(k)


def bonus_points(k: int, count: int) -> int:
    """Per-bird cards pay for each bird; tiered cards pay the highest tier
    reached (below the first tier: nothing).

    Summary 得点計算 (bonus cards)."""
    if BONUS_PER_BIRD[k]:
        return BONUS_PER_BIRD[k] * count
    pts = 0
    for low, p in BONUS_TIERS[k]:
        if count >= low:
            pts = p
    return pts


def seat_categories(s, seat: int) -> dict[str, int]:
    """Summary 得点計算: birds, bonus cards, goals, eggs, cached food, tucked cards."""
    rows = s.rows[seat]
    birds = [b for row in rows for b in row]
    goals = sum(r[seat] for r in s.goal_points if r)
    return {
        "birds": sum(VP[b] for b in birds),
        "bonus_cards": sum(bonus_points(k, bonus_count(s, seat, k)) for k in s.bonus_cards[seat]),
        "goals": goals,
        "eggs": sum(s.eggs[b] for b in birds),
        "cached_food": sum(s.cached_food[b] for b in birds),
        "tucked_cards": sum(s.tucked[b] for b in birds),
    }


def scoreboard(s, final: bool) -> ScoreBoard:
    """Summary 得点計算: ties are broken by the food left."""
    seats = []
    for p in range(s.players):
        cats = seat_categories(s, p)
        seats.append(
            SeatScore(
                seat=p,
                total=sum(cats.values()),
                categories=cats,
                tiebreak=(sum(s.food[p]),),
            )
        )
    return ScoreBoard(seats=seats, final=final).rank_seats()
