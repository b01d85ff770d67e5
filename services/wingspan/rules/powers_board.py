"""Predators, board conditions, extra plays, repeats and pink triggers."""

from __future__ import annotations

from .acts import (
    DECLINE,
    MOVE,
)
from .cards import (
    HAB_IDX,
    HABS,
    PARAMS,
    RW_DIE,
    RW_FOOD,
    TEMPLATE,
    TPL,
    TRIG_PRED,
    WINGSPAN,
)
from .payment import playable, start_play
from .power_tasks import Activate, Move, PlayExtra, Repeat, Tuck
from .powers_food import _die_task
from .state import (
    State,
)
from .supply import (
    draw_top,
    habitat_of,
)
from .tasks import NO_BIRD, Draw, LayEgg, TakeDie, Task, pink_trigger

REPEATERS = (TPL["repeat_brown_power"], TPL["repeat_predator_power"])


# ------------------------------------------------------------------- predators
def pred_dice(s: State, seat: int, b: int) -> None:
    """Roll the dice outside the feeder; any showing the food is a success.

    Summary 捕食."""
    f = PARAMS[b].food
    below = s.rng.below
    hit = False
    for _ in range(5 - len(s.feeder)):
        if below(6) == f:
            hit = True
    if hit:
        s.cached_food[b] += 1
        s.stack.append(pink_trigger(seat, TRIG_PRED))


def pred_look(s: State, seat: int, b: int) -> None:
    """Summary 捕食 and 翼長: the top card is tucked if its wingspan is under the limit, else
    discarded."""
    c = draw_top(s)
    if c < 0:
        return
    if WINGSPAN[c] < PARAMS[b].wingspan_below:
        s.tucked[b] += 1
        s.stack.append(pink_trigger(seat, TRIG_PRED))
    else:
        s.bird_discard.append(c)


# ---------------------------------------------------------- board conditions
def fewest(s: State, seat: int, b: int) -> None:
    """Summary 起動時: the players with the fewest birds in the habitat gain a die or a card (data:
    ``fewest_birds_in_habitat_reward``)."""
    h, reward = PARAMS[b].habitat, PARAMS[b].reward
    n = s.players
    counts = [len(s.rows[p][h]) for p in range(n)]
    low = min(counts)
    order = [(seat + k) % n for k in range(n)]
    for p in reversed(order):
        if counts[p] == low:
            if reward == RW_DIE:
                s.stack.append(_die_task(p))
            else:
                s.stack.append(Draw(p, remaining=1))


def move(s: State, seat: int, b: int) -> None:
    """Summary 起動時: a rightmost bird may move to another habitat it can live in (data:
    ``move_if_rightmost``)."""
    rows = s.rows[seat]
    h = habitat_of(s, seat, b)
    if h < 0 or rows[h][-1] != b:
        return
    for h2 in HABS[b]:
        if h2 != h and len(rows[h2]) < 5:
            s.stack.append(Move(seat, b))
            return


def lg_move(s: State, t: Move) -> list:
    """Summary 起動時: the other habitats of the bird with room."""
    seat, b = t.seat, t.bird
    rows = s.rows[seat]
    h = habitat_of(s, seat, b)
    acts = [MOVE[b][h2] for h2 in HABS[b] if h2 != h and len(rows[h2]) < 5]
    if acts:
        acts.append(DECLINE)
    return acts


def ap_move(s: State, t: Move, a) -> None:
    """Summary 起動時: the bird moves to the end of the chosen row."""
    s.stack.pop()
    if a.kind == "decline":
        return
    seat, b = t.seat, t.bird
    rows = s.rows[seat]
    rows[habitat_of(s, seat, b)].remove(b)
    rows[HAB_IDX[a.arg("habitat")]].append(b)


# ------------------------------------------------------------------------ meta
def play_extra(s: State, seat: int, b: int, h: int) -> None:
    """Summary プレイ時: play a second bird (in the habitat the card names, else the same one)."""
    hab = PARAMS[b].habitat
    s.stack.append(PlayExtra(seat, b, h if hab < 0 else hab))


def lg_play_extra(s: State, t: PlayExtra) -> list:
    """Summary プレイ時 and 手札の鳥カードをプレイする: a bird that fits that habitat."""
    acts = playable(s, t.seat, t.habitat)
    if acts:
        acts.append(DECLINE)
    return acts


def ap_play_extra(s: State, t: PlayExtra, a) -> None:
    """Summary プレイ時: the second bird is played, costs and all."""
    s.stack.pop()
    if a.kind == "decline":
        return
    start_play(s, t.seat, a.arg("bird"), HAB_IDX[a.arg("habitat")])


def repeat(s: State, seat: int, b: int) -> None:
    """Summary 起動時: repeat a brown power of this row (a predator power for Hooded Merganser;
    rules choice 9)."""
    s.stack.append(Repeat(seat, b, predators_only=1 if TEMPLATE[b] == REPEATERS[1] else 0))


# ------------------------------------------------------------------------ pink
def pink_lay(s: State, p: int, b: int, param: int) -> LayEgg:
    """Summary 次の手番までに1回: when another player lays eggs, lay one egg."""
    nest, excl = PARAMS[b].nest, PARAMS[b].exclude_this
    return LayEgg(
        p, remaining=1, nest=nest, excluded=b if excl else NO_BIRD, may_decline=1, pink_bird=b
    )


def pink_play(s: State, p: int, b: int, param: int) -> Task | None:
    """Summary 次の手番までに1回: when another player plays a bird in the habitat, gain food or
    tuck a
    card."""
    hab, reward = PARAMS[b].habitat, PARAMS[b].reward
    if param != hab:
        return None
    if reward == RW_FOOD:
        return Activate(p, b)
    if s.hands[p]:
        return Tuck(p, b, by_pink=1)
    return None


def pink_food(s: State, p: int, b: int) -> None:
    """Belted Kingfisher / Eastern Kingbird, once accepted.

    Summary 次の手番までに1回."""
    s.food[p][PARAMS[b].food] += 1
    s.pink_used[b] = 1


def pink_rodent(s: State, p: int, b: int, param: int) -> Activate:
    """Summary 次の手番までに1回: when another player gains a rodent, cache one."""
    return Activate(p, b)


def pink_cache(s: State, p: int, b: int) -> None:
    """Loggerhead Shrike, once accepted.

    Summary 次の手番までに1回."""
    s.cached_food[b] += 1
    s.pink_used[b] = 1


def pink_predator(s: State, p: int, b: int, param: int) -> TakeDie:
    """Summary 次の手番までに1回 and 捕食: when another player's predator succeeds, gain a die."""
    return _die_task(p, b)
