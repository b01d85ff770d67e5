"""Decisions that run another power: activate a power, repeat a power."""

from __future__ import annotations

from .acts import (
    DECLINE,
    REPEAT,
    USE,
)
from .cards import (
    BROWN,
    COLOR,
    PREDATOR,
    TEMPLATE,
)
from .power_table import EFFECT
from .power_tasks import Activate, Repeat
from .powers_board import REPEATERS
from .state import (
    State,
)
from .supply import habitat_of


def lg_activate(s: State, t: Activate) -> list:
    """Summary 能力: use the power or skip it."""
    return [USE[t.bird], DECLINE]


def ap_activate(s: State, t: Activate, a) -> None:
    """Summary 能力: the power runs only if used."""
    s.stack.pop()
    if a.kind == "use_power":
        EFFECT[t.bird](s, t.seat, t.bird)


def lg_repeat(s: State, t: Repeat) -> list:
    """Summary 起動時 (rules choice 9): another brown power of the row."""
    seat, b, pred = t.seat, t.bird, t.predators_only
    h = habitat_of(s, seat, b)
    acts = [
        REPEAT[x]
        for x in s.rows[seat][h]
        if x != b
        and COLOR[x] == BROWN
        and TEMPLATE[x] not in REPEATERS
        and (not pred or PREDATOR[x])
    ]
    if acts:
        acts.append(DECLINE)
    return acts


def ap_repeat(s: State, t: Repeat, a) -> None:
    """Summary 起動時 (rules choice 9): the chosen power runs again, for its own bird."""
    s.stack.pop()
    if a.kind == "decline":
        return
    x = a.arg("bird")
    EFFECT[x](s, t.seat, x)
