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
from .power_tasks import Activate, ChooseFood, ChoosePlayer, FeederAll, Trade
from .state import (
    State,
)
from .supply import (
    may_reroll,
    roll_feeder,
    take_all_dice,
)
from .tasks import NO_BIRD, TakeDie


# ------------------------------------------------------------ shared decisions
def gate(s: State, seat: int, b: int) -> None:
    """Ask whether to use a power that could also help the opponents or cost
    something (decline is always possible: every power is optional).

    Summary 能力 (every power may be skipped; rules choice 7)."""
    s.stack.append(Activate(seat, b))


def lg_choose_food(s: State, t: ChooseFood) -> list:
    """Summary 能力: gain one food of the types the power allows, from the supply."""
    mask = t.food_mask
    return [CHOOSE_FOOD[f] for f in range(5) if mask >> f & 1]


def ap_choose_food(s: State, t: ChooseFood, a) -> None:
    """Summary 能力: the chosen food from the supply."""
    s.food[t.seat][FOOD_IDX[a.arg("food")]] += 1
    t.remaining -= 1
    if t.remaining <= 0:
        s.stack.pop()


def _die_task(p: int, pink: int = -1) -> TakeDie:
    """Gain any one die from the feeder (may be declined).

    Summary 森林アクション (the reroll rule holds for powers too)."""
    return TakeDie(p, remaining=1, by_power=1, may_decline=1, pink_bird=pink)


# ------------------------------------------------------------------------ food
def gain_supply(s: State, seat: int, b: int) -> None:
    """Summary 起動時 / プレイ時: gain food from the supply (data: ``gain_food_supply``)."""
    f, count = PARAMS[b].food, PARAMS[b].count
    s.food[seat][f] += count


def all_gain_supply(s: State, seat: int, b: int) -> None:
    """Summary 起動時: every player gains one food from the supply (data:
    ``all_players_gain_food_supply``)."""
    f = PARAMS[b].food
    for food in s.food:
        food[f] += 1


def gain_feeder(s: State, seat: int, b: int) -> None:
    """Summary 起動時: gain one die of the listed foods from the feeder, maybe cached (data:
    ``gain_food_feeder``)."""
    mask, may_cache = PARAMS[b].food_mask, PARAMS[b].may_cache
    s.stack.append(
        TakeDie(
            seat,
            remaining=1,
            by_power=1,
            food_mask=mask,
            cache_bird=b if may_cache else NO_BIRD,
            may_decline=1,
        )
    )


def gain_all_feeder(s: State, seat: int, b: int) -> None:
    """Bald Eagle, Northern Flicker: gain every die of the food in the feeder
    (the invertebrate/seed face counts for either). The feeder is not rolled
    first, but the reroll rule of summary ② holds here as for any food gained
    from the feeder: when one face is left the player may reroll all five
    dice first (a ``D_FEEDER_ALL`` decision; otherwise the dice are taken at
    once, nothing to decide).

    Summary 森林アクション."""
    if may_reroll(s.feeder):
        s.stack.append(FeederAll(seat, b))
    else:
        s.food[seat][PARAMS[b].food] += take_all_dice(s, PARAMS[b].food)


def lg_feeder_all(s: State, t: FeederAll) -> list:
    """Take the dice as they are, or reroll first
    while one face is left (rerolling may be repeated, as for a single die).

    Summary 森林アクション."""
    b = t.bird
    acts = [gain_all(b, PARAMS[b].food)]
    if may_reroll(s.feeder):
        acts.append(REROLL)
    return acts


def ap_feeder_all(s: State, t: FeederAll, a) -> None:
    """Summary 森林アクション: reroll first, or take every die of the food."""
    if a.kind == "reroll_feeder":
        roll_feeder(s)
        return
    s.stack.pop()
    b = t.bird
    s.food[t.seat][PARAMS[b].food] += take_all_dice(s, PARAMS[b].food)


def each_player_die(s: State, seat: int, b: int) -> None:
    """Summary 起動時: each player gains a die from the feeder, starting with the player chosen
    (data: ``each_player_gain_die_choose_start``)."""
    s.stack.append(ChoosePlayer(seat, b))


def lg_choose_player(s: State, t: ChoosePlayer) -> list:
    """Summary 起動時: which player starts taking dice."""
    acts = list(CHOOSE_PLAYER[: s.players])
    acts.append(DECLINE)
    return acts


def ap_choose_player(s: State, t: ChoosePlayer, a) -> None:
    """Summary 起動時: each player, clockwise from the chosen one, takes a die."""
    s.stack.pop()
    if a.kind == "decline":
        return
    start = a.arg("seat")
    n = s.players
    for k in range(n - 1, -1, -1):
        s.stack.append(_die_task((start + k) % n))


def cache_supply(s: State, seat: int, b: int) -> None:
    """Summary 能力: cache food from the supply on this bird (data: ``cache_food_supply``)."""
    s.cached_food[b] += PARAMS[b].count


def trade(s: State, seat: int, b: int) -> None:
    """Summary 起動時: trade one food for another (data: ``trade_food_supply``)."""
    s.stack.append(Trade(seat, b))


def lg_trade(s: State, t: Trade) -> list:
    """Summary 起動時: any food held for any other type."""
    f = s.food[t.seat]
    acts = [TRADE[g][k] for g in range(5) if f[g] for k in range(5) if k != g]
    if acts:
        acts.append(DECLINE)
    return acts


def ap_trade(s: State, t: Trade, a) -> None:
    """Summary 起動時: the traded food."""
    s.stack.pop()
    if a.kind == "decline":
        return
    f = s.food[t.seat]
    f[FOOD_IDX[a.arg("give")]] -= 1
    f[FOOD_IDX[a.arg("take")]] += 1


def gain_die_any(s: State, seat: int, b: int) -> None:
    """Summary 起動時: gain one die of any face from the feeder (data: ``gain_die_feeder_any``)."""
    s.stack.append(_die_task(seat))
