"""Sky Garden rules engine (1-4 players).

The state is a plain JSON-like dict (built by :meth:`SkyGardenEngine.setup`), mutated in place.
A turn is a sequence of atomic decisions; the turn's progress lives in
``state["turn"]``:

* ``step`` ``"move"``: move the Owner token (or enter Standby);
* ``step`` ``"chip"``: resolve the chip: take the bird (orange two-bird chips ask
  ``choose_chip_bird``), ``move_employee``, then place/release the bird and make
  additional purchases in any order; on a blue chip: ``advertise`` or ``buy_special``;
* ``step`` ``"after"``: the chip is done: the space action (if the space has an
  active icon and it was not used) and ``end_turn``;
* ``step`` ``"standby"`` (solo only): the Owner token entered Standby and the Standby
  breeds are done; free actions, then ``end_turn``.

Free actions (milestones, moving birds/trees to the Forest, refilling lakes,
nest moves) are listed at every one of these points. Bonus and adjustment
sub-decisions queue in ``turn["pending"]`` and block everything else until
resolved.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from services.core.engine import (
    Action,
    IllegalAction,
    OptionError,
    Rng,
    ScoreBoard,
    SeatScore,
    SoloResult,
    jsonstate,
)

from . import actions as A
from . import data as D
from . import hidden

MOVE, CHIP, AFTER, STANDBY = "move", "chip", "after", "standby"
EVENT, PLAY, OVER = "event", "play", "over"
OPTIONS: dict[str, Any] = {}  # this game has no options


# ====================================================================== state helpers


def _new_area() -> dict[str, Any]:
    return {"b": [0] * D.NB, "n": 0, "nb": [], "t": 0, "l": 0}


def _new_turn(seat: int) -> dict[str, Any]:
    return {
        "seat": seat,
        "step": MOVE,
        "land": 0,
        "chip": -1,
        "pbird": -1,
        "choice": [],
        "emp": False,
        "fb": 0,
        "space": False,
        "nlock": [0] * (D.NAREA + 1),
        "pending": [],
    }


def narea(p: dict[str, Any]) -> int:
    """Number of areas the player has (6, or 7 with the Additional Area)."""
    return D.NAREA + 1 if p["ax"] else D.NAREA


def capacity(a: dict[str, Any]) -> int:
    """Size of an area: base, +bonus with a tree or a lake."""
    return D.AREA_BASE + (D.AREA_BONUS if a["t"] or a["l"] else 0)


def used(a: dict[str, Any]) -> int:
    """Total size of the bird tokens in an area."""
    total = 0
    size = D.SIZE
    for i, c in enumerate(a["b"]):
        if c:
            total += size[i] * c
    return total


def fits(a: dict[str, Any], bird: int) -> bool:
    """Placement rules: room for the bird, and one special bird of a kind per area."""
    if bird >= D.NREG and a["b"][bird]:
        return False
    return used(a) + D.SIZE[bird] <= capacity(a)


def nest_pair_ok(nb: list[int], bird: int) -> bool:
    """Can ``bird`` join the nest holding ``nb``? (two Regular of one type,
    or a Java-Sparrow-like partner with one Regular bird)."""
    reg = D.NREG
    partners = D.NEST_PARTNERS
    if len(nb) >= D.NEST_CAP:
        return False
    if not nb:
        return bird < reg or bird in partners
    x = nb[0]
    if x < reg and bird < reg:
        return x == bird
    if x in partners:
        return bird < reg
    if bird in partners:
        return x < reg
    return False


def nest_egg_type(nb: list[int]) -> int:
    """The egg type a full nest lays, or -1."""
    if len(nb) != 2:
        return -1
    x, y = nb
    reg = D.NREG
    if x < reg and y < reg:
        return x if x == y else -1
    if x in D.NEST_PARTNERS and y < reg:
        return y
    if y in D.NEST_PARTNERS and x < reg:
        return x
    return -1


def bird_totals(p: dict[str, Any]) -> list[int]:
    """Tokens of each bird type over all the player's areas."""
    tot = [0] * D.NB
    for a in p["areas"][: narea(p)]:
        for i, c in enumerate(a["b"]):
            if c:
                tot[i] += c
    return tot


def event_marker(p: dict[str, Any]) -> int:
    """Event marker column: complete sets in the Event areas (capped at the card)."""
    card = p["event"]
    if card < 0:
        return 0
    areas = p["areas"]
    sets = min(sum(areas[ai]["b"][b] for ai in D.EVENT_AREAS) for b in D.EVENT_BIRDS[card])
    return min(sets, len(D.EVENT_INCOME[card]) - 1)


def event_income(p: dict[str, Any]) -> int:
    """Funds the Event card pays now when the Employee passes the Event arrow."""
    card = p["event"]
    if card < 0:
        return 0
    return D.EVENT_INCOME[card][event_marker(p)]


