"""Choosing an action (section Actions), and the two one-step actions:
4) Untilt a Card, 5) Draw a Card, and an action lost when none is possible."""

from __future__ import annotations

from services.birdscaping.rules import actions as A
from services.birdscaping.rules.actions import card_arg
from services.birdscaping.rules.cards import ALLOWED, CURIOUS, MAX_ROW, NO_SPEND, POND
from services.birdscaping.rules.flow import end_action
from services.birdscaping.rules.payment import can_play
from services.birdscaping.rules.state import State
from services.birdscaping.rules.tableau import curious_yield
from services.core.engine import Action


def legal_choose(s: State, seat: int) -> list[Action]:
    """The five actions (section Actions), in this order: activate a non-empty
    row; play a hand card into a compatible row it can be paid for; draft by
    discarding a hand card or spending a tilted Pond card; untilt a card; draw.
    With nothing possible and no deck the action is lost (AMB 10)."""
    out: list[Action] = []
    rows = s.rows[seat]
    tilt = s.tilt
    hand = s.hands[seat]
    for r in range(3):
        if rows[r]:
            out.append(A.ACTIVATE[r])
    play = A.PLAY[1 if s.players == 1 else 0]
    for c in hand:
        for r in ALLOWED[c]:
            if len(rows[r]) < MAX_ROW and can_play(s, seat, c, r):
                out.append(play[c][r][len(rows[r])])
    for c in hand:
        if CURIOUS[c] > 0:
            out.append(A.DRAFT_DISCARD[c])
    for c in rows[POND]:
        if tilt[c] and c not in NO_SPEND:
            y = curious_yield(s, seat, c)
            if y > 0:
                out.append(A.DRAFT_SPEND[c][y])
    for r in range(3):
        for c in rows[r]:
            if tilt[c]:
                out.append(A.UNTILT[c])
    if s.deck:
        out.append(A.DRAW)
    if not out:
        out.append(A.FORFEIT)  # AMB 10: nothing possible and no deck -> action lost
    return out


def untilt(s: State, seat: int, action: Action) -> None:
    """4) Untilt a Card: the card is upright again, giving nothing (AMB 1)."""
    s.tilt[card_arg(action)] = 0
    end_action(s)


def draw_card(s: State, seat: int, action: Action) -> None:
    """5) Draw a Card: take the top card of the deck."""
    s.hands[seat].append(s.deck.pop())
    end_action(s)


def forfeit_action(s: State, seat: int, action: Action) -> None:
    """AMB 10: no action possible and no deck to draw from: the action is lost."""
    end_action(s)
