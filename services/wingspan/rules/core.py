"""State, turn flow and the generic decisions of Wingspan.

The flow is a stack of small tasks (plain lists of ints, so the state encodes
as JSON). A task code below ``D_BASE`` is procedural: ``advance`` runs it. A
code from ``D_BASE`` up is a decision: its legal list is computed once, cached
in the state under the decision counter, and ``apply`` runs its handler. A
decision with no legal option is dropped; one with exactly one option is
applied at once. Power-specific decisions are registered by ``powers.py``.
"""

from __future__ import annotations

from .acts import (
    DECLINE,
    DISCARD_CARD,
    DISCARD_FOOD,
    DRAW_DECK,
    DRAW_TRAY,
    LAY,
    PAY_EGG,
    PLAY,
    REROLL,
    TAKE_ACTION,
    TAKE_DIE,
    pay_food,
)
from .cards import (
    COLOR,
    COST,
    DUAL,
    FACE_IDX,
    FOOD_IDX,
    HAB_IDX,
    HABS,
    LIMIT,
    MODE,
    MODE_NONE,
    MODE_OR,
    NB,
    NEST_OK,
    PINK,
    RODENT,
    WHITE,
    WILD,
)
from .scoring import score_round_goal

# ------------------------------------------------------------------- constants
SETUP, PLAY_PHASE, OVER = range(3)
ROUND_CUBES = (8, 7, 6, 5)
EGG_COST = (0, 1, 1, 2, 2)
# Amount of the row action by the column the cube lands in (0..5).
AMOUNT = ((1, 1, 2, 2, 3, 3), (2, 2, 3, 3, 4, 4), (1, 1, 2, 2, 3, 3))
BONUS_COL = (False, True, False, True, False, True)

# Procedural tasks.
P_START_TURN = 0
P_END_TURN = 1
P_ROW = 2
P_PLACE = 3
P_WHITE = 4
P_PINK = 5
P_EXTRA_EGG = 6
P_DRAFT_END = 7
# Decisions.
D_BASE = 16
D_TURN = 16
D_BONUS = 17
D_TAKE_DIE = 18
D_LAY_EGG = 19
D_DRAW = 20
D_PAY_FOOD = 21
D_PAY_EGG = 22
D_ACTIVATE = 23
D_TRADE = 24
D_CHOOSE_FOOD = 25
D_TUCK = 26
D_EGG_COST = 27
D_MOVE = 28
D_REPEAT = 29
D_CHOOSE_PLAYER = 30
D_DRAFT = 31
D_KEEP_BONUS = 32
D_DISCARD_EOT = 33
D_PLAY_EXTRA = 34
D_FEEDER_ALL = 35
N_CODES = 36

DECISION_NAMES = {
    D_TURN: "DECISION_KIND_TURN",
    D_BONUS: "DECISION_KIND_BONUS_EXCHANGE",
    D_TAKE_DIE: "DECISION_KIND_TAKE_DIE",
    D_LAY_EGG: "DECISION_KIND_LAY_EGG",
    D_DRAW: "DECISION_KIND_DRAW_CARD",
    D_PAY_FOOD: "DECISION_KIND_PAY_FOOD",
    D_PAY_EGG: "DECISION_KIND_PAY_EGG",
    D_ACTIVATE: "DECISION_KIND_ACTIVATE_POWER",
    D_TRADE: "DECISION_KIND_TRADE_FOOD",
    D_CHOOSE_FOOD: "DECISION_KIND_CHOOSE_FOOD",
    D_TUCK: "DECISION_KIND_TUCK_CARD",
    D_EGG_COST: "DECISION_KIND_DISCARD_EGG",
    D_MOVE: "DECISION_KIND_MOVE_BIRD",
    D_REPEAT: "DECISION_KIND_REPEAT_POWER",
    D_CHOOSE_PLAYER: "DECISION_KIND_CHOOSE_PLAYER",
    D_DRAFT: "DECISION_KIND_DRAFT_CARD",
    D_KEEP_BONUS: "DECISION_KIND_KEEP_BONUS",
    D_DISCARD_EOT: "DECISION_KIND_DISCARD_CARD",
    D_PLAY_EXTRA: "DECISION_KIND_PLAY_EXTRA_BIRD",
    # "Gain all [food] in the birdfeeder": take them, or reroll first.
    D_FEEDER_ALL: "DECISION_KIND_TAKE_DIE",
}