def ad_gain(p: dict[str, Any], ad: int) -> int:
    """Funds one advertisement would give now (cap, then special-bird boosts)."""
    tot = bird_totals(p)
    kind = D.AD_KIND[ad]
    birds = D.AD_BIRDS[ad]
    if kind == "pair_sets":
        gain = D.AD_PER[ad] * min(tot[b] for b in birds)
    elif kind == "product":
        gain = D.AD_PER[ad]
        for b in birds:
            gain *= tot[b]
    else:
        count = sum(tot[b] for b in birds)
        areas = p["areas"][: narea(p)]
        for e in D.AD_ELEMENTS[ad]:
            count += sum(a[_ELEMENT_KEY[e]] for a in areas)
        gain = D.AD_PER[ad] * count
    gain = min(gain, D.AD_CAP[ad])
    for b, per in D.AD_BOOST.items():
        gain += per * tot[b]
    return gain


_ELEMENT_KEY = {"tree": "t", "lake": "l", "nest": "n"}
_ALL_SLOTS = (1 << 9) - 1


def gain_funds(p: dict[str, Any], amount: int) -> None:
    """Add funds; the excess over the maximum is lost."""
    p["funds"] = min(D.FUNDS_MAX, p["funds"] + amount)


def advance_egg(p: dict[str, Any], amount: int) -> None:
    """Move the Egg marker right (stops at the rightmost space)."""
    p["egg"] = min(D.EGG_MAX, p["egg"] + amount)


def tile_ok(p: dict[str, Any], tile: int, tot: list[int] | None = None) -> bool:
    """Does the player meet milestone ``tile``'s condition now? ``tot`` may pass
    precomputed :func:`bird_totals`."""
    kind = D.TILE_KIND[tile]
    prm = D.TILE_PARAMS[tile]
    if kind == "funds_at_least":
        return p["funds"] >= prm
    if kind == "egg_marker_at_least":
        return p["egg"] >= prm
    if kind == "total_birds":
        if tot is None:
            tot = bird_totals(p)
        return all(tot[b] >= n for b, n in prm)
    if kind == "total_special_birds":
        if tot is None:
            tot = bird_totals(p)
        return sum(tot[D.NREG :]) >= prm
    areas = p["areas"][: narea(p)]
    if kind == "area_contains":
        for a in areas:
            b = a["b"]
            for bird, n in prm:
                if b[bird] < n:
                    break
            else:
                return True
        return False
    if kind == "total_elements":
        return all(sum(a[_ELEMENT_KEY[e]] for a in areas) >= n for e, n in prm)
    # area_bird_plus_special
    return any(a["b"][prm] and any(a["b"][D.NREG :]) for a in areas)


def forest_has(st: dict[str, Any], bird: int) -> bool:
    """Is a bird of this type on the Forest board (loose or on a chip)?"""
    forest = st["forest"]
    if forest["birds"][bird]:
        return True
    return any(chip[1] == bird for chip in forest["chips"])


def icons_active(st: dict[str, Any], space: int) -> list[str]:
    """Space-action icons used at ``space`` with this player count (none in solo)."""
    n = st["n"]
    if n == 1 or space <= 0:
        return []
    return [icon for icon, low in D.ICONS[space] if n >= low]


# ====================================================================== scoring


def seat_categories(st: dict[str, Any], p: dict[str, Any], reveal: bool) -> dict[str, int]:
    """Final-scoring categories of one player (Event card only once the kept cards are
    face up, setup step 15)."""
    birds = 0
    specials = 0
    for a in p["areas"][: narea(p)]:
        tree, lake = a["t"], a["l"]
        b = a["b"]
        sets = min(b[x] for x in D.SET_BIRDS)
        if sets:
            per = D.SET_VP_TREE if tree else D.SET_VP_LAKE if lake else D.SET_VP_PLAIN
            birds += sets * per
        for i in range(D.NB):
            c = b[i]
            if c:
                vp = D.VP_TREE[i] if tree else D.VP_LAKE[i] if lake else D.VP_PLAIN[i]
                if i < D.NREG:
                    birds += c * vp
                else:
                    specials += c * vp
    eggs = sum(p["box"]) * D.EGG_POINTS[p["egg"]]
    event = 0
    if reveal and p["event"] >= 0:
        event = D.EVENT_VP[p["event"]][event_marker(p)]
    standby = D.STANDBY_VP[p["slot"]] if p["slot"] >= 0 else 0
    return {
        "birds": birds,
        "special_birds": specials,
        "eggs": eggs,
        "milestones": D.MILESTONE_VP[p["nclaimed"]],
        "event_card": event,
        "standby": standby,
        "additional_area": D.AX_VP if p["ax"] else 0,
    }


def solo_result(total: int) -> SoloResult:
    """Solo Rules, End of Game: the player aims at 130 VP, then 150 (the rules data's
    targets); reaching one is a win, the highest reached is reported (0: none)."""
    reached = [target for target in D.SOLO_TARGETS if total >= target]
    return SoloResult(
        won=bool(reached), targets=tuple(D.SOLO_TARGETS), target_reached=max(reached, default=0)
    )


# ====================================================================== engine


