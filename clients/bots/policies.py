"""How bots choose among legal actions: the policy interface and the built-in policies.

A policy (:class:`Policy`) is given, at each decision of its seat, the seat's
legal actions (``LegalAction`` messages, in the server's order) and, when it
asks for it (``wants_view``), the seat's ``View``; it returns the index of its
choice. See docs/BOTS.md.

Built-in kinds:

* ``random``: uniform among the legal actions.
* ``greedy``: one-ply lookahead on the score. In the games of
  :data:`clients.bots.greedy.LOOKAHEAD` (those with a ``clients/bots/greedy/<game>.py``) it
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

from clients.bots.greedy.policy import GreedyPolicy
from clients.bots.policy_base import Policy, RandomPolicy
from clients.bots.search.policy import DEFAULT_SEARCH_MS, SearchPolicy, budget_of

__all__ = [
    "DEFAULT_SEARCH_MS",
    "KINDS",
    "GreedyPolicy",
    "Policy",
    "RandomPolicy",
    "is_kind",
    "load",
    "make",
]

KINDS = ("random", "greedy", "search")
_SEARCH = re.compile(r"search(?:@(\d+)(ms|p))?")
_IMPORT_PATH = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")


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
