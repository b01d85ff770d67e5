"""How bots choose among legal actions.

* ``random``: uniform among the legal actions.
* ``greedy``: one-ply lookahead on the score. When the game's Legal offers a
  score preview (``LegalRequest.with_score_preview``, filling
  ``LegalAction.score_after`` with the seat's total after each action,
  simulated server-side on a reseeded copy), it picks the action with the
  highest ``score_after``, breaking ties at random. A game service without the
  preview cannot tell a client what an action would score, so greedy then falls
  back to an honest heuristic: it learns, per action *kind*, the mean change of
  its own score measured with Score before and after its past decisions, and
  picks the kind with the best mean (each unseen kind is tried first; ties at
  random). That is weak, and documented as such.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

KINDS = ("random", "greedy")


class Policy:
    """Base policy: uniform choice."""

    name = "random"
    #: Ask Legal for score previews.
    wants_preview = False
    #: Measure the seat's score before and after each decision (for :meth:`learn`).
    wants_feedback = False

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def choose(self, actions: Sequence[Any]) -> int:
        """Index of the chosen action among ``actions`` (LegalAction messages)."""
        return self.rng.randrange(len(actions))

    def learn(self, action: Any, delta: int) -> None:
        """The seat's score changed by ``delta`` after ``action`` (feedback policies only)."""


class RandomPolicy(Policy):
    """Uniform among the legal actions."""


class GreedyPolicy(Policy):
    """Best ``score_after`` when previews exist; else the best-scoring kind so far."""

    name = "greedy"

    def __init__(self, rng: random.Random | None = None, preview: bool = True) -> None:
        super().__init__(rng)
        self.wants_preview = preview
        self.wants_feedback = not preview
        self.totals: dict[str, float] = defaultdict(float)
        self.counts: dict[str, int] = defaultdict(int)

    def choose(self, actions: Sequence[Any]) -> int:
        """See the module docstring."""
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


def make(kind: str, preview: bool, rng: random.Random | None = None) -> Policy:
    """A policy by name; ``preview`` says whether the game's Legal offers score previews."""
    if kind == "random":
        return RandomPolicy(rng)
    if kind == "greedy":
        return GreedyPolicy(rng, preview=preview)
    raise ValueError(f"unknown bot kind {kind!r} (known: {', '.join(KINDS)})")