class SkyGardenEngine:
    """Sky Garden rules (see the module docstring and docs/games/skygarden.md)."""

    name = "skygarden"
    min_players = 1
    max_players = 4

    # ------------------------------------------------------------------ setup
    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> dict[str, Any]:
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError("players", "must be an integer")
        if not self.min_players <= players <= self.max_players:
            raise OptionError("players", f"Sky Garden is for 1 to 4 players, not {players}")
        for key in options or {}:
            if key not in OPTIONS:
                raise OptionError(key, "unknown option (Sky Garden has no options)")
        rng = Rng(seed)
        n = players
        # Milestones: draw 3A 3B 2C 1D at random, shuffle into the 3x3 grid.
        tiles: list[int] = []
        for letter, count in D.MS_DRAW.items():
            pool = [i for i, lt in enumerate(D.TILE_LETTER) if lt == letter]
            tiles.extend(rng.sample(pool, count))
        rng.shuffle(tiles)
        supply = [t - 1 for t in D.SUPPLY_TOKENS]  # one of each becomes a bonus bird
        st: dict[str, Any] = {
            "n": n,
            "phase": EVENT,
            "round": 1,
            "rounds": D.ROUNDS[n],
            "track": [0] * D.TRACK_LEN,
            "blue_down": [0] * D.NBLUE,
            "forest": {
                "trees": D.TREES_TOTAL,
                "nests": D.NESTS_TOTAL,
                "birds": [0] * D.NB,
                "chips": [],
            },
            "supply": supply,
            "special": list(D.SPECIAL_TOKENS),
            "bonus": [1] * D.NREG,
            "eggs": D.EGG_TOKENS - n,  # each player's Egg marker is an egg token
            "tiles": tiles,
            "claims": [[] for _ in range(9)],
            "early": [e is not None for e in D.LINE_EARLY],
            "players": [],
            "lucy": None,
            "turn": _new_turn(-1),
        }
        deck = list(range(len(D.EVENT_IDS)))
        rng.shuffle(deck)
        setups = list(range(len(D.SETUP_IDS)))
        rng.shuffle(setups)
        forest = st["forest"]
        for seat in range(n):
            areas = [_new_area() for _ in range(D.NAREA + 1)]
            card = setups[seat]
            nest_a, tree_a, lake_a = D.SETUP_CARDS[card]
            areas[nest_a]["n"] = 1
            areas[tree_a]["t"] = 1
            areas[lake_a]["l"] = 1
            forest["nests"] -= 1
            forest["trees"] -= 1
            st["players"].append(
                {
                    "funds": D.FUNDS_START,
                    "egg": D.EGG_START,
                    "box": [0] * D.BOX_SIZE,
                    "emp": D.EMP_START,
                    "areas": areas,
                    "ax": "",
                    "event": -1,
                    "dealt": deck[seat * D.EVENT_DEAL : (seat + 1) * D.EVENT_DEAL],
                    "setup": card,
                    "claimed": 0,
                    "nclaimed": 0,
                    "pos": 0,
                    "slot": -1,
                    "done": False,
                    "sec": 0,
                }
            )
        # Starting order on the Standby track: random, bottom (1st) plays first.
        order = list(range(n))
        rng.shuffle(order)
        for slot, seat in enumerate(order):
            st["players"][seat]["slot"] = slot
        if n == 2:
            st["lucy"] = {"pos": 0, "slot": D.LUCY_SLOT, "done": False}
        _layout_round(st, rng)
        st["rng"] = rng.state
        return st

    # ------------------------------------------------------------------ queries
    def to_act(self, state: dict[str, Any]) -> list[int]:
        phase = state["phase"]
        if phase == PLAY:
            return [state["turn"]["seat"]]
        if phase == EVENT:
            return [i for i, p in enumerate(state["players"]) if p["event"] < 0]
        return []

    def is_over(self, state: dict[str, Any]) -> bool:
        return state["phase"] == OVER

    def legal(self, state: dict[str, Any], seat: int) -> list[Action]:
        st = state
        phase = st["phase"]
        if phase == PLAY:
            if seat != st["turn"]["seat"]:
                return []
            return _legal_turn(st, seat)
        if phase == EVENT:
            if not 0 <= seat < st["n"]:
                return []
            p = st["players"][seat]
            if p["event"] >= 0:
                return []
            return [A.keep_event(seat, c) for c in p["dealt"]]
        return []

    # ------------------------------------------------------------------ apply
    def apply(self, state: dict[str, Any], seat: int, action: Action) -> dict[str, Any]:
        st = state
        if st["phase"] == OVER:
            raise IllegalAction("SKYGARDEN_OVER", "the game is over")
        if seat not in self.to_act(st):
            raise IllegalAction("NOT_YOUR_TURN", f"seat {seat} is not asked to decide now")
        kind, args = action.kind, action.args
        for candidate in self.legal(st, seat):
            if candidate.kind == kind and candidate.args == args:
                break
        else:
            raise IllegalAction("NOT_LEGAL", f"{kind} {dict(args)} is not legal now")
        _HANDLERS[kind](st, seat, dict(args))
        return st

    # ------------------------------------------------------------------ scores
    def score(self, state: dict[str, Any]) -> ScoreBoard:
        st = state
        over = st["phase"] == OVER
        revealed = hidden.events_revealed(st)
        seats = []
        for seat, p in enumerate(st["players"]):
            cats = seat_categories(st, p, revealed)
            seats.append(SeatScore(seat=seat, total=sum(cats.values()), categories=cats))
        board = ScoreBoard(seats=seats, final=over)
        board.rank_seats()
        if st["n"] == 1:
            board.solo = solo_result(seats[0].total)
        return board

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        from .view import build_view

        return build_view(self, state, seat)

    def determinize(self, state: dict[str, Any], seat: int | None, rng: Rng) -> dict[str, Any]:
        """A copy with what ``seat`` cannot see resampled (see :mod:`.hidden`)."""
        return hidden.determinize(state, seat, rng)

    # ------------------------------------------------------------------ storage
    def encode(self, state: dict[str, Any]) -> bytes:
        return jsonstate.dumps(state, sort_keys=True)

    def decode(self, data: bytes) -> dict[str, Any]:
        return jsonstate.loads(data)


