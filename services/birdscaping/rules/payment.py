"""2) Play a Card (sections Paying Food Costs, Paying Nesting Area Costs,
Feature Row Restrictions): what a card costs, whether it can still be paid,
paying one source at a time, and ordering the discards of an action.

A payment under way is ``State.pay``: ``[card, row, nest_need, nest_paid,
seed, insect, fruit, food_discount]``.
"""

from __future__ import annotations

from services.birdscaping.rules import actions as A
from services.birdscaping.rules.actions import area_arg, card_arg, row_arg
from services.birdscaping.rules.cards import (
    COST_TERMS,
    FOOD,
    FOOD_DISCOUNT,
    FOOD_N,
    GARDEN,
    MAX_ROW,
    NO_SPEND,
    SCORING_ROWS,
    SELF_NEST_COST,
    TREES,
    food_short,
)
from services.birdscaping.rules.flow import end_action
from services.birdscaping.rules.state import S_ORDER, S_PAY, State
from services.birdscaping.rules.tableau import in_tableau, nest_yield, spendable
from services.core.engine import Action


def play_terms(s: State, seat: int, card: int, row: int) -> tuple[int, int]:
    """(nesting cost, food icons waived) of playing ``card`` into ``row``: the
    column number (AMB 5) unless the card replaces it (House Sparrow, AMB 17),
    less the Eurasian Jay's discount (section 2) Bird Abilities, Ongoing)."""
    nest = SELF_NEST_COST.get(card, len(s.rows[seat][row]) + 1)
    discount = 0
    for source, (drow, icons, exclude_self) in FOOD_DISCOUNT.items():
        if (
            drow == row
            and not (exclude_self and source == card)
            and in_tableau(s.rows[seat], source)
        ):
            discount += icons
    return nest, discount


def feasible(
    s: State,
    seat: int,
    card: int,
    discount: int,
    nest_rem: int,
    fs: int,
    fi: int,
    ff: int,
    skip: int = -1,
) -> bool:
    """Can the remaining cost still be paid from the hand and tilted cards?
    (Paying Food Costs / Paying Nesting Area Costs: a card discarded from hand
    gives one area only; AMB 4: Trees give nesting, Garden food.)

    ``skip`` is a source already used by the step being tested. All tilted
    Trees and Garden cards are assumed spent; each hand card is either
    discarded for nesting or for food (2^h splits, h = hand size).
    """
    rows = s.rows[seat]
    tilt = s.tilt
    if nest_rem > 0:
        for c in rows[TREES]:
            if tilt[c] and c != skip and c not in NO_SPEND:
                nest_rem -= nest_yield(s, seat, c)
    for c in rows[GARDEN]:
        if tilt[c] and c != skip and c not in NO_SPEND:
            a, b, d = FOOD[c]
            fs += a
            fi += b
            ff += d
    terms = COST_TERMS[card]
    nesters: list[tuple[int, int, int, int]] = []
    for c in s.hands[seat]:
        if c == skip:
            continue
        a, b, d = FOOD[c]
        fs += a
        fi += b
        ff += d
        if nest_rem > 0:
            y = nest_yield(s, seat, c)
            if y > 0:
                nesters.append((y, a, b, d))
    if nest_rem <= 0:
        return food_short(terms, fs, fi, ff) <= discount
    if sum(n[0] for n in nesters) < nest_rem:
        return False
    count = len(nesters)
    for mask in range(1, 1 << count):
        nest = 0
        s2, i2, f2 = fs, fi, ff
        for j in range(count):
            if mask >> j & 1:
                y, a, b, d = nesters[j]
                nest += y
                s2 -= a
                i2 -= b
                f2 -= d
        if nest >= nest_rem and food_short(terms, s2, i2, f2) <= discount:
            return True
    return False


def can_play(s: State, seat: int, card: int, row: int) -> bool:
    """Is Play a Card with ``card`` into ``row`` possible now: a free space (at
    most 4 cards a row, section 1) Player Tableaus) and the cost payable?"""
    if len(s.rows[seat][row]) >= MAX_ROW:
        return False
    nest, discount = play_terms(s, seat, card, row)
    return feasible(s, seat, card, discount, nest, 0, 0, 0, skip=card)


