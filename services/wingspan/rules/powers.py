"""Every bird power, one handler per template, dispatched through tables.

``register()`` fills ``core.ENTRY`` (brown: what happens when the row is
activated, possibly first asking whether to use the power), ``core.EFFECT``
(the brown effect itself, also used when a power is repeated),
``core.WHITE_POWER`` and the pink tables. Handlers receive the bird whose
power is used; a repeated power acts on the bird that owns it (its cache and
tucked cards go there).
"""

from __future__ import annotations

from .acts import (
    CHOOSE_FOOD,
    CHOOSE_PLAYER,
    DECLINE,
    DRAFT,
    KEEP_BONUS,
    MOVE,
    PAY_EGG,
    REPEAT,
    REROLL,
    TRADE,
    USE,
    gain_all,
    tuck,
)
from .cards import (
    BROWN,
    COLOR,
    FOOD_IDX,
    HAB_IDX,
    HABS,
    LIMIT,
    NB,
    NEST_OK,
    PARAMS,
    PINK,
    PREDATOR,
    RW_DIE,
    RW_DRAW,
    RW_EGG_ANY,
    RW_EGG_THIS,
    RW_FOOD,
    RW_WILD,
    TEMPLATE,
    TPL,
    WHITE,
    WINGSPAN,
)
from .core import (
    APPLY,
    D_ACTIVATE,
    D_CHOOSE_FOOD,
    D_CHOOSE_PLAYER,
    D_DRAFT,
    D_DRAW,
    D_EGG_COST,
    D_FEEDER_ALL,
    D_KEEP_BONUS,
    D_LAY_EGG,
    D_MOVE,
    D_PLAY_EXTRA,
    D_REPEAT,
    D_TAKE_DIE,
    D_TRADE,
    D_TUCK,
    EFFECT,
    ENTRY,
    LEGAL,
    P_DRAFT_END,
    P_EXTRA_EGG,
    P_PINK,
    PINK_HANDLER,
    PINK_TRIGGER,
    WHITE_POWER,
    State,
    add_egg,
    can_draw,
    draw_bonus,
    draw_top,
    habitat_of,
    may_reroll,
    playable,
    roll_feeder,
    start_play,
    take_all_dice,
)

REPEATERS = (TPL["repeat_brown_power"], TPL["repeat_predator_power"])


# ------------------------------------------------------------ shared decisions
def gate(s: State, seat: int, b: int) -> None:
    """Ask whether to use a power that could also help the opponents or cost
    something (decline is always possible: every power is optional)."""
    s.stack.append([D_ACTIVATE, seat, b])


def lg_activate(s: State, t: list) -> list:
    return [USE[t[2]], DECLINE]


def ap_activate(s: State, t: list, a) -> None:
    s.stack.pop()
    if a.kind == "use_power":
        EFFECT[t[2]](s, t[1], t[2])


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


# ------------------------------------------------------------------------ eggs
def lay_egg(s: State, seat: int, b: int) -> None:
    if PARAMS[b][0]:
        if s.eggs[b] < LIMIT[b]:
            add_egg(s, seat, b)
    else:
        s.stack.append([D_LAY_EGG, seat, 1, -1, -1, 0, -1])


def lay_each_nest(s: State, seat: int, b: int) -> None:
    ok = NEST_OK[PARAMS[b][0]]
    eggs = s.eggs
    for row in s.rows[seat]:
        for x in row:
            if ok[x] and eggs[x] < LIMIT[x]:
                add_egg(s, seat, x)


def all_lay_nest(s: State, seat: int, b: int) -> None:
    """The active player lays on one nest bird and may lay on a second one,
    then every other player, clockwise, lays on one."""
    nest = PARAMS[b][0]
    n = s.n
    st = s.stack
    for k in range(n - 1, 0, -1):
        st.append([D_LAY_EGG, (seat + k) % n, 1, nest, -1, 0, -1])
    st.append([P_EXTRA_EGG, seat, nest])
    s.last_egg = -1
    st.append([D_LAY_EGG, seat, 1, nest, -1, 0, -1])


# ----------------------------------------------------------------------- cards
def draw_cards(s: State, seat: int, b: int) -> None:
    s.stack.append([D_DRAW, seat, PARAMS[b][0]])


def draw_eot(s: State, seat: int, b: int) -> None:
    if not (s.tray or can_draw(s)):
        return
    s.eot += 1
    s.stack.append([D_DRAW, seat, PARAMS[b][0]])


