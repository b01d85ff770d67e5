"""The everyday fixes, run as a user would: --json purity, queue defaults and checks,
``roost games``, an unwritable home, the store-outage message and the launcher's logs."""

from __future__ import annotations

import json
from pathlib import Path

import grpc
import pytest
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2

from clients.rpc import Exit, explain, retryable
from services.launcher import log_dir
from tests.clients.conftest import Roost

# Runs the roost CLI as a process: left out of make test-fast.
pytestmark = pytest.mark.slow


def test_queue_json_prints_only_json_and_defaults_to_two_players(roost: Roost) -> None:
    result = roost("queue", "skygarden", "--bots", "--json", timeout=60)
    assert result.returncode == 0, result.stderr
    assignment = json.loads(result.stdout)  # nothing but the JSON on standard output
    assert assignment["game"] == "skygarden" and assignment["others"]  # not a solo game
    assert "2 players" in result.stderr


def test_queue_refuses_an_impossible_count_at_once(offline_roost: Roost) -> None:
    # Refused before any call: with an hour of retrying allowed, a CLI that tried to
    # reach the (dead) matchmaker first would outlast the call's 60 s deadline.
    for args, text in (
        (("queue", "undertheleaves", "--players", "7"), "2 to 4 players"),
        (("queue", "wingspan", "--players", "1"), "2 to 5 players"),
        (("queue", "birdscaping", "--players", "1", "--party", "a,b"), "does not fit"),
    ):
        result = offline_roost(*args, env={"ROOST_RETRY_SECONDS": "3600"})
        assert result.returncode == 2, (args, result.stderr)
        assert text in result.stderr


def test_games_lists_player_counts_and_options(offline_roost: Roost) -> None:
    result = offline_roost("games", "--json", "--timeout", "0.2")
    assert result.returncode == 0, result.stderr
    rows = {row["name"]: row for row in json.loads(result.stdout)}
    assert (rows["wingspan"]["min_players"], rows["wingspan"]["max_players"]) == (2, 5)
    assert "allowFlip" in rows["undertheleaves"]["options"]
    assert rows["undertheleaves"]["address_variable"] == "GAME_ADDR_UNDERTHELEAVES"
    table = offline_roost("games", "--timeout", "0.2")
    assert "2-5" in table.stdout and "allowFlip" in table.stdout


def test_an_unwritable_home_falls_back_to_a_temporary_state_dir(
    roost: Roost, tmp_path: Path
) -> None:
    home = tmp_path / "home-is-a-file"
    home.write_text("")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {"HOME": str(home), "ROOST_HOME": "", "XDG_STATE_HOME": "", "TMPDIR": str(tmp)}
    created = roost("new", "undertheleaves", "--players", "2", "--json", env=env)
    assert created.returncode == 0, created.stderr
    info = json.loads(created.stdout)
    game_id, seat = info["game_id"], str(info["to_act"][0])
    (state,) = tmp.glob("roost-*")
    assert game_id in json.loads((state / "sessions.json").read_text())
    # The next command finds the seats there.
    played = roost("play", game_id, "--seat", seat, stdin="q\n", env=env)
    assert played.returncode == 0, played.stderr
    xdg = tmp_path / "xdg"
    env["XDG_STATE_HOME"] = str(xdg)
    with_xdg = roost("new", "undertheleaves", "--players", "2", env=env)
    assert with_xdg.returncode == 0 and (xdg / "roost" / "sessions.json").exists()


class _Failed(grpc.RpcError):
    """A failed call carrying a rich status, as grpc hands it to a client."""

    def __init__(self, code: grpc.StatusCode, reason: str) -> None:
        info = any_pb2.Any()
        info.Pack(error_details_pb2.ErrorInfo(reason=reason, domain="roost"))
        status = status_pb2.Status(code=code.value[0], message="store down", details=[info])
        self._code = code
        self._trailers = (("grpc-status-details-bin", status.SerializeToString()),)

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return "store down"

    def trailing_metadata(self) -> tuple[tuple[str, bytes], ...]:
        return self._trailers


def test_a_store_outage_reads_as_an_unavailable_service() -> None:
    error = _Failed(grpc.StatusCode.UNAVAILABLE, "ERROR_REASON_STORE_UNAVAILABLE")
    failure = explain(error, "Wingspan service", "127.0.0.1:50052")
    assert "unavailable (its store cannot be reached)" in failure.message
    assert "refused" not in failure.message and failure.code == Exit.UNAVAILABLE
    assert retryable(error)
    overloaded = _Failed(grpc.StatusCode.RESOURCE_EXHAUSTED, "ERROR_REASON_OVERLOADED")
    assert retryable(overloaded)
    assert not retryable(_Failed(grpc.StatusCode.INTERNAL, "ERROR_REASON_INTERNAL"), stream=True)


def test_the_launcher_logs_to_a_file_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROOST_LOG_TO_TERMINAL", raising=False)
    monkeypatch.delenv("ROOST_LOG_DIR", raising=False)
    assert log_dir([]) == Path(".roost/logs")
    assert log_dir(["--log-to-terminal"]) is None
    monkeypatch.setenv("ROOST_LOG_DIR", "/var/log/roost")
    assert log_dir([]) == Path("/var/log/roost")
    monkeypatch.setenv("ROOST_LOG_TO_TERMINAL", "1")
    assert log_dir([]) is None


def test_up_detached_logs_to_files_and_down_stops_it(redis_server_url: str, tmp_path: Path) -> None:
    from services.core.redis_server import free_port
    from tests.matchmaking.stack import implemented_games

    names = ["matchmaking", *(g.name for g in implemented_games())]
    ports = {name: free_port() for name in names}
    env = {f"PORT_{name.upper()}": str(port) for name, port in ports.items()}
    env |= {f"GAME_ADDR_{name.upper()}": f"127.0.0.1:{p}" for name, p in ports.items()}
    env |= {
        "MATCHMAKER_ADDR": f"127.0.0.1:{ports['matchmaking']}",
        "REDIS_URL": redis_server_url,
        "ROOST_LOG_DIR": str(tmp_path / "logs"),
    }
    roost = Roost(env, tmp_path / "roost-home")
    up = roost("up", "--detach", timeout=120)
    try:
        assert up.returncode == 0, up.stdout + up.stderr
        assert "Roost is running" in up.stdout and "roost down" in up.stdout
        assert '"level"' not in up.stdout and '{"' not in up.stdout  # no JSON log lines
        logs = {p.name for p in (tmp_path / "logs").iterdir()}
        assert {"launcher.log", "undertheleaves.log"} <= logs
        games = {r["name"]: r for r in json.loads(roost("games", "--json").stdout)}
        assert games["undertheleaves"]["health"] == "serving"
        again = roost("up", "--detach")
        assert again.returncode == 1 and "already runs" in again.stderr
    finally:
        down = roost("down", timeout=60)
    assert down.returncode == 0 and "stopped the stack" in down.stdout
    assert roost("games", "--json", "--timeout", "0.3").stdout.count('"unreachable"') == len(names)


def test_every_command_help_has_examples(offline_roost: Roost) -> None:
    for command in (
        "up",
        "new",
        "play",
        "rematch",
        "watch",
        "queue",
        "bots",
        "tournament",
        "games",
    ):
        result = offline_roost(command, "--help")
        assert result.returncode == 0 and "examples:" in result.stdout, command
        assert "roost --help" in result.stdout  # the exit codes are listed once, there