# Dispatch tables, filled below and by powers.py.
RUN: list = [None] * N_CODES
LEGAL: list = [None] * N_CODES
APPLY: list = [None] * N_CODES
# Per bird: brown entry (may ask to activate), the effect itself, white power,
# and the handler of a pink trigger.
ENTRY: list = [None] * NB
EFFECT: list = [None] * NB
WHITE_POWER: list = [None] * NB
PINK_TRIGGER = [-1] * NB
PINK_HANDLER: list = [None] * NB


class State:
    """The whole game state. Everything but ``lc`` is encoded."""

    __slots__ = (
        "bdeck",
        "bdiscard",
        "boffer",
        "bonus",
        "cache",
        "cubes",
        "dec",
        "deck",
        "discard",
        "draft",
        "eggs",
        "eot",
        "feeder",
        "first",
        "food",
        "gcount",
        "goals",
        "gscore",
        "hands",
        "last_egg",
        "lc",
        "n",
        "neggs",
        "opts",
        "phase",
        "pinks",
        "pused",
        "rng",
        "rodent",
        "round",
        "rows",
        "sbonus",
        "sdeal",
        "sfood",
        "skeep",
        "sstage",
        "stack",
        "tray",
        "tucked",
        "turn",
    )

    FIELDS = tuple(f for f in __slots__ if f not in ("lc", "rng"))

    def __init__(self) -> None:
        self.lc = None


# ------------------------------------------------------------------ primitives
def roll_feeder(s: State) -> None:
    """Roll all five dice into the birdfeeder."""
    below = s.rng.below
    s.feeder = [below(6), below(6), below(6), below(6), below(6)]


def may_reroll(feeder: list[int]) -> bool:
    """Summary ② (餌ダイス5個すべてを振り直す): the feeder may be rerolled when one
    die is left or every die left shows the same face (the invertebrate/seed
    face is a face of its own). Applies whenever food is gained from the
    feeder: the gain-food action and every power that takes dice from it."""
    seen = 0
    for f in feeder:
        seen |= 1 << f
    return bool(seen) and not (seen & (seen - 1))


def take_die(s: State, face: int) -> None:
    """One die showing ``face`` leaves the feeder.

    Official rule (the feeder is never empty): the moment the last die is
    taken, all five dice are rolled back into the feeder, not later when a die
    is next needed; so the next taker sees five dice and a dice-rolling
    predator never rolls all five against an empty feeder."""
    s.feeder.remove(face)
    if not s.feeder:
        roll_feeder(s)


def take_all_dice(s: State, food: int) -> int:
    """Every die that can give ``food`` leaves the feeder (the invertebrate/seed
    face counts for either); returns how many. As in :func:`take_die`, an
    emptied feeder is rolled again at once."""
    keep = []
    got = 0
    for d in s.feeder:
        if d == food or (d == DUAL and food < 2):
            got += 1
        else:
            keep.append(d)
    s.feeder = keep
    if not keep:
        roll_feeder(s)
    return got


def draw_top(s: State) -> int:
    """Top card of the deck (the discard pile is reshuffled when the deck is
    empty); -1 when both are empty."""
    deck = s.deck
    if not deck:
        if not s.discard:
            return -1
        deck.extend(s.discard)
        s.discard = []
        s.rng.shuffle(deck)
    return deck.pop()


def can_draw(s: State) -> bool:
    return bool(s.deck or s.discard)


def refill_tray(s: State) -> None:
    tray = s.tray
    while len(tray) < 3:
        c = draw_top(s)
        if c < 0:
            return
        tray.append(c)


def draw_bonus(s: State) -> int:
    if not s.bdeck:
        if not s.bdiscard:
            return -1
        s.bdeck = s.bdiscard
        s.bdiscard = []
        s.rng.shuffle(s.bdeck)
    return s.bdeck.pop()


def add_egg(s: State, seat: int, b: int) -> None:
    s.eggs[b] += 1
    s.neggs[seat] += 1


def habitat_of(s: State, seat: int, b: int) -> int:
    rows = s.rows[seat]
    for h in range(3):
        if b in rows[h]:
            return h
    return -1


# ----------------------------------------------------- affordability / payment
def food_sig(f: list[int]) -> int:
    """The food counts, each capped at 6, packed in 15 bits (enough to decide
    affordability and list payments: no payment uses more than 6 of a type)."""
    a, b, c, d, e = f
    return (
        (a if a < 6 else 6)
        | (b if b < 6 else 6) << 3
        | (c if c < 6 else 6) << 6
        | (d if d < 6 else 6) << 9
        | (e if e < 6 else 6) << 12
    )


