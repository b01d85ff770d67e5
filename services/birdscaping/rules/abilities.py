"""1) Activate a Feature Row and the When Activated abilities (sections
1) Activate a Feature Row, 2) Bird Abilities; AMB 2, 8).

``WHEN_ACTIVATED`` maps each When Activated op (``cards.json``) to the function
that starts it, one function per ability. A starter returns True when the
ability waits for a decision (``State.step``); the activation resumes with
:func:`_finish_ability` once the decision is complete.
"""

from __future__ import annotations

from collections.abc import Callable

from services.birdscaping.rules import actions as A
from services.birdscaping.rules.actions import card_arg, row_arg
from services.birdscaping.rules.cards import (
    AFFECTS_OPPONENT,
    EFFECT,
    WA_OP,
    WHEN_ACTIVATED_OPS,
)
from services.birdscaping.rules.flow import check_deck, end_action, replenish
from services.birdscaping.rules.state import (
    OVER,
    S_ADISCARD,
    S_KEEP,
    S_KOFFER,
    S_NONE,
    S_OUNTILT,
    S_TILT,
    State,
    reveal,
)
from services.birdscaping.rules.tableau import row_of
from services.core.engine import Action

#: (state, acting seat, card activated) -> True if the ability waits for a decision.
AbilityStarter = Callable[[State, int, int], bool]


def activate_row(s: State, seat: int, action: Action) -> None:
    """1) Activate a Feature Row: activate the row's cards right-most first."""
    r = row_arg(action)
    s.act_row = r
    s.queue = list(s.rows[seat][r])  # popped from the end: right-most first
    _run_activation(s)


def _run_activation(s: State) -> None:
    """Tilt each upright card of the row in turn and resolve its When Activated
    ability before the next (section 2) Bird Abilities); already tilted cards
    are skipped (AMB 2)."""
    seat = s.turn
    while s.queue:
        c = s.queue.pop()
        if s.tilt[c]:
            continue  # AMB 2: already tilted cards are skipped
        s.tilt[c] = 1
        op = WA_OP[c]
        if op and WHEN_ACTIVATED[op](s, seat, c):
            return  # waiting for a decision
        if s.phase == OVER:
            return
    s.act_row = -1
    end_action(s)


def _finish_ability(s: State) -> None:
    """An ability that waited is resolved: a deck it emptied ends the round now
    (AMB 8), then the activation goes on."""
    s.ab_card = -1
    s.ab_left = 0
    s.step = S_NONE
    check_deck(s)  # AMB 8: a deck emptied by an ability ends the round now
    if s.phase == OVER:
        return
    _run_activation(s)


def tilt_targets(s: State, seat: int) -> list[int]:
    """Upright cards in rows other than the ability card's row (Great Tit, Bird
    Abilities)."""
    rows = s.rows[seat]
    own = row_of(rows, s.ab_card)
    return [c for r in range(3) if r != own for c in rows[r] if not s.tilt[c]]


# --------------------------------------------------------------------------- starters


def _draw_deck(s: State, seat: int, c: int) -> bool:
    """Robin (Bird Abilities): draw the top card(s) of the deck; an emptied deck ends the round
    after the ability (AMB 8)."""
    hand = s.hands[seat]
    for _ in range(int(EFFECT[c]["n"])):
        if s.deck:
            hand.append(s.deck.pop())
    check_deck(s)  # AMB 8
    return False


def _look_keep(s: State, seat: int, c: int) -> bool:
    """Woodpecker (Bird Abilities): look at the top cards of the deck, keep some, the rest go face
    up to the discard pile."""
    effect = EFFECT[c]
    look = []
    for _ in range(int(effect["look"])):
        if s.deck:
            look.append(s.deck.pop())
    if not look:
        return False
    s.look = look
    s.ab_card = c
    s.ab_left = int(effect["keep"])
    s.step = S_KEEP
    return True


def _take_discard_top(s: State, seat: int, c: int) -> bool:
    """Common Blackbird (Bird Abilities): take the top card(s) of the discard pile."""
    hand = s.hands[seat]
    for _ in range(int(EFFECT[c]["n"])):
        if s.discard:
            hand.append(s.discard.pop())
            reveal(s, hand[-1])
    return False


def _tilt_other(s: State, seat: int, c: int) -> bool:
    """Great Tit (Bird Abilities): tilt (without activating) an upright card of another row."""
    s.ab_card = c
    if not tilt_targets(s, seat):
        s.ab_card = -1
        return False
    s.ab_left = int(EFFECT[c]["n"])
    s.step = S_TILT
    return True


def _draft_offer(s: State, seat: int, c: int) -> bool:
    """Common Kingfisher (Bird Abilities): draft from the bird offer, replenished afterwards."""
    if not s.offer:
        return False
    s.ab_card = c
    s.ab_left = int(EFFECT[c]["n"])
    s.step = S_KOFFER
    return True


