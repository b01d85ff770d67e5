"""Server bootstrap shared by every Roost service.

One asyncio gRPC server per process with: the service's servicer, gRPC health
checking (per service name, with ``List``), server reflection (``v1`` and
``v1alpha``), JSON logs, Prometheus metrics, caps on calls in flight and open
streams, and a graceful drain on SIGTERM/SIGINT.

Health follows the store: while Redis cannot be reached the overall status
("") and the service's own name read NOT_SERVING, and SERVING again by
themselves once it answers (:class:`StoreWatchdog`, one ping a second).
Readiness probes use it; liveness must not (a Redis outage is no reason to
restart a pod).

With ``CONNECT_PORT`` set (by default PORT + 2000), the same process also
serves its service, and the health ``Check``, to browsers on that port: the
Connect protocol and gRPC-Web over HTTP/1.1 and HTTP/2, with CORS
(:mod:`services.core.http_gateway`, :mod:`services.core.connect_apps`).

A drain turns health NOT_SERVING, ends the Watch streams at once (they end
with UNAVAILABLE, reason ``ERROR_REASON_DRAINING``, so clients resume on
another replica) and gives unary calls ``GRACE_SECONDS`` to finish.
"""

from __future__ import annotations

import asyncio
import gc
import os
import signal
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from services.core import reflection_v1
from services.core.config import Settings
from services.core.connect_apps import HealthApp
from services.core.decoding import MESSAGE_LIMIT, tolerant_server
from services.core.http_gateway import (
    ConnectApp,
    GatewayLimits,
    GatewayTls,
    HttpGateway,
    start_gateway,
)
from services.core.logging import configure, get_logger
from services.core.metrics import LIMITS, serve_metrics
from services.core.store_gate import STORE_GATE, StoreGate
from services.core.tasks import STOP_RETRY_SECONDS, cancel_until_done

log = get_logger("roost.server")

#: How often the store watchdog pings (at most; STORE_STALL_SECONDS / 2 if shorter).
WATCHDOG_INTERVAL_SECONDS = 0.5
#: grpc's own receive limit, in multiples of MAX_MESSAGE_BYTES (see start_server).
GRPC_RECEIVE_FACTOR = 2
#: Net allocations between collections of the young generation (CPython: 700).
YOUNG_COLLECTION_ALLOCATIONS = 20_000

Register = Callable[[grpc.aio.Server], Awaitable[None] | None]
#: Checks that the store answers (raises otherwise).
Probe = Callable[[], Awaitable[None]]
#: Called when a drain begins (e.g. to end the Watch streams).
DrainHook = Callable[[], Awaitable[None]]

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


class HealthService(health.aio.HealthServicer):
    """grpcio-health-checking's asyncio servicer plus ``List`` (every service's
    status). The asyncio one, because the thread-based servicer holds a worker
    thread for every health Watch until the server stops: a few Watch calls
    would leave none for Check, and the probes would hang."""

    def __init__(self) -> None:
        super().__init__()
        self._statuses: dict[str, int] = {}

    async def set(self, service: str, status: int) -> None:
        self._statuses[service] = status
        await super().set(service, status)

    async def enter_graceful_shutdown(self) -> None:
        for service in self._statuses:
            self._statuses[service] = NOT_SERVING
        await super().enter_graceful_shutdown()

    async def List(self, request: Any, context: Any) -> health_pb2.HealthListResponse:
        return health_pb2.HealthListResponse(
            statuses={
                name: health_pb2.HealthCheckResponse(status=status)
                for name, status in self._statuses.items()
            }
        )


class StoreWatchdog:
    """Pings the store every ``interval`` seconds and sets health to follow it.

    A ping unanswered after ``timeout`` seconds (``STORE_STALL_SECONDS``), or
    failing, marks the store unreachable: health NOT_SERVING and the
    :data:`~services.core.store_gate.STORE_GATE` tripped, so calls that need
    the store fail fast with UNAVAILABLE instead of waiting on it (a stall is
    seen at most ``interval + timeout`` after it begins). The first answered
    ping undoes both. One log line when the store goes away and one when it
    is back."""

    def __init__(
        self, probe: Probe, health_servicer: HealthService, names: tuple[str, ...],
        interval: float = 0.5, timeout: float = 2.0, gate: StoreGate = STORE_GATE,
    ) -> None:  # fmt: skip
        self.probe = probe
        self.health = health_servicer
        self.names = names
        self.interval = interval
        self.timeout = timeout
        self.gate = gate
        self.reachable = True
        self.stopped = False
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name="store-watchdog")

    async def _run(self) -> None:
        while not self.stopped:
            try:
                async with asyncio.timeout(self.timeout):
                    await self.probe()
                ok, error = True, ""
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                ok, error = False, f"{type(exc).__name__}: {exc}"
            if ok != self.reachable:
                self.reachable = ok
                if ok:
                    self.gate.reset()
                    log.info("store_reachable")
                else:
                    self.gate.trip()
                    log.warning("store_unreachable", error=error or "no answer (stalled)")
                for name in self.names:
                    await self.health.set(name, SERVING if ok else NOT_SERVING)
            await asyncio.sleep(self.interval)

    async def stop(self) -> None:
        """Stop pinging. Cancelled again until it has stopped: on Python 3.11 a
        cancellation that lands as one of redis-py's ``asyncio.wait_for`` calls
        completes is lost, and the watchdog would ping on (and a drain wait on it)."""
        self.stopped = True
        await cancel_until_done(self.task)


