"""The Apply lane's shared connection against a real Redis (services/core/redis_mux.py)."""

from __future__ import annotations

import asyncio

import pytest
import redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError

from services.core.redis_mux import MultiplexedConnection
from services.core.store import connect


def test_concurrent_callers_each_get_their_own_reply(redis_server_url: str) -> None:
    """Replies are matched to callers by order: 200 concurrent commands, each
    caller sees its own value; one socket serves them all."""

    async def scenario() -> None:
        client = connect(redis_server_url, cluster=False)
        lane = MultiplexedConnection(client.connection_pool, 5.0)

        async def echo(n: int) -> bytes:
            return await lane.execute("ECHO", f"value-{n}")

        replies = await asyncio.gather(*(echo(n) for n in range(200)))
        assert replies == [f"value-{n}".encode() for n in range(200)]
        assert lane._connection is not None
        await client.aclose()  # the pool closes the taken connection too, without hanging

    asyncio.run(asyncio.wait_for(scenario(), 10))


def test_a_caller_that_gives_up_does_not_shift_the_others_replies(redis_server_url: str) -> None:
    async def scenario() -> None:
        client = connect(redis_server_url, cluster=False)
        lane = MultiplexedConnection(client.connection_pool, 5.0)
        slow = asyncio.create_task(lane.execute("BLPOP", "roost:mux:never", "0.3"))
        await asyncio.sleep(0.05)
        quick = asyncio.create_task(lane.execute("ECHO", "after"))
        slow.cancel()  # its reply still comes, first, and is dropped
        with pytest.raises(asyncio.CancelledError):
            await slow
        assert await quick == b"after"
        assert await lane.execute("ECHO", "next") == b"next"
        await client.aclose()

    asyncio.run(asyncio.wait_for(scenario(), 10))


def test_error_replies_raise_redis_py_exceptions(redis_server_url: str) -> None:
    async def scenario() -> None:
        client = connect(redis_server_url, cluster=False)
        lane = MultiplexedConnection(client.connection_pool, 5.0)
        with pytest.raises(NoScriptError):
            await lane.execute("EVALSHA", "0" * 40, 0)
        with pytest.raises(ResponseError):
            await lane.execute("NOSUCHCOMMAND")
        assert await lane.execute("ECHO", "still fine") == b"still fine"
        await client.aclose()

    asyncio.run(asyncio.wait_for(scenario(), 10))


def test_a_lost_connection_fails_its_waiters_and_the_next_call_reconnects(
    redis_server_url: str,
) -> None:
    async def scenario() -> None:
        client = connect(redis_server_url, cluster=False)
        lane = MultiplexedConnection(client.connection_pool, 5.0)
        assert await lane.execute("CLIENT", "SETNAME", "roost-mux-test") == b"OK"
        waiting = asyncio.create_task(lane.execute("BLPOP", "roost:mux:never", "5"))
        await asyncio.sleep(0.05)
        raw = redis.Redis.from_url(redis_server_url)
        assert raw.client_kill_filter(_type="normal", skipme=True) >= 1
        raw.close()
        with pytest.raises(RedisConnectionError):
            await waiting
        assert await lane.execute("ECHO", "again") == b"again"
        await client.aclose()

    asyncio.run(asyncio.wait_for(scenario(), 10))
