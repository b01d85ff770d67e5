"""Sessions that survive: watch and bots across closed connections and restarted services,
bots listed, stopped and restarted through ``roost bots``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from services.registry import by_name
from tests.clients.conftest import Roost, roost_command
from tests.matchmaking.stack import ROOT, Proc, Stack, start
from tests.waiting import connections, wait_until

# Runs the roost CLI and service processes: left out of make test-fast.
pytestmark = pytest.mark.slow


@pytest.fixture
def own_service(redis_server_url: str) -> Iterator[list[Proc]]:
    """Under the Leaves services started by the test (the list's last one is current)."""
    procs: list[Proc] = []
    yield procs
    for proc in procs:
        proc.stop(signal.SIGKILL)


def _roost_on(proc: Proc, tmp_path: Path) -> Roost:
    return Roost({"GAME_ADDR_UNDERTHELEAVES": proc.address}, tmp_path / "roost-home")


def _spawn(roost: Roost, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*roost_command(), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env=roost.env,
    )


def _port(proc: Proc) -> int:
    return int(proc.address.rsplit(":", 1)[1])


def _connected(process: subprocess.Popen[str], server: Proc) -> set[int]:
    """Wait until ``process`` holds a connection to ``server``; its socket inodes."""
    return wait_until(
        lambda: connections(process.pid, _port(server)), f"a connection to {server.address}"
    )


def _disconnected(process: subprocess.Popen[str], server: Proc) -> None:
    """Wait until ``process`` holds no connection to the (stopped) ``server``."""
    wait_until(
        lambda: not connections(process.pid, _port(server)),
        f"the connection to {server.address} to close",
    )


def _new_game(roost: Roost) -> str:
    created = roost("new", "undertheleaves", "--players", "2", "--json")
    assert created.returncode == 0, created.stderr
    return str(json.loads(created.stdout)["game_id"])


def test_watch_and_bots_survive_a_restarted_service(
    redis_server_url: str, own_service: list[Proc], tmp_path: Path
) -> None:
    entry = by_name("undertheleaves")
    own_service.append(start(entry, {"REDIS_URL": redis_server_url}))
    roost = _roost_on(own_service[0], tmp_path)
    game_id = _new_game(roost)
    watch = _spawn(roost, "watch", game_id)
    _connected(watch, own_service[0])
    port = _port(own_service[0])
    own_service[0].stop(signal.SIGKILL)  # a crash, not a drain
    _disconnected(watch, own_service[0])
    own_service.append(start(entry, {"REDIS_URL": redis_server_url}, port=port))
    bots = roost("bots", "start", game_id, "0=random", "1=random", "--json")
    assert bots.returncode == 0, bots.stderr
    out, err = watch.communicate(timeout=120)
    assert watch.returncode == 0, err
    assert "Game over" in out
    assert "cannot reach" not in err
    assert "retrying" in err


def test_watch_resumes_after_the_servers_connection_age(
    redis_server_url: str, own_service: list[Proc], tmp_path: Path
) -> None:
    # The server closes a connection after MAX_CONNECTION_AGE_SECONDS plus its grace
    # (MAX_CONNECTION_AGE_GRACE_SECONDS, 60 s unless set): the Watch stream is cut
    # then, and roost watch must resume it on a new connection.
    own_service.append(
        start(
            by_name("undertheleaves"),
            {
                "REDIS_URL": redis_server_url,
                "MAX_CONNECTION_AGE_SECONDS": "2",
                "MAX_CONNECTION_AGE_GRACE_SECONDS": "1",
            },
        )
    )
    roost = _roost_on(own_service[0], tmp_path)
    game_id = _new_game(roost)
    watch = _spawn(roost, "watch", game_id)
    first = _connected(watch, own_service[0])
    wait_until(
        lambda: (now := connections(watch.pid, _port(own_service[0]))) and not now & first,
        "the watch to resume on a new connection after the first aged out",
    )
    assert watch.poll() is None, watch.communicate()
    bots = roost("bots", "start", game_id, "0=random", "1=random")
    assert bots.returncode == 0, bots.stderr
    out, err = watch.communicate(timeout=120)
    assert watch.returncode == 0, err
    assert "Game over" in out
    assert "cannot reach" not in err


def test_a_killed_bot_is_listed_and_restarted(roost: Roost) -> None:
    created = roost(
        "new", "undertheleaves", "--players", "2", "--bot", "1=random", "--json"
    )  # fmt: skip
    info = json.loads(created.stdout)
    game_id, pid = info["game_id"], info["bot_pid"]
    os.kill(pid, signal.SIGKILL)  # the bot crashes

    def stopped_row() -> dict | None:
        listed = json.loads(roost("bots", "list", "--json").stdout)
        row = next(r for r in listed if r["game_id"] == game_id)
        return None if row["running"] else row

    row = wait_until(stopped_row, "the killed bot to be listed as not running")
    assert row == {**row, "running": False, "seats": {"1": "random"}, "restartable": [1]}
    human = roost("bots", "start", game_id, "0=random")  # the human seat, by a bot too
    assert human.returncode == 0, human.stderr
    again = roost("bots", "start", game_id)
    assert again.returncode == 6 and "already run" in again.stderr
    stop = roost("bots", "stop", game_id)
    assert stop.returncode == 0 and "stopped" in stop.stdout
    restarted = roost("bots", "start", game_id, "--json")
    assert restarted.returncode == 0, restarted.stderr
    # Seat 1's bot alone: play seat 0 by hand to the end against it.
    played = roost("play", game_id, "--seat", "0", stdin="0\n" * 400)
    assert played.returncode == 0, played.stderr[-2000:]
    assert "Game over" in played.stdout
    new_pid = json.loads(restarted.stdout)["bot_pid"]
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:  # the bot of a finished game exits by itself
        try:
            os.kill(new_pid, 0)
        except ProcessLookupError:
            break
        if (
            Path(f"/proc/{new_pid}/status").exists()
            and "zombie" in Path(f"/proc/{new_pid}/status").read_text()
        ):
            break
        time.sleep(0.2)
    else:
        pytest.fail("the bot of a finished game did not exit")
    listed = json.loads(roost("bots", "list", "--json").stdout)
    assert not next(r for r in listed if r["game_id"] == game_id)["running"]


def test_play_and_a_background_bot_survive_a_restarted_service(
    redis_server_url: str, own_service: list[Proc], tmp_path: Path
) -> None:
    entry = by_name("undertheleaves")
    own_service.append(start(entry, {"REDIS_URL": redis_server_url}))
    roost = _roost_on(own_service[0], tmp_path)
    created = roost("new", "undertheleaves", "--players", "2", "--bot", "1=random", "--json")
    assert created.returncode == 0, created.stderr
    game_id = json.loads(created.stdout)["game_id"]
    play = subprocess.Popen(
        [*roost_command(), "play", game_id, "--seat", "0", "--no-board"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, cwd=ROOT, env=roost.env,
    )  # fmt: skip
    assert play.stdin is not None
    play.stdin.write("0\n" * 3)
    play.stdin.flush()
    _connected(play, own_service[0])
    port = _port(own_service[0])
    own_service[0].stop(signal.SIGKILL)
    _disconnected(play, own_service[0])
    own_service.append(start(entry, {"REDIS_URL": redis_server_url}, port=port))
    out, err = play.communicate("0\n" * 400, timeout=180)
    assert play.returncode == 0, err[-3000:]
    assert "Game over" in out
    assert "cannot reach" not in err


def _has_ticket_of(matchmaker: Proc, player: str) -> bool:
    """Whether the matchmaker has stored a ticket of ``player`` (its Enqueue answered)."""
    client = redis.Redis.from_url(matchmaker.env["REDIS_URL"])
    try:
        return any(
            player.encode() in (client.hget(key, "data") or b"")
            for key in client.scan_iter("roost:mm:{*}:t:*")
        )
    finally:
        client.close()


def test_queue_survives_a_restarted_matchmaker(cli_stack: Stack, tmp_path: Path) -> None:
    overrides = {"MM_HEARTBEAT_TIMEOUT_MS": "15000"}
    matchmaker = cli_stack.start_matchmaker(**overrides)
    roost = Roost({**cli_stack.client_env(), "MATCHMAKER_ADDR": matchmaker.address}, tmp_path)
    queue = _spawn(
        roost, "queue", "undertheleaves", "--player", "restart-test", "--bots", "--bot-wait", "6",
        "--json",
    )  # fmt: skip
    wait_until(lambda: _has_ticket_of(matchmaker, "restart-test"), "the queued ticket in Redis")
    matchmaker.stop()  # drains: the WatchTicket stream ends with UNAVAILABLE
    port = int(matchmaker.address.rsplit(":", 1)[1])
    cli_stack.matchmakers.append(start(by_name("matchmaking"), matchmaker.env, port=port))
    out, err = queue.communicate(timeout=90)
    assert queue.returncode == 0, err
    assert json.loads(out)["game"] == "undertheleaves"
    assert "cannot reach" not in err


def test_the_bot_of_an_abandoned_game_exits_by_itself(roost: Roost) -> None:
    created = roost(
        "new", "undertheleaves", "--players", "2", "--bot", "1=random", "--json",
        env={"ROOST_BOT_IDLE_SECONDS": "2"},
    )  # fmt: skip
    info = json.loads(created.stdout)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        listed = json.loads(roost("bots", "list", "--json").stdout)
        if not next(r for r in listed if r["game_id"] == info["game_id"])["running"]:
            break
        time.sleep(0.5)
    else:
        pytest.fail("the bot of an abandoned game did not exit")
    assert "gone (expired or abandoned)" in Path(info["bot_log"]).read_text()


def test_watch_gives_up_after_the_retry_window_and_says_so(
    redis_server_url: str, own_service: list[Proc], tmp_path: Path
) -> None:
    own_service.append(start(by_name("undertheleaves"), {"REDIS_URL": redis_server_url}))
    roost = _roost_on(own_service[0], tmp_path)
    game_id = _new_game(roost)
    roost.env["ROOST_RETRY_SECONDS"] = "3"
    watch = _spawn(roost, "watch", game_id)
    _connected(watch, own_service[0])
    own_service[0].stop(signal.SIGKILL)  # and never back
    # It gives up on its own (a 3 s window, said in the message), not when killed:
    # communicate's deadline fails the test if it never does.
    _out, err = watch.communicate(timeout=90)
    assert watch.returncode == 3, err
    assert "retrying" in err and "gave up after" in err and "ROOST_RETRY_SECONDS=3" in err
