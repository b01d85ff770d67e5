"""Session fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.harness import redis_url


@pytest.fixture(scope="session")
def redis_server_url() -> Iterator[str]:
    """URL of a real Redis (REDIS_URL, testcontainers, or a local binary)."""
    with redis_url() as url:
        yield url
