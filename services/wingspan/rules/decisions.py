"""The decisions of a turn: choose an action, pay, take dice, lay eggs, draw."""

from __future__ import annotations

from .acts import (
    DECLINE,
    DISCARD_CARD,
    DISCARD_FOOD,
    DRAW_DECK,
    DRAW_TRAY,
    LAY,
    PAY_EGG,
    REROLL,
    TAKE_ACTION,
    TAKE_DIE,
)
from .cards import (
    DUAL,
    FACE_IDX,
    FOOD_IDX,
    HAB_IDX,
    LIMIT,
    NEST_OK,
    RODENT,
)
from .payment import food_sig, pay_acts, playable, start_play
from .state import (
    AMOUNT,
    BONUS_COL,
    D_BONUS,
    D_DRAW,
    D_LAY_EGG,
    D_TAKE_DIE,
    P_PINK,
    P_ROW,
    State,
)
from .supply import (
    draw_top,
    roll_feeder,
    take_die,
)


def lg_turn(s: State, t: list) -> list:
    """Summary ゲームの進行: play a bird, or one of the three habitat actions."""
    acts = playable(s, t[1])
    acts.extend(TAKE_ACTION)
    return acts


def ap_turn(s: State, t: list, a) -> None:
    """Summary ゲームの進行: a cube is spent; playing a bird starts its costs
    (手札の鳥カードをプレイする); a
    habitat action takes the amount of the column the cube lands in, then queues the bonus
    space, the main step and the row's brown powers (森林アクション, 草原アクション,
    湿地アクション)."""
    seat = t[1]
    stack = s.stack
    stack.pop()
    s.cubes[seat] -= 1
    args = a.args
    if a.kind == "play_bird":
        start_play(s, seat, args[0][1], HAB_IDX[args[1][1]])
        return
    h = HAB_IDX[args[0][1]]
    col = len(s.rows[seat][h])
    amt = AMOUNT[h][col]
    if col:
        stack.append([P_ROW, seat, h, col - 1])
    if h == 0:
        s.rodent = 0
        stack.append([P_PINK, seat, 2, 0])
        stack.append([D_TAKE_DIE, seat, amt, 0, 31, -1, 0, -1])
    elif h == 1:
        stack.append([P_PINK, seat, 0, 0])
        stack.append([D_LAY_EGG, seat, amt, -1, -1, 0, -1])
    else:
        stack.append([D_DRAW, seat, amt])
    if BONUS_COL[col]:
        stack.append([D_BONUS, seat, h])


def lg_bonus(s: State, t: list) -> list:
    """The bonus space: discard a card / a food / an egg for one more.

    Summary 森林アクション / 草原アクション / 湿地アクション (the bonus spaces, rules choice 5)."""
    seat, h = t[1], t[2]
    if h == 0:
        acts = [DISCARD_CARD[c] for c in s.hands[seat]]
    elif h == 1:
        f = s.food[seat]
        acts = [DISCARD_FOOD[i] for i in range(5) if f[i]]
    else:
        eggs = s.eggs
        acts = [PAY_EGG[b] for row in s.rows[seat] for b in row if eggs[b]]
    if acts:
        acts.append(DECLINE)
    return acts


def ap_bonus(s: State, t: list, a) -> None:
    """Summary 森林アクション (bonus space, rules choice 5): the discarded card, food or egg
    buys one
    more of the row's main step."""
    stack = s.stack
    stack.pop()
    kind = a.kind
    if kind == "decline":
        return
    seat = t[1]
    v = a.args[0][1]
    if kind == "discard_card":
        s.hands[seat].remove(v)
        s.discard.append(v)
    elif kind == "discard_food":
        s.food[seat][FOOD_IDX[v]] -= 1
    else:
        s.eggs[v] -= 1
        s.neggs[seat] -= 1
    stack[-1][2] += 1


_DIE_MEMO: dict[int, tuple] = {}


def _die_options(seen: int, mask: int, cache: int) -> tuple:
    """The take-die actions for the faces showing, the foods allowed and caching (summary
    森林アクション: a two-food face gives either)."""
    key = (seen << 5 | mask) << 1 | cache
    r = _DIE_MEMO.get(key)
    if r is None:
        out = []
        for face in range(6):
            if seen >> face & 1:
                foods = (0, 1) if face == DUAL else (face,)
                for food in foods:
                    if mask >> food & 1:
                        out.append(TAKE_DIE[face][food][0])
                        if cache:
                            out.append(TAKE_DIE[face][food][1])
        r = tuple(out)
        _DIE_MEMO[key] = r
    return r