# ====================================================================== round layout


def _layout_round(st: dict[str, Any], rng: Rng) -> None:
    """Steps 6-9 of the setup: Forest chips with their birds, then the Main track."""
    n = st["n"]
    rnd = st["round"]
    bag = list(D.GREEN)
    forest = st["forest"]
    supply = st["supply"]
    forest["chips"] = []
    for _ in range(D.FOREST_DRAWS):
        code = bag.pop(rng.below(len(bag)))
        bird = -1
        if supply[code] > 0:
            supply[code] -= 1
            bird = code
        forest["chips"].append([code, bird])
    bag.append(D.ORANGE_BASE + rnd)
    track = st["track"]
    blues = [D.BLUE_BASE + i for i in range(D.NBLUE)]
    if n <= 2:
        if n == 2 or rnd == 1:
            if n == 2:
                rng.shuffle(blues)
            for pos, code in zip(D.FIXED_BLUE, blues, strict=True):
                track[pos - 1] = code
        rng.shuffle(bag)
        free = [s for s in range(D.TRACK_LEN) if s + 1 not in D.FIXED_BLUE]
        if len(free) != len(bag):
            raise RuntimeError("chip count does not match the Main track")
        for s, code in zip(free, bag, strict=True):
            track[s] = code
    else:
        bag.extend(blues)
        rng.shuffle(bag)
        if len(bag) != D.TRACK_LEN:
            raise RuntimeError("chip count does not match the Main track")
        track[:] = bag


def _next_round(st: dict[str, Any]) -> None:
    """Next Round Preparation phase."""
    forest = st["forest"]
    for chip in forest["chips"]:
        if chip[1] >= 0:
            forest["birds"][chip[1]] += 1
            chip[1] = -1
    st["round"] += 1
    rng = Rng(st["rng"])
    _layout_round(st, rng)
    st["rng"] = rng.state
    for p in st["players"]:
        p["pos"] = 0
        p["done"] = False
        p["sec"] = 0
    if st["lucy"] is not None:
        st["lucy"]["pos"] = 0
        st["lucy"]["done"] = False


# ====================================================================== turn order


def _tokens(st: dict[str, Any]) -> list[dict[str, Any]]:
    toks = list(st["players"])
    if st["lucy"] is not None:
        toks.append(st["lucy"])
    return toks


def _lowest_free_slot(st: dict[str, Any]) -> int:
    taken = {t["slot"] for t in _tokens(st) if t["slot"] >= 0}
    for slot in range(D.STANDBY_SLOTS):
        if slot not in taken:
            return slot
    raise RuntimeError("no free Standby space")


def _occupied(st: dict[str, Any]) -> set[int]:
    return {t["pos"] for t in _tokens(st) if t["pos"] > 0}


def _to_standby(st: dict[str, Any], tok: dict[str, Any]) -> None:
    tok["slot"] = -1
    tok["pos"] = 0
    tok["slot"] = _lowest_free_slot(st)
    tok["done"] = True


def _lucy_move(st: dict[str, Any]) -> None:
    lucy = st["lucy"]
    occ = _occupied(st)
    for space in range(lucy["pos"] + 1, D.TRACK_LEN + 1):
        if space not in occ:
            lucy["pos"] = space
            lucy["slot"] = -1
            return
    _to_standby(st, lucy)


def _advance(st: dict[str, Any]) -> None:
    """Give the turn to the farthest-behind token (moving Lucy automatically)."""
    while True:
        players = st["players"]
        if all(p["done"] for p in players):
            lucy = st["lucy"]
            if lucy is not None and not lucy["done"]:
                _to_standby(st, lucy)
            if st["round"] >= st["rounds"]:
                st["phase"] = OVER
                st["turn"] = _new_turn(-1)
                return
            _next_round(st)
            continue
        best = -1
        best_key = 1 << 30
        for seat, p in enumerate(players):
            if not p["done"]:
                key = p["slot"] if p["pos"] == 0 else D.STANDBY_SLOTS + p["pos"]
                if key < best_key:
                    best, best_key = seat, key
        lucy = st["lucy"]
        if lucy is not None and not lucy["done"]:
            key = lucy["slot"] if lucy["pos"] == 0 else D.STANDBY_SLOTS + lucy["pos"]
            if key < best_key:
                _lucy_move(st)
                continue
        st["turn"] = _new_turn(best)
        return


# ====================================================================== legal


