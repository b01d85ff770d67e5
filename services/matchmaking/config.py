"""Matchmaker settings, read once from the environment.

Process settings (Redis, port, logs, drain) come from
:class:`services.core.config.Settings`; these are the matchmaker's own.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from services.registry import GAMES


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    return int(raw) if raw.strip() else default


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name, "")
    return float(raw) if raw.strip() else default


def game_address(name: str, default_port: int) -> str:
    """Where the matchmaker calls a game: ``GAME_ADDR_<NAME>`` or 127.0.0.1:<default port>."""
    return os.environ.get(f"GAME_ADDR_{name.upper()}", "").strip() or f"127.0.0.1:{default_port}"


def public_address(name: str, default_port: int) -> str:
    """The address handed to players: ``GAME_PUBLIC_ADDR_<NAME>``, else :func:`game_address`."""
    return os.environ.get(f"GAME_PUBLIC_ADDR_{name.upper()}", "").strip() or game_address(
        name, default_port
    )


@dataclass(frozen=True, slots=True)
class MatchmakerSettings:
    """Tuning of the matchmaker (environment variable in brackets).

    * ``tick_ms`` [MM_TICK_MS]: matching pass interval per game.
    * ``heartbeat_timeout_ms`` [MM_HEARTBEAT_TIMEOUT_MS]: a queued ticket
      without a Heartbeat for this long expires.
    * ``bot_fill_after_ms`` [MM_BOT_FILL_AFTER_MS]: default wait before bots
      fill empty seats of tickets that allow it.
    * ``window_base`` / ``window_per_second`` / ``window_max``
      [MM_WINDOW_BASE, MM_WINDOW_PER_SECOND, MM_WINDOW_MAX]: the rating window
      (OpenSkill mu units) of a ticket that has waited ``w`` seconds is
      ``min(base + per_second * w, max)``.
    * ``retention_seconds`` [MM_TICKET_RETENTION_SECONDS]: how long a ticket
      stays readable after its last change.
    * ``match_deadline_ms`` [MM_MATCH_DEADLINE_MS]: a claimed match not assigned
      by then (its matchmaker died) puts its tickets back in the queue.
    * ``lease_ms`` [MM_LEASE_MS]: lease of a matchmaker process on a game it
      supervises; another process adopts the game when it lapses.
    * ``scan_limit`` [MM_SCAN_LIMIT]: oldest tickets considered per pass.
    * ``no_show_ms`` [MM_NO_SHOW_MS]: a matched game whose seats have not all
      made their first decision this long after it was made is aborted (the
      game's Abort: unrated) and no longer supervised; 0 never.
    * ``games`` [MM_GAMES]: comma-separated games served (default: every game
      of the registry).
    """

    tick_ms: int = 100
    heartbeat_timeout_ms: int = 30_000
    bot_fill_after_ms: int = 10_000
    window_base: float = 3.0
    window_per_second: float = 1.0
    window_max: float = 50.0
    retention_seconds: int = 3600
    match_deadline_ms: int = 30_000
    lease_ms: int = 10_000
    scan_limit: int = 500
    no_show_ms: int = 300_000
    games: tuple[str, ...] = field(default_factory=lambda: tuple(g.name for g in GAMES))

    @classmethod
    def from_env(cls) -> MatchmakerSettings:
        """Settings from ``MM_*`` environment variables."""
        games_raw = os.environ.get("MM_GAMES", "").strip()
        games = (
            tuple(g.strip() for g in games_raw.split(",") if g.strip())
            if games_raw
            else tuple(g.name for g in GAMES)
        )
        return cls(
            tick_ms=_int("MM_TICK_MS", 100),
            heartbeat_timeout_ms=_int("MM_HEARTBEAT_TIMEOUT_MS", 30_000),
            bot_fill_after_ms=_int("MM_BOT_FILL_AFTER_MS", 10_000),
            window_base=_float("MM_WINDOW_BASE", 3.0),
            window_per_second=_float("MM_WINDOW_PER_SECOND", 1.0),
            window_max=_float("MM_WINDOW_MAX", 50.0),
            retention_seconds=_int("MM_TICKET_RETENTION_SECONDS", 3600),
            match_deadline_ms=_int("MM_MATCH_DEADLINE_MS", 30_000),
            lease_ms=_int("MM_LEASE_MS", 10_000),
            scan_limit=_int("MM_SCAN_LIMIT", 500),
            no_show_ms=_int("MM_NO_SHOW_MS", 300_000),
            games=games,
        )
