"""Test harness: a real Redis and real gRPC servers on loopback.

The Redis comes from, in order: ``REDIS_URL``; a testcontainers container when a
Docker engine answers; a local ``redis-server`` / valkey binary on a free port.
Never a fake.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import grpc

from services.core.config import Settings
from services.core.game_service import GameSpec, add_to_server, servicer_class
from services.core.main import game_connect_app
from services.core.redis_server import start_local_redis
from services.core.server import start_server
from services.core.store import GameStore, connect


@contextmanager
def redis_url() -> Iterator[str]:
    """A URL of a real Redis for the test session.

    ``REDIS_URL`` is used only in a serial run: parallel workers (pytest-xdist)
    each start their own server, since tests of different workers share
    database numbers.
    """
    url = os.environ.get("REDIS_URL")
    if url and not os.environ.get("PYTEST_XDIST_WORKER"):
        yield url
        return
    container = _docker_redis()
    if container is not None:
        try:
            host = container.get_container_host_ip()
            port = container.get_exposed_port(6379)
            yield f"redis://{host}:{port}/0"
        finally:
            container.stop()
        return
    local = start_local_redis()
    try:
        yield local.url
    finally:
        local.stop()


def _docker_redis() -> Any | None:
    """A started testcontainers Redis, or None when no Docker engine answers."""
    try:
        from testcontainers.community.redis import RedisContainer
    except ImportError:
        try:
            from testcontainers.redis import RedisContainer
        except ImportError:
            return None
    try:
        container = RedisContainer("redis:7-alpine")
        container.start()
    except Exception:
        return None
    return container


def test_settings(url: str, **overrides: Any) -> Settings:
    """Settings for an in-process test server on a free port."""
    values: dict[str, Any] = {
        "redis_url": url,
        "redis_cluster": False,
        "host": "127.0.0.1",
        "port": 0,
        "metrics_port": 0,
        "log_level": "warning",
        "game_ttl_seconds": 3600,
        "idle_ttl_seconds": 7200,
        "request_ttl_seconds": 600,
        "grace_seconds": 1.0,
    }
    values.update(overrides)
    return Settings(**values)


@dataclass
class ServerHandle:
    """A game server running on its own event loop thread."""

    address: str
    loop: asyncio.AbstractEventLoop
    thread: threading.Thread
    stop: Callable[[], None]
    #: The browser port's base URL (``http://127.0.0.1:<port>``), when served.
    http_base: str | None = None
    #: The running server (to drain it from a test).
    running: Any = None

    def channel(self) -> grpc.Channel:
        """A new blocking channel to the server."""
        return grpc.insecure_channel(self.address)


@contextmanager
def game_server(spec: GameSpec, url: str, **setting_overrides: Any) -> Iterator[ServerHandle]:
    """Serve ``spec`` on a free loopback port over the Redis at ``url``."""
    settings = test_settings(url, **setting_overrides)
    loop = asyncio.new_event_loop()
    started = threading.Event()
    holder: dict[str, Any] = {}

    async def boot() -> None:
        client = connect(settings.redis_url, settings.redis_cluster, settings.redis_pool_size)
        store = GameStore(client, max_pending_applies=settings.max_pending_applies)
        servicer = servicer_class(spec)(spec, store, settings)
        running = await start_server(
            spec.service_name,
            settings,
            lambda server: add_to_server(spec, servicer, server),
            probe=store.ping,
            drain_hooks=(servicer.hub.close,),
            browser_apps=(game_connect_app(spec, servicer),)
            if settings.connect_port is not None
            else (),
        )
        holder["servicer"] = servicer
        holder["running"] = running
        holder["store"] = store

    def run() -> None:
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(boot())
        except BaseException as exc:  # surfaced to the test thread below
            holder["error"] = exc
            started.set()
            return
        started.set()
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    started.wait(30)
    if "error" in holder:
        raise holder["error"]

    def stop() -> None:
        async def shutdown() -> None:
            await holder["running"].drain(0.5)
            await holder["store"].aclose()

        asyncio.run_coroutine_threadsafe(shutdown(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)

    running = holder["running"]
    http_base = None if running.connect_port is None else f"http://127.0.0.1:{running.connect_port}"
    handle = ServerHandle(f"127.0.0.1:{running.port}", loop, thread, stop, http_base, running)
    try:
        yield handle
    finally:
        stop()