def _sig_counts(sig: int) -> list[int]:
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
    """Per food signature: 1 affordable, 0 not, 2 not computed yet."""
    t = _AFF.get(sig)
    if t is None:
        t = bytearray(b"\x02" * NB)
        _AFF[sig] = t
    return t


def can_afford(t: bytearray, sig: int, b: int) -> int:
    v = t[b]
    if v == 2:
        v = 1 if affordable(b, _sig_counts(sig)) else 0
        t[b] = v
    return v


def _multisets(pool: list[int], k: int, start: int = 0) -> list[list[int]]:
    """All ways to take ``k`` tokens from ``pool`` (counts per food)."""
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
    """Every distinct way (counts of the five foods) to pay bird ``b``."""
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


_PAY_ACTS: dict[int, tuple] = {}


def pay_acts(b: int, sig: int) -> tuple:
    key = b << 15 | sig
    t = _PAY_ACTS.get(key)
    if t is None:
        t = tuple(pay_food(p) for p in payments(b, _sig_counts(sig)))
        _PAY_ACTS[key] = t
    return t


# ----------------------------------------------------------------- the engine
def advance(s: State) -> None:
    """Run procedural tasks until a decision with options is on top (or the
    game is over); cache that decision's legal list."""
    stack = s.stack
    while stack:
        t = stack[-1]
        c = t[0]
        if c < D_BASE:
            RUN[c](s, t)
            continue
        acts = LEGAL[c](s, t)
        if not acts:
            stack.pop()
            continue
        if len(acts) == 1:
            APPLY[c](s, t, acts[0])
            continue
        s.lc = (s.dec, t[1], acts)
        return
    s.phase = OVER
    s.lc = None


def start_play(s: State, seat: int, b: int, h: int) -> None:
    """Put the costs of playing bird ``b`` into habitat ``h`` on the stack."""
    s.hands[seat].remove(b)
    stack = s.stack
    stack.append([P_PLACE, seat, b, h])
    ec = EGG_COST[len(s.rows[seat][h])]
    if ec:
        stack.append([D_PAY_EGG, seat, ec])
    if MODE[b] != MODE_NONE:
        stack.append([D_PAY_FOOD, seat, b])


def playable(s: State, seat: int, only_hab: int = -1) -> list:
    """play_bird actions for every bird in hand that fits, with food and eggs."""
    rows = s.rows[seat]
    neggs = s.neggs[seat]
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


# --------------------------------------------------------------- procedural
def run_start_turn(s: State, t: list) -> None:
    seat = t[1]
    s.stack.pop()
    s.turn = seat
    pused = s.pused
    for b in s.pinks[seat]:
        pused[b] = 0
    s.stack.append([P_END_TURN, seat])
    s.stack.append([D_TURN, seat])


def run_end_turn(s: State, t: list) -> None:
    seat = t[1]
    if s.eot:
        s.eot -= 1
        if s.hands[seat]:
            s.stack.append([D_DISCARD_EOT, seat])
        return
    s.stack.pop()
    refill_tray(s)
    nxt = (seat + 1) % s.n
    if s.cubes[nxt]:
        s.stack.append([P_START_TURN, nxt])
        return
    end_round(s)


def end_round(s: State) -> None:
    score_round_goal(s, s.round)
    s.discard.extend(s.tray)
    s.tray = []
    refill_tray(s)
    s.round += 1
    if s.round >= 4:
        return  # empty stack: advance() ends the game
    s.first = (s.first + 1) % s.n
    s.cubes = [ROUND_CUBES[s.round]] * s.n
    s.stack.append([P_START_TURN, s.first])


def run_row(s: State, t: list) -> None:
    """Activate the brown powers of one row, right to left."""
    row = s.rows[t[1]][t[2]]
    idx = t[3]
    if idx >= len(row):
        idx = len(row) - 1
    if idx <= 0:
        s.stack.pop()
        if idx < 0:
            return
    else:
        t[3] = idx - 1
    b = row[idx]
    entry = ENTRY[b]
    if entry is not None:
        entry(s, t[1], b)


