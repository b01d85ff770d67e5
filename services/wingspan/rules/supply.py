"""The feeder, the decks, the tray and eggs: small moves every rule uses."""

from __future__ import annotations

from .cards import (
    DUAL,
)
from .state import State


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
