"""Helpers for Birdscaping engine tests: build states by hand, act by kind."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from services.birdscaping.rules import ENGINE
from services.birdscaping.rules.cards import ID, KEY, N_CARDS, ROW_ENUM, ROWS
from services.birdscaping.rules.state import PLAY, S_CHOOSE, State
from services.core.engine import Action, Rng

ROW_ALIASES = {name: ROW_ENUM[i] for i, name in enumerate(ROWS)}


def ids(keys: Iterable[str]) -> list[int]:
    """Card keys -> card ids."""
    return [ID[k] for k in keys]


def make(
    players: int = 2,
    *,
    hands: Mapping[int, list[str]] | None = None,
    rows: Mapping[int, Mapping[str, list[str]]] | None = None,
    tilted: Iterable[str] = (),
    deck: list[str] | None = None,
    offer: list[str] | None = None,
    discard: list[str] | None = None,
    ai: list[str] | None = None,
    turn: int = 0,
    first: int = 0,
    round: int = 1,
    actions_left: int = 2,
    difficulty: str = "normal",
    seed: int = 7,
    fill_deck: bool = False,
) -> State:
    """A state in the play phase, at the start of ``turn``'s action choice.

    ``deck`` lists the top card first; ``discard`` bottom to top; ``offer``
    oldest (right-most) first. With ``fill_deck`` every card not placed
    elsewhere goes under the given deck cards (in id order).
    """
    s = State(players, difficulty, seed)
    s.phase = PLAY
    s.step = S_CHOOSE
    s.turn = turn
    s.first = first
    s.round = round
    s.actions_left = actions_left
    for seat, keys in (hands or {}).items():
        s.hands[seat] = ids(keys)
    for seat, by_row in (rows or {}).items():
        s.rows[seat] = [ids(by_row.get(name, [])) for name in ROWS]
    for key in tilted:
        s.tilt[ID[key]] = 1
    top_first = ids(deck or [])
    s.offer = ids(offer or [])
    s.discard = ids(discard or [])
    s.ai = ids(ai or [])
    if fill_deck:
        used = set(top_first) | set(s.offer) | set(s.discard) | set(s.ai)
        for hand in s.hands:
            used.update(hand)
        for seat_rows in s.rows:
            for row in seat_rows:
                used.update(row)
        rest = [c for c in range(N_CARDS) if c not in used]
        top_first = top_first + rest
    s.deck = list(reversed(top_first))
    placed = [*s.deck, *s.offer, *s.discard, *s.ai]
    for h in s.hands:
        placed.extend(h)
    for seat_rows in s.rows:
        for r in seat_rows:
            placed.extend(r)
    assert len(placed) == len(set(placed)), "a card was placed twice"
    return s


def _norm(value: Any) -> Any:
    if isinstance(value, str) and value in ROW_ALIASES:
        return ROW_ALIASES[value]
    if value == "nesting":
        return "AREA_NESTING"
    if value == "food":
        return "AREA_FOOD"
    return value


def find(s: State, seat: int, kind: str, **args: Any) -> Action | None:
    """The legal action of ``kind`` whose args include ``args`` (or None)."""
    wanted = {k: _norm(v) for k, v in args.items()}
    for action in ENGINE.legal(s, seat):
        if action.kind != kind:
            continue
        given = action.arg_dict()
        if all(given.get(k) == v for k, v in wanted.items()):
            return action
    return None


def act(s: State, seat: int, kind: str, **args: Any) -> State:
    """Apply the legal action matching ``kind``/``args``; fail loudly if absent."""
    action = find(s, seat, kind, **args)
    if action is None:
        legal = [(a.kind, a.arg_dict()) for a in ENGINE.legal(s, seat)]
        raise AssertionError(f"{kind} {args} not legal for seat {seat}; legal: {legal}")
    return ENGINE.apply(s, seat, action)


def kinds(s: State, seat: int) -> set[str]:
    """The set of legal action kinds."""
    return {a.kind for a in ENGINE.legal(s, seat)}


def legal_args(s: State, seat: int, kind: str, name: str = "card") -> list[Any]:
    """Values of arg ``name`` over the legal actions of ``kind``."""
    return [a.arg(name) for a in ENGINE.legal(s, seat) if a.kind == kind]


def hand(s: State, seat: int) -> list[str]:
    """Hand card keys."""
    return [KEY[c] for c in s.hands[seat]]


def row(s: State, seat: int, name: str) -> list[str]:
    """Row card keys, left to right."""
    return [KEY[c] for c in s.rows[seat][ROWS.index(name)]]


def deck_top_first(s: State) -> list[str]:
    """Deck card keys, top first."""
    return [KEY[c] for c in reversed(s.deck)]


def keys(cards: Iterable[int]) -> list[str]:
    """Card ids -> keys."""
    return [KEY[c] for c in cards]


def tilted(s: State, key: str) -> bool:
    """Is the card tilted?"""
    return bool(s.tilt[ID[key]])


def all_cards_accounted(s: State) -> bool:
    """Every card is in exactly one place."""
    places: list[int] = [*s.deck, *s.offer, *s.discard, *s.ai, *s.pend, *s.look]
    for h in s.hands:
        places.extend(h)
    for p in s.packets:
        places.extend(p)
    for seat_rows in s.rows:
        for r in seat_rows:
            places.extend(r)
    if s.set_aside >= 0:
        places.append(s.set_aside)
    if s.pay is not None:
        places.append(s.pay[0])
    return sorted(places) == list(range(N_CARDS))


def unseen_places(s: State, seat: int | None) -> list[tuple[list[int], int]]:
    """The places ``seat`` cannot see, listed here independently of the engine."""
    places = [(s.deck, i) for i in range(len(s.deck))]
    for other in range(s.players):
        if other != seat:
            for held in (s.hands[other], s.packets[other]):
                places += [(held, i) for i in range(len(held))]
    if s.phase != PLAY or s.turn != seat:
        places += [(s.look, i) for i in range(len(s.look))]
    return places


def same_game_other_secrets(s: State, seat: int | None, shift: int) -> State:
    """The game as ``seat`` knows it, with other hidden cards: each pool's cards in
    unseen places rotated by ``shift`` (what the other observers know moves with the
    cards), and another generator."""
    v = s.copy()
    me = s.players if seat is None else seat
    by_pool: dict[int, list[tuple[list[int], int]]] = {}
    for held, i in unseen_places(v, seat):
        pool = s.unseen[me][held[i]]
        if pool:
            by_pool.setdefault(pool, []).append((held, i))
    moved = list(range(N_CARDS))
    for places in by_pool.values():
        cards = [held[i] for held, i in places]
        rotated = cards[shift % len(cards) :] + cards[: shift % len(cards)]
        for (held, i), old, new in zip(places, cards, rotated, strict=True):
            held[i] = new
            moved[old] = new
    for observer, known in enumerate(s.unseen):
        if observer != me:
            for old, new in enumerate(moved):
                v.unseen[observer][new] = known[old]
    v.rng = Rng(0xDEADBEEF + shift)
    return v
