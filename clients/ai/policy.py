"""A trained policy as a Roost bot: ``roost bots GAME_ID --policy clients.ai.policy:Trained``.

The bot process builds the class with no arguments; it reads the saved policy
(:class:`clients.ai.linear.LinearPolicy`, written by ``python -m clients.ai.train``)
from the file named by ``$ROOST_AI_POLICY`` (default ``policy.npz``), loaded
once per process. At each decision of its seat it turns the seat's ``View``
into the observation vector and the service's ``LegalAction`` list into action
indices exactly as the environments do in process (:mod:`clients.ai.remote`),
and plays the legal action the policy finds most probable. A policy trained
for one game refuses to play another.

Any policy with the environments' interface plays the same way: subclass
:class:`EnvPolicy` and implement :meth:`EnvPolicy.act` (observation vector,
legal indices) -> index.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from clients.ai.domains import action_space
from clients.ai.linear import LinearPolicy
from clients.ai.observe import encoder_of
from clients.ai.remote import engine_action
from clients.bots.policies import Policy
from clients.bots.search.protoview import to_values


def game_of(view: Any) -> str:
    """The game of a ``View`` message (its package ``roost.<game>.v1``)."""
    return view.DESCRIPTOR.full_name.split(".")[1]


class EnvPolicy(Policy):
    """A bot policy that decides on the environments' observation and indices."""

    name = "env"
    wants_view = True
    players = 2

    def act(self, game: str, observation: np.ndarray, legal: list[int]) -> int:
        """The chosen index among ``legal`` (override)."""
        raise NotImplementedError

    def choose(self, actions: Sequence[Any], view: Any = None) -> int:
        if len(actions) == 1 or view is None:
            return 0
        game = game_of(view)
        players = self.players_of(game)
        legal = action_space(game, players).indices([engine_action(a) for a in actions])
        observation = encoder_of(game, players).encode(to_values(view))
        return legal.index(self.act(game, observation, legal))

    def players_of(self, game: str) -> int:
        return self.players


@cache
def _load(path: str) -> LinearPolicy:
    return LinearPolicy.load(path)


class Trained(EnvPolicy):
    """The saved linear policy of ``$ROOST_AI_POLICY`` (module docstring)."""

    name = "trained"

    def __init__(self) -> None:
        super().__init__()
        self.policy = _load(os.environ.get("ROOST_AI_POLICY", "policy.npz"))

    def players_of(self, game: str) -> int:
        return self.policy.players

    def act(self, game: str, observation: np.ndarray, legal: list[int]) -> int:
        if game != self.policy.game:
            raise ValueError(f"this policy was trained for {self.policy.game}, not {game}")
        return self.policy.best(observation, legal)
