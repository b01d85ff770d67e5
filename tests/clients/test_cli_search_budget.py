"""``--budget-ms`` and ``--playouts`` of ``roost bots`` and ``roost tournament``:
sugar for the search bot's kinds ``search@<N>ms`` and ``search@<N>p``."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from clients.cli.commands import with_search_budget
from clients.cli.main import build_parser
from clients.rpc import CliError, Exit
from services.registry import by_name
from tests.clients.conftest import roost_command
from tests.matchmaking.stack import ROOT, Proc, start


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(list(argv))


def test_budget_ms_makes_plain_search_a_timed_search() -> None:
    args = parse("tournament", "--game", "undertheleaves", "--players", "2",
                 "--bots", "search,random,search@3p", "--budget-ms", "250")  # fmt: skip
    assert with_search_budget(list(args.bots), args) == ["search@250ms", "random", "search@3p"]


def test_playouts_makes_plain_search_a_counted_search() -> None:
    args = parse("bots", "GAME", "1=search", "--playouts", "40")
    assert args.playouts == 40 and args.budget_ms is None
    assert with_search_budget(["search", "greedy"], args) == ["search@40p", "greedy"]


def test_without_a_flag_the_kinds_are_unchanged() -> None:
    args = parse("bots", "GAME", "--policy", "search")
    assert with_search_budget(["search"], args) == ["search"]


def test_a_budget_without_a_plain_search_bot_is_a_usage_error() -> None:
    args = parse("bots", "GAME", "--budget-ms", "100")
    with pytest.raises(CliError, match="--budget-ms sets the budget of the search bot") as err:
        with_search_budget(["random", "search@50ms"], args)
    assert err.value.code == Exit.USAGE


@pytest.mark.parametrize(
    "flags",
    [
        ("--budget-ms", "100", "--playouts", "5"),  # one or the other
        ("--playouts", "0"),  # a budget is positive
        ("--budget-ms", "soon"),
    ],
)
def test_bad_budget_flags_are_refused_by_the_parser(flags: tuple[str, ...]) -> None:
    with pytest.raises(SystemExit) as exit_:
        parse("bots", "GAME", *flags)
    assert exit_.value.code == 2


@pytest.fixture(scope="module")
def utl_service(redis_server_url: str) -> Iterator[Proc]:
    """The Under the Leaves service as its own process."""
    proc = start(by_name("undertheleaves"), {"REDIS_URL": redis_server_url})
    try:
        yield proc
    finally:
        proc.stop()


def test_a_tournament_runs_the_search_bot_with_the_playouts_given(
    utl_service: Proc, tmp_path: Path
) -> None:
    """A real game: the report names the budgeted kind, so the flag reached the bots."""
    done = subprocess.run(
        [*roost_command(), "tournament", "--game", "undertheleaves", "--players", "2",
         "--games", "1", "--bots", "search,random", "--playouts", "4", "--seed", "3",
         "--target", utl_service.address, "--json"],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
        env={**os.environ, "ROOST_HOME": str(tmp_path)},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert report["bots"] == ["search@4p", "random"]
    assert report["games_finished"] == 1
    assert report["bots_summary"]["search@4p"]["seats"] == 1


def test_the_tournament_refuses_a_budget_it_cannot_use(tmp_path: Path) -> None:
    done = subprocess.run(
        [*roost_command(), "tournament", "--game", "undertheleaves", "--players", "2",
         "--bots", "random", "--playouts", "4"],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
        env={**os.environ, "ROOST_HOME": str(tmp_path)},
    )  # fmt: skip
    assert done.returncode == Exit.USAGE, done.stdout + done.stderr
    assert "--playouts sets the budget of the search bot" in done.stdout + done.stderr
