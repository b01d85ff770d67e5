"""Server bootstrap shared by every Roost service.

One asyncio gRPC server per process with: the service's servicer, gRPC health
checking (per service name), server reflection, JSON logs, Prometheus metrics,
and a graceful drain on SIGTERM/SIGINT (health turns NOT_SERVING, in-flight
calls get ``GRACE_SECONDS`` to finish).
"""

from __future__ import annotations

import asyncio
import gc
import signal
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from services.core.config import Settings
from services.core.decoding import tolerant_server
from services.core.logging import configure, get_logger
from services.core.metrics import serve_metrics

log = get_logger("roost.server")

#: Net allocations between collections of the young generation (CPython: 700).
YOUNG_COLLECTION_ALLOCATIONS = 20_000

Register = Callable[[grpc.aio.Server], Awaitable[None] | None]


@dataclass
class RunningServer:
    """A started server and the handles needed to stop it."""

    server: grpc.aio.Server
    health: health.HealthServicer
    port: int
    service_name: str

    async def drain(self, grace: float) -> None:
        """Stop taking work, let in-flight calls finish, then stop."""
        self.health.enter_graceful_shutdown()
        await self.server.stop(grace)


async def start_server(service_name: str, settings: Settings, register: Register) -> RunningServer:
    """Build, register and start a server on ``settings.port`` (0 = any free port)."""
    options: list[tuple[str, int]] = [
        ("grpc.so_reuseport", 0),
        ("grpc.max_receive_message_length", 8 * 1024 * 1024),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
    ]
    if settings.max_connection_age_seconds > 0:
        # A ClusterIP Service balances per connection: aged connections rebalance.
        options.append(("grpc.max_connection_age_ms", settings.max_connection_age_seconds * 1000))
        options.append(("grpc.max_connection_age_grace_ms", 60_000))
    # Every handler registered (health and reflection too) answers a body that
    # does not decode with INVALID_ARGUMENT, not UNKNOWN and a traceback.
    server = tolerant_server(grpc.aio.server(options=options))
    result = register(server)
    if asyncio.iscoroutine(result):
        await result
    health_servicer = health.HealthServicer(experimental_non_blocking=True)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    health_servicer.set(service_name, health_pb2.HealthCheckResponse.SERVING)
    health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    reflection.enable_server_reflection(
        (service_name, health.SERVICE_NAME, reflection.SERVICE_NAME), server
    )
    port = server.add_insecure_port(f"{settings.host}:{settings.port}")
    if port == 0:
        raise RuntimeError(f"cannot bind {settings.host}:{settings.port}")
    await server.start()
    return RunningServer(server, health_servicer, port, service_name)


async def serve_forever(service_name: str, settings: Settings, register: Register) -> None:
    """Run until SIGTERM/SIGINT, then drain gracefully."""
    configure(settings.log_level)
    serve_metrics(settings.metrics_port)
    running = await start_server(service_name, settings, register)
    log.info(
        "listening",
        service=service_name,
        port=running.port,
        metrics_port=settings.metrics_port,
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
    log.info("stopped")
