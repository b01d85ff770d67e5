"""Seats this user holds, remembered between commands.

``roost new`` and ``roost queue`` write the game, its service address and the
seat tokens to ``sessions.json`` in the client's state directory (mode 0600),
so ``roost play GAME_ID`` finds its token and game without flags. The tokens
of bot seats are remembered too, with the background bot process playing
them, so ``roost bots`` can list, stop and restart the bots.

The state directory is the first usable of: ``$ROOST_HOME``,
``$XDG_STATE_HOME/roost``, ``~/.roost``, and a private directory under the
system's temporary directory (for a missing or read-only home, as in a
container image).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

MAX_SESSIONS = 200
_HOME: Path | None = None


def _candidates() -> list[Path]:
    paths: list[Path] = []
    if os.environ.get("ROOST_HOME"):
        paths.append(Path(os.environ["ROOST_HOME"]))
    if os.environ.get("XDG_STATE_HOME"):
        paths.append(Path(os.environ["XDG_STATE_HOME"]) / "roost")
    with contextlib.suppress(RuntimeError, KeyError):
        paths.append(Path.home() / ".roost")
    uid = os.getuid() if hasattr(os, "getuid") else "user"
    paths.append(Path(tempfile.gettempdir()) / f"roost-{uid}")
    return paths


def _usable(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError:
        return False
    return path.is_dir() and os.access(path, os.W_OK | os.X_OK)


def home() -> Path:
    """The client's state directory (created on first use; see the module docstring)."""
    global _HOME
    if _HOME is None:
        candidates = _candidates()
        _HOME = next((p for p in candidates if _usable(p)), candidates[-1])
    return _HOME


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


def _write(sessions: dict[str, Any]) -> None:
    if len(sessions) > MAX_SESSIONS:
        for old in sorted(sessions, key=lambda g: sessions[g].get("time", 0))[:-MAX_SESSIONS]:
            del sessions[old]
    path = _path()
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as handle:
            json.dump(sessions, handle, indent=1)
        tmp.replace(path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()


def save(
    game_id: str,
    game: str,
    address: str,
    seats: dict[int, str],
    bots: dict[int, str] | None = None,
    bot_tokens: dict[int, str] | None = None,
) -> None:
    """Remember a game's seats (merged with what is already known).

    ``seats`` are the tokens of the user's own seats, ``bots`` the bot kind of
    each bot seat and ``bot_tokens`` their tokens (so the bots can be restarted).
    """
    sessions = load_all()
    entry = sessions.get(game_id, {"seats": {}, "bots": {}})
    entry.update({"game": game, "address": address, "time": time.time()})
    entry.setdefault("seats", {}).update({str(s): t for s, t in seats.items()})
    entry.setdefault("bots", {}).update({str(s): k for s, k in (bots or {}).items()})
    entry.setdefault("bot_tokens", {}).update({str(s): t for s, t in (bot_tokens or {}).items()})
    sessions[game_id] = entry
    _write(sessions)


def set_bot_process(game_id: str, pid: int | None, log: str = "") -> None:
    """Remember (or, with ``pid`` None, forget) the bot process of a game."""
    sessions = load_all()
    entry = sessions.get(game_id)
    if entry is None:
        return
    if pid is None:
        entry.pop("bot_pid", None)
    else:
        entry.update({"bot_pid": pid, "bot_log": log, "bot_started": time.time()})
    _write(sessions)
