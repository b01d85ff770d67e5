"""The browser port against the gRPC port: the same call, by protocol.

    python -m bench.browser_port [--seconds 3] [--concurrency 8] [--rounds 3]

Starts a local Redis (unless REDIS_URL is set) and one Under the Leaves service
process, creates a game, then sends GetState as a seat for ``--seconds`` with
``--concurrency`` calls in flight over each of: gRPC (the gRPC port, grpcio's
asyncio client), and on the browser port Connect (binary protobuf) over HTTP/1.1
and HTTP/2, Connect JSON over HTTP/1.1 and gRPC-Web over HTTP/1.1 (connectrpc's
client). Each round measures every transport in turn; figures are the medians
over the rounds of the calls per second and of each one's ratio to gRPC's in the
same round (the machine's load moves between rounds, less within one). Both
sides run Python on one machine, so the ratios include the clients' own cost
(grpcio's C core against connectrpc over pyqwest).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from statistics import median
from typing import Any

import grpc
from connectrpc.compat import google_protobuf_json_codec
from connectrpc.protocol import ProtocolType
from pyqwest import Client, HTTPTransport, HTTPVersion
from roost.common.v1 import common_pb2
from roost.undertheleaves.v1 import service_pb2, service_pb2_grpc
from roost.undertheleaves.v1.service_connect import UnderTheLeavesClient

from bench.report import machine, write_section
from services.core.redis_server import free_port, start_local_redis

ROOT = Path(__file__).resolve().parent.parent
SERVICE = "roost.undertheleaves.v1.UnderTheLeaves"


async def rate(call: Callable[[], Awaitable[Any]], seconds: float, concurrency: int) -> float:
    """Calls per second of ``call`` with ``concurrency`` in flight (after a warm-up)."""
    for _ in range(20):
        await call()
    done = 0
    stop = time.perf_counter() + seconds

    async def worker() -> None:
        nonlocal done
        while time.perf_counter() < stop:
            await call()
            done += 1

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return done / (time.perf_counter() - started)


def http(version: HTTPVersion) -> Client:
    return Client(HTTPTransport(http_version=version))


async def measure(grpc_port: int, http_port: int, seconds: float, concurrency: int) -> dict:
    """calls/s per transport."""
    base = f"http://127.0.0.1:{http_port}"
    async with grpc.aio.insecure_channel(f"127.0.0.1:{grpc_port}") as channel:
        stub = service_pb2_grpc.UnderTheLeavesStub(channel)
        new = await stub.NewGame(
            service_pb2.NewGameRequest(common=common_pb2.CommonOptions(players=2, seed=1))
        )
        token = new.credentials[0].token
        request = service_pb2.GetStateRequest(game_id=new.game_id)
        metadata = (("x-seat-token", token),)
        figures = {
            "gRPC (gRPC port, HTTP/2)": await rate(
                lambda: stub.GetState(request, metadata=metadata), seconds, concurrency
            )
        }
    headers = {"x-seat-token": token}
    clients = {
        "Connect, binary, HTTP/1.1": UnderTheLeavesClient(
            base, http_client=http(HTTPVersion.HTTP1)
        ),
        "Connect, binary, HTTP/2": UnderTheLeavesClient(base, http_client=http(HTTPVersion.HTTP2)),
        "Connect, JSON, HTTP/1.1": UnderTheLeavesClient(
            base, codec=google_protobuf_json_codec(), http_client=http(HTTPVersion.HTTP1)
        ),
        "gRPC-Web, HTTP/1.1": UnderTheLeavesClient(
            base, protocol=ProtocolType.GRPC_WEB, http_client=http(HTTPVersion.HTTP1)
        ),
    }
    for name, client in clients.items():
        async with client:
            figures[name] = await rate(
                lambda c=client: c.get_state(request, headers=headers), seconds, concurrency
            )
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    local = None
    url = os.environ.get("REDIS_URL")
    if not url:
        local = start_local_redis(free_port())
        url = local.url
    grpc_port, http_port = free_port(), free_port()
    env = {**os.environ, "REDIS_URL": url, "HOST": "127.0.0.1", "PORT": str(grpc_port),
           "METRICS_PORT": "0", "CONNECT_PORT": str(http_port), "LOG_LEVEL": "warning"}  # fmt: skip
    process = subprocess.Popen([sys.executable, "-m", "services.undertheleaves"], env=env, cwd=ROOT)
    try:
        time.sleep(0.5)
        for _ in range(100):  # until both ports answer
            try:
                asyncio.run(measure(grpc_port, http_port, 0.05, 1))
                break
            except Exception:
                time.sleep(0.2)
        rounds = [
            asyncio.run(measure(grpc_port, http_port, args.seconds, args.concurrency))
            for _ in range(args.rounds)
        ]
    finally:
        process.terminate()
        process.wait(20)
        if local is not None:
            local.stop()
    baseline = "gRPC (gRPC port, HTTP/2)"
    rows = "\n".join(
        f"| {name} | {median(r[name] for r in rounds):,.0f} | "
        f"{median(r[name] / r[baseline] for r in rounds):.0%} |"
        for name in rounds[0]
    )
    command = (
        f"python -m bench.browser_port --seconds {args.seconds:g} "
        f"--concurrency {args.concurrency} --rounds {args.rounds}"
    )
    body = f"""## Browser port: GetState by protocol

`{command}` ({machine()})

One Under the Leaves process; GetState as a seat with {args.concurrency} calls in flight, client
and server on one machine; medians of {args.rounds} rounds. Ratios are to gRPC in the same
round; they include the clients' own cost (grpcio's C core on the gRPC port, connectrpc over
pyqwest on the browser port), and move by tens of points between runs on a busy machine.

| transport | calls/s (median) | of gRPC (median) |
|---|---|---|
{rows}
"""
    print(body)
    write_section("browser-port", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
