"""The greedy bot's lookahead from its view: view -> engine state -> one turn ahead.

As the search bot does (:mod:`clients.bots.search.policy`), the seat's View is
read into an engine state by the game's observation builder and the engine's
legal list is checked against the server's; when they agree the lookahead
(:mod:`.lookahead`) chooses, and its index is an index into the server's list.
When they do not (a decision the builder does not rebuild), :meth:`choose`
returns None and the greedy bot uses the server's score previews.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from clients.bots.greedy import Potential, potential_of
from clients.bots.greedy.lookahead import choose
from clients.bots.search import builder
from clients.bots.search.policy import same_actions
from clients.bots.search.protoview import to_values


@dataclass
class Lookahead:
    """The lookahead of one game: its builder, its potential and a generator."""

    builder: ModuleType
    potential: Potential
    rng: random.Random
    #: Decisions the view could not be rebuilt for (the previews chose).
    misses: int = 0

    @classmethod
    def of(cls, game: str, rng: random.Random) -> Lookahead | None:
        """The lookahead of ``game``, or None when greedy plays on previews there."""
        potential = potential_of(game)
        module = builder(game)
        if potential is None or module is None:
            return None
        return cls(module, potential, rng)

    def choose(self, actions: Sequence[Any], view: Any) -> int | None:
        """The index of the best action (see the module docstring), or None."""
        values = to_values(view)
        seat = values["viewer_seat"]
        try:
            state = self.builder.build(values, seat)
        except (KeyError, ValueError, StopIteration, IndexError):
            self.misses += 1
            return None
        engine = self.builder.ENGINE
        if not same_actions(engine.legal(state, seat), actions):
            self.misses += 1
            return None
        return choose(engine, state, seat, self.rng, self.potential)
