"""Whether this machine can build and test the web frontend (Node.js 20.19+ and npm)."""

from __future__ import annotations

import shutil
import subprocess

#: The oldest Node.js the web app builds on: vite 7's floor (web/package.json "engines").
NODE_FLOOR = (20, 19)


def node_ok() -> bool:
    """Node.js 20.19 or later and npm are on PATH."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        return False
    version = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout
    try:
        major, minor = (int(part) for part in version.strip().lstrip("v").split(".")[:2])
    except ValueError:
        return False
    return (major, minor) >= NODE_FLOOR
