"""The greedy bot (:class:`GreedyPolicy`) and its lookahead from its view:
view -> engine state -> one turn ahead.

As the search bot does (:mod:`clients.bots.search.policy`), the seat's View is
read into an engine state by the game's observation builder and the engine's
legal list is checked against the server's; when they agree the lookahead
(:mod:`.lookahead`) chooses, and its index is an index into the server's list.
When they do not (a decision the builder does not rebuild), :meth:`choose`
returns None and the greedy bot uses the server's score previews.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from clients.bots.greedy import Potential, potential_of
from clients.bots.greedy.lookahead import choose
from clients.bots.policy_base import Policy
from clients.bots.search import builder
from clients.bots.search.protoview import same_actions, to_values


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


class GreedyPolicy(Policy):
    """The one-turn lookahead in its games (``game``); else the best ``score_after``
    when previews exist; else the best-scoring kind so far."""

    name = "greedy"

    def __init__(
        self, rng: random.Random | None = None, preview: bool = True, game: str = ""
    ) -> None:
        super().__init__(rng)
        self.wants_preview = preview
        self.wants_feedback = not preview
        self.totals: dict[str, float] = defaultdict(float)
        self.counts: dict[str, int] = defaultdict(int)
        self.lookahead = None
        if game:
            self.lookahead = Lookahead.of(game, self.rng)
        self.wants_view = self.lookahead is not None

    def choose(self, actions: Sequence[Any], view: Any = None) -> int:
        """See the module docstring."""
        if self.lookahead is not None and view is not None and len(actions) > 1:
            choice = self.lookahead.choose(actions, view)
            if choice is not None:
                return choice
        if self.wants_preview:
            best = max(a.score_after for a in actions)
            return self.rng.choice([i for i, a in enumerate(actions) if a.score_after == best])
        estimates = [self._estimate(a.ref.kind) for a in actions]
        best_estimate = max(estimates)
        return self.rng.choice([i for i, e in enumerate(estimates) if e == best_estimate])

    def _estimate(self, kind: str) -> float:
        count = self.counts[kind]
        return float("inf") if count == 0 else self.totals[kind] / count

    def learn(self, action: Any, delta: int) -> None:
        """Fold one observed score change into the kind's mean."""
        self.totals[action.ref.kind] += delta
        self.counts[action.ref.kind] += 1
