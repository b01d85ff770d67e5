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
    FOREST,
    GRASSLAND,
    HAB_IDX,
    LIMIT,
    NEST_OK,
    RODENT,
    TRIG_FOOD,
    TRIG_LAY,
)
from .payment import food_sig, pay_acts, playable, start_play
from .state import (
    AMOUNT,
    BONUS_COL,
    State,
)
from .supply import (
    draw_top,
    roll_feeder,
    take_die,
)
from .tasks import (
    ActivateRow,
    BonusSpace,
    ChooseTurn,
    DiscardEndOfTurn,
    Draw,
    LayEgg,
    PayEgg,
    PayFood,
    TakeDie,
    bonus_space,
    pink_trigger,
)


def lg_turn(s: State, t: ChooseTurn) -> list:
    """Summary ゲームの進行: play a bird, or one of the three habitat actions."""
    acts = playable(s, t.seat)
    acts.extend(TAKE_ACTION)
    return acts


def ap_turn(s: State, t: ChooseTurn, a) -> None:
    """Summary ゲームの進行: a cube is spent; playing a bird starts its costs
    (手札の鳥カードをプレイする); a
    habitat action takes the amount of the column the cube lands in, then queues the bonus
    space, the main step and the row's brown powers (森林アクション, 草原アクション,
    湿地アクション)."""
    seat = t.seat
    stack = s.stack
    stack.pop()
    s.cubes_left[seat] -= 1
    if a.kind == "play_bird":
        start_play(s, seat, a.arg("bird"), HAB_IDX[a.arg("habitat")])
        return
    h = HAB_IDX[a.arg("habitat")]
    col = len(s.rows[seat][h])
    amt = AMOUNT[h][col]
    if col:
        stack.append(ActivateRow(seat, h, col - 1))
    # The main step: ``amt`` dice / eggs / cards (the records' other fields
    # keep their defaults; passed by position, this is the hottest call site).
    if h == FOREST:
        s.rodent_taken = 0
        stack.append(pink_trigger(seat, TRIG_FOOD))
        stack.append(TakeDie(seat, amt, 0))  # by_power=0: the gain-food action
    elif h == GRASSLAND:
        stack.append(pink_trigger(seat, TRIG_LAY))
        stack.append(LayEgg(seat, amt))
    else:
        stack.append(Draw(seat, amt))
    if BONUS_COL[col]:
        stack.append(bonus_space(seat, h))


def lg_bonus(s: State, t: BonusSpace) -> list:
    """The bonus space: discard a card / a food / an egg for one more.

    Summary 森林アクション / 草原アクション / 湿地アクション (the bonus spaces, rules choice 5)."""
    seat, h = t.seat, t.habitat
    if h == FOREST:
        acts = [DISCARD_CARD[c] for c in s.hands[seat]]
    elif h == GRASSLAND:
        f = s.food[seat]
        acts = [DISCARD_FOOD[i] for i in range(5) if f[i]]
    else:
        eggs = s.eggs
        acts = [PAY_EGG[b] for row in s.rows[seat] for b in row if eggs[b]]
    if acts:
        acts.append(DECLINE)
    return acts


def ap_bonus(s: State, t: BonusSpace, a) -> None:
    """Summary 森林アクション (bonus space, rules choice 5): the discarded card, food or egg
    buys one
    more of the row's main step."""
    stack = s.stack
    stack.pop()
    kind = a.kind
    if kind == "decline":
        return
    seat = t.seat
    if kind == "discard_card":
        card = a.arg("bird")
        s.hands[seat].remove(card)
        s.bird_discard.append(card)
    elif kind == "discard_food":
        s.food[seat][FOOD_IDX[a.arg("food")]] -= 1
    else:
        s.eggs[a.arg("bird")] -= 1
        s.eggs_by_seat[seat] -= 1
    stack[-1].remaining += 1  # the row's main step, under the bonus space


def _die_options(seen: int, mask: int, cache: int) -> list:
    """The take-die actions for the faces showing, the foods allowed and caching (summary
    森林アクション: a two-food face gives either)."""
    out = []
    for face in range(6):
        if seen >> face & 1:
            foods = (0, 1) if face == DUAL else (face,)
            for food in foods:
                if mask >> food & 1:
                    out.append(TAKE_DIE[face][food][0])
                    if cache:
                        out.append(TAKE_DIE[face][food][1])
    return out


