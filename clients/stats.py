"""Client-side RPC measurements: latency per method, errors by status code."""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import grpc

T = TypeVar("T")


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of already sorted values (0 when empty)."""
    if not sorted_values:
        return 0.0
    rank = max(1, min(len(sorted_values), round(q / 100.0 * len(sorted_values) + 0.5)))
    return sorted_values[rank - 1]


class RpcStats:
    """Latencies (seconds) of successful and failed calls per method, and error counts."""

    def __init__(self) -> None:
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.errors: Counter[str] = Counter()
        self.errors_by_method: Counter[tuple[str, str]] = Counter()
        self.applied = 0

    def record(self, method: str, seconds: float, code: str = "OK") -> None:
        """One finished call."""
        self.latencies[method].append(seconds)
        if code != "OK":
            self.errors[code] += 1
            self.errors_by_method[(method, code)] += 1

    async def timed(self, method: str, call: Callable[[], Awaitable[T]]) -> T:
        """Await ``call()`` and record it."""
        started = time.perf_counter()
        try:
            result = await call()
        except grpc.aio.AioRpcError as error:
            self.record(method, time.perf_counter() - started, error.code().name)
            raise
        self.record(method, time.perf_counter() - started)
        return result

    def summary(self) -> dict[str, Any]:
        """Per method: calls, p50/p95/p99/max in milliseconds."""
        out: dict[str, Any] = {}
        for method, values in sorted(self.latencies.items()):
            ordered = sorted(values)
            out[method] = {
                "calls": len(ordered),
                "p50_ms": round(percentile(ordered, 50) * 1000, 3),
                "p95_ms": round(percentile(ordered, 95) * 1000, 3),
                "p99_ms": round(percentile(ordered, 99) * 1000, 3),
                "max_ms": round(ordered[-1] * 1000, 3),
            }
        return out
