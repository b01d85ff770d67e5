"""Sky Garden's hidden information: who sees which Event card, and the determinizer.

Everything in Sky Garden is on the table except:

* the two Event cards dealt to a seat (setup step 15): only their owner sees them,
  and the card the seat does not keep goes back to the box unseen by the others, for
  good;
* the Event card a seat keeps, until every seat has kept one: the choice is made by
  all the seats at once and in secret, then every kept card lies face up for everyone
  (spectators included);
* the generator, which draws each next round's Forest chips and Main track. The bag is
  empty after every layout, so no draw order is stored: the generator is all there is
  to hide about the rounds to come.

This module imports only the game data and the stored form, so the engine and the view both use it
without an import cycle.
"""

from __future__ import annotations

from typing import Any

from services.core.engine import Rng

from . import data as D
from . import storage
from .state import GameState


def events_revealed(st: GameState) -> bool:
    """Setup step 15: the kept Event cards are face up once every seat has kept one
    (the choice is simultaneous, so none is shown before the last seat has chosen)."""
    return all(p.event_card >= 0 for p in st.players)


def determinize(st: GameState, seat: int | None, rng: Rng) -> GameState:
    """A copy of ``st`` with everything ``seat`` cannot see resampled (the engine
    contract's ``determinize``; ``seat=None``: a spectator).

    The Event cards the viewer has not seen (every card of the game but the viewer's
    own dealt pair and the kept cards already face up) are put in a sorted pool,
    shuffled with ``rng`` and dealt again, in seat order, to every other seat:

    * before that seat has chosen, its two dealt cards;
    * after it has chosen in secret, its kept card and the one it returned to the box;
    * once the kept cards are face up, only the card it returned to the box.

    A seat's dealt pair is written in sorted order (the order it was dealt in is
    hidden too). Finally the copy's generator is reseeded from ``rng``. The result
    depends only on what the viewer sees and on ``rng``; the viewer's own cards, and
    so its legal actions, are unchanged; ``st`` is never changed.
    """
    sample = storage.decode(storage.encode(st))
    players = sample.players
    revealed = events_revealed(st)
    seen: set[int] = set()
    others: list[dict[str, Any]] = []
    for i, p in enumerate(players):
        if i == seat:
            seen.update(p.dealt_events)
            if p.event_card >= 0:
                seen.add(p.event_card)
        else:
            if revealed:
                seen.add(p.event_card)
            others.append(p)
    pool = sorted(set(range(len(D.EVENT_IDS))) - seen)
    rng.shuffle(pool)
    deal = D.EVENT_DEAL
    for p in others:
        if revealed:
            p.dealt_events = sorted([p.event_card, *(pool.pop() for _ in range(deal - 1))])
        else:
            drawn = [pool.pop() for _ in range(deal)]
            if p.event_card >= 0:  # kept in secret: which of its cards is unknown
                p.event_card = drawn[0]
            p.dealt_events = sorted(drawn)
    sample.rng = rng.next_u64()
    return sample
