"""Whether this machine can build and test the web frontend (Node.js 20+ and npm)."""

from __future__ import annotations

import shutil
import subprocess


def node_ok() -> bool:
    """Node.js 20 or later and npm are on PATH (vite 7 and vitest 4 need Node 20)."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        return False
    version = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout
    try:
        return int(version.strip().lstrip("v").split(".")[0]) >= 20
    except ValueError:
        return False
