"""What the browser port's request guard costs per request, in process.

    python -m bench.browser_guard [--requests 5000] [--rounds 7]

The same ASGI stack (Starlette's CORS in front of a trivial application) with
and without :class:`services.core.browser_guard.RequestGuard` in between, fed
one unary Connect request with typical headers and a 30-byte body through
in-memory ``receive``/``send``; the figure is the median over the rounds of the
time per request of each, and their difference (the guard's own cost: header
checks, the body read whole under its timeout, the budget, the replayed
receive and the status-rewriting send).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

from starlette.middleware.cors import CORSMiddleware

from services.core.browser_guard import BodyBudget, RequestGuard

HEADERS = [
    (b"content-type", b"application/proto"),
    (b"content-length", b"30"),
    (b"connect-protocol-version", b"1"),
    (b"connect-timeout-ms", b"5000"),
    (b"x-seat-token", b"abcdefghijklmnopqrstuvwxyz012345"),
    (b"user-agent", b"connect-es/2.0"),
    (b"accept-encoding", b"gzip"),
    (b"host", b"localhost:52051"),
]


async def trivial(scope: Any, receive: Any, send: Any) -> None:
    await receive()
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/proto")]})  # fmt: skip
    await send({"type": "http.response.body", "body": b"x" * 200})


def stack(guarded: bool) -> Any:
    inner: Any = trivial
    if guarded:
        inner = RequestGuard(trivial, max_message_bytes=4 << 20, body_timeout_seconds=10,
                             budget=BodyBudget(64 << 20))  # fmt: skip
    return CORSMiddleware(inner, allow_origins=["http://localhost"])


async def per_request(app: Any, requests: int) -> float:
    """Microseconds per request of ``app``."""
    path = "/roost.undertheleaves.v1.UnderTheLeaves/GetState"
    scope = {"type": "http", "http_version": "1.1", "method": "POST", "query_string": b"",
             "path": path, "headers": HEADERS}  # fmt: skip

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"y" * 30, "more_body": False}

    async def send(message: Any) -> None:
        return None

    started = time.perf_counter()
    for _ in range(requests):
        await app(dict(scope), receive, send)
    return (time.perf_counter() - started) / requests * 1e6


async def measure(requests: int, rounds: int) -> tuple[float, float]:
    plain, guarded = stack(False), stack(True)
    without, with_guard = [], []
    for _ in range(rounds):
        without.append(await per_request(plain, requests))
        with_guard.append(await per_request(guarded, requests))
    return statistics.median(without), statistics.median(with_guard)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    without, with_guard = asyncio.run(measure(args.requests, args.rounds))
    print(f"per request: {without:.1f} µs without the guard, {with_guard:.1f} µs with it; "
          f"the guard adds {with_guard - without:.1f} µs")  # fmt: skip


if __name__ == "__main__":
    main()
