"""The terminal's rough edges a new player meets, in a real pseudo-terminal of 80×24
(pexpect), as issue 29 lists them:

- the seat's own panel (mat, garden, aviary, tableau) is drawn after every other seat's,
  just above the choices and the prompt, so a 24-line window shows it;
- the Under the Leaves garden is drawn again once a spot is picked, that spot alone marked;
- ``roost bots stop --all`` stops the bots of every remembered game (docs/CLI.md);
- ``roost bots list`` fits game ids at 80 columns and does not offer finished games again;
- ``roost up --detach`` with an unreachable ``REDIS_URL`` names the cause and leaves
  nothing behind (no process, no state file, no ``.roost/`` directory).

Each test plays at most a few decisions: they are cheap (a few seconds each).
"""

from __future__ import annotations

import json
import os
import re
import socket
from pathlib import Path

import pexpect
import pytest

from tests.clients.conftest import Roost
from tests.clients.test_cli_pty import GAMES, PROMPT, new_game, spawn
from tests.waiting import wait_until

pytestmark = pytest.mark.e2e

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def plain(text: str) -> list[str]:
    """The lines as a person reads them: styles and carriage returns dropped."""
    return ANSI.sub("", text).replace("\r", "").split("\n")


def panel_titles(lines: list[str]) -> list[str]:
    """The titles of the boxed panels, top to bottom (``╭─ title ──╮``)."""
    return [line.strip("╭─╮ ") for line in lines if line.startswith("╭─")]


def running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, exited but not reaped, does not)."""
    try:
        return "\nState:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False


# ---------------------------------------------------------------- the boards


@pytest.mark.parametrize("game", GAMES)
def test_the_seats_own_panel_sits_just_above_the_prompt(roost: Roost, game: str) -> None:
    """Issue 29, the terminal: at 80×24 the seat's own panel comes after the other seats'
    and only the seat's own cards (hand, setup) and the choices lie below it."""
    info = new_game(roost, game)
    child = spawn(roost, "play", info["game_id"], "--seat", "0", colour=False)
    child.expect(PROMPT)
    lines = plain(child.before)
    child.close(force=True)
    assert all(len(line) <= 80 for line in lines), "a line wider than the terminal"
    titles = panel_titles(lines)
    own = [i for i, title in enumerate(titles) if "(you)" in title]
    others = [i for i, title in enumerate(titles) if "random bot" in title]
    assert own and others, titles
    assert max(others) < own[-1], f"another seat's panel below yours: {titles}"
    below = lines[max(i for i, line in enumerate(lines) if "(you)" in line) :]
    assert any(line.startswith("Your choices") for line in below)
    assert not any("random bot" in line for line in below), "\n".join(below)


def test_the_garden_is_drawn_again_once_a_spot_is_picked(roost: Roost) -> None:
    """Under the Leaves: picking a spot (a choice ending in ›) redraws the seat's garden
    with that spot alone marked (one 2×2 square of ``+``), just above its rotations."""
    info = new_game(roost, "undertheleaves")
    child = spawn(roost, "play", info["game_id"], "--seat", "0", colour=False)
    child.expect(PROMPT)
    child.sendline("0")  # take the market's first tile
    child.expect(PROMPT)
    spots = plain(child.before)
    assert any("spot (" in line and "›" in line for line in spots), "\n".join(spots)
    child.sendline("0")  # its first spot
    child.expect(PROMPT)
    lines = plain(child.before)
    child.close(force=True)
    garden = next(i for i, line in enumerate(lines) if line.startswith("╭─ Garden of Seat 0"))
    heading = next(i for i, line in enumerate(lines) if line.startswith("Your choices — spot ("))
    assert garden < heading, "the garden is not drawn above the rotations"
    drawn = lines[garden:heading]
    assert sum(line.count("+") for line in drawn) == 4, "\n".join(drawn)
    assert all(line.startswith("╰") or "rotated" not in line for line in drawn)
    assert any("rotated 90°" in line for line in lines[heading:])


# ------------------------------------------------------------------ the bots