def all_draw_deck(s: State, seat: int, b: int) -> None:
    n = s.n
    for k in range(n):
        c = draw_top(s)
        if c < 0:
            return
        s.hands[(seat + k) % n].append(c)


def draft(s: State, seat: int, b: int) -> None:
    n = s.n
    cards = []
    for _ in range(n + 1):
        c = draw_top(s)
        if c < 0:
            break
        cards.append(c)
    s.draft = cards
    st = s.stack
    st.append([P_DRAFT_END, seat])
    for k in range(n - 1, -1, -1):
        st.append([D_DRAFT, (seat + k) % n])


def lg_draft(s: State, t: list) -> list:
    return [DRAFT[c] for c in s.draft]


def ap_draft(s: State, t: list, a) -> None:
    s.stack.pop()
    c = a.args[0][1]
    s.draft.remove(c)
    s.hands[t[1]].append(c)


def bonus_draw(s: State, seat: int, b: int) -> None:
    offer = []
    for _ in range(PARAMS[b][0]):
        k = draw_bonus(s)
        if k >= 0:
            offer.append(k)
    s.boffer = offer
    s.stack.append([D_KEEP_BONUS, seat])


def lg_keep_bonus(s: State, t: list) -> list:
    return [KEEP_BONUS[k] for k in s.boffer]


def ap_keep_bonus(s: State, t: list, a) -> None:
    s.stack.pop()
    k = a.args[0][1]
    s.bonus[t[1]].append(k)
    s.bdiscard.extend(x for x in s.boffer if x != k)
    s.boffer = []


def draw_all_tray(s: State, seat: int, b: int) -> None:
    s.hands[seat].extend(s.tray)
    s.tray = []


# ------------------------------------------------------------------ conversions
def egg_reward(s: State, seat: int, b: int) -> None:
    s.stack.append([D_EGG_COST, seat, b])


def lg_egg_cost(s: State, t: list) -> list:
    b = t[2]
    other = PARAMS[b][0]
    eggs = s.eggs
    acts = [PAY_EGG[x] for row in s.rows[t[1]] for x in row if eggs[x] and not (other and x == b)]
    if acts:
        acts.append(DECLINE)
    return acts


def ap_egg_cost(s: State, t: list, a) -> None:
    s.stack.pop()
    if a.kind == "decline":
        return
    seat, b = t[1], t[2]
    x = a.args[0][1]
    s.eggs[x] -= 1
    s.neggs[seat] -= 1
    _, reward, count = PARAMS[b]
    if reward == RW_WILD:
        s.stack.append([D_CHOOSE_FOOD, seat, count, 31])
    else:
        s.stack.append([D_DRAW, seat, count])


def food_tuck_entry(s: State, seat: int, b: int) -> None:
    if s.food[seat][PARAMS[b][0]] and can_draw(s):
        gate(s, seat, b)


def food_tuck(s: State, seat: int, b: int) -> None:
    f, count = PARAMS[b]
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
    if s.hands[seat]:
        s.stack.append([D_TUCK, seat, b, 0])


def lg_tuck(s: State, t: list) -> list:
    b = t[2]
    acts = [tuck(c, b) for c in s.hands[t[1]]]
    if acts:
        acts.append(DECLINE)
    return acts


def ap_tuck(s: State, t: list, a) -> None:
    s.stack.pop()
    if a.kind == "decline":
        return
    seat, b = t[1], t[2]
    s.hands[seat].remove(a.args[0][1])
    s.tucked[b] += 1
    if t[3]:  # Horned Lark (pink): the tuck is the whole power
        s.pused[b] = 1
        return
    reward, mask = PARAMS[b]
    if reward == RW_DRAW:
        s.stack.append([D_DRAW, seat, 1])
    elif reward == RW_FOOD:
        if mask & (mask - 1):
            s.stack.append([D_CHOOSE_FOOD, seat, 1, mask])
        else:
            s.food[seat][mask.bit_length() - 1] += 1
    elif reward == RW_EGG_THIS:
        if s.eggs[b] < LIMIT[b]:
            add_egg(s, seat, b)
    elif reward == RW_EGG_ANY:
        s.stack.append([D_LAY_EGG, seat, 1, -1, -1, 0, -1])


