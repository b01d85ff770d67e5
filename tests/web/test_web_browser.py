"""The web frontend in a real browser: every recorded board drawn in headless
Chromium (fixture mode, no server), legal targets reachable as buttons and by
keyboard, no text overflowing its box and no raw id shown, a screenshot of each
at 1280x800 and at phone size, one board per game and size compared with its
reference picture in docs/screenshots/ (with a tolerance).

Needs Node.js/npm and Chromium (Debian's `chromium` package; set CHROMIUM to
use another binary); skipped when either is missing.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.web.node import node_ok

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


@pytest.mark.slow
@pytest.mark.e2e
@pytest.mark.skipif(not node_ok(), reason="needs Node.js 20 or later with npm")
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM}")
def test_every_board_in_chromium() -> None:
    """`make web`, then scripts/screenshots.mjs passes."""
    subprocess.run(["make", "web"], cwd=ROOT, check=True, capture_output=True)
    result = subprocess.run(
        ["node", "scripts/screenshots.mjs"],
        cwd=ROOT / "web",
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "CHROMIUM": CHROMIUM},
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
