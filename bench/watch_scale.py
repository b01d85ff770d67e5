"""Watch at scale: streams held by one service process, and what they cost.

    python -m bench.watch_scale [--streams 1000 10000] [--games-per-stream 0.2]

Starts a local Redis (unless REDIS_URL is set) and one Under the Leaves service
process, creates the games, then for each level opens that many Watch streams
(spread evenly over ``streams × games-per-stream`` games, over several client
connections) and measures, with every stream open:

* the Redis connections the service holds (``CLIENT LIST``, less this
  benchmark's own), which must not grow with streams or games;
* the service's resident memory per stream (RSS with the streams open minus
  RSS before, divided by the streams);
* the delay from an Apply's acknowledgement to its event at every watcher of
  that game (p50/p99; an event that arrives before the acknowledgement counts
  as 0), over Applies sent 8 at a time to a sample of the watched games;
* GetState latency with the streams open against the same calls before any
  stream was opened (the other RPCs must be unaffected).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import redis
from roost.common.v1 import common_pb2
from roost.undertheleaves.v1 import service_pb2, service_pb2_grpc

from bench.report import machine, write_section
from services.core.redis_server import free_port, start_local_redis

SERVICE = "services.undertheleaves"
#: Client connections the streams are spread over (HTTP/2 multiplexes the rest).
CHANNELS = 16
#: Streams opened before waiting for them to be answered.
OPEN_WAVE = 250


@dataclass
class Level:
    """The figures of one level (one count of open streams)."""

    streams: int
    games: int
    redis_connections: int
    rss_per_stream_kib: float
    delays_ms: list[float] = field(default_factory=list)
    getstate_ms_before: float = 0.0
    getstate_ms_during: float = 0.0
    open_seconds: float = 0.0


def rss_kib(pid: int) -> int:
    """Resident memory of a process, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def service_connections(url: str) -> int:
    """Clients Redis sees, less the connection asking."""
    raw = redis.Redis.from_url(url)
    try:
        return len(raw.client_list()) - 1
    finally:
        raw.close()


def _channels(address: str) -> list[grpc.aio.Channel]:
    # A local subchannel pool per channel: each is its own TCP connection.
    return [
        grpc.aio.insecure_channel(
            address, options=[("grpc.use_local_subchannel_pool", 1), ("roost.bench.channel", n)]
        )
        for n in range(CHANNELS)
    ]


async def create_games(stub: Any, count: int) -> list[Any]:
    """``count`` two-player games, 32 NewGame calls at a time."""
    made: list[Any] = []
    for start in range(0, count, 32):
        batch = [
            stub.NewGame(service_pb2.NewGameRequest(common=common_pb2.CommonOptions(players=2)))
            for _ in range(min(32, count - start))
        ]
        made += await asyncio.gather(*batch)
    return made


async def getstate_p50(stub: Any, game_ids: list[str], calls: int = 300) -> float:
    """Median GetState latency (ms), one call at a time."""
    times = []
    for index in range(calls):
        started = time.perf_counter()
        await stub.GetState(service_pb2.GetStateRequest(game_id=game_ids[index % len(game_ids)]))
        times.append(time.perf_counter() - started)
    return 1000 * statistics.median(times)


class Watchers:
    """Open streams and the moments each event reached each of them."""

    def __init__(self) -> None:
        self.received: dict[tuple[str, int], list[float]] = defaultdict(list)
        self.opened = 0
        self.ended: dict[str, int] = defaultdict(int)
        self.tasks: list[asyncio.Task[None]] = []
        self.calls: list[Any] = []

    def open(self, stub: Any, game_id: str) -> None:
        call = stub.Watch(service_pb2.WatchRequest(game_id=game_id, from_version=0))
        self.calls.append(call)
        self.tasks.append(asyncio.create_task(self._read(call, game_id)))

    async def _read(self, call: Any, game_id: str) -> None:
        first = True
        try:
            async for reply in call:
                self.received[(game_id, reply.event.version)].append(time.perf_counter())
                if first:
                    self.opened += 1
                    first = False
        except grpc.aio.AioRpcError as error:
            self.ended[f"{error.code().name}: {error.details()}"] += 1
        except asyncio.CancelledError:
            pass

    async def close(self) -> None:
        for call in self.calls:
            call.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def apply_delays(
    stub: Any, games: list[Any], watchers: Watchers, applies: int, per_game: int
) -> list[float]:
    """Apply ``applies`` times (8 at a time, each game once in turn) and return
    the delays (ms) from each acknowledgement to the event at each watcher."""
    acks: list[tuple[str, int, float]] = []
    versions = {g.game_id: 1 for g in games}
    seats = {g.game_id: list(g.to_act) for g in games}
    tokens = {g.game_id: {c.seat: c.token for c in g.credentials} for g in games}
    order = [g.game_id for g in games]

    async def one(game_id: str) -> None:
        seat = seats[game_id][0]
        metadata = (("x-seat-token", tokens[game_id][seat]),)
        reply = await stub.Apply(
            service_pb2.ApplyRequest(
                game_id=game_id, expected_version=versions[game_id], action_id=0
            ),
            metadata=metadata,
        )
        acks.append((game_id, reply.version, time.perf_counter()))
        versions[game_id] = reply.version
        seats[game_id] = list(reply.to_act)

    sent = 0
    while sent < applies:
        batch = order[sent % len(order) :][:8]
        await asyncio.gather(*(one(g) for g in batch))
        sent += len(batch)
    await asyncio.sleep(1.0)  # the last events reach their watchers
    delays = []
    for game_id, version, acked in acks:
        arrivals = watchers.received.get((game_id, version), [])
        assert len(arrivals) == per_game, f"{len(arrivals)} of {per_game} watchers got the event"
        delays += [max(0.0, 1000 * (arrived - acked)) for arrived in arrivals]
    return delays


