"""Expiry at scale: many timed games in flight on one service process.

    python -m bench.expiry_lateness [--games N] [--move-seconds S] [--no-write] [--batched-first]

Starts its own Redis and one ``python -m services.undertheleaves`` process (as
deployed, default EXPIRY_POLL_MS), creates ``N`` two-seat games with a per-move
limit of ``S`` seconds and TIMEOUT_POLICY_FORFEIT, 64 NewGame calls in flight,
and never plays them: each game's first deadline passes with no decision, so
the service fires exactly one expiry per game (the game is aborted). ``S`` is
chosen longer than the creation takes, so every game is in flight at once.

Figures (``expiry`` section of docs/BENCHMARKS.md):

* lateness: the fired event's server time minus the deadline the game's clock
  showed (p50, p99, max), read back from each game's event stream;
* CPU of the service process per fired expiry (its CPU time while the
  expiries fire, over their number) and while it only waits with every game
  pending (CPU seconds per second);
* the same figures for a service process that reads each due game as it
  fires (``EXPIRY_BATCH_READS=0``) instead of one pipeline per poll, measured
  in the same run on its own fresh Redis, before (or with ``--batched-first``
  after) the default;
* Redis bytes a game's timer costs: its entry in the deadline sorted set
  (``MEMORY USAGE`` of the set over N) and the lifecycle record and per-event
  clock (their lengths).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import grpc
import orjson
import redis
from roost.common.v1 import common_pb2
from roost.undertheleaves.v1 import service_pb2, service_pb2_grpc

from bench.report import machine, write_section
from bench.service_apply import wait_ready
from services.core.redis_server import free_port, start_local_redis
from services.core.store import deadlines_key, events_key, game_key

ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


async def create_games(address: str, games: int, move_seconds: float) -> list[str]:
    """``games`` timed games, 64 NewGame calls in flight."""
    tc = common_pb2.TimeControl(
        move_seconds=move_seconds, on_timeout=common_pb2.TIMEOUT_POLICY_FORFEIT
    )
    ids: list[str] = []
    async with grpc.aio.insecure_channel(address) as channel:
        stub = service_pb2_grpc.UnderTheLeavesStub(channel)

        async def worker(count: int, offset: int) -> None:
            for i in range(count):
                request = service_pb2.NewGameRequest(
                    common=common_pb2.CommonOptions(players=2, seed=offset + i + 1, time_control=tc)
                )
                ids.append((await stub.NewGame(request, timeout=60)).game_id)

        per = [games // 64 + (1 if w < games % 64 else 0) for w in range(64)]
        await asyncio.gather(*(worker(n, w * 1_000_000) for w, n in enumerate(per) if n))
    return ids


def lateness(raw: redis.Redis, ids: list[str]) -> list[int]:
    """Per game: the fired event's time minus the creation clock's deadline (ms)."""
    pipe = raw.pipeline(transaction=False)
    for game_id in ids:
        pipe.xrange(events_key(game_id), "-", "+", count=2)
    late = []
    for entries in pipe.execute():
        if len(entries) < 2:
            continue
        created = orjson.loads(entries[0][1][b"lf"])
        since = max(c[1] for c in created["c"])
        deadline = since + created["tc"]["m"]
        late.append(int(entries[1][1][b"t"]) - deadline)
    return late


def run_once(args: argparse.Namespace, batch_reads: bool) -> dict:
    """One service process (``EXPIRY_BATCH_READS`` on or off) on a fresh Redis:
    create the games, wait, let every expiry fire; the figures."""
    local = start_local_redis()
    port = free_port()
    env = {**os.environ, "REDIS_URL": local.url, "PORT": str(port), "METRICS_PORT": "0",
           "CONNECT_PORT": "off", "LOG_LEVEL": "warning",
           "EXPIRY_BATCH_READS": "1" if batch_reads else "0"}  # fmt: skip
    service = subprocess.Popen(
        [sys.executable, "-m", "services.undertheleaves"], env=env, cwd=ROOT,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        address = f"127.0.0.1:{port}"
        asyncio.run(wait_ready(address))
        raw = redis.Redis.from_url(local.url)
        load_start = os.getloadavg()[0]
        started = time.monotonic()
        ids = asyncio.run(create_games(address, args.games, args.move_seconds))
        created_s = time.monotonic() - started
        key = deadlines_key("undertheleaves")
        pending = raw.zcard(key)
        zset_bytes = raw.memory_usage(key, samples=0) or 0
        life_bytes = statistics.mean(len(raw.hget(game_key(i), "life") or b"") for i in ids[:200])
        # Waiting only: every game pending, none due yet.
        idle_window = max(min(args.move_seconds - created_s - 1.0, 3.0), 0.5)
        cpu0 = cpu_seconds(service.pid)
        time.sleep(idle_window)
        idle_cpu = (cpu_seconds(service.pid) - cpu0) / idle_window
        # Firing: until the set is empty.
        cpu1 = cpu_seconds(service.pid)
        deadline = time.monotonic() + args.move_seconds + 120
        while raw.zcard(key) and time.monotonic() < deadline:
            time.sleep(0.05)
        fire_cpu = cpu_seconds(service.pid) - cpu1
        late = sorted(lateness(raw, ids))
        load = (load_start, os.getloadavg()[0])
    finally:
        service.terminate()
        service.wait(20)
        local.stop()
    fired = len(late)
    return {
        "late": late, "fired": fired, "fire_cpu": fire_cpu, "idle_cpu": idle_cpu,
        "pending": pending, "zset_bytes": zset_bytes, "life_bytes": life_bytes,
        "created_s": created_s, "load": load,
        "p50": late[fired // 2], "p99": late[min(fired - 1, int(fired * 0.99))],
    }  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--move-seconds", type=float, default=45.0)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument(
        "--batched-first", action="store_true", help="measure the pipelined reads first"
    )
    args = parser.parse_args()
    runs = {}
    for batch_reads in (True, False) if args.batched_first else (False, True):
        runs[batch_reads] = run_once(args, batch_reads=batch_reads)
        print(f"batch reads {batch_reads}: p50 {runs[batch_reads]['p50']} ms, "
              f"p99 {runs[batch_reads]['p99']} ms", flush=True)  # fmt: skip
    one_by_one, batched = runs[False], runs[True]
    late, fired, fire_cpu = batched["late"], batched["fired"], batched["fire_cpu"]
    idle_cpu, pending, zset_bytes = batched["idle_cpu"], batched["pending"], batched["zset_bytes"]
    life_bytes, created_s = batched["life_bytes"], batched["created_s"]
    ordered = list(runs.values())
    load = (ordered[0]["load"][0], ordered[-1]["load"][1])
    other = "after" if args.batched_first else "before"
    flag = " --batched-first" if args.batched_first else ""
    p50, p99 = batched["p50"], batched["p99"]
    lines = [
        "## Expiry at scale",
        "",
        f"`python -m bench.expiry_lateness --games {args.games} --move-seconds "
        f"{args.move_seconds:g}{flag}` — {machine()}; the machine is shared with other work (load "
        f"average {load[0]:.1f} at the start, {load[1]:.1f} at the end, on "
        f"{os.cpu_count()} cores), so the figures are those of a loaded machine: lateness is "
        "mostly the time the process waited for a core.",
        "",
        f"{args.games:,} two-seat Under the Leaves games with a {args.move_seconds:g} s move "
        f"limit were created in {created_s:.1f} s and were all in flight at once "
        f"({pending:,} deadlines pending) on one service process with the default "
        "`EXPIRY_POLL_MS` (100); nobody played, so each game's first deadline fired once "
        "(an abort). The poller reads each poll's due games in one pipeline "
        "(`EXPIRY_BATCH_READS`, the default); the same run measured, just "
        f"{other}, a process reading each game as it fires, on its own fresh Redis.",
        "",
        "| figure | value |",
        "|---|---|",
        f"| expiries fired | {fired:,} of {args.games:,} |",
        f"| lateness after the deadline, p50 | {p50} ms |",
        f"| lateness after the deadline, p99 | {p99} ms |",
        f"| lateness after the deadline, max | {late[-1]} ms |",
        f"| service CPU per fired expiry | {fire_cpu / max(fired, 1) * 1e6:.0f} µs |",
        f"| the same run, each due game read as it fires (`EXPIRY_BATCH_READS=0`): "
        f"lateness p50 / p99, CPU per expiry | {one_by_one['p50']} ms / {one_by_one['p99']} ms, "
        f"{one_by_one['fire_cpu'] / max(one_by_one['fired'], 1) * 1e6:.0f} µs |",
        f"| service CPU while {pending:,} deadlines wait | {idle_cpu * 100:.1f} % of a core |",
        f"| Redis: a game's entry in the deadline set | {zset_bytes / max(pending, 1):.0f} B |",
        f"| Redis: the lifecycle record (game hash `life`) | {life_bytes:.0f} B |",
        "",
        "Lateness is the fired event's server time minus the deadline the game's clock showed "
        "at creation, read back from each game's stream. Each event of a timed game also "
        "carries the clock (the record, about the same size again).",
    ]
    print("\n".join(lines))
    if not args.no_write:
        write_section("expiry", "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
