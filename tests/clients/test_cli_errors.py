"""Help, usage errors and exit codes, run as a user would."""

from __future__ import annotations

import json

import pytest

from tests.clients.conftest import Roost

# Runs the roost CLI as a process: left out of make test-fast.
pytestmark = pytest.mark.slow


def test_help_lists_the_commands_and_exit_codes(offline_roost: Roost) -> None:
    result = offline_roost("--help")
    assert result.returncode == 0
    for command in ("up", "new", "play", "watch", "queue", "leaderboard", "tournament"):
        assert command in result.stdout
    assert "exit codes" in result.stdout
    sub = offline_roost("tournament", "--help")
    assert sub.returncode == 0 and "--via-matchmaker" in sub.stdout


def test_usage_errors_exit_2(offline_roost: Roost) -> None:
    assert offline_roost().returncode == 2
    unknown = offline_roost("new", "chess", "--players", "2")
    assert unknown.returncode == 2
    assert "unknown game 'chess'" in unknown.stderr
    bad_bot = offline_roost("new", "undertheleaves", "--players", "2", "--bot", "1=genius")
    assert bad_bot.returncode == 2
    assert "SEAT=KIND" in bad_bot.stderr
    seat = offline_roost("new", "undertheleaves", "--players", "2", "--bot", "5=random")
    assert seat.returncode == 2
    options = offline_roost("new", "undertheleaves", "--players", "2", "--options", "{oops")
    assert options.returncode == 2 and "--options" in options.stderr


def test_an_unreachable_service_exits_3_with_a_hint(offline_roost: Roost) -> None:
    for args in (
        ("new", "undertheleaves", "--players", "2"),
        ("queue", "undertheleaves"),
        ("leaderboard", "undertheleaves"),
        ("watch", "0123abcd", "--game", "undertheleaves"),
        ("watch", "0123abcd"),
        ("tournament", "--game", "undertheleaves", "--players", "2", "--games", "1"),
    ):
        result = offline_roost(*args)
        assert result.returncode == 3, (args, result.stdout, result.stderr)
        assert "roost up" in result.stderr, result.stderr
        assert "Traceback" not in result.stderr


def test_bad_token_unknown_game_and_refused_options(roost: Roost) -> None:
    created = json.loads(roost("new", "undertheleaves", "--players", "2", "--json").stdout)
    game_id = created["game_id"]
    bad = roost("play", game_id, "--token", "not-a-token", stdin="0\n")
    assert bad.returncode == 4
    assert "token was refused" in bad.stderr
    missing = roost("play", game_id, env={"ROOST_HOME": "/nonexistent-roost-home"})
    assert missing.returncode == 4 and "--token" in missing.stderr
    unknown = roost("watch", "ffffffffffffffffffffffff", "--game", "undertheleaves")
    assert unknown.returncode == 5 and "not found" in unknown.stderr
    probed = roost("watch", "ffffffffffffffffffffffff")
    assert probed.returncode == 5
    refused = roost("new", "undertheleaves", "--players", "9")
    assert refused.returncode == 6
    assert "INVALID_OPTIONS" in refused.stderr
