"""``roost play`` and ``roost watch`` in a real pseudo-terminal (pexpect), as a person
uses them: every game played to the end against a background bot (the first choice
each time, or a typed filter and then a number), the end screen read; Ctrl-C and a
resume with the remembered seat; a bot killed and restarted through ``roost bots``;
``roost watch`` across a crashed and restarted service.

The terminal is 80 columns wide (pexpect's default size, 24×80), so the boards are
drawn as a person with a small window sees them.
"""

from __future__ import annotations

import json
import os
import re
import signal
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from services.registry import by_name
from tests.clients.conftest import Roost, roost_command
from tests.matchmaking.stack import ROOT, Proc, start
from tests.waiting import DEADLINE, connections, wait_until

pytestmark = pytest.mark.slow

PROMPT = re.compile(r"choice \(0-(\d+), words to filter")
END = "Scores \\(final\\)"
AFTER_GAME = re.compile(r"game over \(rematch or q\)>")
GAMES = ("undertheleaves", "birdscaping", "skygarden", "wingspan")
MAX_TURNS = 600


def spawn(roost: Roost, *args: str, colour: bool = True, cwd: Path = ROOT) -> pexpect.spawn:
    """``roost ARGS`` in a pseudo-terminal of 24×80 with the test stack's environment,
    run in ``cwd`` (the repository by default)."""
    command, *rest = roost_command()
    env = {k: v for k, v in roost.env.items() if k != "COLUMNS"}
    env["TERM"] = "xterm-256color"
    if not colour:
        env["NO_COLOR"] = "1"
    return pexpect.spawn(
        command,
        [*rest, *args],
        cwd=str(cwd),
        env=env,
        encoding="utf-8",
        codec_errors="replace",
        dimensions=(24, 80),
        # A deadline, not a pace: a passing expect returns the moment its text shows,
        # and a machine at load average 10-20 can take tens of seconds to show it.
        timeout=DEADLINE,
        maxread=65536,
        searchwindowsize=8192,
    )


def new_game(roost: Roost, game: str, bot: str = "1=random") -> dict:
    created = roost("new", game, "--players", "2", "--bot", bot, "--seed", "7", "--json")
    assert created.returncode == 0, created.stderr
    return json.loads(created.stdout)


def play_to_the_end(child: pexpect.spawn, first: str = "") -> str:
    """Answers every prompt with "0" (after ``first`` once) until the end screen; returns
    what was printed from the last prompt on."""
    sent_first = not first
    for _ in range(MAX_TURNS):
        found = child.expect([PROMPT, END])
        if found == 1:
            # The ended game's prompt offers a rematch; any other key leaves.
            child.expect(AFTER_GAME)
            tail = "Scores (final)" + str(child.before)
            child.sendline("q")
            child.expect(pexpect.EOF)
            return tail
        if not sent_first:
            child.sendline(first)
            sent_first = True
            continue
        child.sendline("0")
    pytest.fail("the game did not end")


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_in_a_terminal(roost: Roost, game: str) -> None:
    info = new_game(roost, game)
    child = spawn(roost, "play", info["game_id"], "--seat", "0", colour=game != "wingspan")
    # A filter first (the kind of the first choice, from the list on screen), then numbers.
    child.expect(PROMPT)
    child.sendline("?")
    child.expect(r"Type\s+words\s+to\s+filter")
    tail = play_to_the_end(child, first="a")
    child.close()
    assert child.exitstatus == 0
    assert "Game over" in tail
    assert "Total" in tail and "Rank" in tail


def test_ctrl_c_then_resume_with_the_remembered_seat(roost: Roost) -> None:
    info = new_game(roost, "undertheleaves")
    child = spawn(roost, "play", info["game_id"], "--seat", "0")
    child.expect(PROMPT)
    child.sendline("0")
    child.expect(PROMPT)
    child.sendintr()
    child.expect("interrupted")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 or child.signalstatus == signal.SIGINT
    again = spawn(roost, "play", info["game_id"])  # no --seat: the remembered one
    again.expect("you are seat 0")
    tail = play_to_the_end(again)
    again.close()
    assert again.exitstatus == 0 and "Game over" in tail


def test_a_killed_bot_restarted_with_roost_bots(roost: Roost) -> None:
    info = new_game(roost, "undertheleaves")
    os.kill(info["bot_pid"], signal.SIGKILL)  # the bot crashes before it plays
    child = spawn(roost, "play", info["game_id"], "--seat", "0")
    # The seat decides until the turn passes to the (dead) bot: a turn may take
    # several decisions in a row, so answer every prompt until it waits.
    for _ in range(20):
        if child.expect([PROMPT, "Waiting for"]) == 1:
            break
        child.sendline("0")
    else:
        raise AssertionError("the seat was never left waiting for the bot")
    listed = json.loads(roost("bots", "list", "--json").stdout)
    assert not next(r for r in listed if r["game_id"] == info["game_id"])["running"]
    restarted = roost("bots", "start", info["game_id"])
    assert restarted.returncode == 0, restarted.stderr
    tail = play_to_the_end(child)
    child.close()
    assert child.exitstatus == 0 and "Game over" in tail


@pytest.fixture
def own_service(redis_server_url: str) -> Iterator[list[Proc]]:
    """Under the Leaves services started by the test (the last one is the current one)."""
    procs: list[Proc] = [start(by_name("undertheleaves"), {"REDIS_URL": redis_server_url})]
    yield procs
    for proc in procs:
        proc.stop(signal.SIGKILL)


def test_watch_across_a_crashed_and_restarted_service(
    redis_server_url: str, own_service: list[Proc], tmp_path: Path
) -> None:
    address = own_service[0].address
    roost = Roost({"GAME_ADDR_UNDERTHELEAVES": address}, tmp_path / "home")
    created = roost("new", "undertheleaves", "--players", "2", "--json")
    game_id = json.loads(created.stdout)["game_id"]
    watch = spawn(roost, "watch", game_id)
    watch.expect("spectator")
    watch.expect("Garden of")
    own_service[0].stop(signal.SIGKILL)  # the connection is closed under the stream
    port = int(address.rsplit(":", 1)[1])
    wait_until(lambda: not connections(watch.pid, port), "the watch's connection to close")
    port = int(address.rsplit(":", 1)[1])
    own_service.append(start(by_name("undertheleaves"), {"REDIS_URL": redis_server_url}, port=port))
    bots = roost("bots", "start", game_id, "0=random", "1=random")
    assert bots.returncode == 0, bots.stderr
    watch.expect("Game over", timeout=120)
    watch.expect(pexpect.EOF)
    watch.close()
    assert watch.exitstatus == 0
