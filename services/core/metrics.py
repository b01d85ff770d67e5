"""Prometheus metrics shared by every Roost service.

RPCs by method and status code with latency histograms, and games created
and finished per game. Exposed over HTTP on ``METRICS_PORT``.

The RPC figures are counted on the hot path in plain numbers (one dict and
one list per method: no lock, no metric object per call; a service's handlers
all run on its event loop's thread) and turned into Prometheus counter and
histogram families when the endpoint is scraped (:class:`RpcCollector`).
"""

from __future__ import annotations

import functools
import time
from bisect import bisect_left
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, TypeVar

import grpc
from prometheus_client import REGISTRY, Counter, start_http_server
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector
from prometheus_client.utils import INF, floatToGoString

from services.core import errors
from services.core.decoding import Undecodable, rejects_undecodable
from services.core.errors import ServiceError
from services.core.failures import as_service_error
from services.core.logging import get_logger

#: Upper bounds (seconds) of the RPC latency histogram's buckets.
LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class RpcStats:
    """One method's RPCs: how many ended with each status code, and how long
    they took (a count per latency bucket, the last one unbounded, and the sum)."""

    __slots__ = ("buckets", "codes", "method", "seconds", "service")

    def __init__(self, service: str, method: str) -> None:
        self.service = service
        self.method = method
        self.codes: dict[str, int] = {}
        self.buckets = [0] * (len(LATENCY_BUCKETS) + 1)
        self.seconds = 0.0

    def record(self, code: str, seconds: float) -> None:
        """Count one RPC that ended with ``code`` after ``seconds``."""
        codes = self.codes
        codes[code] = codes.get(code, 0) + 1
        self.buckets[bisect_left(LATENCY_BUCKETS, seconds)] += 1
        self.seconds += seconds


class RpcCollector(Collector):
    """Exports every method's :class:`RpcStats` as ``roost_rpcs_total`` (by
    service, method and code) and ``roost_rpc_latency_seconds`` (by service and
    method) when scraped. Reads happen on the exporter's thread while the event
    loop counts: each snapshot is copied first, and a histogram's count is the
    sum of its own buckets, so it always agrees with them. (Servers on several
    event loops of one process, as in the tests, share the counts and may lose
    an increment to a race; nothing worse.)"""

    def __init__(self) -> None:
        self.stats: dict[tuple[str, str], RpcStats] = {}

    def stats_for(self, service: str, method: str) -> RpcStats:
        """The (shared) counts of one method, created on first use."""
        key = (service, method)
        stats = self.stats.get(key)
        if stats is None:
            stats = self.stats[key] = RpcStats(service, method)
        return stats

    def collect(self) -> Iterator[Metric]:
        rpcs = CounterMetricFamily(
            "roost_rpcs", "RPCs handled, by service, method and status code",
            labels=["service", "method", "code"],
        )  # fmt: skip
        latency = HistogramMetricFamily(
            "roost_rpc_latency_seconds", "RPC handling time, by service and method",
            labels=["service", "method"],
        )  # fmt: skip
        for stats in list(self.stats.values()):
            labels = [stats.service, stats.method]
            for code, count in list(stats.codes.items()):
                rpcs.add_metric([*labels, code], count)
            counts = list(stats.buckets)
            if not any(counts):
                continue
            cumulative, total = [], 0
            for bound, count in zip((*LATENCY_BUCKETS, INF), counts, strict=True):
                total += count
                cumulative.append((floatToGoString(bound), total))
            latency.add_metric(labels, cumulative, sum_value=stats.seconds)
        yield rpcs
        yield latency


RPC_METRICS = RpcCollector()
REGISTRY.register(RPC_METRICS)
GAMES_CREATED = Counter("roost_games_created_total", "Games created", ["game"])
GAMES_FINISHED = Counter("roost_games_finished_total", "Games finished", ["game"])

log = get_logger("roost.rpc")

R = TypeVar("R")


def serve_metrics(port: int, host: str = "0.0.0.0") -> None:
    """Start the Prometheus HTTP endpoint on ``host`` (the service's ``HOST``;
    ``[::]`` or ``::`` is every address) (no-op for port 0)."""
    if port:
        start_http_server(port, addr=host.strip("[]") or "0.0.0.0")


async def _abort(context: grpc.aio.ServicerContext, error: ServiceError) -> None:
    await context.abort_with_status(error.to_status())


