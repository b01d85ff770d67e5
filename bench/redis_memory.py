"""Redis memory per game: bytes per live and per finished game of every game.

    python -m bench.redis_memory [--games N] [--players P ...] [--only GAME ...] [--no-write]

Starts its own Redis (``used_memory`` counts the whole instance, so never a
shared one; persistence off) and, one game at a time, the game's service as its
own process (``python -m services.<game>``), exactly as deployed. Per game and
player count, after two warm-up games (Lua scripts loaded, connections open),
it takes ``N`` games one at a time through NewGame and Apply to half of their
decisions (*live*), then ``N`` more to the end (*finished*).

Every Apply carries a request id, as the bots send one (``bot-<seat>-<version>``),
so each leaves its stored result for retries (``roost:{id}:req:<request_id>``,
kept ``REQUEST_TTL_SECONDS``, default 600 s). Around each game the benchmark
reads Redis's ``used_memory`` on a connection that sends nothing else: before
NewGame, after it (*new*), after the last Apply, and after deleting the game's
stored results (the game's own cost; the difference is the results'). The
figures are medians over the games: a reading also holds whatever the
service's connections' buffers did meanwhile (a few KiB). ``MEMORY USAGE``
(``SAMPLES 0``) of each game's keys is the check beside them and splits a
game into its state hash and its event stream; it leaves out the key tables'
entries, which ``used_memory`` includes.

Decisions are random games recorded in process beforehand (engines are
deterministic, so the service reaches the same states from the same seed) and
replayed by action id. The figures go to the ``redis-memory`` section of
docs/BENCHMARKS.md, with how many games the manifests' ``maxmemory`` holds.
Takes about 35 s on two cores with the defaults (8 games each, 2 and 4 players;
a player count a game does not take is skipped).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import redis
from roost.common.v1 import common_pb2
from roost.games import names

from bench.report import machine, write_section
from bench.service_apply import _reply_version, record_games, wait_ready
from deploy.redis_settings import maxmemory
from deploy.render import render
from services.core.engine.contract import OptionError
from services.core.redis_server import free_port, start_local_redis

ROOT = Path(__file__).resolve().parent.parent
OVERLAYS = {"dev": ROOT / "deploy/k8s/overlays/dev", "prod": ROOT / "deploy/k8s/overlays/prod"}
#: Every game of the registry (protos/roost/games.toml).
GAMES = tuple(names())
WARM_UP_GAMES = 2
MiB = 2**20
GiB = 2**30


@dataclass
class Sample:
    """One game's cost in Redis (bytes) at the point it was left."""

    new: int  # used_memory growth by NewGame
    kept: int  # used_memory growth by the game once its stored results are gone
    results: int  # used_memory of its stored results
    applies: int  # its Applies (each left one stored result)
    hash: int  # MEMORY USAGE of its state hash
    stream: int  # MEMORY USAGE of its event stream
    result_keys: list[int]  # MEMORY USAGE of each stored result


@dataclass
class Figures:
    """What one game and player count cost in Redis (bytes): medians over the games
    for used_memory, means for MEMORY USAGE."""

    game: str
    players: int
    games: int
    decisions: float  # mean decisions of a whole game
    new: float  # used_memory of a game just created
    live: float  # used_memory of a game half played (stored results apart)
    finished: float  # used_memory of a game played to the end (stored results apart)
    live_keys: float  # MEMORY USAGE of a live game's hash and stream
    finished_hash: float  # MEMORY USAGE of a finished game's state hash
    finished_stream: float  # MEMORY USAGE of a finished game's event stream
    result: float  # used_memory of one Apply's stored result
    result_key: float  # MEMORY USAGE of one Apply's stored result key


def data_memory(meter: redis.Redis) -> int:
    """Redis's ``used_memory``.

    ``meter`` is a connection that sends nothing but this INFO, so its own
    buffers stay the same size between readings. Not minus
    ``mem_clients_normal``: Redis updates that figure for a client some time
    after resizing the client's buffers, so it moves by about 20 KiB at a time
    where ``used_memory`` does not.
    """
    return int(meter.info("memory")["used_memory"])


