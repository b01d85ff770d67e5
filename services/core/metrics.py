"""Prometheus metrics shared by every Roost service.

RPCs by method and status code with latency histograms, and games created
and finished per game. Exposed over HTTP on ``METRICS_PORT``.
"""

from __future__ import annotations

import functools
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import grpc
from prometheus_client import Counter, Histogram, start_http_server

from services.core.errors import ServiceError
from services.core.logging import get_logger

RPCS = Counter(
    "roost_rpcs_total", "RPCs handled, by service, method and status code",
    ["service", "method", "code"],
)  # fmt: skip
RPC_LATENCY = Histogram(
    "roost_rpc_latency_seconds", "RPC handling time, by service and method",
    ["service", "method"],
    buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)  # fmt: skip
GAMES_CREATED = Counter("roost_games_created_total", "Games created", ["game"])
GAMES_FINISHED = Counter("roost_games_finished_total", "Games finished", ["game"])

log = get_logger("roost.rpc")

R = TypeVar("R")


def serve_metrics(port: int) -> None:
    """Start the Prometheus HTTP endpoint (no-op for port 0)."""
    if port:
        start_http_server(port)


async def _abort(context: grpc.aio.ServicerContext, error: ServiceError) -> None:
    await context.abort_with_status(error.to_status())


def _code_of(exc: BaseException) -> str:
    return exc.code.name if isinstance(exc, ServiceError) else "INTERNAL"


def unary(service: str) -> Callable[[Callable[..., Awaitable[R]]], Callable[..., Awaitable[R]]]:
    """Wrap a unary handler: metrics, ServiceError → rich status, no INTERNAL leaks."""

    def decorate(handler: Callable[..., Awaitable[R]]) -> Callable[..., Awaitable[R]]:
        method = handler.__name__
        latency = RPC_LATENCY.labels(service, method)
        counted: dict[str, Any] = {}  # code -> its counter child, looked up once

        @functools.wraps(handler)
        async def wrapper(self: Any, request: Any, context: grpc.aio.ServicerContext) -> R:
            started = time.perf_counter()
            code = "OK"
            try:
                return await handler(self, request, context)
            except ServiceError as error:
                code = error.code.name
                log.info("rpc_rejected", method=method, code=code, reason=error.reason)
                await _abort(context, error)
                raise  # unreachable: abort raises
            except Exception as exc:
                code = _code_of(exc)
                if isinstance(exc, grpc.aio.AbortError):
                    raise
                log.exception("rpc_failed", method=method)
                await context.abort(grpc.StatusCode.INTERNAL, "internal error")
                raise
            finally:
                counter = counted.get(code)
                if counter is None:
                    counter = counted[code] = RPCS.labels(service, method, code)
                counter.inc()
                latency.observe(time.perf_counter() - started)

        return wrapper

    return decorate


def streaming(
    service: str,
) -> Callable[[Callable[..., AsyncIterator[R]]], Callable[..., AsyncIterator[R]]]:
    """Wrap a server-streaming handler the same way as :func:`unary`."""

    def decorate(handler: Callable[..., AsyncIterator[R]]) -> Callable[..., AsyncIterator[R]]:
        method = handler.__name__

        @functools.wraps(handler)
        async def wrapper(
            self: Any, request: Any, context: grpc.aio.ServicerContext
        ) -> AsyncIterator[R]:
            started = time.perf_counter()
            code = "OK"
            try:
                async for item in handler(self, request, context):
                    yield item
            except ServiceError as error:
                code = error.code.name
                await _abort(context, error)
            except grpc.aio.AbortError:
                raise
            except Exception:
                code = "INTERNAL"
                log.exception("rpc_failed", method=method)
                await context.abort(grpc.StatusCode.INTERNAL, "internal error")
            finally:
                RPCS.labels(service, method, code).inc()
                RPC_LATENCY.labels(service, method).observe(time.perf_counter() - started)

        return wrapper

    return decorate