class CallLimits:
    """Caps on one process's work: unary calls in flight and open Watch streams.

    A call over a cap is refused at once (RESOURCE_EXHAUSTED, reason
    ``ERROR_REASON_OVERLOADED``) instead of queueing in memory behind a stalled
    Redis. Set from the settings when the server starts.
    """

    __slots__ = ("calls", "max_calls", "max_streams", "streams")

    def __init__(self, max_calls: int = 2000, max_streams: int = 20_000) -> None:
        self.max_calls = max_calls
        self.max_streams = max_streams
        self.calls = 0
        self.streams = 0


LIMITS = CallLimits()


def _classify(method: str, exc: BaseException) -> ServiceError | None:
    """The status ``exc`` maps to, logged in one line; None (logged with its
    traceback) for a real bug, which is answered INTERNAL."""
    error = as_service_error(exc)
    if error is None:
        log.exception("rpc_failed", method=method)
    elif exc is error:
        log.info("rpc_rejected", method=method, code=error.code.name, reason=error.reason)
    else:  # the store or the process, not the client: one line, no traceback
        log.warning(
            "rpc_unavailable", method=method, code=error.code.name, reason=error.reason,
            error=f"{type(exc).__name__}: {exc}",
        )  # fmt: skip
    return error


async def _fail(context: grpc.aio.ServicerContext, error: ServiceError | None) -> None:
    """Abort the call with ``error``'s rich status, or INTERNAL for None."""
    if error is None:
        await context.abort(grpc.StatusCode.INTERNAL, "internal error")
    else:
        await _abort(context, error)


def unary(service: str) -> Callable[[Callable[..., Awaitable[R]]], Callable[..., Awaitable[R]]]:
    """Wrap a unary handler: metrics, the in-flight cap, ServiceError and
    store failures → rich status, no INTERNAL for anything but a bug."""

    def decorate(handler: Callable[..., Awaitable[R]]) -> Callable[..., Awaitable[R]]:
        method = handler.__name__
        stats = RPC_METRICS.stats_for(service, method)
        limits = LIMITS

        @functools.wraps(handler)
        async def wrapper(self: Any, request: Any, context: grpc.aio.ServicerContext) -> R:
            started = time.perf_counter()
            code = "OK"
            if limits.calls >= limits.max_calls:
                stats.record("RESOURCE_EXHAUSTED", 0.0)
                await _abort(context, errors.overloaded("calls_in_flight"))
            limits.calls += 1
            try:
                if request.__class__ is Undecodable:  # see services.core.decoding
                    raise request.error
                return await handler(self, request, context)
            except grpc.aio.AbortError:
                raise
            except Exception as exc:
                error = _classify(method, exc)
                code = error.code.name if error is not None else "INTERNAL"
                await _fail(context, error)
                raise
            finally:
                limits.calls -= 1
                stats.record(code, time.perf_counter() - started)

        return rejects_undecodable(wrapper)

    return decorate


def streaming(
    service: str,
) -> Callable[[Callable[..., AsyncIterator[R]]], Callable[..., AsyncIterator[R]]]:
    """Wrap a server-streaming handler the same way as :func:`unary`, with
    the cap on open streams instead of the one on calls in flight."""

    def decorate(handler: Callable[..., AsyncIterator[R]]) -> Callable[..., AsyncIterator[R]]:
        method = handler.__name__
        stats = RPC_METRICS.stats_for(service, method)
        limits = LIMITS

        @functools.wraps(handler)
        async def wrapper(
            self: Any, request: Any, context: grpc.aio.ServicerContext
        ) -> AsyncIterator[R]:
            started = time.perf_counter()
            code = "OK"
            if limits.streams >= limits.max_streams:
                stats.record("RESOURCE_EXHAUSTED", 0.0)
                await _abort(context, errors.overloaded("streams_open"))
            limits.streams += 1
            try:
                if request.__class__ is Undecodable:  # see services.core.decoding
                    raise request.error
                async for item in handler(self, request, context):
                    yield item
            except grpc.aio.AbortError:
                raise
            except Exception as exc:
                error = _classify(method, exc)
                code = error.code.name if error is not None else "INTERNAL"
                await _fail(context, error)
            finally:
                limits.streams -= 1
                stats.record(code, time.perf_counter() - started)

        return rejects_undecodable(wrapper)

    return decorate