def run_place(s: State, t: list) -> None:
    s.stack.pop()
    seat, b, h = t[1], t[2], t[3]
    s.rows[seat][h].append(b)
    color = COLOR[b]
    if color == PINK:
        s.pinks[seat].append(b)
        s.pused[b] = 0
    elif color == WHITE:
        s.stack.append([P_WHITE, seat, b, h])
    s.stack.append([P_PINK, seat, 1, h])


def run_white(s: State, t: list) -> None:
    s.stack.pop()
    WHITE_POWER[t[2]](s, t[1], t[2], t[3])


def run_pink(s: State, t: list) -> None:
    """Ask the other players' pink powers matching this trigger, clockwise
    from the active player's left (summary: 次の手番までに1回)."""
    s.stack.pop()
    active, trig, param = t[1], t[2], t[3]
    if trig == 2 and not s.rodent:
        return
    n = s.n
    pinks = s.pinks
    pused = s.pused
    tasks = []
    for k in range(1, n):
        p = (active + k) % n
        for b in pinks[p]:
            if not pused[b] and PINK_TRIGGER[b] == trig:
                task = PINK_HANDLER[b](s, p, b, param)
                if task is not None:
                    tasks.append(task)
    if tasks:
        tasks.reverse()
        s.stack.extend(tasks)


def run_extra_egg(s: State, t: list) -> None:
    s.stack.pop()
    if s.last_egg >= 0:
        s.stack.append([D_LAY_EGG, t[1], 1, t[2], s.last_egg, 1, -1])


def run_draft_end(s: State, t: list) -> None:
    s.stack.pop()
    s.hands[t[1]].extend(s.draft)
    s.draft = []


RUN[P_START_TURN] = run_start_turn
RUN[P_END_TURN] = run_end_turn
RUN[P_ROW] = run_row
RUN[P_PLACE] = run_place
RUN[P_WHITE] = run_white
RUN[P_PINK] = run_pink
RUN[P_EXTRA_EGG] = run_extra_egg
RUN[P_DRAFT_END] = run_draft_end


# ------------------------------------------------------------------ decisions
def lg_turn(s: State, t: list) -> list:
    acts = playable(s, t[1])
    acts.extend(TAKE_ACTION)
    return acts


def ap_turn(s: State, t: list, a) -> None:
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
    """The bonus space: discard a card / a food / an egg for one more."""
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
    cache bird, may skip, pink bird]."""
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
    pink bird]."""
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
    acts = [DRAW_TRAY[b] for b in s.tray]
    if s.deck or s.discard:
        acts.append(DRAW_DECK)
    return acts


def ap_draw(s: State, t: list, a) -> None:
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
    return list(pay_acts(t[2], food_sig(s.food[t[1]])))


def ap_pay_food(s: State, t: list, a) -> None:
    s.stack.pop()
    f = s.food[t[1]]
    for i, (_, c) in enumerate(a.args):
        f[i] -= c


def lg_pay_egg(s: State, t: list) -> list:
    eggs = s.eggs
    return [PAY_EGG[b] for row in s.rows[t[1]] for b in row if eggs[b]]


def ap_pay_egg(s: State, t: list, a) -> None:
    b = a.args[0][1]
    s.eggs[b] -= 1
    s.neggs[t[1]] -= 1
    t[2] -= 1
    if t[2] <= 0:
        s.stack.pop()


def lg_discard_eot(s: State, t: list) -> list:
    return [DISCARD_CARD[c] for c in s.hands[t[1]]]


def ap_discard_eot(s: State, t: list, a) -> None:
    s.stack.pop()
    c = a.args[0][1]
    s.hands[t[1]].remove(c)
    s.discard.append(c)


LEGAL[D_TURN] = lg_turn
APPLY[D_TURN] = ap_turn
LEGAL[D_BONUS] = lg_bonus
APPLY[D_BONUS] = ap_bonus
LEGAL[D_TAKE_DIE] = lg_take_die
APPLY[D_TAKE_DIE] = ap_take_die
LEGAL[D_LAY_EGG] = lg_lay_egg
APPLY[D_LAY_EGG] = ap_lay_egg
LEGAL[D_DRAW] = lg_draw
APPLY[D_DRAW] = ap_draw
LEGAL[D_PAY_FOOD] = lg_pay_food
APPLY[D_PAY_FOOD] = ap_pay_food
LEGAL[D_PAY_EGG] = lg_pay_egg
APPLY[D_PAY_EGG] = ap_pay_egg
LEGAL[D_DISCARD_EOT] = lg_discard_eot
APPLY[D_DISCARD_EOT] = ap_discard_eot