def memory_usage(client: redis.Redis, keys: list[bytes] | list[str]) -> list[int]:
    """Exact ``MEMORY USAGE`` of each key (``SAMPLES 0``)."""
    pipe = client.pipeline(transaction=False)
    for key in keys:
        pipe.memory_usage(key, samples=0)
    return [int(n or 0) for n in pipe.execute()]


class Player:
    """Creates games through NewGame and replays recorded decisions through Apply."""

    def __init__(self, spec: Any, players: int, channel: grpc.aio.Channel) -> None:
        self.spec = spec
        self.players = players
        short = spec.service_name.rsplit(".", 1)[1]
        self.stub = getattr(spec.grpc_module, f"{short}Stub")(channel)
        self.apply = channel.unary_unary(
            f"/{spec.service_name}/Apply",
            request_serializer=spec.messages.ApplyRequest.SerializeToString,
        )

    async def create(self, seed: int) -> tuple[str, dict[int, str]]:
        """A new game of this seed: its id and the token of each seat."""
        reply = await self.stub.NewGame(
            self.spec.messages.NewGameRequest(
                common=common_pb2.CommonOptions(players=self.players, seed=seed)
            )
        )
        assert reply.version == 1
        return reply.game_id, {c.seat: c.token for c in reply.credentials}

    async def play(self, game_id: str, tokens: dict[int, str], moves: list[tuple[int, int]]) -> int:
        """Apply these (seat, action id) decisions in turn, each with a request id."""
        version = 1
        for seat, choice in moves:
            reply = await self.apply(
                self.spec.messages.ApplyRequest(
                    game_id=game_id,
                    expected_version=version,
                    action_id=choice,
                    request_id=f"bot-{seat}-{version}",
                ),
                metadata=[("x-seat-token", tokens[seat])],
            )
            version = _reply_version(reply)
        return len(moves)

    async def sample(
        self,
        client: redis.Redis,
        meter: redis.Redis,
        seed: int,
        moves: list[tuple[int, int]],
        share: float,
    ) -> Sample:
        """Create one game, play ``share`` of its decisions, then delete its stored
        results; Redis's memory read between the steps."""
        before = data_memory(meter)
        game_id, tokens = await self.create(seed)
        created = data_memory(meter)
        applies = await self.play(game_id, tokens, moves[: round(len(moves) * share)])
        played = data_memory(meter)
        results = list(client.scan_iter(match=f"roost:{{{game_id}}}:req:*", count=1000))
        assert len(results) == applies, (len(results), applies)
        result_keys = memory_usage(client, results)
        if results:
            client.delete(*results)
        kept = data_memory(meter)
        hash_usage, stream_usage = memory_usage(
            client, [f"roost:{{{game_id}}}:game", f"roost:{{{game_id}}}:events"]
        )
        status = client.hget(f"roost:{{{game_id}}}:game", "status")
        assert (status == b"FINISHED") == (share == 1.0), status
        return Sample(
            new=created - before,
            kept=kept - before,
            results=played - kept,
            applies=applies,
            hash=hash_usage,
            stream=stream_usage,
            result_keys=result_keys,
        )


async def measure(game: str, players: int, count: int, url: str, address: str) -> Figures:
    """The figures of ``count`` live and ``count`` finished games of one game."""
    spec = importlib.import_module(f"services.{game}.service").SPEC
    seeds = list(range(1, WARM_UP_GAMES + 2 * count + 1))
    recorded = dict(zip(seeds, record_games(spec.engine, players, seeds), strict=True))
    warm, live, finished = (
        seeds[:WARM_UP_GAMES],
        seeds[WARM_UP_GAMES : WARM_UP_GAMES + count],
        seeds[WARM_UP_GAMES + count :],
    )
    with (
        redis.Redis.from_url(url) as client,
        redis.Redis.from_url(url) as meter,
    ):
        client.flushall()
        async with grpc.aio.insecure_channel(address) as channel:
            player = Player(spec, players, channel)
            for s in warm:
                await player.sample(client, meter, s, recorded[s], 1.0)
            settle(meter)
            live_samples = [await player.sample(client, meter, s, recorded[s], 0.5) for s in live]
            settle(meter)
            done = [await player.sample(client, meter, s, recorded[s], 1.0) for s in finished]
    median = statistics.median
    everything = live_samples + done
    return Figures(
        game=game,
        players=players,
        games=count,
        decisions=statistics.mean(len(recorded[s]) for s in finished),
        new=median(s.new for s in everything),
        live=median(s.kept for s in live_samples),
        finished=median(s.kept for s in done),
        live_keys=statistics.mean(s.hash + s.stream for s in live_samples),
        finished_hash=statistics.mean(s.hash for s in done),
        finished_stream=statistics.mean(s.stream for s in done),
        result=median(s.results / s.applies for s in everything if s.applies),
        result_key=statistics.mean(n for s in everything for n in s.result_keys),
    )