def _legal_turn(st: dict[str, Any], seat: int) -> list[Action]:
    t = st["turn"]
    p = st["players"][seat]
    if t["pending"]:
        return _legal_pending(st, p, t["pending"][0])
    out: list[Action] = []
    step = t["step"]
    if step == MOVE:
        _legal_move(st, seat, p, out)
    elif step == CHIP:
        if t["choice"]:
            return [A.CHOOSE_BIRD[b] for b in t["choice"]]
        chip = t["chip"]
        if D.BLUE_BASE <= chip < D.ORANGE_BASE:
            for ad in range(len(D.AD_IDS)):
                out.append(A.advertise(ad, ad_gain(p, ad)))
            _legal_specials(st, p, 0, out)
        elif not t["emp"]:
            for steps in _employee_options(p):
                out.append(A.MOVE_EMPLOYEE[steps])
        else:
            pbird = t["pbird"]
            adj = D.EMP_ADJ[p["emp"]] + ((D.AX,) if p["ax"] else ())
            areas = p["areas"]
            if pbird >= 0:
                for ai in adj:
                    if fits(areas[ai], pbird):
                        out.append(A.PLACE_BIRD[ai])
                out.append(A.RELEASE_BIRD)
            _legal_purchases(st, p, adj, out)
            if pbird < 0:
                if not t["space"]:
                    _legal_space(st, p, out)
                out.append(A.END_TURN)
    elif step == AFTER:
        if not t["space"]:
            _legal_space(st, p, out)
        out.append(A.END_TURN)
    else:  # STANDBY (solo): free actions after the Standby breeds
        out.append(A.END_TURN)
    _legal_free(st, p, out)
    return out


def _legal_move(st: dict[str, Any], seat: int, p: dict[str, Any], out: list[Action]) -> None:
    pos = p["pos"]
    occ = _occupied(st)
    track = st["track"]
    if st["n"] == 2:
        sec = p["sec"]
        k = 0
        while sec >> k & 1:
            k += 1
        if k < len(D.SECTIONS):
            start = D.SECTIONS[k][0]
            for space in range(pos + 1, D.TRACK_LEN + 1):
                if space in occ:
                    continue
                s_of = D.SECTION_OF[space]
                if s_of == k or (s_of < 0 and space < start):
                    out.append(A.move_owner(space, track[space - 1]))
            if not out:
                out.append(A.ENTER_STANDBY)
        else:
            out.append(A.ENTER_STANDBY)
        return
    for space in range(pos + 1, D.TRACK_LEN + 1):
        if space not in occ:
            out.append(A.move_owner(space, track[space - 1]))
    out.append(A.ENTER_STANDBY)


def _employee_options(p: dict[str, Any]) -> list[int]:
    income = event_income(p)
    opts = []
    for steps in range(D.EMP_MIN, D.EMP_MAX_TOTAL + 1):
        if _simulate_employee(p, steps, income) is not None:
            opts.append(steps)
    return opts


def _simulate_employee(p: dict[str, Any], steps: int, income: int) -> tuple[int, int] | None:
    """(final position, final funds) of an employee move, or None if unaffordable.
    Each extra step is paid before it is taken; Event income arrives on crossing."""
    funds = p["funds"]
    pos = p["emp"]
    for step in range(1, steps + 1):
        if step > D.EMP_MAX:
            cost = D.EMP_EXTRA[step - D.EMP_MAX - 1]
            if funds < cost:
                return None
            funds -= cost
        nxt = (pos + 1) % D.EMP_LEN
        if (pos, nxt) == D.ARROW:
            funds = min(D.FUNDS_MAX, funds + income)
        pos = nxt
    return pos, funds


def _legal_purchases(
    st: dict[str, Any], p: dict[str, Any], adj: tuple[int, ...], out: list[Action]
) -> None:
    funds = p["funds"]
    forest = st["forest"]
    areas = p["areas"]
    t = st["turn"]
    for ai in adj:
        a = areas[ai]
        if funds >= D.COST_NEST and forest["nests"] > 0 and not a["n"]:
            out.append(A.BUY_NEST[ai])
        if ai < D.NAREA and not a["t"] and not a["l"]:
            if funds >= D.COST_TREE and forest["trees"] > 0:
                out.append(A.BUY_TREE[ai])
            if funds >= D.COST_LAKE:
                out.append(A.BUY_LAKE[ai])
    if funds >= D.COST_FBIRD and t["fb"] < D.FBIRD_LIMIT:
        for bird in range(D.NB):
            if forest_has(st, bird):
                for ai in adj:
                    if fits(areas[ai], bird):
                        out.append(A.BUY_FOREST_BIRD[bird][ai])
    if not p["ax"] and funds >= D.COST_AX:
        for side in D.AX_SIDES:
            if side != "tree" or forest["trees"] > 0:
                out.append(A.BUY_AX[side])


def _legal_specials(st: dict[str, Any], p: dict[str, Any], discount: int, out: list) -> None:
    areas = p["areas"]
    for k in range(len(D.SPC)):
        if st["special"][k] <= 0:
            continue
        cost = max(0, D.SPECIAL_COST[k] - discount)
        if p["funds"] < cost:
            continue
        bird = D.NREG + k
        for ai in range(narea(p)):
            if fits(areas[ai], bird):
                out.append(A.buy_special(bird, ai, cost))