def lg_take_die(s: State, t: list) -> list:
    """Take one die: [c, seat, remaining, mode(0 action/1 power), food mask,
    cache bird, may skip, pink bird].

    Summary 森林アクション."""
    seen = 0
    for f in s.feeder:
        seen |= 1 << f
    acts = list(_die_options(seen, t[4], 1 if t[5] >= 0 else 0))
    if seen and not (seen & (seen - 1)):
        # may_reroll inlined (hot path): one face left (one die, or all dice
        # alike), so the player may reroll before taking
        acts.append(REROLL)
    elif not acts:
        return acts
    if t[6]:
        acts.append(DECLINE)
    return acts


def ap_take_die(s: State, t: list, a) -> None:
    """Summary 森林アクション: the die leaves the feeder, its food goes to the supply or is
    cached on
    the bird; taking a rodent by the action arms the rodent pink trigger (次の手番までに1回)."""
    kind = a.kind
    if kind == "reroll_feeder":
        roll_feeder(s)
        return
    if kind == "decline":
        s.stack.pop()
        return
    args = a.args
    face = FACE_IDX[args[0][1]]
    food = FOOD_IDX[args[1][1]]
    take_die(s, face)
    seat = t[1]
    if args[2][1]:
        s.cache[t[5]] += 1
    else:
        s.food[seat][food] += 1
    if t[3] == 0 and food == RODENT:
        s.rodent = 1
    if t[7] >= 0:
        s.pused[t[7]] = 1
    t[2] -= 1
    if t[2] <= 0:
        s.stack.pop()


def lg_lay_egg(s: State, t: list) -> list:
    """Lay one egg: [c, seat, remaining, nest(-1 any), excluded bird, may skip,
    pink bird].

    Summary 草原アクション and 卵の上限."""
    eggs = s.eggs
    nest = t[3]
    excl = t[4]
    if nest < 0:
        acts = [LAY[b] for row in s.rows[t[1]] for b in row if eggs[b] < LIMIT[b] and b != excl]
    else:
        ok = NEST_OK[nest]
        acts = [
            LAY[b]
            for row in s.rows[t[1]]
            for b in row
            if eggs[b] < LIMIT[b] and ok[b] and b != excl
        ]
    if acts and t[5]:
        acts.append(DECLINE)
    return acts


def ap_lay_egg(s: State, t: list, a) -> None:
    """Summary 草原アクション: one egg on the chosen bird."""
    if a.kind == "decline":
        s.stack.pop()
        return
    b = a.args[0][1]
    s.eggs[b] += 1
    s.neggs[t[1]] += 1
    s.last_egg = b
    if t[6] >= 0:
        s.pused[t[6]] = 1
    t[2] -= 1
    if t[2] <= 0:
        s.stack.pop()


def lg_draw(s: State, t: list) -> list:
    """Summary 湿地アクション: a tray card or the top of the deck."""
    acts = [DRAW_TRAY[b] for b in s.tray]
    if s.deck or s.discard:
        acts.append(DRAW_DECK)
    return acts


def ap_draw(s: State, t: list, a) -> None:
    """Summary 湿地アクション: the chosen card goes to the hand."""
    hand = s.hands[t[1]]
    if a.kind == "draw_from_deck":
        hand.append(draw_top(s))
    else:
        b = a.args[0][1]
        s.tray.remove(b)
        hand.append(b)
    t[2] -= 1
    if t[2] <= 0:
        s.stack.pop()


def lg_pay_food(s: State, t: list) -> list:
    """Summary 餌コスト: every distinct way to pay the bird."""
    return list(pay_acts(t[2], food_sig(s.food[t[1]])))


def ap_pay_food(s: State, t: list, a) -> None:
    """Summary 餌コスト: the chosen food goes back to the supply."""
    s.stack.pop()
    f = s.food[t[1]]
    for i, (_, c) in enumerate(a.args):
        f[i] -= c


def lg_pay_egg(s: State, t: list) -> list:
    """Summary 手札の鳥カードをプレイする: the egg cost is paid from any bird with an egg."""
    eggs = s.eggs
    return [PAY_EGG[b] for row in s.rows[t[1]] for b in row if eggs[b]]


def ap_pay_egg(s: State, t: list, a) -> None:
    """Summary 手札の鳥カードをプレイする: one egg of the egg cost is removed."""
    b = a.args[0][1]
    s.eggs[b] -= 1
    s.neggs[t[1]] -= 1
    t[2] -= 1
    if t[2] <= 0:
        s.stack.pop()


def lg_discard_eot(s: State, t: list) -> list:
    """Summary 能力: a draw-then-discard power discards one card at the end of the turn (rules
    choice 11)."""
    return [DISCARD_CARD[c] for c in s.hands[t[1]]]


def ap_discard_eot(s: State, t: list, a) -> None:
    """Summary 能力: the end-of-turn discard (rules choice 11)."""
    s.stack.pop()
    c = a.args[0][1]
    s.hands[t[1]].remove(c)
    s.discard.append(c)
