"""No endless games: caps on decisions and on decisions without progress.

Each game defines what progress is in its rules package, in
``services/<game>/rules/progress.py``: a function ``progress(state)`` returning
a value that changes whenever the game moves towards its end (a card drawn or
played, a round over, a tile placed), and the caps ``DECISION_CAP`` (decisions
in a whole game) and ``NO_PROGRESS_CAP`` (consecutive decisions without a
change of ``progress``). A game that reaches a cap ends, scored as it stands,
with ``GAME_ENDING_DECISION_CAP`` or ``GAME_ENDING_NO_PROGRESS``. A game
without the module gets :data:`DEFAULT_DECISION_CAP` and its score totals as
progress with :data:`DEFAULT_NO_PROGRESS_CAP`. docs/games/<game>.md states each
game's caps.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import orjson

from services.core.engine import Engine
from services.core.lifecycle.record import DECISION_CAP, NO_PROGRESS, Life

DEFAULT_DECISION_CAP = 20_000
DEFAULT_NO_PROGRESS_CAP = 1_000


@dataclass(frozen=True, slots=True)
class Caps:
    """One game's caps and its progress measure."""

    decisions: int
    no_progress: int
    progress: Callable[[Any], Any]


@cache
def caps_for(engine: Engine[Any]) -> Caps:
    """The caps of ``engine``'s game (its rules package's ``progress`` module)."""
    try:
        module = importlib.import_module(f"services.{engine.name}.rules.progress")
    except ModuleNotFoundError:

        def totals(state: Any) -> Any:
            return [s.total for s in engine.score(state).seats]

        return Caps(DEFAULT_DECISION_CAP, DEFAULT_NO_PROGRESS_CAP, totals)
    return Caps(module.DECISION_CAP, module.NO_PROGRESS_CAP, module.progress)


def digest(value: Any) -> str:
    """A short stable digest of a progress value."""
    return hashlib.blake2b(orjson.dumps(value), digest_size=8).hexdigest()


def count_decision(life: Life, caps: Caps, state: Any) -> str:
    """Count one decision into ``life`` (its counters change) and return the
    ending a cap produces, or "" when the game goes on."""
    life.decisions += 1
    key = digest(caps.progress(state))
    if key == life.progress:
        life.idle += 1
    else:
        life.idle = 0
        life.progress = key
    if life.decisions >= caps.decisions:
        return DECISION_CAP
    if life.idle >= caps.no_progress:
        return NO_PROGRESS
    return ""