# ------------------------------------------------------------------- predators
def pred_dice(s: State, seat: int, b: int) -> None:
    """Roll the dice outside the feeder; any showing the food is a success."""
    f = PARAMS[b][0]
    below = s.rng.below
    hit = False
    for _ in range(5 - len(s.feeder)):
        if below(6) == f:
            hit = True
    if hit:
        s.cache[b] += 1
        s.stack.append([P_PINK, seat, 3, 0])


def pred_look(s: State, seat: int, b: int) -> None:
    c = draw_top(s)
    if c < 0:
        return
    if WINGSPAN[c] < PARAMS[b][0]:
        s.tucked[b] += 1
        s.stack.append([P_PINK, seat, 3, 0])
    else:
        s.discard.append(c)


# ---------------------------------------------------------- board conditions
def fewest(s: State, seat: int, b: int) -> None:
    h, reward = PARAMS[b]
    n = s.n
    counts = [len(s.rows[p][h]) for p in range(n)]
    low = min(counts)
    order = [(seat + k) % n for k in range(n)]
    for p in reversed(order):
        if counts[p] == low:
            if reward == RW_DIE:
                s.stack.append(_die_task(p))
            else:
                s.stack.append([D_DRAW, p, 1])


def move(s: State, seat: int, b: int) -> None:
    rows = s.rows[seat]
    h = habitat_of(s, seat, b)
    if h < 0 or rows[h][-1] != b:
        return
    for h2 in HABS[b]:
        if h2 != h and len(rows[h2]) < 5:
            s.stack.append([D_MOVE, seat, b])
            return


def lg_move(s: State, t: list) -> list:
    seat, b = t[1], t[2]
    rows = s.rows[seat]
    h = habitat_of(s, seat, b)
    acts = [MOVE[b][h2] for h2 in HABS[b] if h2 != h and len(rows[h2]) < 5]
    if acts:
        acts.append(DECLINE)
    return acts


def ap_move(s: State, t: list, a) -> None:
    s.stack.pop()
    if a.kind == "decline":
        return
    seat, b = t[1], t[2]
    rows = s.rows[seat]
    rows[habitat_of(s, seat, b)].remove(b)
    rows[HAB_IDX[a.args[1][1]]].append(b)


# ------------------------------------------------------------------------ meta
def play_extra(s: State, seat: int, b: int, h: int) -> None:
    hab = PARAMS[b][0]
    s.stack.append([D_PLAY_EXTRA, seat, b, h if hab < 0 else hab])


def lg_play_extra(s: State, t: list) -> list:
    acts = playable(s, t[1], t[3])
    if acts:
        acts.append(DECLINE)
    return acts


def ap_play_extra(s: State, t: list, a) -> None:
    s.stack.pop()
    if a.kind == "decline":
        return
    start_play(s, t[1], a.args[0][1], HAB_IDX[a.args[1][1]])


def repeat(s: State, seat: int, b: int) -> None:
    s.stack.append([D_REPEAT, seat, b, 1 if TEMPLATE[b] == REPEATERS[1] else 0])


def lg_repeat(s: State, t: list) -> list:
    seat, b, pred = t[1], t[2], t[3]
    h = habitat_of(s, seat, b)
    acts = [
        REPEAT[x]
        for x in s.rows[seat][h]
        if x != b
        and COLOR[x] == BROWN
        and TEMPLATE[x] not in REPEATERS
        and (not pred or PREDATOR[x])
    ]
    if acts:
        acts.append(DECLINE)
    return acts


def ap_repeat(s: State, t: list, a) -> None:
    s.stack.pop()
    if a.kind == "decline":
        return
    x = a.args[0][1]
    EFFECT[x](s, t[1], x)


# ------------------------------------------------------------------------ pink
def pink_lay(s: State, p: int, b: int, param: int):
    _, nest, excl = PARAMS[b]
    return [D_LAY_EGG, p, 1, nest, b if excl else -1, 1, b]


def pink_play(s: State, p: int, b: int, param: int):
    _, hab, reward, _f = PARAMS[b]
    if param != hab:
        return None
    if reward == RW_FOOD:
        return [D_ACTIVATE, p, b]
    if s.hands[p]:
        return [D_TUCK, p, b, 1]
    return None


def pink_food(s: State, p: int, b: int) -> None:
    """Belted Kingfisher / Eastern Kingbird, once accepted."""
    s.food[p][PARAMS[b][3]] += 1
    s.pused[b] = 1


