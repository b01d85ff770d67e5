"""Egg, card and conversion powers (lay, draw, draft, tuck, discard for)."""

from __future__ import annotations

from .acts import (
    DECLINE,
    DRAFT,
    KEEP_BONUS,
    PAY_EGG,
    tuck,
)
from .cards import (
    LIMIT,
    NEST_OK,
    PARAMS,
    RW_DRAW,
    RW_EGG_ANY,
    RW_EGG_THIS,
    RW_FOOD,
    RW_WILD,
)
from .power_tasks import ChooseFood, Draft, EggCost, KeepBonus, Tuck
from .powers_food import gate
from .state import (
    State,
)
from .supply import (
    add_egg,
    can_draw,
    draw_bonus,
    draw_top,
)
from .tasks import ANY_FOOD, DraftEnd, Draw, ExtraEgg, LayEgg


# ------------------------------------------------------------------------ eggs
def lay_egg(s: State, seat: int, b: int) -> None:
    """Summary 起動時: lay an egg on this bird or on any bird (data: ``lay_egg``; 卵の上限)."""
    if PARAMS[b].on_this_bird:
        if s.eggs[b] < LIMIT[b]:
            add_egg(s, seat, b)
    else:
        s.stack.append(LayEgg(seat, remaining=1))


def lay_each_nest(s: State, seat: int, b: int) -> None:
    """Summary プレイ時: an egg on each of your birds with that nest (巣のタイプ; 卵の上限)."""
    ok = NEST_OK[PARAMS[b].nest]
    eggs = s.eggs
    for row in s.rows[seat]:
        for x in row:
            if ok[x] and eggs[x] < LIMIT[x]:
                add_egg(s, seat, x)


def all_lay_nest(s: State, seat: int, b: int) -> None:
    """The active player lays on one nest bird and may lay on a second one,
    then every other player, clockwise, lays on one.

    Summary 起動時 (rules choice 7)."""
    nest = PARAMS[b].nest
    n = s.players
    st = s.stack
    for k in range(n - 1, 0, -1):
        st.append(LayEgg((seat + k) % n, remaining=1, nest=nest))
    st.append(ExtraEgg(seat, nest))
    s.last_egg_bird = -1
    st.append(LayEgg(seat, remaining=1, nest=nest))


# ----------------------------------------------------------------------- cards
def draw_cards(s: State, seat: int, b: int) -> None:
    """Summary 能力: draw cards (tray or deck, as the wetland action)."""
    s.stack.append(Draw(seat, remaining=PARAMS[b].count))


def draw_eot(s: State, seat: int, b: int) -> None:
    """Summary 起動時: draw, then discard at the end of the turn (rules choice 11)."""
    if not (s.tray or can_draw(s)):
        return
    s.eot_discards += 1
    s.stack.append(Draw(seat, remaining=PARAMS[b].count))


def all_draw_deck(s: State, seat: int, b: int) -> None:
    """Summary 起動時: every player draws the top card of the deck, clockwise from the active
    player."""
    n = s.players
    for k in range(n):
        c = draw_top(s)
        if c < 0:
            return
        s.hands[(seat + k) % n].append(c)


def draft(s: State, seat: int, b: int) -> None:
    """Summary プレイ時: deal one card more than the players; each picks one in turn, the user takes
    the last."""
    n = s.players
    cards = []
    for _ in range(n + 1):
        c = draw_top(s)
        if c < 0:
            break
        cards.append(c)
    s.draft = cards
    st = s.stack
    st.append(DraftEnd(seat))
    for k in range(n - 1, -1, -1):
        st.append(Draft((seat + k) % n))


def lg_draft(s: State, t: Draft) -> list:
    """Summary プレイ時: the draft's cards left."""
    return [DRAFT[c] for c in s.draft]


def ap_draft(s: State, t: Draft, a) -> None:
    """Summary プレイ時: the drafted card goes to the hand."""
    s.stack.pop()
    c = a.arg("bird")
    s.draft.remove(c)
    s.hands[t.seat].append(c)


def bonus_draw(s: State, seat: int, b: int) -> None:
    """Summary プレイ時: draw bonus cards, keep one."""
    offer = []
    for _ in range(PARAMS[b].draw):
        k = draw_bonus(s)
        if k >= 0:
            offer.append(k)
    s.bonus_offer = offer
    s.stack.append(KeepBonus(seat))


