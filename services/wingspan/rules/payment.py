"""Paying for a bird: food affordability, the payments, the egg cost."""

from __future__ import annotations

from .acts import (
    PLAY,
    pay_food,
)
from .caches import KEPT
from .cards import (
    COST,
    HABS,
    MODE,
    MODE_NONE,
    MODE_OR,
    NB,
    WILD,
)
from .state import (
    EGG_COST,
    State,
)
from .tasks import PayEgg, PayFood, PlaceBird


def food_sig(f: list[int]) -> int:
    """The food counts, each capped at 6, packed in 15 bits (enough to decide
    affordability and list payments: no payment uses more than 6 of a type).

    Summary 餌コスト."""
    a, b, c, d, e = f
    return (
        (a if a < 6 else 6)
        | (b if b < 6 else 6) << 3
        | (c if c < 6 else 6) << 6
        | (d if d < 6 else 6) << 9
        | (e if e < 6 else 6) << 12
    )


def _sig_counts(sig: int) -> list[int]:
    """The food counts packed by :func:`food_sig` (summary 餌コスト)."""
    return [(sig >> (3 * i)) & 7 for i in range(5)]


def affordable(b: int, have: list[int]) -> bool:
    """Can food ``have`` pay bird ``b``? Two tokens of any food may stand in for
    one required food that the player lacks (summary: 餌コスト)."""
    mode = MODE[b]
    if mode == MODE_NONE:
        return True
    cost = COST[b]
    if mode == MODE_OR:
        for f in range(5):
            if cost[f] and have[f]:
                return True
        return sum(have) >= 2
    used = deficit = 0
    for f in range(5):
        r = cost[f]
        if r:
            u = r if have[f] >= r else have[f]
            used += u
            deficit += r - u
    return sum(have) - used >= WILD[b] + 2 * deficit


_AFF: dict[int, bytearray] = {}


def aff_table(sig: int) -> bytearray:
    """Per food signature: 1 affordable, 0 not, 2 not computed yet.

    Summary 餌コスト (memo of :func:`affordable`)."""
    t = _AFF.get(sig)
    if t is None:
        t = bytearray(b"\x02" * NB)
        _AFF[sig] = t
    return t


def can_afford(t: bytearray, sig: int, b: int) -> int:
    """Affordability of bird ``b`` from table ``t`` of signature ``sig``, computed on first use
    (summary 餌コスト)."""
    if not KEPT["afford"]:
        return 1 if affordable(b, _sig_counts(sig)) else 0
    v = t[b]
    if v == 2:
        v = 1 if affordable(b, _sig_counts(sig)) else 0
        t[b] = v
    return v


def _multisets(pool: list[int], k: int, start: int = 0) -> list[list[int]]:
    """All ways to take ``k`` tokens from ``pool`` (counts per food).

    Summary 餌コスト (the any-two-for-one substitutions)."""
    if k == 0:
        return [[0] * 5]
    out = []
    for f in range(start, 5):
        if pool[f]:
            pool[f] -= 1
            for rest in _multisets(pool, k - 1, f):
                rest[f] += 1
                out.append(rest)
            pool[f] += 1
    return out


def payments(b: int, have: list[int]) -> list[tuple[int, ...]]:
    """Every distinct way (counts of the five foods) to pay bird ``b``.

    Summary 餌コスト: the printed cost, with any two food for one that is lacking."""
    mode = MODE[b]
    cost = COST[b]
    out: set[tuple[int, ...]] = set()
    if mode == MODE_NONE:
        return [(0, 0, 0, 0, 0)]
    if mode == MODE_OR:
        for f in range(5):
            if cost[f] and have[f]:
                p = [0] * 5
                p[f] = 1
                out.add(tuple(p))
        if not out:
            for m in _multisets(list(have), 2):
                out.add(tuple(m))
        return sorted(out)
    forced = [0] * 5
    deficit = 0
    for f in range(5):
        r = cost[f]
        if r:
            u = r if have[f] >= r else have[f]
            forced[f] = u
            deficit += r - u
    pool = [have[f] - forced[f] for f in range(5)]
    k = WILD[b] + 2 * deficit
    for m in _multisets(pool, k):
        out.add(tuple(forced[f] + m[f] for f in range(5)))
    return sorted(out)


def pay_acts(b: int, sig: int) -> tuple:
    """The ``pay_food`` actions of :func:`payments` for bird ``b`` and food signature
    ``sig`` (summary 餌コスト)."""
    return tuple(pay_food(p) for p in payments(b, _sig_counts(sig)))


def start_play(s: State, seat: int, b: int, h: int) -> None:
    """Put the costs of playing bird ``b`` into habitat ``h`` on the stack.

    Summary 手札の鳥カードをプレイする: food cost first, then the egg cost of the column, then
    the bird is
    placed."""
    s.hands[seat].remove(b)
    stack = s.stack
    stack.append(PlaceBird(seat, b, h))
    ec = EGG_COST[len(s.rows[seat][h])]
    if ec:
        stack.append(PayEgg(seat, ec))  # the column's egg cost
    if MODE[b] != MODE_NONE:
        stack.append(PayFood(seat, b))


def playable(s: State, seat: int, only_hab: int = -1) -> list:
    """play_bird actions for every bird in hand that fits, with food and eggs.

    Summary 手札の鳥カードをプレイする: the bird's habitats only, a free column, the egg cost
    and the food
    cost affordable."""
    rows = s.rows[seat]
    neggs = s.eggs_by_seat[seat]
    ok = [False, False, False]
    for h in range(3):
        col = len(rows[h])
        ok[h] = col < 5 and EGG_COST[col] <= neggs and (only_hab < 0 or h == only_hab)
    acts = []
    if not (ok[0] or ok[1] or ok[2]):
        return acts
    sig = food_sig(s.food[seat])
    aff = aff_table(sig)
    for b in s.hands[seat]:
        v = aff[b]
        if v == 2:
            v = can_afford(aff, sig, b)
        if v:
            pb = PLAY[b]
            for h in HABS[b]:
                if ok[h]:
                    acts.append(pb[h])
    return acts