def _legal_space(st: dict[str, Any], p: dict[str, Any], out: list) -> None:
    for icon in icons_active(st, st["turn"]["land"]):
        if icon == "breed":
            if any(a["n"] and nest_egg_type(a["nb"]) >= 0 for a in p["areas"][: narea(p)]):
                out.append(A.BREED)
        elif icon == "purchase_special_bird":
            _legal_specials(st, p, 0, out)


def _legal_free(st: dict[str, Any], p: dict[str, Any], out: list) -> None:
    claimed = p["claimed"]
    if claimed != _ALL_SLOTS:
        tot = bird_totals(p)
        for slot, tile in enumerate(st["tiles"]):
            if not claimed >> slot & 1 and tile_ok(p, tile, tot):
                out.append(A.claim_milestone(slot, tile))
    nlock = st["turn"]["nlock"]
    areas = p["areas"]
    for ai in range(narea(p)):
        a = areas[ai]
        b = a["b"]
        row = A.BIRD_TO_FOREST[ai]
        for bird in range(D.NB):
            if b[bird]:
                out.append(row[bird])
        if ai < D.NAREA:
            if a["t"]:
                out.append(A.TREE_TO_FOREST[ai])
            if a["l"]:
                out.append(A.REFILL_LAKE[ai])
        if a["n"]:
            nb = a["nb"]
            lock = nlock[ai]
            if len(nb) < D.NEST_CAP:
                for bird in range(D.NB):
                    if b[bird] > nb.count(bird) and nest_pair_ok(nb, bird):
                        out.append(A.NEST_ADD[ai][bird])
            if not lock and nb:  # no removing after adding to this nest this turn
                for bird in sorted(set(nb)):
                    out.append(A.NEST_REMOVE[ai][bird])


def _legal_pending(st: dict[str, Any], p: dict[str, Any], entry: list) -> list[Action]:
    kind, amount = entry
    out: list[Action] = []
    areas = p["areas"]
    na = narea(p)
    if kind == "adjust":
        b = areas[amount]["b"]
        return [A.BIRD_TO_FOREST[amount][bird] for bird in range(D.NB) if b[bird]]
    if kind == "special":
        _legal_specials(st, p, amount, out)
        out.append(A.SKIP_BONUS)
        return out
    if kind == "bonus_bird":
        for bird in range(D.NREG):
            if st["bonus"][bird]:
                for ai in range(na):
                    if fits(areas[ai], bird):
                        out.append(A.BONUS_BIRD[bird][ai])
    elif kind == "elements":
        forest = st["forest"]
        for ai in range(na):
            a = areas[ai]
            if ai < D.NAREA and not a["t"] and not a["l"]:
                if forest["trees"] > 0:
                    out.append(A.BONUS_ELEMENT["tree"][ai])
                out.append(A.BONUS_ELEMENT["lake"][ai])
            if not a["n"] and forest["nests"] > 0:
                out.append(A.BONUS_ELEMENT["nest"][ai])
    elif kind == "egg" and st["eggs"] > 0:
        for bird in D.BOX_ICONS:
            if not p["box"][bird]:
                out.append(A.BONUS_EGG[bird])
    if not out:
        out.append(A.SKIP_BONUS)
    return out


# ====================================================================== effects


def _take_chip_bird(st: dict[str, Any], bird: int) -> None:
    st["supply"][bird] -= 1
    st["turn"]["pbird"] = bird


def _collect_egg(st: dict[str, Any], p: dict[str, Any], bird: int) -> None:
    """How to Collect Eggs: a new type takes a token, a known type moves the marker."""
    box = p["box"]
    if not box[bird]:
        if st["eggs"] > 0:
            box[bird] = 1
            st["eggs"] -= 1
    else:
        advance_egg(p, 1)


def breed(st: dict[str, Any], p: dict[str, Any]) -> None:
    """One breed action: every nest holding a breeding pair lays one egg."""
    for a in p["areas"][: narea(p)]:
        if a["n"]:
            egg = nest_egg_type(a["nb"])
            if egg >= 0:
                _collect_egg(st, p, egg)


def _gain_bonus(st: dict[str, Any], p: dict[str, Any], bonus: dict[str, Any]) -> None:
    kind = bonus["type"]
    pending = st["turn"]["pending"]
    if kind == "funds":
        gain_funds(p, bonus["amount"])
    elif kind == "special_bird_purchase":
        pending.append(["special", bonus["discount"]])
    elif kind == "bonus_bird":
        pending.append(["bonus_bird", 1])
    elif kind == "elements":
        pending.append(["elements", bonus["amount"]])
    elif kind == "golden_egg":
        if p["box"][D.GOLDEN]:
            advance_egg(p, 1)
        elif st["eggs"] > 0:
            p["box"][D.GOLDEN] = 1
            st["eggs"] -= 1
    elif kind == "egg_token_of_choice":
        if all(p["box"][b] for b in D.BOX_ICONS):
            advance_egg(p, 1)
        elif st["eggs"] > 0:
            pending.append(["egg", 1])
    elif kind == "egg_marker":
        advance_egg(p, bonus["amount"])
    else:  # pragma: no cover - data error
        raise ValueError(f"unknown bonus {kind}")


