"""The Apply lane's own shared connection against real Redis servers
(services/core/redis_mux.py): plain TCP, a password, TLS and a unix socket."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from redis.exceptions import AuthenticationError, NoScriptError, ResponseError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from services.core.redis_mux import LaneFull, MultiplexedConnection
from services.core.redis_server import LocalRedis, free_port, start_local_redis
from services.core.store import GameStore, connect


def _lane(url: str, **options: float) -> MultiplexedConnection:
    client = connect(url, cluster=False)
    return MultiplexedConnection.for_pool(client.connection_pool, **options)


def test_concurrent_callers_each_get_their_own_reply(redis_server_url: str) -> None:
    """Replies are matched to callers by order: 200 concurrent commands, each
    caller sees its own value; one socket serves them all."""

    async def scenario() -> None:
        lane = _lane(redis_server_url, timeout_seconds=5.0)

        async def echo(n: int) -> bytes:
            return await lane.execute("ECHO", f"value-{n}")

        replies = await asyncio.gather(*(echo(n) for n in range(200)))
        assert replies == [f"value-{n}".encode() for n in range(200)]
        assert lane.pending == 0
        await lane.aclose()

    asyncio.run(asyncio.wait_for(scenario(), 10))


def test_a_caller_that_gives_up_does_not_shift_the_others_replies(redis_server_url: str) -> None:
    async def scenario() -> None:
        lane = _lane(redis_server_url, timeout_seconds=5.0)
        slow = asyncio.create_task(lane.execute("BLPOP", "roost:mux:never", "0.3"))
        await asyncio.sleep(0.05)
        quick = asyncio.create_task(lane.execute("ECHO", "after"))
        slow.cancel()  # its reply still comes, first, and is dropped
        with pytest.raises(asyncio.CancelledError):
            await slow
        assert await quick == b"after"
        assert await lane.execute("ECHO", "next") == b"next"
        await lane.aclose()

    asyncio.run(asyncio.wait_for(scenario(), 10))


def test_error_replies_raise_redis_py_exceptions(redis_server_url: str) -> None:
    async def scenario() -> None:
        lane = _lane(redis_server_url, timeout_seconds=5.0)
        with pytest.raises(NoScriptError):
            await lane.execute("EVALSHA", "0" * 40, 0)
        with pytest.raises(ResponseError):
            await lane.execute("NOSUCHCOMMAND")
        assert await lane.execute("ECHO", "still fine") == b"still fine"
        await lane.aclose()

    asyncio.run(asyncio.wait_for(scenario(), 10))


def test_a_lost_connection_fails_its_waiters_and_the_next_call_reconnects(
    redis_server_url: str,
) -> None:
    async def scenario() -> None:
        lane = _lane(redis_server_url, timeout_seconds=5.0)
        assert await lane.execute("CLIENT", "SETNAME", "roost-mux-test") == b"OK"
        waiting = asyncio.create_task(lane.execute("BLPOP", "roost:mux:never", "5"))
        await asyncio.sleep(0.05)
        raw = redis.Redis.from_url(redis_server_url)
        assert raw.client_kill_filter(_type="normal", skipme=True) >= 1
        raw.close()
        with pytest.raises(RedisConnectionError):
            await waiting
        assert await lane.execute("ECHO", "again") == b"again"
        await lane.aclose()

    asyncio.run(asyncio.wait_for(scenario(), 10))


def test_the_watchdog_fails_every_waiter_once_the_oldest_reply_is_overdue(
    redis_server_url: str,
) -> None:
    """One watchdog on the oldest pending reply: when it is late, the connection
    is dropped and every waiter gets redis-py's TimeoutError; the lane recovers."""

    async def scenario() -> None:
        lane = _lane(redis_server_url, timeout_seconds=0.3, watchdog_tick=0.05)
        blocked = [
            asyncio.create_task(lane.execute("BLPOP", "roost:mux:never", "5")) for _ in range(3)
        ]
        started = asyncio.get_running_loop().time()
        for task in blocked:
            with pytest.raises(RedisTimeoutError):
                await task
        assert asyncio.get_running_loop().time() - started < 1.0
        assert await lane.execute("ECHO", "recovered") == b"recovered"
        await lane.aclose()

    asyncio.run(asyncio.wait_for(scenario(), 10))


