"""The web frontend end to end in headless Chromium against a served app.

web/scripts/e2e.mjs queues through the matchmaker, then for each game starts a
game against bots from the lobby, plays it to the end by clicking, checks the
final score board, watches it from a spectator page (same totals, no hand) and
reloads in the middle. It needs the app served with the services' browser
endpoints reachable from it: set ROOST_WEB_URL to its address (e.g. the
address `make run` prints for the web app); skipped otherwise.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.web.node import node_ok

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
URL = os.environ.get("ROOST_WEB_URL", "")


@pytest.mark.slow
@pytest.mark.skipif(not node_ok(), reason="needs Node.js 20 or later with npm")
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM}")
@pytest.mark.skipif(not URL, reason="no served web app: set ROOST_WEB_URL")
def test_play_every_game_in_the_browser() -> None:
    """scripts/e2e.mjs passes against the app at ROOST_WEB_URL."""
    subprocess.run(["make", "web"], cwd=ROOT, check=True, capture_output=True)
    result = subprocess.run(
        ["node", "scripts/e2e.mjs", URL],
        cwd=ROOT / "web",
        capture_output=True,
        text=True,
        timeout=3600,
        env={**os.environ, "CHROMIUM": CHROMIUM},
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
