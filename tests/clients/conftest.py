"""Fixtures of the CLI tests: every implemented game service and one matchmaker,
as real processes, and a way to run ``roost`` as a user would."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.matchmaking.stack import ROOT, Stack, implemented_games, stack


@pytest.fixture(scope="session")
def cli_stack(redis_server_url: str) -> Iterator[Stack]:
    """Every implemented game service plus one matchmaker."""
    games = [g.name for g in implemented_games()]
    if "undertheleaves" not in games:
        pytest.skip("the Under the Leaves service is not available")
    with stack(
        redis_server_url, games, matchmakers=1, mm_db=6, MM_BOT_FILL_AFTER_MS="300"
    ) as running:
        yield running


def roost_command() -> list[str]:
    """The installed ``roost`` script next to this interpreter, else ``python -m``."""
    script = Path(sys.executable).with_name("roost")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "clients.cli.main"]


class Roost:
    """Runs ``roost ...`` in a subprocess with the stack's addresses in its environment."""

    def __init__(self, env: dict[str, str], home: Path) -> None:
        self.env = {**os.environ, **env, "ROOST_HOME": str(home), "COLUMNS": "160"}

    def __call__(
        self, *args: str, stdin: str = "", timeout: float = 60, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*roost_command(), *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=ROOT,
            env={**self.env, **(env or {})},
        )


@pytest.fixture
def roost(cli_stack: Stack, tmp_path: Path) -> Roost:
    """``roost`` wired to the test stack, with its own ROOST_HOME."""
    return Roost(cli_stack.client_env(), tmp_path / "roost-home")


@pytest.fixture
def offline_roost(tmp_path: Path) -> Roost:
    """``roost`` pointed at addresses where nothing listens."""
    from services.core.redis_server import free_port

    dead = f"127.0.0.1:{free_port()}"
    env = {"MATCHMAKER_ADDR": dead}
    env.update({f"GAME_ADDR_{g.name.upper()}": dead for g in implemented_games()})
    return Roost(env, tmp_path / "roost-home")
