"""A small masked softmax policy in numpy: what the training example learns.

Each action index ``a`` has a weight row ``W[a]`` and a bias ``b[a]``; the
probability of a legal action is the softmax, over the legal indices only
(the mask), of ``W[a] . f(x) + b[a]``, with ``f(x) = sign(x) log(1 + |x|)``
of the observation vector ``x`` (scores and counts squashed). Illegal actions
get no probability at all, so the policy never needs to learn the rules.

Saved as ``.npz`` (``game``, ``players``, ``W``, ``b``); :mod:`clients.ai.policy`
plays a saved one against the live service.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np


def features(observation: np.ndarray) -> np.ndarray:
    """The squashed observation the policy reads."""
    return np.sign(observation) * np.log1p(np.abs(observation))


class LinearPolicy:
    """The masked softmax policy (module docstring)."""

    def __init__(self, game: str, players: int, actions: int, size: int) -> None:
        self.game = game
        self.players = players
        self.W = np.zeros((actions, size), np.float32)
        self.b = np.zeros(actions, np.float32)

    def probabilities(self, observation: np.ndarray, legal: list[int]) -> np.ndarray:
        """The probability of each index of ``legal``, in order."""
        logits = self.W[legal] @ features(observation) + self.b[legal]
        logits -= logits.max()
        weights = np.exp(logits)
        return weights / weights.sum()

    def sample(self, observation: np.ndarray, legal: list[int], rng: np.random.Generator) -> int:
        return legal[int(rng.choice(len(legal), p=self.probabilities(observation, legal)))]

    def best(self, observation: np.ndarray, legal: list[int]) -> int:
        return legal[int(np.argmax(self.probabilities(observation, legal)))]

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, game=self.game, players=self.players, W=self.W, b=self.b)

    @classmethod
    def load(cls, path: str | Path) -> LinearPolicy:
        saved = np.load(path)
        policy = cls(str(saved["game"]), int(saved["players"]), *saved["W"].shape)
        policy.W[:] = saved["W"]
        policy.b[:] = saved["b"]
        return policy