def settle(meter: redis.Redis) -> None:
    """Wait until Redis's memory has not changed for 0.3 s (at most 3 s): its cron
    (every 100 ms) resizes key tables and client buffers after a burst."""
    previous = data_memory(meter)
    stable_since = time.monotonic()
    deadline = stable_since + 3
    while time.monotonic() < deadline:
        time.sleep(0.05)
        current = data_memory(meter)
        if current != previous:
            previous, stable_since = current, time.monotonic()
        elif time.monotonic() - stable_since >= 0.3:
            return


def run_game(game: str, players_list: list[int], count: int, url: str) -> list[Figures]:
    """Serve ``game`` as its own process and measure each player count it takes."""
    spec = importlib.import_module(f"services.{game}.service").SPEC
    port = free_port()
    env = {
        **os.environ,
        "REDIS_URL": url,
        "PORT": str(port),
        "METRICS_PORT": "0",
        "LOG_LEVEL": "warning",
    }
    service = subprocess.Popen([sys.executable, "-m", f"services.{game}"], env=env, cwd=ROOT)
    figures = []
    try:
        asyncio.run(wait_ready(f"127.0.0.1:{port}"))
        for players in players_list:
            try:
                spec.engine.setup(players, {}, 1)
            except OptionError as refused:
                print(f"{game}: {players} players skipped ({refused})", flush=True)
                continue
            figures.append(asyncio.run(measure(game, players, count, url, f"127.0.0.1:{port}")))
            print(row(figures[-1]), flush=True)
    finally:
        service.terminate()
        service.wait(10)
    return figures


def kib(n: float) -> str:
    """Bytes as KiB with one decimal."""
    return f"{n / 1024:,.1f}"


def row(f: Figures) -> str:
    """The figures' row of the first table."""
    return (
        f"| {f.game} | {f.players} | {f.decisions:.0f} | {kib(f.new)} | {kib(f.live)} "
        f"| {kib(f.finished)} | {kib(f.live_keys)} | {kib(f.finished_hash)} "
        f"| {kib(f.finished_stream)} | {f.result:,.0f} | {f.result_key:,.0f} |"
    )


def capacity_row(f: Figures, limits: dict[str, int], ttl: dict[str, int]) -> str:
    """How many games of this kind each overlay's maxmemory holds, and how many
    finished games per second the prod one sustains."""
    cells = []
    for memory in limits.values():
        cells += [f"{memory / f.live:,.0f}", f"{memory / f.finished:,.0f}"]
    rate = sustained_rate(f, limits["prod"], ttl["GAME_TTL_SECONDS"], ttl["REQUEST_TTL_SECONDS"])
    return (
        f"| {f.game} | {f.players} | {' | '.join(cells)} "
        f"| {rate:,.2f} | {rate * f.decisions:,.0f} |"
    )


def sustained_rate(f: Figures, memory: int, game_ttl: int, request_ttl: int) -> float:
    """Games finished per second that ``memory`` holds in the steady state: each
    kept ``game_ttl`` seconds once finished, and the stored results of its Applies
    ``request_ttl`` seconds each (games being played are left out)."""
    return memory / (game_ttl * f.finished + request_ttl * f.decisions * f.result)


