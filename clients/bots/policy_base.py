"""The bot policy interface (:class:`Policy`) and the uniform choice.

A policy is given, at each decision of its seat, the seat's legal actions
(``LegalAction`` messages, in the server's order) and, when it asks for it
(``wants_view``), the seat's ``View``; it returns the index of its choice.
See docs/BOTS.md and :mod:`clients.bots.policies` for the built-in kinds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any


class Policy:
    """The policy interface (and the uniform choice).

    The bot calls :meth:`choose` once per decision of its seat. One policy
    object may serve several seats and games at once (a bot process shares one
    per game and kind), so a policy keeps no per-game state unless it keys it
    by the view.
    """

    name = "random"
    #: Ask Legal for score previews (``LegalAction.score_after``).
    wants_preview = False
    #: Measure the seat's score before and after each decision (for :meth:`learn`).
    wants_feedback = False
    #: Pass the seat's ``View`` message to :meth:`choose` (else ``None``).
    wants_view = False

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def choose(self, actions: Sequence[Any], view: Any = None) -> int:
        """Index of the chosen action among ``actions`` (LegalAction messages).

        ``view`` is the seat's ``View`` message at the version the actions
        belong to when :attr:`wants_view` is set, else ``None``.
        """
        return self.rng.randrange(len(actions))

    def learn(self, action: Any, delta: int) -> None:
        """The seat's score changed by ``delta`` after ``action`` (feedback policies only)."""


class RandomPolicy(Policy):
    """Uniform among the legal actions."""
