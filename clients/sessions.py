"""Seats this user holds, remembered between commands.

``roost new`` and ``roost queue`` write the game, its service address and the
seat tokens to ``$ROOST_HOME/sessions.json`` (default ``~/.roost``, mode
0600), so ``roost play GAME_ID`` finds its token and game without flags.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

MAX_SESSIONS = 200


def home() -> Path:
    """The directory of the client's files."""
    return Path(os.environ.get("ROOST_HOME") or Path.home() / ".roost")


def _path() -> Path:
    return home() / "sessions.json"


def load_all() -> dict[str, Any]:
    """Every remembered game by id."""
    try:
        return json.loads(_path().read_text())
    except (OSError, ValueError):
        return {}


def get(game_id: str) -> dict[str, Any] | None:
    """The session of one game."""
    return load_all().get(game_id)


def save(
    game_id: str,
    game: str,
    address: str,
    seats: dict[int, str],
    bots: dict[int, str] | None = None,
) -> None:
    """Remember a game's seats (merged with what is already known)."""
    sessions = load_all()
    entry = sessions.get(game_id, {"seats": {}, "bots": {}})
    entry.update({"game": game, "address": address, "time": time.time()})
    entry.setdefault("seats", {}).update({str(s): t for s, t in seats.items()})
    entry.setdefault("bots", {}).update({str(s): k for s, k in (bots or {}).items()})
    sessions[game_id] = entry
    if len(sessions) > MAX_SESSIONS:
        for old in sorted(sessions, key=lambda g: sessions[g].get("time", 0))[:-MAX_SESSIONS]:
            del sessions[old]
    directory = home()
    directory.mkdir(parents=True, exist_ok=True)
    path = _path()
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        json.dump(sessions, handle, indent=1)
    tmp.replace(path)