def legal_pay(s: State, seat: int) -> list[Action]:
    """Payment sources that contribute and keep the rest payable (AMB 3, 4):
    hand cards discarded for nesting or food, tilted Trees spent for nesting,
    tilted Garden cards spent for food."""
    card, _row, need, have, fs, fi, ff, discount = s.pay  # type: ignore[misc]
    nest_rem = need - have
    terms = COST_TERMS[card]
    short = food_short(terms, fs, fi, ff)
    food_open = short > discount
    out: list[Action] = []
    for c in s.hands[seat]:
        if nest_rem > 0:
            y = nest_yield(s, seat, c)
            if y > 0 and feasible(s, seat, card, discount, nest_rem - y, fs, fi, ff, c):
                out.append(A.PAY_NEST[c][y])
        if food_open and FOOD_N[c]:
            a, b, d = FOOD[c]
            if food_short(terms, fs + a, fi + b, ff + d) < short and feasible(
                s, seat, card, discount, nest_rem, fs + a, fi + b, ff + d, c
            ):
                out.append(A.PAY_FOOD[c])
    rows = s.rows[seat]
    if nest_rem > 0:
        for c in rows[TREES]:
            if spendable(s, c):
                y = nest_yield(s, seat, c)
                if y > 0 and feasible(s, seat, card, discount, nest_rem - y, fs, fi, ff, c):
                    out.append(A.SPEND_NEST[c][y])
    if food_open:
        for c in rows[GARDEN]:
            if spendable(s, c) and FOOD_N[c]:
                a, b, d = FOOD[c]
                if food_short(terms, fs + a, fi + b, ff + d) < short and feasible(
                    s, seat, card, discount, nest_rem, fs + a, fi + b, ff + d, c
                ):
                    out.append(A.SPEND_FOOD[c])
    return out


def play_card(s: State, seat: int, action: Action) -> None:
    """2) Play a Card: the card leaves the hand and its payment starts (Feature
    Row Restrictions were checked by the legal list)."""
    c = card_arg(action)
    r = row_arg(action)
    nest, discount = play_terms(s, seat, c, r)
    s.hands[seat].remove(c)
    s.pay = [c, r, nest, 0, 0, 0, 0, discount]
    s.step = S_PAY
    _check_paid(s, seat)


def pay_discard(s: State, seat: int, action: Action) -> None:
    """Discard a hand card for its nesting areas or its food, one area only
    (Paying Food Costs: IMPORTANT); it waits among the action's discards."""
    c = card_arg(action)
    pay = s.pay
    assert pay is not None
    if area_arg(action) == "AREA_NESTING":
        pay[3] += nest_yield(s, seat, c)
    else:
        a, b, d = FOOD[c]
        pay[4] += a
        pay[5] += b
        pay[6] += d
    s.hands[seat].remove(c)
    s.pend.append(c)
    _check_paid(s, seat)


def pay_spend(s: State, seat: int, action: Action) -> None:
    """Spend a tilted card: Trees for nesting, Garden for food (AMB 1, 4)."""
    c = card_arg(action)
    pay = s.pay
    assert pay is not None
    if c in s.rows[seat][TREES]:
        pay[3] += nest_yield(s, seat, c)
    else:
        a, b, d = FOOD[c]
        pay[4] += a
        pay[5] += b
        pay[6] += d
    s.tilt[c] = 0
    _check_paid(s, seat)


def _check_paid(s: State, seat: int) -> None:
    """Once paid, the bird goes to the left-most open space of its row, upright
    (Feature Row Restrictions; AMB 5); a Scoring bird played where it can score
    is announced (section 2) Play a Card)."""
    pay = s.pay
    assert pay is not None
    c, r, need, have, fs, fi, ff, discount = pay
    if have < need or food_short(COST_TERMS[c], fs, fi, ff) > discount:
        return
    s.rows[seat][r].append(c)
    s.tilt[c] = 0
    s.pay = None
    if s.players == 2 and r in SCORING_ROWS[c]:
        s.announcements.append([seat, c, r, s.round])
    _settle_discards(s)


def _settle_discards(s: State) -> None:
    """Discards of one action go on the pile in the order the player picks
    (section 3) Discarding Cards and Replenishing the Bird Offer)."""
    if len(s.pend) >= 2:
        s.step = S_ORDER
        return
    s.discard.extend(s.pend)
    s.pend = []
    end_action(s)


def legal_order(s: State, seat: int) -> list[Action]:
    """Any pending discard may go on the pile next (Discarding Cards and
    Replenishing the Bird Offer)."""
    return [A.ORDER[c] for c in s.pend]


def order_discard(s: State, seat: int, action: Action) -> None:
    """Put one of the action's discards on the pile; the last one follows by
    itself (section 3) Discarding Cards and Replenishing the Bird Offer)."""
    c = card_arg(action)
    s.pend.remove(c)
    s.discard.append(c)
    if len(s.pend) >= 2:
        return
    s.discard.extend(s.pend)
    s.pend = []
    end_action(s)
