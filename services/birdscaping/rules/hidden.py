"""What a seat cannot see, and a state resampled from it (``determinize``).

Hidden places, for an observer (a seat, or ``None`` for a spectator): the deck
(its order and, after a reshuffle, which of its cards were drawn), every other
seat's hand and draft packet, and the cards a Woodpecker-like ability is
looking at when another seat uses it. Everything else is face up: tableaus with
their tilt, the offer, the discard pile, the AI column, the set-aside draft
card, pending discards and the payment under way.

Not every card in a hidden place is unknown: an observer remembers what it saw
go there. ``State.unseen[observer][card]`` keeps that knowledge: 0 when the
observer knows where the card is (it saw the card drafted from the offer or
taken from the discard pile into a hand, or it passed the draft packet the card
is in), otherwise the *pool* the card belongs to. Cards of one pool in hidden
places are the ones the observer cannot tell apart:

* pool ``deck_pool(r)``: the cards shuffled into the deck of round ``r``
  (round 1: the whole deck at setup; later rounds: the discard pile and the
  offer, all seen face up before the shuffle). A card drawn from the deck into
  a hand, or looked at by an ability, stays in its deck's pool for the others.
* pool ``draft_pool(pick, seat)``: a draft packet that ``seat`` keeps a card of
  at ``pick``, for the seat that passed it: the passer knows the packet's cards
  but not which one was kept (the draft choice is secret until the packets are
  passed on, when the missing card tells).

So after round 1's deck runs out, an opponent's hand cards drawn in round 1 form
a pool of their own: by elimination the observer knows which cards they are,
and a sample keeps them in that hand.
"""

from __future__ import annotations

from services.birdscaping.rules.state import PLAY, State
from services.core.engine import Rng

#: A hidden place: (the list holding it, its index).
Place = tuple[list[int], int]


def observer_index(s: State, seat: int | None) -> int:
    """Row of ``State.unseen`` for ``seat``: the seat itself, or the spectator's row."""
    return s.players if seat is None else seat


def hidden_places(s: State, seat: int | None) -> list[Place]:
    """The places ``seat`` cannot see, in a fixed order: the deck bottom to top,
    then each other seat's hand and draft packet, then the cards another seat is
    looking at."""
    places: list[Place] = [(s.deck, i) for i in range(len(s.deck))]
    for other in range(s.players):
        if other != seat:
            places += [(s.hands[other], i) for i in range(len(s.hands[other]))]
            places += [(s.packets[other], i) for i in range(len(s.packets[other]))]
    if not (s.phase == PLAY and seat == s.turn):
        places += [(s.look, i) for i in range(len(s.look))]
    return places


def pools(s: State, seat: int | None) -> dict[int, list[Place]]:
    """The hidden places of ``seat`` grouped by the pool of the card in each
    (places whose card ``seat`` knows are left out)."""
    known = s.unseen[observer_index(s, seat)]
    grouped: dict[int, list[Place]] = {}
    for place in hidden_places(s, seat):
        pool = known[place[0][place[1]]]
        if pool:
            grouped.setdefault(pool, []).append(place)
    return grouped


def determinize(s: State, seat: int | None, rng: Rng) -> State:
    """A copy of ``s`` whose hidden cards, as ``seat`` knows them, are redrawn.

    For each pool (lowest id first), its cards are sorted and shuffled with
    ``rng``, then dealt to the pool's places in :func:`hidden_places` order, so
    the sample depends only on what ``seat`` knows and on ``rng``. Other seats'
    hands and packets are then sorted (their order is theirs to know). What the
    other observers know moves with the cards (their ``unseen`` rows and the
    tilt flags are relabelled), so the copy is a state the game could be in.
    The copy's generator is reseeded from ``rng``; ``s`` is not changed.
    """
    copy = s.copy()
    relabel = list(range(len(s.tilt)))  # old card -> the card now in its place
    for _pool, places in sorted(pools(copy, seat).items()):
        cards = sorted(lst[i] for lst, i in places)
        drawn = cards.copy()
        rng.shuffle(drawn)
        for (lst, i), card in zip(places, drawn, strict=True):
            relabel[lst[i]] = card
            lst[i] = card
    for other in range(s.players):
        if other != seat:
            copy.hands[other].sort()
            copy.packets[other].sort()
    me = observer_index(s, seat)
    for observer, known in enumerate(s.unseen):
        if observer != me:
            moved = copy.unseen[observer]
            for old, new in enumerate(relabel):
                moved[new] = known[old]
    for old, new in enumerate(relabel):
        copy.tilt[new] = s.tilt[old]
    copy.rng = Rng(rng.next_u64())
    return copy


__all__ = ["determinize", "hidden_places", "observer_index", "pools"]