def _claim(st: dict[str, Any], seat: int, slot: int) -> None:
    p = st["players"][seat]
    p["claimed"] |= 1 << slot
    p["nclaimed"] += 1
    st["claims"][slot].append(seat)
    for li in D.SLOT_LINES[slot]:
        if all(p["claimed"] >> s & 1 for s in D.LINE_SLOTS[li]):
            early = D.LINE_EARLY[li]
            if early is not None and st["early"][li]:
                st["early"][li] = False
                bonus = early
            elif early is not None and st["n"] == 1:
                bonus = early  # solo: always the Early Bonus tile's bonus
            else:
                bonus = D.LINE_REGULAR[li]
            _gain_bonus(st, p, bonus)


def _remove_bird(a: dict[str, Any], bird: int) -> None:
    a["b"][bird] -= 1
    nb = a["nb"]
    if a["b"][bird] < nb.count(bird):
        nb.remove(bird)


def _check_shrink(st: dict[str, Any], ai: int, a: dict[str, Any]) -> None:
    if used(a) > capacity(a):
        st["turn"]["pending"].append(["adjust", ai])


def _end_turn(st: dict[str, Any]) -> None:
    _advance(st)


# ====================================================================== handlers


def _h_keep_event(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    """Setup step 15: keep one dealt Event card in secret; the other goes back to the
    box (``dealt`` still records the pair: its owner knows both). Once every seat
    has kept one, the kept cards are face up (:func:`hidden.events_revealed`) and
    play begins."""
    p = st["players"][seat]
    p["event"] = D.EVENT_INDEX[args["card"]]
    if hidden.events_revealed(st):
        st["phase"] = PLAY
        _advance(st)


def _h_move_owner(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    p = st["players"][seat]
    t = st["turn"]
    space = args["space"]
    p["pos"] = space
    p["slot"] = -1
    if st["n"] == 2 and D.SECTION_OF[space] >= 0:
        p["sec"] |= 1 << D.SECTION_OF[space]
    chip = st["track"][space - 1]
    t["land"] = space
    t["chip"] = chip
    if D.BLUE_BASE <= chip < D.ORANGE_BASE:
        if st["n"] == 1 and st["blue_down"][chip - D.BLUE_BASE]:
            t["step"] = AFTER  # a used solo chip: no chip action
        else:
            t["step"] = CHIP
        return
    t["step"] = CHIP
    birds = (chip,) if chip < D.BLUE_BASE else D.ORANGE[chip - D.ORANGE_BASE]
    avail = [b for b in birds if st["supply"][b] > 0]
    if len(avail) > 1:
        t["choice"] = avail
    elif avail:
        _take_chip_bird(st, avail[0])


def _h_enter_standby(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    """Move to Standby: the lowest free Standby space, out of this Action phase.

    Solo Rules, Moving to Standby (AMBIGUITIES 24): the breeds happen on entering,
    and Free Actions "may also be performed during a turn when you are transitioning
    to the Standby phase", so the turn stays open (step ``standby``) for free actions,
    such as a milestone those breeds just met, until ``end_turn``; after round 3 that
    is the last chance before final scoring. With more players nothing changes on
    entering Standby, so the turn ends at once (free actions came before it)."""
    p = st["players"][seat]
    _to_standby(st, p)
    if st["n"] == 1:
        for _ in range(D.SOLO_BREEDS.get(st["round"], 0)):
            breed(st, p)
        st["turn"]["step"] = STANDBY
        return
    _end_turn(st)


def _h_choose_chip_bird(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    st["turn"]["choice"] = []
    _take_chip_bird(st, D.BIDX[args["bird"]])


def _h_move_employee(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    p = st["players"][seat]
    result = _simulate_employee(p, args["steps"], event_income(p))
    assert result is not None
    p["emp"], p["funds"] = result
    st["turn"]["emp"] = True


def _h_place_bird(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    t = st["turn"]
    st["players"][seat]["areas"][args["area"]]["b"][t["pbird"]] += 1
    t["pbird"] = -1


def _h_release_bird(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    t = st["turn"]
    st["forest"]["birds"][t["pbird"]] += 1
    t["pbird"] = -1


def _h_buy_nest(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    p = st["players"][seat]
    p["funds"] -= D.COST_NEST
    st["forest"]["nests"] -= 1
    p["areas"][args["area"]]["n"] = 1


def _h_buy_tree(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    p = st["players"][seat]
    p["funds"] -= D.COST_TREE
    st["forest"]["trees"] -= 1
    p["areas"][args["area"]]["t"] = 1


def _h_buy_lake(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    p = st["players"][seat]
    p["funds"] -= D.COST_LAKE
    p["areas"][args["area"]]["l"] = 1


def _take_forest_bird(st: dict[str, Any], bird: int) -> None:
    forest = st["forest"]
    if forest["birds"][bird]:
        forest["birds"][bird] -= 1
        return
    for chip in forest["chips"]:
        if chip[1] == bird:
            chip[1] = -1  # not replenished
            return


def _h_buy_forest_bird(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    p = st["players"][seat]
    bird = D.BIDX[args["bird"]]
    p["funds"] -= D.COST_FBIRD
    _take_forest_bird(st, bird)
    p["areas"][args["area"]]["b"][bird] += 1
    st["turn"]["fb"] += 1


def _h_buy_additional_area(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    p = st["players"][seat]
    p["funds"] -= D.COST_AX
    side = args["side"]
    p["ax"] = side
    ax = p["areas"][D.AX]
    if side == "tree":
        st["forest"]["trees"] -= 1
        ax["t"] = 1
    else:
        ax["l"] = 1


def _flip_solo_blue(st: dict[str, Any]) -> None:
    chip = st["turn"]["chip"]
    if st["n"] == 1 and D.BLUE_BASE <= chip < D.ORANGE_BASE:
        st["blue_down"][chip - D.BLUE_BASE] = 1


def _h_advertise(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    p = st["players"][seat]
    gain_funds(p, ad_gain(p, D.AD_IDS.index(args["ad"])))
    _flip_solo_blue(st)
    st["turn"]["step"] = AFTER


def _h_buy_special(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    p = st["players"][seat]
    t = st["turn"]
    bird = D.BIDX[args["bird"]]
    k = bird - D.NREG
    cost = D.SPECIAL_COST[k]
    if t["pending"]:  # a birdcage bonus at a discount
        cost = max(0, cost - t["pending"][0][1])
        t["pending"].pop(0)
    elif t["step"] == CHIP and D.BLUE_BASE <= t["chip"] < D.ORANGE_BASE:  # blue chip action
        _flip_solo_blue(st)
        t["step"] = AFTER
    else:  # the space action
        t["space"] = True
        t["step"] = AFTER
    p["funds"] -= cost
    st["special"][k] -= 1
    p["areas"][args["area"]]["b"][bird] += 1


def _h_breed(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    breed(st, st["players"][seat])
    t = st["turn"]
    t["space"] = True
    t["step"] = AFTER


def _h_claim_milestone(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    _claim(st, seat, args["slot"])


def _h_bird_to_forest(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    p = st["players"][seat]
    ai = args["area"]
    a = p["areas"][ai]
    bird = D.BIDX[args["bird"]]
    _remove_bird(a, bird)
    st["forest"]["birds"][bird] += 1
    pending = st["turn"]["pending"]
    if pending and pending[0][0] == "adjust" and used(a) <= capacity(a):
        pending.pop(0)


def _h_tree_to_forest(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    ai = args["area"]
    a = st["players"][seat]["areas"][ai]
    a["t"] = 0
    st["forest"]["trees"] += 1
    _check_shrink(st, ai, a)


def _h_refill_lake(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    ai = args["area"]
    a = st["players"][seat]["areas"][ai]
    a["l"] = 0
    _check_shrink(st, ai, a)


def _h_nest_add(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    ai = args["area"]
    st["players"][seat]["areas"][ai]["nb"].append(D.BIDX[args["bird"]])
    st["turn"]["nlock"][ai] = 1


def _h_nest_remove(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    ai = args["area"]
    st["players"][seat]["areas"][ai]["nb"].remove(D.BIDX[args["bird"]])


def _h_bonus_bird(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    bird = D.BIDX[args["bird"]]
    st["bonus"][bird] = 0
    st["players"][seat]["areas"][args["area"]]["b"][bird] += 1
    st["turn"]["pending"].pop(0)


def _h_bonus_element(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    a = st["players"][seat]["areas"][args["area"]]
    element = args["element"]
    if element == "tree":
        st["forest"]["trees"] -= 1
        a["t"] = 1
    elif element == "lake":
        a["l"] = 1
    else:
        st["forest"]["nests"] -= 1
        a["n"] = 1
    pending = st["turn"]["pending"]
    pending[0][1] -= 1
    if pending[0][1] <= 0:
        pending.pop(0)


def _h_bonus_egg(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    st["players"][seat]["box"][D.BIDX[args["bird"]]] = 1
    st["eggs"] -= 1
    st["turn"]["pending"].pop(0)


def _h_skip_bonus(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    st["turn"]["pending"].pop(0)


def _h_end_turn(st: dict[str, Any], seat: int, args: dict[str, Any]) -> None:
    _end_turn(st)


_HANDLERS = {
    "keep_event": _h_keep_event,
    "move_owner": _h_move_owner,
    "enter_standby": _h_enter_standby,
    "choose_chip_bird": _h_choose_chip_bird,
    "move_employee": _h_move_employee,
    "place_bird": _h_place_bird,
    "release_bird": _h_release_bird,
    "buy_nest": _h_buy_nest,
    "buy_tree": _h_buy_tree,
    "buy_lake": _h_buy_lake,
    "buy_forest_bird": _h_buy_forest_bird,
    "buy_additional_area": _h_buy_additional_area,
    "advertise": _h_advertise,
    "buy_special": _h_buy_special,
    "breed": _h_breed,
    "claim_milestone": _h_claim_milestone,
    "bird_to_forest": _h_bird_to_forest,
    "tree_to_forest": _h_tree_to_forest,
    "refill_lake": _h_refill_lake,
    "nest_add": _h_nest_add,
    "nest_remove": _h_nest_remove,
    "bonus_bird": _h_bonus_bird,
    "bonus_element": _h_bonus_element,
    "bonus_egg": _h_bonus_egg,
    "skip_bonus": _h_skip_bonus,
    "end_turn": _h_end_turn,
}
