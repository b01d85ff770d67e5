"""Food powers (and the decisions they share with other powers)."""

from __future__ import annotations

from .acts import (
    CHOOSE_FOOD,
    CHOOSE_PLAYER,
    DECLINE,
    REROLL,
    TRADE,
    gain_all,
)
from .cards import (
    FOOD_IDX,
    PARAMS,
)
from .state import (
    D_ACTIVATE,
    D_CHOOSE_PLAYER,
    D_FEEDER_ALL,
    D_TAKE_DIE,
    D_TRADE,
    State,
)
from .supply import (
    may_reroll,
    roll_feeder,
    take_all_dice,
)


# ------------------------------------------------------------ shared decisions
def gate(s: State, seat: int, b: int) -> None:
    """Ask whether to use a power that could also help the opponents or cost
    something (decline is always possible: every power is optional)."""
    s.stack.append([D_ACTIVATE, seat, b])


def lg_choose_food(s: State, t: list) -> list:
    mask = t[3]
    return [CHOOSE_FOOD[f] for f in range(5) if mask >> f & 1]


def ap_choose_food(s: State, t: list, a) -> None:
    s.food[t[1]][FOOD_IDX[a.args[0][1]]] += 1
    t[2] -= 1
    if t[2] <= 0:
        s.stack.pop()


def _die_task(p: int, pink: int = -1) -> list:
    """Gain any one die from the feeder (may be declined)."""
    return [D_TAKE_DIE, p, 1, 1, 31, -1, 1, pink]


# ------------------------------------------------------------------------ food
def gain_supply(s: State, seat: int, b: int) -> None:
    f, count = PARAMS[b]
    s.food[seat][f] += count


def all_gain_supply(s: State, seat: int, b: int) -> None:
    f = PARAMS[b][0]
    for food in s.food:
        food[f] += 1


def gain_feeder(s: State, seat: int, b: int) -> None:
    mask, may_cache = PARAMS[b]
    s.stack.append([D_TAKE_DIE, seat, 1, 1, mask, b if may_cache else -1, 1, -1])


def gain_all_feeder(s: State, seat: int, b: int) -> None:
    """Bald Eagle, Northern Flicker: gain every die of the food in the feeder
    (the invertebrate/seed face counts for either). The feeder is not rolled
    first, but the reroll rule of summary ② holds here as for any food gained
    from the feeder: when one face is left the player may reroll all five
    dice first (a ``D_FEEDER_ALL`` decision; otherwise the dice are taken at
    once, nothing to decide)."""
    if may_reroll(s.feeder):
        s.stack.append([D_FEEDER_ALL, seat, b])
    else:
        s.food[seat][PARAMS[b][0]] += take_all_dice(s, PARAMS[b][0])


def lg_feeder_all(s: State, t: list) -> list:
    """[D_FEEDER_ALL, seat, bird]: take the dice as they are, or reroll first
    while one face is left (rerolling may be repeated, as for a single die)."""
    b = t[2]
    acts = [gain_all(b, PARAMS[b][0])]
    if may_reroll(s.feeder):
        acts.append(REROLL)
    return acts


def ap_feeder_all(s: State, t: list, a) -> None:
    if a.kind == "reroll_feeder":
        roll_feeder(s)
        return
    s.stack.pop()
    b = t[2]
    s.food[t[1]][PARAMS[b][0]] += take_all_dice(s, PARAMS[b][0])


def each_player_die(s: State, seat: int, b: int) -> None:
    s.stack.append([D_CHOOSE_PLAYER, seat, b])


def lg_choose_player(s: State, t: list) -> list:
    acts = list(CHOOSE_PLAYER[: s.n])
    acts.append(DECLINE)
    return acts


def ap_choose_player(s: State, t: list, a) -> None:
    s.stack.pop()
    if a.kind == "decline":
        return
    start = a.args[0][1]
    n = s.n
    for k in range(n - 1, -1, -1):
        s.stack.append(_die_task((start + k) % n))


def cache_supply(s: State, seat: int, b: int) -> None:
    s.cache[b] += PARAMS[b][1]


def trade(s: State, seat: int, b: int) -> None:
    s.stack.append([D_TRADE, seat, b])


def lg_trade(s: State, t: list) -> list:
    f = s.food[t[1]]
    acts = [TRADE[g][k] for g in range(5) if f[g] for k in range(5) if k != g]
    if acts:
        acts.append(DECLINE)
    return acts


def ap_trade(s: State, t: list, a) -> None:
    s.stack.pop()
    if a.kind == "decline":
        return
    f = s.food[t[1]]
    f[FOOD_IDX[a.args[0][1]]] -= 1
    f[FOOD_IDX[a.args[1][1]]] += 1


def gain_die_any(s: State, seat: int, b: int) -> None:
    s.stack.append(_die_task(seat))