def lg_keep_bonus(s: State, t: KeepBonus) -> list:
    """Summary プレイ時: the bonus cards offered."""
    return [KEEP_BONUS[k] for k in s.bonus_offer]


def ap_keep_bonus(s: State, t: KeepBonus, a) -> None:
    """Summary プレイ時: keep one bonus card, discard the others."""
    s.stack.pop()
    k = a.arg("bonus")
    s.bonus_cards[t.seat].append(k)
    s.bonus_discard.extend(x for x in s.bonus_offer if x != k)
    s.bonus_offer = []


def draw_all_tray(s: State, seat: int, b: int) -> None:
    """Summary プレイ時: take every card of the tray."""
    s.hands[seat].extend(s.tray)
    s.tray = []


# ------------------------------------------------------------------ conversions
def egg_reward(s: State, seat: int, b: int) -> None:
    """Summary 起動時: discard an egg for food or cards (data: ``discard_egg_for_reward``)."""
    s.stack.append(EggCost(seat, b))


def lg_egg_cost(s: State, t: EggCost) -> list:
    """Summary 起動時: an egg from any bird (from another bird when the card says so)."""
    b = t.bird
    other = PARAMS[b].others_only
    eggs = s.eggs
    acts = [PAY_EGG[x] for row in s.rows[t.seat] for x in row if eggs[x] and not (other and x == b)]
    if acts:
        acts.append(DECLINE)
    return acts


def ap_egg_cost(s: State, t: EggCost, a) -> None:
    """Summary 起動時: the egg is discarded, the reward queued."""
    s.stack.pop()
    if a.kind == "decline":
        return
    seat, b = t.seat, t.bird
    x = a.arg("bird")
    s.eggs[x] -= 1
    s.eggs_by_seat[seat] -= 1
    reward, count = PARAMS[b].reward, PARAMS[b].count
    if reward == RW_WILD:
        s.stack.append(ChooseFood(seat, remaining=count, food_mask=ANY_FOOD))
    else:
        s.stack.append(Draw(seat, remaining=count))


def food_tuck_entry(s: State, seat: int, b: int) -> None:
    """Summary 起動時: asked only when the food is held and a card can be drawn (rules choice 7)."""
    if s.food[seat][PARAMS[b].food] and can_draw(s):
        gate(s, seat, b)


def food_tuck(s: State, seat: int, b: int) -> None:
    """Summary 起動時: discard a food to tuck cards from the deck (data:
    ``discard_food_tuck_from_deck``)."""
    f, count = PARAMS[b].food, PARAMS[b].count
    food = s.food[seat]
    if not food[f]:
        return
    food[f] -= 1
    for _ in range(count):
        c = draw_top(s)
        if c < 0:
            return
        s.tucked[b] += 1


def tuck_then(s: State, seat: int, b: int) -> None:
    """Summary 起動時: tuck a card from the hand, then the reward (data:
    ``tuck_from_hand_then``)."""
    if s.hands[seat]:
        s.stack.append(Tuck(seat, b, by_pink=0))


def lg_tuck(s: State, t: Tuck) -> list:
    """Summary 起動時 / 次の手番までに1回: any card of the hand."""
    b = t.bird
    acts = [tuck(c, b) for c in s.hands[t.seat]]
    if acts:
        acts.append(DECLINE)
    return acts


def ap_tuck(s: State, t: Tuck, a) -> None:
    """Summary 起動時: the card is tucked behind the bird, then the card's reward."""
    s.stack.pop()
    if a.kind == "decline":
        return
    seat, b = t.seat, t.bird
    s.hands[seat].remove(a.arg("bird"))
    s.tucked[b] += 1
    if t.by_pink:  # Horned Lark (pink): the tuck is the whole power
        s.pink_used[b] = 1
        return
    reward, mask = PARAMS[b].reward, PARAMS[b].food_mask
    if reward == RW_DRAW:
        s.stack.append(Draw(seat, remaining=1))
    elif reward == RW_FOOD:
        if mask & (mask - 1):
            s.stack.append(ChooseFood(seat, remaining=1, food_mask=mask))
        else:
            s.food[seat][mask.bit_length() - 1] += 1
    elif reward == RW_EGG_THIS:
        if s.eggs[b] < LIMIT[b]:
            add_egg(s, seat, b)
    elif reward == RW_EGG_ANY:
        s.stack.append(LayEgg(seat, remaining=1))
