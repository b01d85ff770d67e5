"""3) Draft Cards (section 3) Draft Cards; AMB 6, 7): pay with one hand card or
with tilted Pond cards, then take up to that many curious birds from the offer,
the top of the discard pile or the top of the deck."""

from __future__ import annotations

from services.birdscaping.rules import actions as A
from services.birdscaping.rules.actions import card_arg
from services.birdscaping.rules.cards import CURIOUS, POND
from services.birdscaping.rules.flow import end_action
from services.birdscaping.rules.state import S_DSPEND, S_DTAKE, State, reveal
from services.birdscaping.rules.tableau import curious_yield, spendable
from services.core.engine import Action


def legal_take(s: State, seat: int) -> list[Action]:
    """Take from the offer, the top of the discard pile or the deck, or stop
    (drafting is "up to" the curious birds paid, AMB 6)."""
    out = [A.DRAFT_OFFER[c] for c in s.offer]
    if s.discard:
        out.append(A.DRAFT_DISCARD_TOP[s.discard[-1]])
    if s.deck:
        out.append(A.DRAFT_DECK)
    out.append(A.DRAFT_STOP)
    return out


def legal_spend(s: State, seat: int) -> list[Action]:
    """Spend another tilted Pond card that gives curious birds (AMB 3), or
    start drafting."""
    out = []
    for c in s.rows[seat][POND]:
        if spendable(s, c):
            y = curious_yield(s, seat, c)
            if y > 0:
                out.append(A.DRAFT_SPEND[c][y])
    out.append(A.DRAFT_SPEND_DONE)
    return out


def draft_discard(s: State, seat: int, action: Action) -> None:
    """Pay with one hand card: its curious birds; the card is set aside and goes
    on the discard pile after the draft (AMB 6)."""
    c = card_arg(action)
    s.hands[seat].remove(c)
    s.set_aside = c
    s.draft_left = CURIOUS[c]
    _continue(s)


def draft_spend(s: State, seat: int, action: Action) -> None:
    """Draft Cards, payment 2: spend a tilted Pond card (any number of them, never
    with a hand card too)."""
    c = card_arg(action)
    s.draft_left += curious_yield(s, seat, c)
    s.tilt[c] = 0
    s.step = S_DSPEND


def draft_spend_done(s: State, seat: int, action: Action) -> None:
    """Draft Cards: stop spending Pond cards and start taking cards."""
    _continue(s)


def draft_from_offer(s: State, seat: int, action: Action) -> None:
    """Take an offer card; the offer is refilled only after the whole action
    (AMB 6)."""
    c = card_arg(action)
    s.offer.remove(c)
    s.hands[seat].append(c)
    reveal(s, c)
    s.draft_left -= 1
    _continue(s)


def draft_from_discard(s: State, seat: int, action: Action) -> None:
    """Take the top card of the discard pile (from the top down, AMB 6)."""
    s.hands[seat].append(s.discard.pop())
    reveal(s, s.hands[seat][-1])
    s.draft_left -= 1
    _continue(s)


def draft_from_deck(s: State, seat: int, action: Action) -> None:
    """Take the top card of the deck; no reshuffle until the action ends (AMB 7)."""
    s.hands[seat].append(s.deck.pop())
    s.draft_left -= 1
    _continue(s)


def draft_stop(s: State, seat: int, action: Action) -> None:
    """Stop drafting before every curious bird is used (AMB 6: "up to")."""
    _finish(s)


def _continue(s: State) -> None:
    """Draft Cards: another pick while curious birds remain and a card is left to
    take (AMB 6)."""
    if s.draft_left <= 0 or not (s.offer or s.discard or s.deck):
        _finish(s)
    else:
        s.step = S_DTAKE


def _finish(s: State) -> None:
    """The set-aside card goes on the discard pile, then the action ends (AMB 6)."""
    if s.set_aside >= 0:
        s.discard.append(s.set_aside)
        s.set_aside = -1
    s.draft_left = 0
    end_action(s)
