"""The PettingZoo AEC environment of a Roost game (``clients.ai.pettingzoo_env``).

Agents are ``player_0`` .. ``player_{n-1}`` (seat order). Each observes a
``Dict``: ``observation``, the float32 vector of its own view
(:mod:`clients.ai.observe`), and ``action_mask``, int8 over the game's fixed
``Discrete`` space (:mod:`clients.ai.domains`), all zeros for an agent that is
not selected. Rewards come at the end: each seat's outcome by final rank
(:func:`clients.ai.match.outcome`). ``render()`` returns (``ansi``) or prints
(``human``) a text of the position.

The game is a :class:`~clients.ai.match.Match` in process, or a remote table
(:mod:`clients.ai.remote`) with the same methods.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from clients.ai.match import Match, check_players
from clients.ai.render import text_of

Table = Any  # a Match or a remote table: current, over, legal_indices, step, observe, returns


def observation_space(match: Any) -> spaces.Dict:
    """The observation space of a game and player count."""
    return spaces.Dict(
        {
            "observation": spaces.Box(-np.inf, np.inf, (match.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (match.space.n,), np.int8),
        }
    )


class RoostAEC(AECEnv):
    """A Roost game as a PettingZoo AEC environment (module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "roost",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        players: int = 2,
        render_mode: str | None = None,
        options: dict[str, Any] | None = None,
        max_steps: int | None = None,
        table: Callable[[int], Table] | None = None,
    ) -> None:
        super().__init__()
        check_players(game, players)
        self.game = game
        self.players = players
        self.render_mode = render_mode
        self.options = dict(options or {})
        self.max_steps = max_steps
        self._make = table or (lambda seed: Match(game, players, seed, self.options))
        self.metadata = {**self.metadata, "name": f"roost_{game}_v0"}
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = list(self.possible_agents)
        probe = Match(game, players, 0, self.options)
        self._space = spaces.Discrete(probe.space.n)
        self._observation_space = observation_space(probe)
        self.match: Table = probe
        self._rng = np.random.default_rng()
        self._steps = 0

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.close()  # a remote table's channel
        self.match = self._make(int(self._rng.integers(1 << 62)))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._steps = 0
        self.agent_selection = self.possible_agents[max(self.match.current, 0)]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self._space.n, np.int8)
        if agent == self.agent_selection and not self.match.over:
            mask[self.match.legal_indices(seat)] = 1
        return {"observation": self.match.observe(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        self._cumulative_rewards[agent] = 0.0
        self.match.step(int(action), seat)
        self._steps += 1
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.match.over:
            for other, value in zip(self.agents, self.match.returns(), strict=True):
                self.rewards[other] = value
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_steps is not None and self._steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self.match.current]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        text = text_of(self.match)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        close = getattr(self.match, "close", None)
        if close is not None:
            close()
