"""Session fixtures shared by every test folder, and the tiers (tests/tiers.py)."""

from __future__ import annotations

import json
import os
from collections.abc import Generator, Iterator

import pytest

from services.core.redis_server import listen_range
from tests.harness import redis_url
from tests.tiers import guard_unit_test, mark_tiers, tier_of


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--roost-summary",
        default=None,
        help="write the run's outcome counts as JSON to this file (tools/test_tiers.py)",
    )


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """Hand the outcome counts to tools/test_tiers.py, which sums its phases."""
    target = config.getoption("--roost-summary")
    if not target or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    counts = {
        outcome: len(terminalreporter.stats.get(outcome, ()))
        for outcome in ("failed", "passed", "skipped", "deselected", "xfailed", "xpassed", "error")
    }
    with open(target, "w", encoding="utf-8") as out:
        json.dump(counts, out)


def pytest_configure(config: pytest.Config) -> None:
    """A pytest-xdist worker picks its servers' ports from its own slice of the range
    (``ROOST_FREE_PORTS``, inherited by the processes it starts), so workers never
    race for a port; each worker starts its own Redis (``redis_server_url``)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1)
    if not worker.startswith("gw") or count < 2:
        return
    index = int(worker[2:])
    low, high = listen_range()
    width = (high - low) // count
    os.environ["ROOST_FREE_PORTS"] = f"{low + index * width}-{low + (index + 1) * width}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test with its tier (service, e2e; unmarked is the unit tier)."""
    mark_tiers(items)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """A unit-tier test runs with internet sockets and subprocesses refused."""
    if tier_of(item) != "unit":
        return (yield)
    with guard_unit_test(item.nodeid):
        return (yield)


@pytest.fixture(scope="session")
def redis_server_url() -> Iterator[str]:
    """URL of a real Redis (REDIS_URL, testcontainers, or a local binary)."""
    with redis_url() as url:
        yield url