def lg_take_die(s: State, t: TakeDie) -> list:
    """Take one die (the fields: :class:`tasks.TakeDie`).

    Summary 森林アクション."""
    seen = 0
    for f in s.feeder:
        seen |= 1 << f
    acts = _die_options(seen, t.food_mask, 1 if t.cache_bird >= 0 else 0)
    if seen and not (seen & (seen - 1)):
        # may_reroll inlined (hot path): one face left (one die, or all dice
        # alike), so the player may reroll before taking
        acts.append(REROLL)
    elif not acts:
        return acts
    if t.may_decline:
        acts.append(DECLINE)
    return acts


def ap_take_die(s: State, t: TakeDie, a) -> None:
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
    face = FACE_IDX[a.arg("face")]
    food = FOOD_IDX[a.arg("food")]
    take_die(s, face)
    seat = t.seat
    if a.arg("cache"):
        s.cached_food[t.cache_bird] += 1
    else:
        s.food[seat][food] += 1
    if not t.by_power and food == RODENT:
        s.rodent_taken = 1
    if t.pink_bird >= 0:
        s.pink_used[t.pink_bird] = 1
    t.remaining -= 1
    if t.remaining <= 0:
        s.stack.pop()


def lg_lay_egg(s: State, t: LayEgg) -> list:
    """Lay one egg (the fields: :class:`tasks.LayEgg`).

    Summary 草原アクション and 卵の上限."""
    eggs = s.eggs
    nest = t.nest
    excl = t.excluded
    if nest < 0:
        acts = [LAY[b] for row in s.rows[t.seat] for b in row if eggs[b] < LIMIT[b] and b != excl]
    else:
        ok = NEST_OK[nest]
        acts = [
            LAY[b]
            for row in s.rows[t.seat]
            for b in row
            if eggs[b] < LIMIT[b] and ok[b] and b != excl
        ]
    if acts and t.may_decline:
        acts.append(DECLINE)
    return acts


def ap_lay_egg(s: State, t: LayEgg, a) -> None:
    """Summary 草原アクション: one egg on the chosen bird."""
    if a.kind == "decline":
        s.stack.pop()
        return
    b = a.arg("bird")
    s.eggs[b] += 1
    s.eggs_by_seat[t.seat] += 1
    s.last_egg_bird = b
    if t.pink_bird >= 0:
        s.pink_used[t.pink_bird] = 1
    t.remaining -= 1
    if t.remaining <= 0:
        s.stack.pop()


def lg_draw(s: State, t: Draw) -> list:
    """Summary 湿地アクション: a tray card or the top of the deck."""
    acts = [DRAW_TRAY[b] for b in s.tray]
    if s.bird_deck or s.bird_discard:
        acts.append(DRAW_DECK)
    return acts


def ap_draw(s: State, t: Draw, a) -> None:
    """Summary 湿地アクション: the chosen card goes to the hand."""
    hand = s.hands[t.seat]
    if a.kind == "draw_from_deck":
        hand.append(draw_top(s))
    else:
        b = a.arg("bird")
        s.tray.remove(b)
        hand.append(b)
    t.remaining -= 1
    if t.remaining <= 0:
        s.stack.pop()


def lg_pay_food(s: State, t: PayFood) -> list:
    """Summary 餌コスト: every distinct way to pay the bird."""
    return list(pay_acts(t.bird, food_sig(s.food[t.seat])))


def ap_pay_food(s: State, t: PayFood, a) -> None:
    """Summary 餌コスト: the chosen food goes back to the supply."""
    s.stack.pop()
    f = s.food[t.seat]
    for i, (_, c) in enumerate(a.args):
        f[i] -= c


def lg_pay_egg(s: State, t: PayEgg) -> list:
    """Summary 手札の鳥カードをプレイする: the egg cost is paid from any bird with an egg."""
    eggs = s.eggs
    return [PAY_EGG[b] for row in s.rows[t.seat] for b in row if eggs[b]]


def ap_pay_egg(s: State, t: PayEgg, a) -> None:
    """Summary 手札の鳥カードをプレイする: one egg of the egg cost is removed."""
    b = a.arg("bird")
    s.eggs[b] -= 1
    s.eggs_by_seat[t.seat] -= 1
    t.remaining -= 1
    if t.remaining <= 0:
        s.stack.pop()


def lg_discard_eot(s: State, t: DiscardEndOfTurn) -> list:
    """Summary 能力: a draw-then-discard power discards one card at the end of the turn (rules
    choice 11)."""
    return [DISCARD_CARD[c] for c in s.hands[t.seat]]


def ap_discard_eot(s: State, t: DiscardEndOfTurn, a) -> None:
    """Summary 能力: the end-of-turn discard (rules choice 11)."""
    s.stack.pop()
    c = a.arg("bird")
    s.hands[t.seat].remove(c)
    s.bird_discard.append(c)
