"""The web frontend's unit tests (vitest, in web/), run as part of the suite.

They draw every game's board from recorded views, check the choosing logic,
the API layer and the registry copy. Needs Node.js and npm; the npm
dependencies are installed from the lockfile when missing.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.web.node import node_ok
from tools.npm_cache import deps as npm_deps

WEB = Path(__file__).resolve().parents[2] / "web"


@pytest.mark.skipif(not node_ok(), reason="needs Node.js 20 or later with npm")
def test_web_unit_suite() -> None:
    """`npm test` (protobuf-es generation, then vitest) passes."""
    npm_deps(WEB)  # npm ci at most once per lockfile on this machine
    result = subprocess.run(
        ["npm", "test", "--silent"], cwd=WEB, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
