"""The deployment's per-game parts are generated from the registry
(tools/gen_deploy.py): what is committed is what the tool writes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_generated_deployment_files_are_up_to_date() -> None:
    """Run ``python tools/gen_deploy.py`` after editing games.toml or a template."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_deploy.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
