"""The Watch flood (issue 'Watch must scale'): thousands of streams on
thousands of games in one service process, on a fixed handful of Redis
connections, while the other RPCs keep working."""

from __future__ import annotations

import asyncio

import pytest

from bench.watch_scale import run_level, start_service
from services.core.redis_server import start_local_redis

# Random games, floods and faults: left out of make test-fast.
pytestmark = [pytest.mark.reliability, pytest.mark.slow]


def test_thousands_of_streams_on_thousands_of_games_take_a_fixed_number_of_connections() -> None:
    """4,000 Watch streams on 2,000 games: the service holds at most its pool
    (4 here), the Apply lane and one subscriber; every watcher of an applied game
    gets its event; GetState, NewGame and Apply answer normally meanwhile."""
    redis_server = start_local_redis()  # its own, so every connection counted is the service's
    try:
        service, address = start_service(redis_server.url, REDIS_POOL_SIZE="4")
        try:
            level = asyncio.run(run_level(address, redis_server.url, service.pid, 4000, 2000))
        finally:
            service.terminate()
            assert service.wait(30) == 0
    finally:
        redis_server.stop()
    assert level.redis_connections <= 4 + 2
    assert len(level.delays_ms) == 400 * 2, "each Apply reached both watchers of its game"
    assert level.getstate_ms_during < 50 * max(level.getstate_ms_before, 1.0)
