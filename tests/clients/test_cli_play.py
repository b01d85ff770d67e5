"""new, play (driven through stdin), watch, queue and leaderboard as subprocesses."""

from __future__ import annotations

import json
import os
import signal
import subprocess

import pytest

from tests.clients.conftest import Roost, roost_command

# Runs the roost CLI and a stack of services as processes: left out of make test-fast.
pytestmark = pytest.mark.slow


def test_new_then_play_against_a_background_bot(roost: Roost) -> None:
    created = roost("new", "undertheleaves", "--players", "2", "--bot", "1=random", "--json")
    assert created.returncode == 0, created.stderr
    info = json.loads(created.stdout)
    assert info["bot_pid"] and info["seats"][1]["bot"] == "random"
    # A wrong choice first, then always the first action.
    result = roost("play", info["game_id"], "--seat", "0", stdin="banana\n99999\n" + "0\n" * 400)
    assert result.returncode == 0, result.stderr[-2000:]
    out = result.stdout
    assert "Not a valid choice" in out
    assert "Your choices" in out and "Garden of" in out
    assert "Game over" in out and "Scores (final)" in out


def test_input_ending_early_exits_8(roost: Roost) -> None:
    info = json.loads(roost("new", "undertheleaves", "--players", "2", "--json").stdout)
    seat = str(info["to_act"][0])
    result = roost("play", info["game_id"], "--seat", seat, stdin="b\n")
    assert result.returncode == 8
    assert "input ended" in result.stdout


def test_watch_a_bot_game_as_a_spectator(roost: Roost) -> None:
    info = json.loads(
        roost(
            "new", "undertheleaves", "--players", "2", "--seed", "5",
            "--bot", "0=random", "--bot", "1=greedy", "--json",
        ).stdout
    )  # fmt: skip
    result = roost("watch", info["game_id"], "--from-version", "0")
    assert result.returncode == 0, result.stderr
    assert "spectator" in result.stdout
    assert "game: 2-player game created" in result.stdout
    assert "Game over" in result.stdout


def test_new_with_play_runs_the_bots_in_process(roost: Roost) -> None:
    result = roost(
        "new", "undertheleaves", "--players", "2", "--bot", "1=random", "--play", "0",
        stdin="0\n" * 400,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Game over" in result.stdout


def test_queue_with_bots_then_play_and_see_the_leaderboard(roost: Roost) -> None:
    result = roost(
        "queue", "undertheleaves", "--players", "2", "--bots", "--bot-wait", "0.1",
        "--player", "cli-tester", "--play", stdin="0\n" * 400,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    assert "assigned" in result.stdout and "Game over" in result.stdout
    board = roost("leaderboard", "undertheleaves", "--json")
    assert board.returncode == 0
    deadline_tries = 50
    players: set[str] = set()
    for _ in range(deadline_tries):
        players = {
            row["player_id"]
            for row in json.loads(roost("leaderboard", "undertheleaves", "--json").stdout)[
                "undertheleaves"
            ]
        }
        if "cli-tester" in players:
            break
    assert {"cli-tester", "bot:random"} <= players
    table = roost("leaderboard")
    assert table.returncode == 0 and "cli-tester" in table.stdout


def test_queue_cancelled_on_interrupt_and_expired_timeout(roost: Roost) -> None:
    result = roost("queue", "undertheleaves", "--players", "4", "--timeout", "1")
    assert result.returncode == 7
    assert "no match within" in result.stderr


def test_up_runs_the_stack_and_stops_on_ctrl_c(roost: Roost, cli_stack) -> None:
    from services.core.redis_server import free_port
    from services.registry import SERVICES

    ports = {}
    for entry in SERVICES:
        while True:
            port = free_port()
            if port + 1000 < 65535:
                break
        ports[f"PORT_{entry.name.upper()}"] = str(port)
    env = {**roost.env, **ports, "REDIS_URL": cli_stack.redis_url, "GRACE_SECONDS": "1"}
    process = subprocess.Popen(
        [*roost_command(), "up"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        start_new_session=True,  # its own process group, like a terminal job
    )
    lines = []
    try:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            if "Roost is running" in line:
                break
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C reaches the whole job
        rest, _ = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    output = "".join(lines) + rest
    assert "matchmaking" in output and "ready" in output, output
    assert process.returncode == 0, output
