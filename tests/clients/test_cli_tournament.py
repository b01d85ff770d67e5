"""``roost tournament`` for every implemented game, directly and through the matchmaker."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.clients.conftest import Roost
from tests.matchmaking.stack import implemented_games

# Tournaments over a stack of service processes: left out of make test-fast.
pytestmark = pytest.mark.slow

GAMES = [g.name for g in implemented_games()]


@pytest.mark.parametrize("game", GAMES)
def test_a_small_tournament_of_every_implemented_game(
    roost: Roost, game: str, tmp_path: Path
) -> None:
    report_path = tmp_path / f"{game}.json"
    result = roost(
        "tournament", "--game", game, "--players", "2", "--games", "3",
        "--concurrency", "3", "--bots", "random,greedy", "--seed", "11",
        "--report", str(report_path), timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    report = json.loads(report_path.read_text())
    assert report["games_finished"] == 3
    assert report["decisions"] > 0 and report["games_per_second"] > 0
    for method in ("NewGame", "Legal", "Apply", "Score"):
        stats = report["rpc_latency"][method]
        assert stats["calls"] > 0
        assert 0 < stats["p50_ms"] <= stats["p95_ms"] <= stats["p99_ms"] <= stats["max_ms"]
    bots = report["bots_summary"]
    assert bots["random"]["seats"] == bots["greedy"]["seats"] == 3
    assert "games per second" in result.stdout and "RPC latency" in result.stdout
    assert report["command"].startswith("roost tournament")


def test_a_tournament_through_the_matchmaker(roost: Roost, tmp_path: Path) -> None:
    report_path = tmp_path / "mm.json"
    result = roost(
        "tournament", "--game", "undertheleaves", "--players", "2", "--games", "4",
        "--concurrency", "2", "--bots", "random", "--via-matchmaker",
        "--report", str(report_path), timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    report = json.loads(report_path.read_text())
    assert report["games_finished"] == 4 and report["via_matchmaker"]
    assert report["rpc_latency"]["Enqueue"]["calls"] == 8
    assert report["matchmaking_wait_ms"]["p50"] >= 0
