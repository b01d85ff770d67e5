"""Hidden information: what a seat cannot see, and resampling it.

What a seat can see is exactly its view (``WingspanEngine.view``): the tray,
the draft, every board (birds, eggs, cached food, tucked-card counts), the
feeder, every food supply, the goals, the sizes of every pile and hand, its own
hand and bonus cards, its own setup deal and choices, its own bonus-card offer
while it decides, and every bonus card once the game is over. Everything else
is hidden from it:

* bird cards: the order and contents of the deck and of the discard pile
  (the view shows their sizes only), other seats' hands and setup deals, and
  which cards were tucked (tucked cards leave the game; only their count is
  kept);
* bonus cards: the order and contents of the bonus deck and its discard pile,
  other seats' bonus cards (until the game is over), their setup pairs, and
  another seat's bonus-card offer;
* other seats' secret setup choices (birds kept, food kept, bonus card kept)
  until every seat has chosen;
* the state of the generator.

:func:`determinize` redraws all of it.
"""

from __future__ import annotations

from services.core.engine.rng import Rng

from .state import OVER, P_PLACE, PLAY_PHASE, SETUP, State
from .storage import clone


def _deal(pool: list[int], at: int, size: int) -> tuple[list[int], int]:
    """The next ``size`` cards of ``pool`` from position ``at``."""
    end = at + size
    if end > len(pool):
        raise ValueError("state inconsistent: fewer unseen cards than hidden places")
    return pool[at:end], end


def determinize(
    s: State, seat: int | None, rng: Rng, birds: list[int], bonus_cards: list[int]
) -> State:
    """A copy of ``s`` in which everything ``seat`` cannot see (the module
    docstring lists it) is redrawn with ``rng``; ``seat=None`` (or a seat not in
    the game) is a spectator. ``birds`` and ``bonus_cards`` are the cards of
    this game's decks (they depend on the options).

    The unseen cards are the game's cards minus those the seat sees, put in
    sorted order and shuffled, then dealt to the hidden places in a fixed
    order: other seats' hands and setup deals (seat order), the discard pile,
    the deck; what remains stands for the tucked cards. Bonus cards likewise:
    other seats' bonus cards and setup pairs, another seat's offer, the bonus
    discard pile, the bonus deck (in a game every bonus card is in one of
    these places or seen, so none remain). Then other seats' secret setup choices are
    drawn from what their new deal allows (each dealt bird kept with even
    odds, a uniform choice of 5 minus that many foods; the first of the new
    bonus pair is the kept one), and the copy's generator is reseeded. Sizes
    (hands, piles, setup stages) are public and kept, so the seat's own legal
    actions are unchanged. The sample depends only on what the seat sees and
    on ``rng``. ``s`` is not changed.
    """
    n = s.players
    me = seat if seat is not None and 0 <= seat < n else -1
    final = s.phase == OVER
    c = clone(s)
    c.legal_cache = None
    others = [p for p in range(n) if p != me]

    # ---------------------------------------------------------- bird cards
    seen = set(s.tray)
    seen.update(s.draft)
    for rows in s.rows:
        for row in rows:
            seen.update(row)
    # a bird being played (removed from hand, its costs pending) is public
    seen.update(t.bird for t in s.stack if t.code == P_PLACE)
    if me >= 0:
        seen.update(s.hands[me])
        seen.update(s.setup_birds[me])
    pool = sorted(b for b in birds if b not in seen)
    rng.shuffle(pool)
    at = 0
    for p in others:
        c.hands[p], at = _deal(pool, at, len(s.hands[p]))
    for p in others:
        c.setup_birds[p], at = _deal(pool, at, len(s.setup_birds[p]))
    c.bird_discard, at = _deal(pool, at, len(s.bird_discard))
    c.bird_deck, at = _deal(pool, at, len(s.bird_deck))

    # --------------------------------------------------------- bonus cards
    offer_seen = (
        me >= 0 and bool(s.bonus_offer) and s.phase == PLAY_PHASE and s.stack[-1].seat == me
    )
    bonus_seen: set[int] = set()
    if final:
        for kept in s.bonus_cards:
            bonus_seen.update(kept)
    elif me >= 0:
        bonus_seen.update(s.bonus_cards[me])
    if me >= 0:
        bonus_seen.update(s.setup_bonus[me])
    if offer_seen:
        bonus_seen.update(s.bonus_offer)
    bpool = sorted(k for k in bonus_cards if k not in bonus_seen)
    rng.shuffle(bpool)
    at = 0
    if not final:
        for p in others:
            c.bonus_cards[p], at = _deal(bpool, at, len(s.bonus_cards[p]))
    for p in others:
        c.setup_bonus[p], at = _deal(bpool, at, len(s.setup_bonus[p]))
    if not offer_seen:
        c.bonus_offer, at = _deal(bpool, at, len(s.bonus_offer))
    c.bonus_discard, at = _deal(bpool, at, len(s.bonus_discard))
    c.bonus_deck, at = _deal(bpool, at, len(s.bonus_deck))

    # ------------------------------------------- secret setup choices
    if s.phase == SETUP:
        for p in others:
            stage = s.setup_stage[p]
            keep = [b for b in sorted(c.setup_birds[p]) if rng.below(2)] if stage >= 1 else []
            c.setup_kept[p] = keep
            if stage >= 2:
                c.setup_food[p] = sorted(rng.sample(range(5), 5 - len(keep)))
            else:
                c.setup_food[p] = []

    c.rng = Rng(rng.next_u64())
    return c