async def run_level(address: str, url: str, pid: int, streams: int, games_count: int) -> Level:
    """Open ``streams`` Watch streams on ``games_count`` new games and measure."""
    channels = _channels(address)
    stubs = [service_pb2_grpc.UnderTheLeavesStub(c) for c in channels]
    games = await create_games(stubs[0], games_count)
    game_ids = [g.game_id for g in games]
    before_ms = await getstate_p50(stubs[0], game_ids)
    rss_before = rss_kib(pid)
    watchers = Watchers()
    per_game = streams // games_count
    started = time.perf_counter()
    # Opened in waves, as clients arrive: a burst of thousands of new streams at
    # one instant meets gRPC's overload protection (streams the server has not
    # yet accepted are reset), which no real crowd of spectators produces.
    for index in range(streams):
        watchers.open(stubs[index % len(stubs)], game_ids[index % games_count])
        if (index + 1) % OPEN_WAVE == 0 or index + 1 == streams:
            while watchers.opened < index + 1:
                await asyncio.sleep(0.01)
                if watchers.ended or time.perf_counter() - started > 300:
                    raise RuntimeError(
                        f"{watchers.opened} of {streams} streams opened; ended: {watchers.ended}"
                    )
    open_seconds = time.perf_counter() - started
    await asyncio.sleep(1.0)
    level = Level(
        streams=streams,
        games=games_count,
        redis_connections=service_connections(url),
        rss_per_stream_kib=(rss_kib(pid) - rss_before) / streams,
        open_seconds=open_seconds,
    )
    level.getstate_ms_before = before_ms
    level.getstate_ms_during = await getstate_p50(stubs[0], game_ids)
    sample = random.Random(1).sample(games, min(200, len(games)))
    level.delays_ms = await apply_delays(stubs[0], sample, watchers, 400, per_game)
    await watchers.close()
    for channel in channels:
        await channel.close()
    return level


def start_service(url: str, **env: str) -> tuple[subprocess.Popen[bytes], str]:
    """One Under the Leaves service process; returns it and its address."""
    port = free_port()
    environment = {
        **os.environ, "REDIS_URL": url, "PORT": str(port), "METRICS_PORT": "0",
        "LOG_LEVEL": "error", "MAX_CONNECTION_AGE_SECONDS": "0", **env,
    }  # fmt: skip
    child = subprocess.Popen([sys.executable, "-m", SERVICE], env=environment)
    address = f"127.0.0.1:{port}"

    async def ready() -> None:
        async with grpc.aio.insecure_channel(address) as channel:
            await asyncio.wait_for(channel.channel_ready(), 30)

    asyncio.run(ready())
    return child, address


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, nargs="*", default=[1000, 10_000])
    parser.add_argument("--games-per-stream", type=float, default=0.2)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL")
    local = None if url else start_local_redis()
    url = url or local.url  # type: ignore[union-attr]
    rows = []
    try:
        for streams in args.streams:
            redis.Redis.from_url(url).flushdb()
            child, address = start_service(url)
            try:
                games = max(1, int(streams * args.games_per_stream))
                level = asyncio.run(run_level(address, url, child.pid, streams, games))
            finally:
                child.terminate()
                child.wait(30)
            row = (
                f"| {level.streams:,} | {level.games:,} | {level.redis_connections} "
                f"| {level.rss_per_stream_kib:.1f} | {pct(level.delays_ms, 0.5):.2f} "
                f"| {pct(level.delays_ms, 0.99):.2f} | {len(level.delays_ms):,} "
                f"| {level.getstate_ms_before:.2f} | {level.getstate_ms_during:.2f} "
                f"| {level.open_seconds:.1f} |"
            )
            print(row, flush=True)
            rows.append(row)
    finally:
        if local:
            local.stop()
    lines = [
        "## Watch at scale: streams held by one process",
        "",
        f"Command: `python -m bench.watch_scale` ({machine()}; the client, one Under the Leaves "
        "service process and Redis share the machine's 2 cores). Streams are spread evenly over "
        f"games (5 per game) and over {CHANNELS} client connections; Applies go 8 at a time to "
        "200 of the watched games. Redis connections: what the service holds with every stream "
        "open (a pool of 16 at most, the Apply lane and one subscriber; a pool connection is "
        "opened only when calls need it). Memory: the service's RSS growth per open stream. "
        "Delay: from an Apply's acknowledgement at the client to the event at each watcher of "
        "that game. GetState: median latency, one call at a time, before any stream was opened "
        "and with all of them open.",
        "",
        "| streams | games | Redis connections | KiB per stream | delay p50 ms | delay p99 ms "
        "| deliveries | GetState ms before | GetState ms during | seconds to open |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
    ]
    if not args.no_write:
        write_section("watch", "\n".join(lines))


if __name__ == "__main__":
    main()
