"""How bots choose among legal actions: the policy interface and the built-in policies.

A policy (:class:`Policy`) is given, at each decision of its seat, the seat's
legal actions (``LegalAction`` messages, in the server's order) and, when it
asks for it (``wants_view``), the seat's ``View``; it returns the index of its
choice. See docs/BOTS.md.

Built-in kinds:

* ``random``: uniform among the legal actions.
* ``greedy``: one-ply lookahead on the score. In the games of
  :data:`clients.bots.greedy.LOOKAHEAD` (Wingspan, Birdscaping, Sky Garden) it
  reads its own view into an engine state (the search bot's observation
  builder) and looks one turn ahead on the game's rules engine, valuing the
  seat's score plus what its resources are worth (:mod:`clients.bots.greedy`).
  Elsewhere, or when the view cannot be rebuilt, it uses the game's score
  preview (``LegalRequest.with_score_preview``, filling
  ``LegalAction.score_after`` with the seat's total after each action,
  simulated server-side on a reseeded copy): the action with the highest
  ``score_after``, ties at random. A game service without the
  preview cannot tell a client what an action would score, so greedy then falls
  back to an honest heuristic: it learns, per action *kind*, the mean change of
  its own score measured with Score before and after its past decisions, and
  picks the kind with the best mean (each unseen kind is tried first; ties at
  random). That is weak, and documented as such.
* ``search``: determinized Monte Carlo search with the game's rules engine as
  the forward model (:mod:`clients.bots.search`), ``search@<N>ms`` or
  ``search@<N>p`` for a budget per decision in milliseconds or playouts
  (default :data:`DEFAULT_SEARCH_MS` ms). Games without an observation
  builder play greedy.

Any other kind is an import path, ``package.module:ClassName``: a
:class:`Policy` subclass (or any class with the same attributes and
``choose``), built with no arguments.
"""

from __future__ import annotations

import importlib
import random
import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

KINDS = ("random", "greedy", "search")
#: The search bot's default budget per decision.
DEFAULT_SEARCH_MS = 200.0
_SEARCH = re.compile(r"search(?:@(\d+)(ms|p))?")
_IMPORT_PATH = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")


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
            from clients.bots.greedy.policy import Lookahead

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


def is_kind(kind: str) -> bool:
    """True for a built-in kind (``search@200ms`` included) or an import path."""
    return kind in KINDS or bool(_SEARCH.fullmatch(kind) or _IMPORT_PATH.fullmatch(kind))


def make(kind: str, preview: bool, rng: random.Random | None = None, game: str = "") -> Policy:
    """A policy by kind (see the module docstring); ``preview`` says whether the
    game's Legal offers score previews, ``game`` names the game (for search)."""
    if kind == "random":
        return RandomPolicy(rng)
    if kind == "greedy":
        return GreedyPolicy(rng, preview=preview, game=game)
    searching = _SEARCH.fullmatch(kind)
    if searching:
        from clients.bots.search.policy import SearchPolicy, budget_of

        return SearchPolicy(game, budget_of(searching.group(1), searching.group(2)), rng, preview)
    if _IMPORT_PATH.fullmatch(kind):
        return load(kind)
    raise ValueError(
        f"unknown bot kind {kind!r} (known: {', '.join(KINDS)}, search@<N>ms, search@<N>p, "
        "or package.module:ClassName)"
    )


def load(path: str) -> Policy:
    """The policy class at ``package.module:ClassName``, built with no arguments."""
    module_name, _, class_name = path.partition(":")
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as error:
        raise ValueError(f"cannot load policy {path!r}: {error}") from error
    policy = cls()
    if not callable(getattr(policy, "choose", None)):
        raise ValueError(f"{path} has no choose(actions, view) method")
    return policy
