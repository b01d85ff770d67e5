"""The search policy: view -> engine state -> determinized search -> a legal index.

For each decision: the seat's View is read into plain values, the game's
builder makes an engine state that shows exactly that view, and the engine's
legal actions for the seat there are checked against the server's (same
length, and each the same kind and arguments, in order). When they agree, the
search (:mod:`.ismcts`) chooses; its index is an index into the server's list
too. When they do not (a builder out of date with the rules), or the game has
no builder, the decision is greedy (the score previews, else random) and a
warning is logged once per game kind.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from clients.bots.clock import thinking_ms, time_left_ms
from clients.bots.greedy import potential_of
from clients.bots.greedy.policy import GreedyPolicy
from clients.bots.policy_base import Policy
from clients.bots.search import builder
from clients.bots.search.ismcts import Budget, Result, Settings, search
from clients.bots.search.protoview import same_actions, to_values

log = logging.getLogger("roost.bots.search")

#: The search bot's default budget per decision.
DEFAULT_SEARCH_MS = 200.0

#: Virtual playouts given to the greedy bot's judgement of each root action, in
#: the games where greedy looks a turn ahead (see :mod:`.ismcts`).
PRIOR = 4
#: Root actions searched there: greedy's four best (a few dozen playouts spread
#: over eight candidates tell them apart no better than greedy's own judgement).
WIDTH = 4


def settings_of(game: str, builder_module: Any) -> Settings:
    """The search settings of ``game``: its builder's, plus the greedy bot's
    potential, a prior (the builder's own, else :data:`PRIOR`) and a narrower root
    where greedy looks a turn ahead."""
    base = getattr(builder_module, "SETTINGS", None) or Settings()
    potential = potential_of(game)
    if potential is None:
        return base
    return replace(base, potential=potential, prior=base.prior or PRIOR, width=WIDTH)


def budget_of(amount: str | None, unit: str | None) -> Budget:
    """The budget of a ``search@<amount><unit>`` kind (``ms`` or ``p``); default ms."""
    if amount is None:
        return Budget(ms=DEFAULT_SEARCH_MS)
    if unit == "p":
        return Budget(playouts=max(int(amount), 1))
    return Budget(ms=max(float(amount), 1.0))


class SearchPolicy(Policy):
    """Determinized search from the seat's view (see the module docstring)."""

    name = "search"
    wants_view = True

    def __init__(
        self,
        game: str,
        budget: Budget,
        rng: random.Random | None = None,
        preview: bool = True,
        settings: Settings | None = None,
    ) -> None:
        super().__init__(rng)
        self.game = game
        self.budget = budget
        self.builder = builder(game)
        self.settings = settings or settings_of(game, self.builder)
        #: Previews feed the greedy fallback: asked for a game without a builder, or
        #: whose builder leaves enough decisions to the fallback (``PREVIEW = True``).
        self.wants_preview = preview and (
            self.builder is None or getattr(self.builder, "PREVIEW", False)
        )
        self.fallback = GreedyPolicy(self.rng, preview=self.wants_preview)
        self.fallbacks = 0
        self.last: Result | None = None

    def choose(self, actions: Sequence[Any], view: Any = None) -> int:
        """See the module docstring."""
        if len(actions) == 1:
            return 0
        if self.builder is None or view is None:
            return self._fall_back(actions, "no observation builder for this game")
        values = to_values(view)
        seat = values["viewer_seat"]
        try:
            state = self.builder.build(values, seat)
        except (KeyError, ValueError, StopIteration, IndexError) as error:
            return self._fall_back(actions, f"the view could not be rebuilt: {error!r}")
        engine = self.builder.ENGINE
        if not same_actions(engine.legal(state, seat), actions):
            return self._fall_back(actions, "the rebuilt state's legal actions differ")
        self.last = search(engine, state, seat, self.clock_budget(), self.rng, self.settings)
        return self.last.choice

    def clock_budget(self) -> Budget:
        """The budget of this decision: the bot's own, with its time capped by
        the seat's clock in a timed game (:func:`clients.bots.clock.thinking_ms`)."""
        if time_left_ms() is None:
            return self.budget
        return replace(self.budget, ms=thinking_ms(self.budget.ms))

    def _fall_back(self, actions: Sequence[Any], why: str) -> int:
        if not self.fallbacks:
            log.warning("search bot for %s plays greedy: %s", self.game or "?", why)
        self.fallbacks += 1
        if not self.wants_preview and any(a.score_after for a in actions):
            return GreedyPolicy(self.rng, preview=True).choose(actions)
        return self.fallback.choose(actions)