@dataclass
class RunningServer:
    """A started server and the handles needed to stop it."""

    server: grpc.aio.Server
    health: HealthService
    port: int
    service_name: str
    watchdog: StoreWatchdog | None = None
    drain_hooks: tuple[DrainHook, ...] = ()
    #: The browser port's server (None when not served).
    gateway: HttpGateway | None = None

    @property
    def connect_port(self) -> int | None:
        """The port of Connect and gRPC-Web (None when not served)."""
        return None if self.gateway is None else self.gateway.port

    async def drain(self, grace: float) -> None:
        """Stop taking work, end the streams, let unary calls finish, then stop
        (both ports: Watch streams end the same way over either)."""
        await self.health.enter_graceful_shutdown()
        if self.watchdog is not None:
            await self.watchdog.stop()
        for hook in self.drain_hooks:
            # Bounded: a hook that does not finish within the grace is left behind.
            done, _ = await asyncio.wait({asyncio.ensure_future(hook())}, timeout=grace)
            if not done:
                log.warning("drain_hook_unfinished", hook=getattr(hook, "__qualname__", ""))
        if self.gateway is None:
            await self.server.stop(grace)
        else:
            await asyncio.gather(self.server.stop(grace), self.gateway.stop(grace))


def bind_grpc_port(server: grpc.aio.Server, settings: Settings) -> int:
    """Bind the gRPC port: TLS from ``TLS_CERT_FILE``/``TLS_KEY_FILE`` when set,
    plaintext otherwise. Returns the port (0: not bound)."""
    address = f"{settings.host}:{settings.port}"
    if not (settings.tls_cert_file or settings.tls_key_file):
        return server.add_insecure_port(address)
    if not (settings.tls_cert_file and settings.tls_key_file):
        raise RuntimeError("set both TLS_CERT_FILE and TLS_KEY_FILE, or neither")
    return server.add_secure_port(
        address, tls_credentials(settings.tls_cert_file, settings.tls_key_file)
    )


def tls_credentials(cert_file: str, key_file: str) -> grpc.ServerCredentials:
    """Server credentials from PEM files, read again when they change (a renewed
    certificate is used by new connections without a restart)."""
    state = {"seen": 0.0}

    def load() -> Any:
        with open(key_file, "rb") as key, open(cert_file, "rb") as cert:
            return grpc.ssl_server_certificate_configuration([(key.read(), cert.read())])

    def changed() -> Any:
        try:
            stamp = max(os.stat(cert_file).st_mtime, os.stat(key_file).st_mtime)
            if stamp == state["seen"]:
                return None
            config = load()
        except (OSError, ValueError):
            return None  # mid-rotation: keep the certificate in use
        state["seen"] = stamp
        return config

    state["seen"] = max(os.stat(cert_file).st_mtime, os.stat(key_file).st_mtime)
    return grpc.dynamic_ssl_server_credentials(load(), changed)


