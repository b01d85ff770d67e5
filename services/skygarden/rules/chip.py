"""Resolving the chip of the space landed on: If the chip is green (or orange): take
its bird, move the Employee, place or release the bird, Additional Purchases; If the
chip is blue: see :mod:`.blue`."""

from __future__ import annotations

from typing import Any

from services.core.engine import Action

from . import actions as A
from . import data as D
from .aviary import fits
from .blue import legal_blue_chip
from .economy import employee_options, event_income, simulate_employee
from .purchases import legal_purchases
from .space import legal_space
from .state import GameState, Player


def take_chip_bird(st: GameState, bird: int) -> None:
    """If the chip is green: take the chip's bird from the supply; it waits to be
    placed (AMBIGUITIES 13: none when the supply is empty)."""
    st.supply[bird] -= 1
    st.turn.chip_bird = bird


def legal_chip_step(st: GameState, seat: int, p: Player, out: list[Action]) -> None:
    """On Your Turn, the chip: blue (If the chip is blue), else the Employee move first
    (If the chip is green), then placing the bird (Placement Rules; or releasing it,
    AMBIGUITIES 12) and Additional Purchases in any order, then the space action or
    the end of the turn."""
    t = st.turn
    chip = t.chip
    if D.BLUE_BASE <= chip < D.ORANGE_BASE:
        legal_blue_chip(st, p, out)
    elif not t.employee_moved:
        for steps in employee_options(p):
            out.append(A.MOVE_EMPLOYEE[steps])
    else:
        pbird = t.chip_bird
        adj = D.EMP_ADJ[p.employee] + ((D.AX,) if p.additional_area else ())
        areas = p.areas
        if pbird >= 0:
            for ai in adj:
                if fits(areas[ai], pbird):
                    out.append(A.PLACE_BIRD[ai])
            out.append(A.RELEASE_BIRD)
        legal_purchases(st, p, adj, out)
        if pbird < 0:
            if not t.space_action_used:
                legal_space(st, p, out)
            out.append(A.END_TURN)


def legal_chip_bird_choice(st: GameState) -> list[Action]:
    """If the chip is orange: with both of its birds in the supply, choose one."""
    return [A.CHOOSE_BIRD[b] for b in st.turn.bird_choice]


def choose_chip_bird(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """If the chip is orange: take the chosen bird of the chip."""
    st.turn.bird_choice = []
    take_chip_bird(st, D.BIDX[args["bird"]])


def move_employee(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """If the chip is green: move the Employee 1..5 spaces, paying the extra steps,
    with Event income on crossing the arrow (AMBIGUITIES 10)."""
    p = st.players[seat]
    result = simulate_employee(p, args["steps"], event_income(p))
    assert result is not None
    p.employee, p.funds = result
    st.turn.employee_moved = True


def place_bird(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """Placement Rules: the chip bird goes to an area the Employee feeds."""
    t = st.turn
    st.players[seat].areas[args["area"]].birds[t.chip_bird] += 1
    t.chip_bird = -1


def release_bird(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """Placement Rules: a chip bird not placed goes to the Forest board, never back to
    the supply (AMBIGUITIES 12)."""
    t = st.turn
    st.forest.birds[t.chip_bird] += 1
    t.chip_bird = -1
