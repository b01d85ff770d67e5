"""Fixtures of the matchmaking tests: a real Under the Leaves service and two
matchmaker processes over a real Redis."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.matchmaking.mmclient import MmClient, UtlClient
from tests.matchmaking.stack import Stack, implemented_games, stack


@pytest.fixture(scope="session")
def mm_stack(redis_server_url: str) -> Iterator[Stack]:
    """Under the Leaves plus two matchmakers sharing one Redis."""
    if "undertheleaves" not in {g.name for g in implemented_games()}:
        pytest.skip("the Under the Leaves service is not available")
    with stack(redis_server_url, ["undertheleaves"], matchmakers=2, mm_db=3) as running:
        yield running


@pytest.fixture
def mm(mm_stack: Stack) -> Iterator[MmClient]:
    """A client of both matchmakers; cancels the test's leftover tickets afterwards."""
    client = MmClient([p.address for p in mm_stack.matchmakers])
    yield client
    client.cleanup()


@pytest.fixture
def utl(mm_stack: Stack) -> Iterator[UtlClient]:
    """A client of the Under the Leaves service."""
    client = UtlClient(mm_stack.games["undertheleaves"].address)
    yield client
    client.close()