async def start_server(
    service_name: str,
    settings: Settings,
    register: Register,
    *,
    probe: Probe | None = None,
    drain_hooks: tuple[DrainHook, ...] = (),
    browser_apps: tuple[ConnectApp, ...] = (),
) -> RunningServer:
    """Build, register and start a server on ``settings.port`` (0 = any free port).

    ``probe`` checks the store for the health service; ``drain_hooks`` run
    when a drain begins. ``browser_apps`` (the service's Connect applications,
    see :func:`services.core.connect_apps.connect_app`) are served with the
    health ``Check`` on ``settings.connect_port`` unless that is None."""
    LIMITS.max_calls = settings.max_calls_in_flight
    LIMITS.max_streams = settings.max_streams
    MESSAGE_LIMIT.max_bytes = settings.max_message_bytes
    options: list[tuple[str, int]] = [
        ("grpc.so_reuseport", 0),
        # The deserializers refuse a message over the limit with ErrorInfo
        # (ERROR_REASON_MESSAGE_TOO_LARGE); grpc's own cut, without it, comes
        # only at twice the limit.
        ("grpc.max_receive_message_length", GRPC_RECEIVE_FACTOR * settings.max_message_bytes),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
    ]
    if settings.max_connection_age_seconds > 0:
        # A ClusterIP Service balances per connection: aged connections rebalance.
        options.append(("grpc.max_connection_age_ms", settings.max_connection_age_seconds * 1000))
        grace_ms = int(settings.max_connection_age_grace_seconds * 1000)
        options.append(("grpc.max_connection_age_grace_ms", grace_ms))
    # Every handler registered (health and reflection too) answers a body that
    # does not decode with INVALID_ARGUMENT, not UNKNOWN and a traceback.
    server = tolerant_server(grpc.aio.server(options=options))
    result = register(server)
    if asyncio.iscoroutine(result):
        await result
    health_servicer = HealthService()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    await health_servicer.set(service_name, SERVING)
    await health_servicer.set("", SERVING)
    reflection_v1.enable((service_name, health.SERVICE_NAME), server)
    port = bind_grpc_port(server, settings)
    if port == 0:
        raise RuntimeError(f"cannot bind {settings.host}:{settings.port}")
    await server.start()
    gateway = None
    if settings.connect_port is not None and browser_apps:
        try:
            gateway = await start_gateway(
                (*browser_apps, HealthApp(health_servicer)),
                settings.host,
                settings.connect_port,
                settings.cors_allowed_origins,
                GatewayLimits.from_settings(settings),
                GatewayTls.from_settings(settings),
            )
        except OSError as exc:
            if settings.connect_port_required:
                await server.stop(None)
                raise
            log.warning("connect_port_unavailable", port=settings.connect_port, error=str(exc))
    watchdog = None
    if probe is not None:
        stall = settings.store_stall_seconds
        watchdog = StoreWatchdog(
            probe, health_servicer, ("", service_name),
            interval=min(WATCHDOG_INTERVAL_SECONDS, stall / 2), timeout=stall,
        )  # fmt: skip
        watchdog.start()
    return RunningServer(
        server, health_servicer, port, service_name, watchdog, drain_hooks, gateway
    )


async def serve_forever(
    service_name: str,
    settings: Settings,
    register: Register,
    *,
    probe: Probe | None = None,
    drain_hooks: tuple[DrainHook, ...] = (),
    browser_apps: tuple[ConnectApp, ...] = (),
) -> None:
    """Run until SIGTERM/SIGINT, then drain gracefully."""
    configure(settings.log_level)
    serve_metrics(settings.metrics_port, settings.host)
    running = await start_server(
        service_name, settings, register, probe=probe, drain_hooks=drain_hooks,
        browser_apps=browser_apps,
    )  # fmt: skip
    log.info(
        "listening",
        service=service_name,
        port=running.port,
        metrics_port=settings.metrics_port,
        connect_port=running.connect_port,
    )
    # Everything built so far (modules, descriptors, game data, the servicer)
    # lives as long as the process: keep it out of every later collection.
    gc.collect()
    gc.freeze()
    # A call allocates a few hundred short-lived objects, nearly all freed by
    # reference counting; collecting the young generation every 700 allocations
    # (CPython's default) cost about 3% of a busy service's CPU for almost nothing
    # found. Every 20,000 keeps cyclic garbage small and the collector rare.
    gc.set_threshold(YOUNG_COLLECTION_ALLOCATIONS, *gc.get_threshold()[1:])
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    log.info("draining", grace_seconds=settings.grace_seconds)
    await running.drain(settings.grace_seconds)
    await cancel_leftovers(settings.grace_seconds)
    log.info("stopped")


async def cancel_leftovers(within: float) -> None:
    """Cancel every other task, again and again until each has ended (at most
    ``within`` seconds): on Python 3.11 a cancellation that lands as an
    ``asyncio.wait_for`` inside redis-py completes is lost, and a polling loop
    that missed it would keep ``asyncio.run`` from ever returning."""
    current = asyncio.current_task()
    deadline = asyncio.get_running_loop().time() + within
    while True:
        left = [t for t in asyncio.all_tasks() if t is not current and not t.done()]
        if not left or asyncio.get_running_loop().time() > deadline:
            break
        for task in left:
            task.cancel()
        await asyncio.wait(left, timeout=STOP_RETRY_SECONDS)
