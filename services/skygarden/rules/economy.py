"""Funds: the funds limit, the Employee's move and income, advertisements."""

from __future__ import annotations

from . import data as D
from .aviary import bird_totals
from .state import ELEMENT_COUNT, Player, narea


def gain_funds(p: Player, amount: int) -> None:
    """Funds: add funds; the excess over the maximum is lost."""
    p.funds = min(D.FUNDS_MAX, p.funds + amount)


def event_marker(p: Player) -> int:
    """Event Cards: the Event marker column, the complete sets in the Event areas
    (capped at the card); it goes down when birds leave (AMBIGUITIES 11)."""
    card = p.event_card
    if card < 0:
        return 0
    areas = p.areas
    sets = min(sum(areas[ai].birds[b] for ai in D.EVENT_AREAS) for b in D.EVENT_BIRDS[card])
    return min(sets, len(D.EVENT_INCOME[card]) - 1)


def event_income(p: Player) -> int:
    """Event Cards: funds the card pays now when the Employee passes the Event arrow
    (AMBIGUITIES 10)."""
    card = p.event_card
    if card < 0:
        return 0
    return D.EVENT_INCOME[card][event_marker(p)]


def simulate_employee(p: Player, steps: int, income: int) -> tuple[int, int] | None:
    """If the chip is green: (final position, final funds) of an Employee move, or
    None if unaffordable. Each extra step is paid before it is taken; Event income
    arrives on crossing the arrow and may pay the next steps (AMBIGUITIES 10)."""
    funds = p.funds
    pos = p.employee
    for step in range(1, steps + 1):
        if step > D.EMP_MAX:
            cost = D.EMP_EXTRA[step - D.EMP_MAX - 1]
            if funds < cost:
                return None
            funds -= cost
        nxt = (pos + 1) % D.EMP_LEN
        if (pos, nxt) == D.ARROW:
            funds = min(D.FUNDS_MAX, funds + income)
        pos = nxt
    return pos, funds


def employee_options(p: Player) -> list[int]:
    """If the chip is green: the Employee moves the player can afford (1..5 steps)."""
    income = event_income(p)
    opts = []
    for steps in range(D.EMP_MIN, D.EMP_MAX_TOTAL + 1):
        if simulate_employee(p, steps, income) is not None:
            opts.append(steps)
    return opts


def ad_gain(p: Player, ad: int) -> int:
    """If the chip is blue: funds one advertisement would give now (cap, then the
    special-bird boosts; AMBIGUITIES 22)."""
    tot = bird_totals(p)
    kind = D.AD_KIND[ad]
    birds = D.AD_BIRDS[ad]
    if kind == "pair_sets":
        gain = D.AD_PER[ad] * min(tot[b] for b in birds)
    elif kind == "product":
        gain = D.AD_PER[ad]
        for b in birds:
            gain *= tot[b]
    else:
        count = sum(tot[b] for b in birds)
        areas = p.areas[: narea(p)]
        for e in D.AD_ELEMENTS[ad]:
            count += sum(map(ELEMENT_COUNT[e], areas))
        gain = D.AD_PER[ad] * count
    gain = min(gain, D.AD_CAP[ad])
    for b, per in D.AD_BOOST.items():
        gain += per * tot[b]
    return gain