def test_commands_over_the_cap_are_refused_at_once(redis_server_url: str) -> None:
    """Backpressure: with ``max_pending`` commands waiting, the next one is
    refused (LaneFull) instead of queueing; the waiting ones still complete."""

    async def scenario() -> None:
        lane = _lane(redis_server_url, timeout_seconds=5.0, max_pending=4)
        waiting = [
            asyncio.create_task(lane.execute("BLPOP", "roost:mux:cap", "0.3")) for _ in range(4)
        ]
        await asyncio.sleep(0.05)
        assert lane.pending == 4
        with pytest.raises(LaneFull):
            await lane.execute("ECHO", "one too many")
        assert await asyncio.gather(*waiting) == [None] * 4
        assert await lane.execute("ECHO", "room again") == b"room again"
        await lane.aclose()

    asyncio.run(asyncio.wait_for(scenario(), 10))


# ------------------------------------------------------------ other transports


@pytest.fixture(scope="module")
def password_redis() -> Iterator[LocalRedis]:
    """A Redis that requires a password, and an ACL user with its own."""
    server = start_local_redis(extra_args=["--requirepass", "s3cret"])
    raw = redis.Redis(port=server.port, password="s3cret")
    raw.execute_command("ACL", "SETUSER", "roost", "on", ">userpass", "~*", "&*", "+@all")
    raw.close()
    yield server
    server.stop()


@pytest.mark.parametrize(
    "credentials", ["default:s3cret", "roost:userpass", ":s3cret"], ids=["default", "acl", "bare"]
)
def test_the_lane_authenticates_and_selects_its_database(
    password_redis: LocalRedis, credentials: str
) -> None:
    url = f"redis://{credentials}@127.0.0.1:{password_redis.port}/3"

    async def scenario() -> None:
        lane = _lane(url, timeout_seconds=5.0)
        assert await lane.execute("SET", "roost:mux:db", "three") == b"OK"
        await lane.aclose()

    asyncio.run(asyncio.wait_for(scenario(), 10))
    raw = redis.Redis(port=password_redis.port, password="s3cret", db=3)
    assert raw.get("roost:mux:db") == b"three"
    raw.close()


def test_a_wrong_password_is_an_authentication_error(password_redis: LocalRedis) -> None:
    async def scenario() -> None:
        lane = _lane(f"redis://:wrong@127.0.0.1:{password_redis.port}/0", timeout_seconds=5.0)
        with pytest.raises(AuthenticationError):
            await lane.execute("PING")

    asyncio.run(asyncio.wait_for(scenario(), 10))


def test_the_lane_speaks_over_a_unix_socket(tmp_path: Path) -> None:
    socket_path = tmp_path / "redis.sock"
    server = start_local_redis(
        extra_args=["--unixsocket", str(socket_path), "--unixsocketperm", "700"]
    )
    try:

        async def scenario() -> None:
            lane = _lane(f"unix://{socket_path}?db=2", timeout_seconds=5.0)
            assert await lane.execute("SET", "roost:mux:unix", "yes") == b"OK"
            assert await lane.execute("GET", "roost:mux:unix") == b"yes"
            await lane.aclose()

        asyncio.run(asyncio.wait_for(scenario(), 10))
        raw = redis.Redis(unix_socket_path=str(socket_path), db=2)
        assert raw.get("roost:mux:unix") == b"yes"
        raw.close()
    finally:
        server.stop()


def _self_signed(directory: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key (openssl)."""
    cert, key = directory / "redis.crt", directory / "redis.key"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            "-keyout", str(key), "-out", str(cert),
        ],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl makes the test certificate")
def test_the_lane_and_the_store_speak_tls(tmp_path: Path) -> None:
    """A TLS-only Redis with a self-signed certificate: the lane verifies it
    against the CA given in the URL, and a whole Apply goes through."""
    cert, key = _self_signed(tmp_path)
    port = free_port()
    try:
        server = start_local_redis(
            port=port,
            extra_args=[
                "--port", "0", "--tls-port", str(port), "--tls-cert-file", str(cert),
                "--tls-key-file", str(key), "--tls-ca-cert-file", str(cert),
                "--tls-auth-clients", "no",
            ],
        )  # fmt: skip
    except RuntimeError as error:
        pytest.skip(f"this Redis binary has no TLS: {error}")
    url = f"rediss://127.0.0.1:{port}/0?ssl_ca_certs={cert}"
    try:

        async def scenario() -> None:
            store = GameStore(connect(url, cluster=False))
            assert store._apply_lane is not None and store._apply_lane.use_tls
            assert await store._apply_lane.execute("ECHO", "over tls") == b"over tls"
            await store.ping()
            await store.aclose()

        asyncio.run(asyncio.wait_for(scenario(), 10))
    finally:
        server.stop()
