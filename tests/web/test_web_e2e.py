"""The web frontend end to end: the real stack, the built app, headless Chromium.

The test starts what ``make run`` starts (see :mod:`tests.web.stack`): every
service and the matchmaker as processes on free ports against the session's
real Redis, and the built app (``make web``) with its generated ``config.js``.
Then web/scripts/e2e.mjs drives Chromium through the page only: it queues
through the matchmaker with bots filling the other seat, and for each game
starts a game against bots from the lobby, plays it to the end by clicking,
checks the final score board, watches it from a spectator page (the same moves,
no hand, no chooser) and reloads the player's page in the middle. In one game
(:data:`RESTART_GAME`) it can ask for that game's service to be restarted mid-game:
the test restarts the process on the same ports and both pages must reconnect
by themselves (a read failing with UNAVAILABLE during the restart must not
end the live updates). ``ROOST_E2E_RESTART=0`` leaves that step out.

Screenshots go to ``ROOST_E2E_OUT`` (default: a temporary folder, whose path the
test prints). ``ROOST_E2E_GAMES`` limits the games (comma-separated, or
``matchmaking``). Set ``ROOST_WEB_URL`` to run the script against an already
served app instead (no restart step then).
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.node import node_ok
from tests.web.stack import Stack, running_stack

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
URL = os.environ.get("ROOST_WEB_URL", "")
#: The game whose service is restarted in the middle of its game, unless
#: ROOST_E2E_RESTART is 0 (see the module docstring).
RESTART_GAME = "undertheleaves"
RESTART = os.environ.get("ROOST_E2E_RESTART", "1").strip().lower() not in ("0", "false", "no")
#: The whole script's time limit (seconds).
TIMEOUT = 900

pytestmark = [
    pytest.mark.slow,
    pytest.mark.e2e,
    pytest.mark.skipif(not node_ok(), reason="needs Node.js 20.19 or later with npm"),
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM}"),
]


@pytest.fixture(scope="module")
def built_app() -> None:
    """``make web``: npm ci when the lockfile changed, the build when it is stale."""
    result = subprocess.run(["make", "web"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]


@pytest.fixture(scope="module")
def stack(
    built_app: None, redis_server_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Stack | None]:
    """The running stack (None when ``ROOST_WEB_URL`` names one already served)."""
    if URL:
        yield None
        return
    logs = tmp_path_factory.mktemp("web-e2e-logs")
    # Bots fill a queued seat after 1 s instead of 10 s: the matchmaking step stays short.
    with running_stack(redis_server_url, logs, {"MM_BOT_FILL_AFTER_MS": "1000"}) as running:
        yield running


def run_script(stack: Stack | None, out: Path, steps: tuple[str, ...] = ()) -> tuple[int, str]:
    """Run e2e.mjs (only ``steps`` when given); answer its ``RESTART <game>`` lines
    by restarting that service."""
    command = ["node", "scripts/e2e.mjs", URL or (stack.url if stack else ""), "--out", str(out)]
    if steps:
        command += list(steps)
    else:
        if stack is not None and RESTART:
            command += ["--restart", RESTART_GAME]
        games = os.environ.get("ROOST_E2E_GAMES", "")
        command += [g.strip() for g in games.split(",") if g.strip()]
    process = subprocess.Popen(
        command,
        cwd=ROOT / "web",
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "CHROMIUM": CHROMIUM},
    )
    assert process.stdin is not None and process.stdout is not None
    timer = threading.Timer(TIMEOUT, process.kill)
    timer.start()
    output: list[str] = []
    try:
        for line in process.stdout:
            output.append(line)
            print(line, end="", flush=True)
            if line.startswith("RESTART ") and stack is not None:
                began = time.monotonic()
                stack.restart(line.split()[1])
                output.append(f"(restarted in {time.monotonic() - began:.1f} s)\n")
                process.stdin.write("restarted\n")
                process.stdin.flush()
        return process.wait(), "".join(output)
    finally:
        timer.cancel()
        if process.poll() is None:
            process.kill()


def test_play_every_game_in_the_browser(
    stack: Stack | None, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """e2e.mjs passes: every game played to its score board by clicking, watched,
    reloaded, and one game's service restarted under the open pages."""
    out = Path(os.environ.get("ROOST_E2E_OUT") or tmp_path_factory.mktemp("web-e2e-screenshots"))
    out.mkdir(parents=True, exist_ok=True)
    print(f"screenshots: {out}")
    status, output = run_script(stack, out)
    assert status == 0, output[-6000:]
    games = os.environ.get("ROOST_E2E_GAMES", "")
    if stack is not None and RESTART and (not games or RESTART_GAME in games):
        assert stack.restarts == [RESTART_GAME], output[-3000:]


@pytest.mark.e2e
def test_a_timed_game_in_the_browser_ends_when_the_bot_runs_out_of_time(
    stack: Stack | None, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """e2e.mjs's timed step (issue 27): a per-move clock with TIMEOUT_POLICY_FORFEIT,
    the page's seat played by clicking, the other seat's bot silent after its first
    decision: the page shows the clock and Resign, then "Sleepy bot ran out of
    time.", the final score board and a Rematch that waits for the bot."""
    out = tmp_path_factory.mktemp("web-e2e-timed")
    status, output = run_script(stack, out, ("timed",))
    assert status == 0, output[-6000:]
    assert "timed: the bot ran out of time" in output


@pytest.mark.e2e
def test_a_finished_game_is_replayed_step_by_step_in_the_browser(
    stack: Stack | None, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """e2e.mjs's replay step (issue 30, "Replays in the web app"): a finished game opened
    at #/replay/<game>/<id>?seat=0&v=1 is stepped forward (and back) move by move, each step
    showing the record's decision; the last move draws the board and the score board; a
    jumped-to move's shared link opens at that move; the record downloads as
    <game>-<game id>.json."""
    out = tmp_path_factory.mktemp("web-e2e-replay")
    status, output = run_script(stack, out, ("replay",))
    assert status == 0, output[-6000:]
    assert "replay: " in output and "moves stepped through" in output
