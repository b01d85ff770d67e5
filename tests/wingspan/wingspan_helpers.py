"""Builders for hand-made Wingspan states used by the rule and power tests."""

from __future__ import annotations

from collections.abc import Callable

from services.core.engine.contract import Action
from services.wingspan.rules import ENGINE, scenario
from services.wingspan.rules.cards import BIRD_BY_NAME, FOOD_NAMES, HAB_NAMES, NB
from services.wingspan.rules.state import State
from services.wingspan.rules.supply import habitat_of

E = ENGINE


def bird(name: str) -> int:
    return BIRD_BY_NAME[name]


def fresh(n: int = 2, seed: int = 1, **options) -> State:
    """A game just past setup, with empty boards, hands and food, seat 0 to
    play its first turn of round 1 (the deck keeps every other card)."""
    s = E.setup(n, options, seed)
    while s.phase == 0:
        for seat in E.to_act(s):
            E.apply(s, seat, E.legal(s, seat)[0])
    for p in range(n):
        s.bird_deck.extend(s.hands[p])
        s.hands[p] = []
        s.food[p] = [0] * 5
        s.rows[p] = [[], [], []]
        s.bonus_cards[p] = []
        s.pink_birds[p] = []
        s.eggs_by_seat[p] = 0
    s.eggs = [0] * NB
    s.cached_food = [0] * NB
    s.tucked = [0] * NB
    s.pink_used = [0] * NB
    s.first_player = 0
    scenario.start_turn(s, 0)
    return s


def take_from_deck(s: State, b: int) -> None:
    """Remove card ``b`` wherever it is in the deck, tray or discard pile."""
    for pile in (s.bird_deck, s.tray, s.bird_discard):
        if b in pile:
            pile.remove(b)


def put(s: State, seat: int, name: str | int, hab: str | int | None = None, eggs: int = 0) -> int:
    """Place a bird on a seat's board (first habitat it allows unless given)."""
    from services.wingspan.rules.cards import COLOR, HABS, PINK

    b = bird(name) if isinstance(name, str) else name
    take_from_deck(s, b)
    for p in range(s.players):
        if b in s.hands[p]:
            s.hands[p].remove(b)
    h = HABS[b][0] if hab is None else (HAB_NAMES.index(hab) if isinstance(hab, str) else hab)
    s.rows[seat][h].append(b)
    s.eggs[b] = eggs
    s.eggs_by_seat[seat] += eggs
    if COLOR[b] == PINK:
        s.pink_birds[seat].append(b)
    s.decisions += 1
    return b


def hand(s: State, seat: int, *names: str | int) -> list[int]:
    out = []
    for name in names:
        b = bird(name) if isinstance(name, str) else name
        take_from_deck(s, b)
        s.hands[seat].append(b)
        out.append(b)
    s.decisions += 1
    return out


def food(s: State, seat: int, **counts: int) -> None:
    s.food[seat] = [counts.get(f, 0) for f in FOOD_NAMES]
    s.decisions += 1


def activate(s: State, seat: int, b: int) -> None:
    """Activate the brown power of ``b`` (it must be leftmost in its row, so
    no other bird activates) on top of the pending decision."""
    h = habitat_of(s, seat, b)
    assert s.rows[seat][h].index(b) == 0, "activate() needs the bird leftmost"
    scenario.activate_row(s, seat, h)


def kinds(s: State, seat: int | None = None) -> list[str]:
    seat = E.to_act(s)[0] if seat is None else seat
    return [a.kind for a in E.legal(s, seat)]


def pick(s: State, pred: Callable[[Action], bool] | str, seat: int | None = None) -> Action:
    """Apply the first legal action matching ``pred`` (a kind or a predicate)."""
    seat = E.to_act(s)[0] if seat is None else seat
    acts = E.legal(s, seat)
    test = (lambda a: a.kind == pred) if isinstance(pred, str) else pred
    for a in acts:
        if test(a):
            E.apply(s, seat, a)
            return a
    raise AssertionError(f"no legal action matches; legal: {[a.label for a in acts]}")


def arg_is(kind: str, **args) -> Callable[[Action], bool]:
    def test(a: Action) -> bool:
        return a.kind == kind and all(a.arg(k) == v for k, v in args.items())

    return test


def decision(s: State) -> tuple[str, int]:
    """The pending decision as the engine's view shows it: its kind (the proto
    enum name, ``"DECISION_KIND_TURN"``) and the seat to decide."""
    shown = E.view(s, None)["decision"]
    return shown["kind"], shown["seat"]


def at_turn(s: State, seat: int = 0) -> bool:
    """The state waits for ``seat``'s turn choice."""
    return decision(s) == ("DECISION_KIND_TURN", seat)


def play(s: State, seat: int, name: str | int, hab: str | int | None = None) -> int:
    """Play a bird from hand as the turn's action, giving the seat exactly the
    food it costs (a wild token paid as a seed)."""
    from services.wingspan.rules.cards import COST, HABS, MODE, MODE_AND, MODE_OR, WILD

    b = bird(name) if isinstance(name, str) else name
    hand(s, seat, b)
    f = [0] * 5
    if MODE[b] == MODE_AND:
        f = list(COST[b])
        f[1] += WILD[b]
    elif MODE[b] == MODE_OR:
        f[next(i for i in range(5) if COST[b][i])] = 1
    s.food[seat] = f
    s.decisions += 1
    h = HABS[b][0] if hab is None else (HAB_NAMES.index(hab) if isinstance(hab, str) else hab)
    pick(s, arg_is("play_bird", bird=b, habitat="HABITAT_" + HAB_NAMES[h].upper()), seat)
    return b


def owl_decision(seed: int, qualifies: bool) -> State:
    """Seat 0 of a 2-player game is asked whether to use Barred Owl ("look at
    the top card of the deck; tuck it if its wingspan is under 75 cm"), the
    real top card chosen to qualify or not; for one seed the two states differ
    only in that hidden card order."""
    from services.wingspan.rules.cards import WINGSPAN

    s = fresh(2, seed)
    owl = put(s, 0, "Barred Owl", "forest")
    small = sorted(b for b in s.bird_deck if WINGSPAN[b] < 75)
    large = sorted(b for b in s.bird_deck if WINGSPAN[b] >= 75)
    card = small[seed % len(small)] if qualifies else large[seed % len(large)]
    s.bird_deck.remove(card)
    s.bird_deck.append(card)
    activate(s, 0, owl)
    assert [a.kind for a in E.legal(s, 0)] == ["use_power", "decline"]
    return s
