"""The examples docs/AI.md shows still run: the numpy training loop and its
evaluation (clients/ai/train.py), and OpenSpiel's IS-MCTS against Roost's search
bot (clients/ai/examples/ismcts_vs_search.py), each on a tiny budget."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from clients.ai.examples.ismcts_vs_search import play
from clients.ai.linear import LinearPolicy
from clients.ai.train import train, win_rate


def test_training_updates_the_policy_and_evaluates(tmp_path: Path) -> None:
    """A second of training changes the weights; the policy saves, loads and plays."""
    policy, episodes = train("birdscaping", 2, seconds=1.0, seed=3)
    assert episodes >= 1
    assert np.abs(policy.b).sum() > 0
    path = tmp_path / "policy.npz"
    policy.save(path)
    loaded = LinearPolicy.load(path)
    assert loaded.game == "birdscaping" and np.array_equal(loaded.W, policy.W)
    assert 0.0 <= win_rate("birdscaping", 2, loaded, games=2, seed=0) <= 1.0


def test_ismcts_plays_the_search_bot_to_the_end() -> None:
    """OpenSpiel's ISMCTSBot, unchanged, finishes a game against the search bot."""
    returns = play("undertheleaves", seed=1, ismcts_seat=1, simulations=2, playouts=1)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