def test_bots_stop_all_stops_every_remembered_game(roost: Roost) -> None:
    """docs/CLI.md: ``roost bots stop --all`` stops the background bots of every game."""
    games = [new_game(roost, "undertheleaves") for _ in range(2)]
    assert all(running(g["bot_pid"]) for g in games)
    child = spawn(roost, "bots", "stop", "--all")
    for g in games:
        child.expect(f"stopped the bots of {g['game_id']}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert not any(running(g["bot_pid"]) for g in games)
    listed = json.loads(roost("bots", "list", "--json").stdout)
    assert {r["game_id"]: r["state"] for r in listed} == {g["game_id"]: "stopped" for g in games}
    again = spawn(roost, "bots", "stop", "--all")
    again.expect("no running bots to stop")
    again.expect(pexpect.EOF)


def test_bots_list_fits_80_columns_and_leaves_finished_games_out(roost: Roost) -> None:
    """``roost bots list`` at 80 columns: every game id whole on one line; a finished game
    is listed as finished and neither offered nor accepted for a restart."""
    created = roost(
        "new", "undertheleaves", "--players", "2", "--bot", "0=random", "--bot", "1=random",
        "--seed", "7", "--json",
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    done = json.loads(created.stdout)
    wait_until(lambda: not running(done["bot_pid"]), "two bots to finish their game", timeout=120)
    child = spawn(roost, "bots", "list", colour=False)
    child.expect(pexpect.EOF)
    lines = plain(child.before)
    table = [line for line in lines if not line.startswith("logs: ")]  # a path, unwrapped
    assert all(len(line) <= 80 for line in table), "\n".join(lines)
    row = next(line for line in lines if done["game_id"] in line)
    assert "finished" in row
    assert not any("roost bots start" in line for line in lines), "\n".join(lines)
    refused = roost("bots", "start", done["game_id"])
    assert refused.returncode == 6 and "finished" in refused.stderr

    stopped = new_game(roost, "undertheleaves")  # in progress, its bot crashed
    os.kill(stopped["bot_pid"], 9)
    wait_until(lambda: not running(stopped["bot_pid"]), "the second bot to die")
    child = spawn(roost, "bots", "list", colour=False)
    child.expect(pexpect.EOF)
    lines = plain(child.before)
    table = [line for line in lines if not line.startswith("logs: ")]  # a path, unwrapped
    assert all(len(line) <= 80 for line in table), "\n".join(lines)
    assert "stopped" in next(line for line in lines if stopped["game_id"] in line)
    assert "finished" in next(line for line in lines if done["game_id"] in line)
    assert any("roost bots start GAME_ID" in line for line in lines)
    listed = {r["game_id"]: r for r in json.loads(roost("bots", "list", "--json").stdout)}
    assert listed[done["game_id"]]["restartable"] == []
    assert listed[stopped["game_id"]]["restartable"] == [1]


# ------------------------------------------------------------------- the stack


def closed_port() -> int:
    """A loopback port where nothing listens."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_up_detach_with_an_unreachable_redis_names_it_and_leaves_nothing(
    tmp_path: Path,
) -> None:
    """``roost up --detach`` with ``REDIS_URL`` at a closed port: one message naming the
    Redis and the refusal, exit 3, and nothing left: no process of the launcher's, no
    ``stack.json`` in the state directory, no ``.roost/`` in the current directory."""
    url = f"redis://127.0.0.1:{closed_port()}/0"
    home, work = tmp_path / "home", tmp_path / "work"
    work.mkdir()
    roost = Roost({"REDIS_URL": url}, home)
    before = {p.name for p in Path("/proc").iterdir() if p.name.isdigit()}
    child = spawn(roost, "up", "--detach", cwd=work)
    child.expect(f"cannot reach the Redis at REDIS_URL={re.escape(url)}")
    child.expect("refused")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 3
    assert not (work / ".roost").exists()
    assert not (home / "stack.json").exists()
    launched = [  # processes started since, with this test's REDIS_URL in their environment
        p
        for p in Path("/proc").iterdir()
        if p.name.isdigit() and p.name not in before and url.encode() in _read(p / "environ")
    ]
    assert launched == [], "a service process was left running"
    down = roost("down")
    assert down.returncode == 0 and "no detached stack" in down.stdout


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""


def test_up_detach_whose_launcher_fails_leaves_no_state_file(
    redis_server_url: str, tmp_path: Path
) -> None:
    """A detached stack that exits before it is ready (here: a service's port is taken)
    is reported with the launcher's own words, and ``stack.json`` does not outlive it."""
    home, work = tmp_path / "home", tmp_path / "work"
    work.mkdir()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        roost = Roost({"REDIS_URL": redis_server_url, "PORT_UNDERTHELEAVES": str(port)}, home)
        child = spawn(roost, "up", "--detach", cwd=work)
        child.expect(f"port {port} for undertheleaves is in use")
        child.expect("stopped everything it had started")
        child.expect(pexpect.EOF)
        child.close()
    assert child.exitstatus == 1
    assert not (home / "stack.json").exists()
    assert roost("down").stdout.startswith("no detached stack")
