"""Apply throughput and latency through a real service, against a baseline.

    python -m bench.service_apply [--seconds S] [--concurrency 1 8 32]

Starts a local Redis (unless REDIS_URL is set), each game's service
and the baseline server (``bench.baseline_server``: an empty unary call plus
one EVALSHA writing a value of the game's state size) as separate processes.
C client tasks each replay random games recorded in process beforehand (the
engines are deterministic, so the same seed reaches the same states): every
decision is exactly one Apply by action id, as a bot that already holds its
next legal actions sends it. The games are created before the clock starts,
so only Apply calls are timed; the server's CPU per call is read from /proc.
The ratio of Apply to baseline throughput is the figure that matters (target:
at least 70%).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import os
import random
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import grpc
from roost.common.v1 import common_pb2
from roost.games import GAMES

from bench.report import machine, write_section
from services.core.redis_server import free_port, start_local_redis

FINISHED = common_pb2.GAME_STATUS_FINISHED
#: Every game of the registry that takes two players, as ``GAME:2``.
TWO_PLAYER_GAMES = [f"{g.name}:2" for g in GAMES if g.min_players <= 2 <= g.max_players]
#: Apply/s no service reaches here: sizes the stock of recorded games.
MAX_RATE = 5000


@contextmanager
def process(args: list[str], env: dict[str, str]) -> Any:
    """Run a child process for the duration of the block."""
    child = subprocess.Popen(args, env={**os.environ, **env})
    try:
        yield child
    finally:
        child.terminate()
        child.wait(10)


async def wait_ready(address: str) -> None:
    """Wait until a channel to ``address`` connects."""
    async with grpc.aio.insecure_channel(address) as channel:
        await asyncio.wait_for(channel.channel_ready(), 30)


def record_games(engine: Any, players: int, seeds: list[int]) -> list[list[tuple[int, int]]]:
    """Random games played in process: per seed, the (seat, action id) of every decision.

    The service reaches the same states from the same seed (engines are
    deterministic), so replaying these ids through Apply needs no Legal call.
    """
    games = []
    for seed in seeds:
        chooser = random.Random(seed)
        state = engine.setup(players, {}, seed)
        moves: list[tuple[int, int]] = []
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            actions = engine.legal(state, seat)
            choice = chooser.randrange(len(actions))
            moves.append((seat, choice))
            state = engine.apply(state, seat, actions[choice])
        games.append(moves)
    return games


async def apply_load(
    spec: Any,
    players: int,
    address: str,
    concurrency: int,
    seconds: float,
    first_seed: int,
    server_pid: int | None = None,
) -> tuple[list[float], float, float]:
    """C clients replay recorded random games with Apply only; return the Apply
    latencies, the elapsed wall time and the server's CPU seconds over it.

    Every game has its own seed (from ``first_seed`` up, never reused within
    a run), and enough are recorded and created (NewGame, before the clock
    starts) that a client does not run out, so no cache can see the same game
    twice and only Apply calls fall inside the measured window.
    """
    latencies: list[float] = []
    m = spec.messages
    short = spec.service_name.rsplit(".", 1)[1]
    decisions = len(record_games(spec.engine, players, [first_seed])[0])
    per_client = 2 + int(seconds * MAX_RATE / concurrency / max(decisions, 1))
    seeds = [
        [first_seed + per_client * index + k for k in range(per_client)]
        for index in range(concurrency)
    ]
    recorded = [record_games(spec.engine, players, worker_seeds) for worker_seeds in seeds]
    async with grpc.aio.insecure_channel(address) as channel:
        stub = getattr(spec.grpc_module, f"{short}Stub")(channel)

        async def create(seed: int) -> tuple[str, dict[int, str], int]:
            created = await stub.NewGame(
                m.NewGameRequest(common=common_pb2.CommonOptions(players=players, seed=seed))
            )
            return (
                created.game_id,
                {c.seat: c.token for c in created.credentials},
                created.version,
            )

        async def create_all(worker_seeds: list[int]) -> list[tuple[str, dict[int, str], int]]:
            return [await create(seed) for seed in worker_seeds]

        games = await asyncio.gather(*(create_all(worker_seeds) for worker_seeds in seeds))
        deadline = time.perf_counter() + seconds

        # Replies arrive as bytes, as the baseline's do: a load generator that
        # parsed every view and legal list would spend, on the machine the two
        # servers share, CPU that the baseline's load generator does not.
        apply = channel.unary_unary(
            f"/{spec.service_name}/Apply",
            request_serializer=m.ApplyRequest.SerializeToString,
        )

        async def worker(index: int) -> None:
            for (game_id, tokens, version), moves in zip(
                games[index], recorded[index], strict=True
            ):
                for seat, choice in moves:
                    if time.perf_counter() >= deadline:
                        return
                    started = time.perf_counter()
                    reply = await apply(
                        m.ApplyRequest(game_id=game_id, expected_version=version, action_id=choice),
                        metadata=[("x-seat-token", tokens[seat])],
                    )
                    latencies.append(time.perf_counter() - started)
                    version = _reply_version(reply)

        cpu_before = cpu_seconds(server_pid) if server_pid else 0.0
        started = time.perf_counter()
        await asyncio.gather(*(worker(i) for i in range(concurrency)))
        elapsed = time.perf_counter() - started
        cpu = cpu_seconds(server_pid) - cpu_before if server_pid else 0.0
        return latencies, elapsed, cpu


def _reply_version(reply: bytes) -> int:
    """The ``version`` of a serialized ``ApplyResponse``: its first field (number 1,
    a varint), as the service writes it."""
    if not reply or reply[0] != 0x08:
        raise ValueError("an ApplyResponse starts with its version")
    value, shift = 0, 0
    for byte in reply[1:11]:
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value
        shift += 7
    raise ValueError("unterminated varint")


async def baseline_load(
    address: str, concurrency: int, seconds: float
) -> tuple[list[float], float]:
    """C loops of the baseline call; return latencies and elapsed time."""
    latencies: list[float] = []
    async with grpc.aio.insecure_channel(address) as channel:
        call = channel.unary_unary("/roost.bench.v1.Baseline/Call")
        deadline = time.perf_counter() + seconds

        async def worker() -> None:
            while time.perf_counter() < deadline:
                started = time.perf_counter()
                await call(b"")
                latencies.append(time.perf_counter() - started)

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return latencies, time.perf_counter() - started


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system, all threads) a child process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    """The q-quantile in milliseconds."""
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def state_size(engine: Any, players: int) -> int:
    """Largest encoded state over a few random games of this player count."""
    largest = 0
    for seed in range(5):
        chooser = random.Random(seed)
        state = engine.setup(players, {}, seed)
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            state = engine.apply(state, seat, chooser.choice(engine.legal(state, seat)))
            largest = max(largest, len(engine.encode(state)))
    return largest


async def run(
    game: str, players: int, seconds: float, levels: list[int], url: str, rounds: int
) -> tuple[list[str], list[str]]:
    """Measure each concurrency level; return table rows and notes."""
    spec = importlib.import_module(f"services.{game}.service").SPEC
    size = state_size(spec.engine, players)
    game_port, base_port = free_port(), free_port()
    env = {"REDIS_URL": url, "PORT": str(game_port), "METRICS_PORT": "0", "LOG_LEVEL": "warning"}
    rows = []
    with (
        process([sys.executable, "-m", f"services.{game}"], env) as service,
        process(
            [sys.executable, "-m", "bench.baseline_server", str(base_port), url, str(size)], {}
        ) as baseline,
    ):
        await wait_ready(f"127.0.0.1:{game_port}")
        await wait_ready(f"127.0.0.1:{base_port}")
        await apply_load(spec, players, f"127.0.0.1:{game_port}", 4, 0.5, 1)  # warm up
        first_seed = 1_000_000
        for level in levels:
            base_lat: list[float] = []
            app_lat: list[float] = []
            base_rates, app_rates, base_cpus, app_cpus, ratios = [], [], [], [], []
            for _round in range(rounds):  # alternating, so drift hits both alike
                cpu_before = cpu_seconds(baseline.pid)
                lat, elapsed = await baseline_load(f"127.0.0.1:{base_port}", level, seconds)
                base_cpus.append((cpu_seconds(baseline.pid) - cpu_before) / len(lat))
                base_rates.append(len(lat) / elapsed)
                base_lat += lat
                lat, elapsed, cpu = await apply_load(
                    spec,
                    players,
                    f"127.0.0.1:{game_port}",
                    level,
                    seconds,
                    first_seed,
                    service.pid,
                )
                first_seed += 1_000_000
                app_cpus.append(cpu / len(lat))
                app_rates.append(len(lat) / elapsed)
                app_lat += lat
                ratios.append(app_rates[-1] / base_rates[-1])
            median = statistics.median
            rows.append(
                f"| {game} | {players} | {level} | {median(app_rates):,.0f} "
                f"| {pct(app_lat, 0.5):.2f} | {pct(app_lat, 0.99):.2f} "
                f"| {median(app_cpus) * 1e6:,.0f} "
                f"| {median(base_rates):,.0f} | {pct(base_lat, 0.5):.2f} "
                f"| {pct(base_lat, 0.99):.2f} | {median(base_cpus) * 1e6:,.0f} "
                f"| {100 * median(ratios):.0f}% ({100 * min(ratios):.0f}–{100 * max(ratios):.0f}) |"
            )
            print(rows[-1], flush=True)
    notes = [
        f"{game}: baseline value {size:,} bytes (the largest state of such a game), "
        f"mean Apply {statistics.mean(app_lat) * 1000:.2f} ms at {levels[-1]} clients."
    ]
    return rows, notes


def main() -> None:
    """Run and write the service section of docs/BENCHMARKS.md."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--concurrency", type=int, nargs="*", default=[1, 8, 32])
    parser.add_argument(
        "--games", nargs="*", default=TWO_PLAYER_GAMES,
        help="GAME:PLAYERS pairs",
    )  # fmt: skip
    parser.add_argument("--rounds", type=int, default=5, help="alternating runs per level")
    parser.add_argument("--no-write", action="store_true", help="print only; leave the docs")
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL")
    local = None if url else start_local_redis()
    rows: list[str] = []
    notes: list[str] = []
    try:
        for pair in args.games:
            game, players = pair.split(":")
            game_rows, game_notes = asyncio.run(
                run(
                    game,
                    int(players),
                    args.seconds,
                    args.concurrency,
                    url or local.url,
                    args.rounds,
                )
            )
            rows += game_rows
            notes += game_notes
    finally:
        if local:
            local.stop()
    lines = [
        "## Service: Apply throughput against the baseline",
        "",
        f"Command: `python -m bench.service_apply --seconds {args.seconds:g} --rounds "
        f"{args.rounds}` ({machine()}; "
        "client, service, baseline server and Redis share the machine's 2 cores). Each client "
        "replays random games recorded in process, one Apply per decision, on games created "
        "(NewGame) before the clock starts; every game has its own seed, so no cache sees a "
        "game twice. Both load generators take replies as bytes (the Apply one reads the "
        "version, the reply's first field). "
        "The baseline is an empty gRPC unary call "
        "plus one Redis EVALSHA writing a value of the game's largest state size. "
        "CPU columns: the server process's CPU time (all threads) per call. Each level runs "
        f"{args.rounds} alternating rounds of baseline then Apply; rates and CPU are the "
        "medians, latencies pooled, and the ratio is the median of the rounds' ratios "
        "(their range in brackets).",
        "",
        "| game | players | clients | Apply/s | p50 ms | p99 ms | CPU µs/Apply "
        "| baseline/s | p50 ms | p99 ms | CPU µs/call | Apply ÷ baseline |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
        "",
        *notes,
    ]
    if not args.no_write:
        write_section("service", "\n".join(lines))


if __name__ == "__main__":
    main()
