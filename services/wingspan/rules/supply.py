"""The feeder, the decks, the tray and eggs: small moves every rule uses."""

from __future__ import annotations

from .cards import (
    DUAL,
)
from .state import State


def roll_feeder(s: State) -> None:
    """Roll all five dice into the birdfeeder.

    Summary 共通の場: the birdfeeder holds five dice."""
    below = s.rng.below
    s.feeder = [below(6), below(6), below(6), below(6), below(6)]


def may_reroll(feeder: list[int]) -> bool:
    """Summary ② 森林アクション (餌ダイス5個すべてを振り直す): the feeder may be rerolled when one
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
    predator never rolls all five against an empty feeder.

    Summary 森林アクション."""
    s.feeder.remove(face)
    if not s.feeder:
        roll_feeder(s)


def take_all_dice(s: State, food: int) -> int:
    """Every die that can give ``food`` leaves the feeder (the invertebrate/seed
    face counts for either); returns how many. As in :func:`take_die`, an
    emptied feeder is rolled again at once.

    Summary 森林アクション."""
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
    empty); -1 when both are empty.

    Summary 湿地アクション: an empty deck is made again from the shuffled discard pile."""
    deck = s.bird_deck
    if not deck:
        if not s.bird_discard:
            return -1
        deck.extend(s.bird_discard)
        s.bird_discard = []
        s.rng.shuffle(deck)
    return deck.pop()


def can_draw(s: State) -> bool:
    """Whether a card can still be drawn (summary 湿地アクション: deck, else the reshuffled discard
    pile)."""
    return bool(s.bird_deck or s.bird_discard)


def refill_tray(s: State) -> None:
    """Fill the tray back to three cards (summary 湿地アクション: refilled at
    the end of the turn)."""
    tray = s.tray
    while len(tray) < 3:
        c = draw_top(s)
        if c < 0:
            return
        tray.append(c)


def draw_bonus(s: State) -> int:
    """Top card of the bonus deck, reshuffling its discard pile when empty; -1 when both are
    empty (summary 能力: powers that draw bonus cards)."""
    if not s.bonus_deck:
        if not s.bonus_discard:
            return -1
        s.bonus_deck = s.bonus_discard
        s.bonus_discard = []
        s.rng.shuffle(s.bonus_deck)
    return s.bonus_deck.pop()


def add_egg(s: State, seat: int, b: int) -> None:
    """One egg on bird ``b`` of ``seat`` (summary 卵の上限: the caller checks the limit)."""
    s.eggs[b] += 1
    s.eggs_by_seat[seat] += 1


def habitat_of(s: State, seat: int, b: int) -> int:
    """The habitat (row) bird ``b`` sits in on ``seat``'s board, -1 if none (summary
    手札の鳥カードをプレイする)."""
    rows = s.rows[seat]
    for h in range(3):
        if b in rows[h]:
            return h
    return -1
