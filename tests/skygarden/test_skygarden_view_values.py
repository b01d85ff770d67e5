"""Sky Garden views are values: applying a decision never changes a view handed
out earlier, and no view shares a container with the state (tests/view_values.py).
Seeds from 100 up play "busy" games that build up aviaries, so breeding,
milestones and bonuses (rare in uniform random play) show in the views too."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from skygarden_helpers import random_game_states

from services.skygarden.service import SPEC
from tests.view_values import ViewValues

BUSY_FROM = 100


class TestSkyGardenViewValues(ViewValues):
    """Sky Garden opts in to reusing unchanged view parts between Applies."""

    spec = SPEC
    seeds = (0, 1, 2, BUSY_FROM, BUSY_FROM + 1, BUSY_FROM + 2)

    def game(self, players: int, seed: int) -> Iterator[tuple[Any, int]]:
        for state, seat, _action in random_game_states(players, seed, busy=seed >= BUSY_FROM):
            yield state, seat