def ttl_settings(objects: list[dict[str, Any]]) -> dict[str, int]:
    """``GAME_TTL_SECONDS`` and ``REQUEST_TTL_SECONDS`` of the rendered ConfigMap."""
    (config,) = [
        o for o in objects if o["kind"] == "ConfigMap" and o["metadata"]["name"] == "roost-config"
    ]
    return {name: int(config["data"][name]) for name in ("GAME_TTL_SECONDS", "REQUEST_TTL_SECONDS")}


def main() -> None:
    """Measure and write the ``redis-memory`` section of docs/BENCHMARKS.md."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8, help="live and finished games each")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 4])
    parser.add_argument("--only", nargs="*", default=list(GAMES), choices=GAMES)
    parser.add_argument("--no-write", action="store_true", help="print only; leave the docs")
    args = parser.parse_args()
    started = time.monotonic()
    local = start_local_redis()
    with redis.Redis.from_url(local.url) as probe:
        server_version = probe.info("server")["redis_version"]
    figures: list[Figures] = []
    try:
        for game in args.only:
            figures += run_game(game, args.players, args.games, local.url)
    finally:
        local.stop()
    elapsed = time.monotonic() - started
    rendered = {env: render(path) for env, path in OVERLAYS.items()}
    limits = {env: maxmemory(objects) for env, objects in rendered.items()}
    ttl = ttl_settings(rendered["prod"])
    command = "python -m bench.redis_memory" + (f" --games {args.games}" if args.games != 8 else "")
    if args.players != [2, 4]:
        command += " --players " + " ".join(map(str, args.players))
    if args.only != list(GAMES):
        command += " --only " + " ".join(args.only)
    lines = [
        "## Redis memory per game",
        "",
        f"Command: `{command}` ({machine()}; {elapsed:.0f} s; redis-server "
        f"{server_version}). For each game and player count, {args.games} games are "
        "created through the running service and played by Apply to half their decisions "
        f"(*live*), and {args.games} more to the end (*finished*), one game at a time; "
        "every Apply carries a request id, as the bots' do, and so leaves a stored result "
        "(`roost:{id}:req:<request_id>`, the compressed ApplyResponse kept "
        "`REQUEST_TTL_SECONDS` for retries). `used_memory` columns: how much Redis's "
        "`used_memory` grew with one game, the median over the "
        "games; *live* and *finished* without the game's stored results, which are counted "
        "apart per Apply. `MEMORY USAGE` columns: the game's hash and stream keys (the "
        "mean; the key tables' entries are not in them). Sizes in KiB, results in bytes.",
        "",
        "| game | players | decisions | used_memory: new | live | finished "
        "| MEMORY USAGE: live | finished hash | finished stream "
        "| result B/Apply: used_memory | MEMORY USAGE |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        *[row(f) for f in figures],
        "",
        "Games one `maxmemory` holds (the manifests' settings: "
        + ", ".join(f"{env} {limits[env] / MiB:,.0f} MiB" for env in limits)
        + "), if all are live or all finished and no stored results are pending; and the "
        "steady rate of finished games (with their Applies) that the prod maxmemory "
        "sustains when each finished game is kept `GAME_TTL_SECONDS` "
        f"({ttl['GAME_TTL_SECONDS']:,} s in prod) and each stored result "
        f"`REQUEST_TTL_SECONDS` ({ttl['REQUEST_TTL_SECONDS']:,} s), games in play apart.",
        "",
        "| game | players | "
        + " | ".join(f"{env}: live | {env}: finished" for env in limits)
        + " | prod: games/s | prod: Applies/s |",
        "|---|---:|" + "---:|" * (2 * len(limits) + 2),
        *[capacity_row(f, limits, ttl) for f in figures],
        "",
        "Redis holds about: live games × *live* + games finished within "
        "`GAME_TTL_SECONDS` × *finished* + Applies within `REQUEST_TTL_SECONDS` × "
        '*result* (docs/DEPLOY.md, "Redis memory").',
    ]
    text = "\n".join(lines)
    print(text)
    if not args.no_write:
        write_section("redis-memory", text)


if __name__ == "__main__":
    main()