def _opponent_untilt(s: State, seat: int, c: int) -> bool:
    """Eurasian Sparrowhawk (Bird Abilities): the opponent untilts a tilted card of their choice;
    no effect in solo (Solo Mode: effects on the other player are ignored)."""
    if s.players == 1 and AFFECTS_OPPONENT[c]:
        return False
    opp = 1 - seat
    if not any(s.tilt[x] for row in s.rows[opp] for x in row):
        return False
    s.ab_card = c
    s.ab_left = int(EFFECT[c]["n"])
    s.step = S_OUNTILT
    return True


def _draw_then_discard(s: State, seat: int, c: int) -> bool:
    """Dunnock (Bird Abilities): draw the top card of the deck, then discard from the hand."""
    effect = EFFECT[c]
    hand = s.hands[seat]
    for _ in range(int(effect["draw"])):
        if s.deck:
            hand.append(s.deck.pop())
    if not hand:
        check_deck(s)
        return False
    s.ab_card = c
    s.ab_left = int(effect["discard"])
    s.step = S_ADISCARD
    return True


WHEN_ACTIVATED: dict[str, AbilityStarter] = {
    "draw_deck": _draw_deck,
    "look_keep": _look_keep,
    "take_discard_top": _take_discard_top,
    "tilt_other": _tilt_other,
    "draft_offer": _draft_offer,
    "opponent_untilt": _opponent_untilt,
    "draw_then_discard": _draw_then_discard,
}
if set(WHEN_ACTIVATED) != WHEN_ACTIVATED_OPS:  # pragma: no cover - a new op in cards.json
    raise ValueError("every When Activated op needs exactly one starter")


# --------------------------------------------------------------------------- decisions


def legal_keep(s: State, seat: int) -> list[Action]:
    """Woodpecker (Bird Abilities): keep any of the cards looked at."""
    return [A.ABILITY_KEEP[seat][c] for c in s.look]


def ability_keep(s: State, seat: int, action: Action) -> None:
    """Woodpecker (Bird Abilities): keep a card looked at; the rest go face up to
    the discard pile."""
    c = card_arg(action)
    s.look.remove(c)
    s.hands[seat].append(c)
    s.ab_left -= 1
    if s.ab_left > 0 and s.look:
        return
    s.discard.extend(s.look)
    s.look = []
    _finish_ability(s)


def legal_tilt(s: State, seat: int) -> list[Action]:
    """Great Tit (Bird Abilities): tilt any upright card of another row."""
    return [A.ABILITY_TILT[c] for c in tilt_targets(s, seat)]


def ability_tilt(s: State, seat: int, action: Action) -> None:
    """Great Tit (Bird Abilities): tilt the card chosen, without activating it (section 4)
    Important Terms, Tilt)."""
    s.tilt[card_arg(action)] = 1
    s.ab_left -= 1
    if s.ab_left > 0 and tilt_targets(s, seat):
        return
    _finish_ability(s)


def legal_take_offer(s: State, seat: int) -> list[Action]:
    """Common Kingfisher (Bird Abilities): take any offer card."""
    return [A.ABILITY_TAKE_OFFER[c] for c in s.offer]


def ability_take_offer(s: State, seat: int, action: Action) -> None:
    """Common Kingfisher (Bird Abilities): take the offer card chosen; the offer is replenished
    afterwards."""
    c = card_arg(action)
    s.offer.remove(c)
    s.hands[seat].append(c)
    reveal(s, c)
    s.ab_left -= 1
    if s.ab_left > 0 and s.offer:
        return
    replenish(s)
    _finish_ability(s)


def legal_discard(s: State, seat: int) -> list[Action]:
    """Dunnock (Bird Abilities): discard any hand card."""
    return [A.ABILITY_DISCARD[c] for c in s.hands[seat]]


def ability_discard(s: State, seat: int, action: Action) -> None:
    """Dunnock (Bird Abilities): discard the card chosen."""
    c = card_arg(action)
    s.hands[seat].remove(c)
    s.discard.append(c)
    s.ab_left -= 1
    if s.ab_left > 0 and s.hands[seat]:
        return
    _finish_ability(s)


def legal_opponent_untilt(s: State, seat: int) -> list[Action]:
    """Eurasian Sparrowhawk (Bird Abilities): the opponent untilts any of their tilted cards."""
    return [A.OPPONENT_UNTILT[c] for row in s.rows[seat] for c in row if s.tilt[c]]


def opponent_untilt(s: State, seat: int, action: Action) -> None:
    """Eurasian Sparrowhawk (Bird Abilities): the opponent's card is untilted, giving nothing
    (section 4) Important Terms, Untilt)."""
    s.tilt[card_arg(action)] = 0
    s.ab_left -= 1
    if s.ab_left > 0 and any(s.tilt[x] for row in s.rows[seat] for x in row):
        return
    _finish_ability(s)
