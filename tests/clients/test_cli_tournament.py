"""``roost tournament`` for every implemented game, directly and through the matchmaker."""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path

import pytest

from tests.clients.conftest import Roost, roost_command
from tests.matchmaking.stack import ROOT, implemented_games
from tests.waiting import connections, wait_until

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
        "--report", str(report_path), timeout=600,  # a deadline: Sky Garden's greedy
    )  # fmt: skip  # previews every action, 95 s of these 3 games at load average 15
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    report = json.loads(report_path.read_text())
    assert report["games_finished"] == 3
    assert report["decisions"] > 0 and report["games_per_second"] > 0
    for method in ("NewGame", "Apply", "Score"):
        stats = report["rpc_latency"][method]
        assert stats["calls"] > 0
        assert 0 < stats["p50_ms"] <= stats["p95_ms"] <= stats["p99_ms"] <= stats["max_ms"]
    # The bots learn their actions from Watch and Apply: Legal only to recover.
    assert report["rpc_latency"].get("Legal", {"calls": 0})["calls"] <= report["decisions"] // 50
    bots = report["bots_summary"]
    assert bots["random"]["seats"] == bots["greedy"]["seats"] == 3
    assert "games per second" in result.stdout and "RPC latency" in result.stdout
    assert report["command"].startswith("roost tournament")


def test_a_timed_tournament_reports_timeouts_per_bot(roost: Roost, tmp_path: Path) -> None:
    """--time-control: the games are timed (the house bot would play a bot that
    overruns 20 s) and the report counts timeouts and forfeits per bot."""
    report_path = tmp_path / "timed.json"
    result = roost(
        "tournament", "--game", "undertheleaves", "--players", "2", "--games", "2",
        "--bots", "random,greedy", "--time-control", "20s:bot", "--report", str(report_path),
        timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    report = json.loads(report_path.read_text())
    assert report["games_finished"] == 2 and report["time_control"] == "20s:bot"
    for row in report["bots_summary"].values():
        assert row["timeouts"] == 0 and row["forfeits"] == 0
    assert "timeouts" in result.stdout


def test_a_tournament_through_the_matchmaker(roost: Roost, tmp_path: Path) -> None:
    report_path = tmp_path / "mm.json"
    result = roost(
        "tournament", "--game", "undertheleaves", "--players", "2", "--games", "4",
        "--concurrency", "2", "--bots", "random,greedy", "--via-matchmaker",
        "--report", str(report_path), timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    report = json.loads(report_path.read_text())
    assert report["games_finished"] == 4 and report["via_matchmaker"]
    assert report["rpc_latency"]["Enqueue"]["calls"] == 8
    assert report["matchmaking_wait_ms"]["p50"] >= 0
    # Which games put the two kinds against each other, as the matchmaker grouped them.
    assert len(report["games"]) == 4
    head_to_head = [g for g in report["games"] if g["head_to_head"]]
    assert report["head_to_head_games"] == len(head_to_head)
    assert all(len(set(g["kinds"].values())) == 2 for g in head_to_head)
    assert "head-to-head games" in result.stdout and "Games (as the matchmaker" in result.stdout


def test_ctrl_c_writes_the_partial_report(roost: Roost, tmp_path: Path) -> None:
    report_path = tmp_path / "partial.json"
    process = subprocess.Popen(
        [
            *roost_command(), "tournament", "--game", "undertheleaves", "--players", "2",
            "--games", "500", "--concurrency", "2", "--no-progress",
            "--report", str(report_path),
        ],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=roost.env,
    )  # fmt: skip
    # Interrupted once it plays: it holds a connection to the game service (a fixed
    # sleep could land before its handler was installed on a loaded machine).
    game_port = int(roost.env["GAME_ADDR_UNDERTHELEAVES"].rsplit(":", 1)[1])
    wait_until(
        lambda: process.poll() is not None or connections(process.pid, game_port),
        "the tournament to connect to the game service",
    )
    assert process.poll() is None, process.communicate()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err[-3000:]
    report = json.loads(report_path.read_text())
    assert report["interrupted"] is True
    assert report["games_requested"] == 500 and report["games_finished"] < 500
    assert "partial report" in out
