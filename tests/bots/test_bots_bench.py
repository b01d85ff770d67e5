"""The strength bench's arithmetic: the Wilson interval and the head-to-head count."""

from __future__ import annotations

import pytest

from bench.bot_strength import duel, wilson


def test_the_wilson_interval() -> None:
    """Known values: 70 of 100 -> [0.604, 0.781]; the ends stay inside [0, 1]."""
    low, high = wilson(70, 100)
    assert low == pytest.approx(0.6041, abs=1e-3) and high == pytest.approx(0.7810, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_duel_counts_only_games_between_the_two_with_draws_as_halves() -> None:
    summary = {
        kind: {"mean_score": 1.0, "mu": 25.0, "sigma": 8.0} for kind in ("search@8p", "greedy")
    }
    report = {
        "game": "undertheleaves",
        "command": "roost tournament",
        "bots_summary": summary,
        "games": [
            {"kinds": {"0": "search@8p", "1": "greedy"}, "winners": [0]},
            {"kinds": {"0": "greedy", "1": "search@8p"}, "winners": [1]},
            {"kinds": {"0": "greedy", "1": "search@8p"}, "winners": [0]},
            {"kinds": {"0": "search@8p", "1": "greedy"}, "winners": [0, 1]},
            {"kinds": {"0": "greedy", "1": "greedy"}, "winners": [0]},
        ],
    }
    result = duel(report, "search@8p", "greedy")
    assert (result["games"], result["won"], result["drawn"], result["lost"]) == (4, 2, 1, 1)
    assert result["share"] == pytest.approx(2.5 / 4)
