"""The Gymnasium environment of a Roost game: one seat against Roost's bots.

``clients.ai.gym_env(game, players=2)`` plays seat 0 (``seat=``) against
opponents (``opponents="random"``, ``"greedy"``, ``"search@<N>p"``, a callable, or a list
with one entry per other seat; :mod:`clients.ai.opponents`). The agent's
observation is the same ``Dict`` as in PettingZoo (``observation`` and
``action_mask``); the mask is also in ``info["action_mask"]``. ``step``
plays the agent's action, then the opponents until the agent must decide
again or the game ends. Reward: 0 until the end, then the seat's outcome by
final rank (+1 win, -1 loss, 0 draw with two players; solo: +1 won, -1 lost);
with ``reward="score"`` also, on every step, the change of (own score - best
other score) / 10. An action outside the mask changes nothing: the step
returns the same position, reward ``illegal_reward`` (-1) and
``info["illegal_action"] = True``, and the agent decides again.

``gym_vector_env(game, n)`` runs ``n`` of them in one process
(``gymnasium.vector.SyncVectorEnv``, autoreset).

The game is a :class:`~clients.ai.match.Match` in process; a remote table
(:mod:`clients.ai.remote`) plugs in instead with ``table=`` and
``opponents=None`` (the service's bots or other clients play the other seats).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from clients.ai.aec import observation_space
from clients.ai.match import Match, check_players
from clients.ai.opponents import Opponent, opponent
from clients.ai.render import text_of

#: Score points worth 1 of reward with ``reward="score"``.
SCORE_SCALE = 10.0


class RoostGym(gymnasium.Env):
    """A Roost game for one seat (module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"]}

    def __init__(
        self,
        game: str,
        players: int = 2,
        seat: int = 0,
        opponents: str | Opponent | Sequence[str | Opponent] | None = "random",
        reward: str = "outcome",
        render_mode: str | None = None,
        options: dict[str, Any] | None = None,
        table: Callable[[int], Any] | None = None,
        illegal_reward: float = -1.0,
    ) -> None:
        check_players(game, players)
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not one of 0..{players - 1}")
        if reward not in ("outcome", "score"):
            raise ValueError("reward is 'outcome' or 'score'")
        self.game = game
        self.players = players
        self.seat = seat
        self.reward_kind = reward
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.options = dict(options or {})
        self._opponent_kinds = opponents
        self._make = table or (lambda seed: Match(game, players, seed, self.options))
        probe = Match(game, players, 0, self.options)
        self.action_space = spaces.Discrete(probe.space.n)
        self.observation_space = observation_space(probe)
        self.match: Any = probe
        self._opponents: dict[int, Opponent] = {}
        self._margin = 0.0

    def _build_opponents(self, rng: random.Random) -> dict[int, Opponent]:
        kinds = self._opponent_kinds
        if kinds is None:
            return {}
        others = [s for s in range(self.players) if s != self.seat]
        if isinstance(kinds, str) or callable(kinds):
            kinds = [kinds] * len(others)
        if len(kinds) != len(others):
            raise ValueError(f"{len(others)} opponents needed, {len(kinds)} given")
        return {s: opponent(k, self.game, rng) for s, k in zip(others, kinds, strict=True)}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(1 << 62))
        self._opponents = self._build_opponents(random.Random(game_seed ^ 0x0440))
        self.close()  # a remote table's channel
        self.match = self._make(game_seed)
        self._play_others()
        self._margin = self._margin_now()
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.match.over:
            raise RuntimeError("the game is over: call reset()")
        if int(action) not in self.match.legal_indices(self.seat):
            info = {**self._info(), "illegal_action": True}
            return self._observation(), self.illegal_reward, False, False, info
        self.match.step(int(action), self.seat)
        self._play_others()
        reward = 0.0
        if self.reward_kind == "score":
            margin = self._margin_now()
            reward, self._margin = (margin - self._margin) / SCORE_SCALE, margin
        over = self.match.over
        if over:
            reward += self.match.returns()[self.seat]
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, over, False, self._info()

    def _play_others(self) -> None:
        """Opponents decide until the agent's seat is asked, or the game ends."""
        match = self.match
        while not match.over:
            if match.asked(self.seat):
                return  # in a simultaneous phase the agent need not wait for the others
            current = match.current
            chooser = self._opponents.get(current)
            if chooser is None:
                match.wait_for(self.seat)  # a remote table: the service's players move
                continue
            match.step(chooser(match, current), current)

    def _margin_now(self) -> float:
        scores = self.match.scores()
        others = [s for i, s in enumerate(scores) if i != self.seat]
        return scores[self.seat] - (max(others) if others else 0)

    def _mask(self) -> np.ndarray:
        mask = np.zeros(self.action_space.n, np.int8)
        if not self.match.over:
            mask[self.match.legal_indices(self.seat)] = 1
        return mask

    def _observation(self) -> dict[str, np.ndarray]:
        return {"observation": self.match.observe(self.seat), "action_mask": self._mask()}

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask(), "scores": self.match.scores()}

    def action_masks(self) -> np.ndarray:
        """The action mask as a bool array (the name sb3-contrib's MaskablePPO calls)."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        text = text_of(self.match, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        close = getattr(self.match, "close", None)
        if close is not None:
            close()


def gym_vector_env(game: str, n: int, players: int = 2, **kwargs: Any) -> Any:
    """``n`` environments of ``game`` in this process (``SyncVectorEnv``)."""
    from gymnasium.vector import SyncVectorEnv

    return SyncVectorEnv([lambda: RoostGym(game, players, **kwargs) for _ in range(n)])


def register() -> None:
    """Register ``roost/<game>-v0`` with Gymnasium (``gymnasium.make("roost/wingspan-v0")``)."""
    from clients.ai.match import GAMES

    for game in GAMES:
        env_id = f"roost/{game}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=RoostGym, kwargs={"game": game})


register()