def pink_rodent(s: State, p: int, b: int, param: int):
    return [D_ACTIVATE, p, b]


def pink_cache(s: State, p: int, b: int) -> None:
    """Loggerhead Shrike, once accepted."""
    s.cache[b] += 1
    s.pused[b] = 1


def pink_predator(s: State, p: int, b: int, param: int):
    return _die_task(p, b)


# ------------------------------------------------------------------- registry
def _white(fn):
    def white(s: State, seat: int, b: int, h: int) -> None:
        fn(s, seat, b)

    return white


# template -> (entry, effect); entry None means "same as effect".
_BROWN = {
    "gain_food_supply": (None, gain_supply),
    "all_players_gain_food_supply": (gate, all_gain_supply),
    "gain_food_feeder": (None, gain_feeder),
    "each_player_gain_die_choose_start": (None, each_player_die),
    "cache_food_supply": (None, cache_supply),
    "trade_food_supply": (None, trade),
    "lay_egg": (None, lay_egg),
    "all_players_lay_egg_nest_type": (gate, all_lay_nest),
    "draw_cards": (None, draw_cards),
    "draw_cards_discard_end_of_turn": (gate, draw_eot),
    "all_players_draw_card": (gate, all_draw_deck),
    "discard_egg_for_reward": (None, egg_reward),
    "discard_food_tuck_from_deck": (food_tuck_entry, food_tuck),
    "tuck_from_hand_then": (None, tuck_then),
    "predator_roll_dice_cache": (gate, pred_dice),
    "predator_look_tuck": (gate, pred_look),
    "fewest_birds_in_habitat_reward": (gate, fewest),
    "move_if_rightmost": (None, move),
    "repeat_brown_power": (None, repeat),
    "repeat_predator_power": (None, repeat),
    "gain_die_feeder_any": (None, gain_die_any),
}
_WHITE = {
    "gain_food_supply": _white(gain_supply),
    "gain_all_of_type_feeder": _white(gain_all_feeder),
    "lay_egg_each_nest_type": _white(lay_each_nest),
    "draw_cards": _white(draw_cards),
    "draft_players_plus_one": _white(draft),
    "draw_bonus_keep_one": _white(bonus_draw),
    "play_additional_bird": play_extra,
    "draw_all_tray": _white(draw_all_tray),
}
_PINK = {
    "pink_on_lay_eggs_lay_egg": pink_lay,
    "pink_on_play_bird_in_habitat": pink_play,
    "pink_on_gain_food_rodent_cache": pink_rodent,
    "pink_on_predator_success_gain_die": pink_predator,
}
TEMPLATE_NAMES = {v: k for k, v in TPL.items()}


def register() -> None:
    for b in range(NB):
        name = TEMPLATE_NAMES[TEMPLATE[b]]
        color = COLOR[b]
        if color == BROWN:
            entry, effect = _BROWN[name]
            EFFECT[b] = effect
            ENTRY[b] = entry or effect
        elif color == WHITE:
            WHITE_POWER[b] = _WHITE[name]
        elif color == PINK:
            PINK_TRIGGER[b] = PARAMS[b][0]
            PINK_HANDLER[b] = _PINK[name]
            if name == "pink_on_play_bird_in_habitat" and PARAMS[b][2] == RW_FOOD:
                EFFECT[b] = pink_food
            elif name == "pink_on_gain_food_rodent_cache":
                EFFECT[b] = pink_cache
    for code, lg, ap in (
        (D_ACTIVATE, lg_activate, ap_activate),
        (D_CHOOSE_FOOD, lg_choose_food, ap_choose_food),
        (D_FEEDER_ALL, lg_feeder_all, ap_feeder_all),
        (D_CHOOSE_PLAYER, lg_choose_player, ap_choose_player),
        (D_TRADE, lg_trade, ap_trade),
        (D_DRAFT, lg_draft, ap_draft),
        (D_KEEP_BONUS, lg_keep_bonus, ap_keep_bonus),
        (D_EGG_COST, lg_egg_cost, ap_egg_cost),
        (D_TUCK, lg_tuck, ap_tuck),
        (D_MOVE, lg_move, ap_move),
        (D_PLAY_EXTRA, lg_play_extra, ap_play_extra),
        (D_REPEAT, lg_repeat, ap_repeat),
    ):
        LEGAL[code] = lg
        APPLY[code] = ap


register()
