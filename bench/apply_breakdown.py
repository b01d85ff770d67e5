"""Where an Apply's server time goes, piece by piece, in one process.

    python -m bench.apply_breakdown [--games GAME:PLAYERS ...] [--count N]

No gRPC: the servicer's ``Apply`` is called directly, over a real Redis (a
local one unless REDIS_URL is set), replaying N recorded random games with
their own seeds; the figure is process CPU time per Apply of the whole handler.
Then each piece is timed alone over the same decisions: the rules (``apply``
and the next legal list), the view dict, the view bytes, the legal entries'
bytes, the state encoding and the reply head. The baseline, in the same
process: one ``EVALSHA`` through redis-py writing a value of the game's
largest state size (what bench.baseline_server does per call).

Every piece that goes through a cache is also timed on its plain path, the
computation the cache stands in for, so a cache stays only where it pays:
the view bytes built whole (``View(**view)``; the service's reuse of unchanged
parts, ``ViewWire``), the legal entries built as messages (``fill_legal``; the
codec's cached entry heads), and the state encoded from a fresh ``clone``
(an engine's kept fragments of its stored JSON, such as Under the Leaves'
gardens).

The engines' own caches (a rules package's ``caches.KEPT``, each with a
switch to its plain path) get a table of their own: the whole handler with
the cache and with that one cache switched off (``caches.plain``), in
alternating rounds on games of fresh seeds (no cache sees a game twice), the
least CPU of the rounds on each side. A cache stays in an engine only where
its plain path costs more.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import os
import time
from typing import Any

import redis.asyncio as aioredis
from roost.common.v1 import common_pb2

from bench.report import machine, write_section
from bench.service_apply import TWO_PLAYER_GAMES, record_games, state_size
from services.core.config import Settings
from services.core.convert import ActionCodec
from services.core.logging import configure
from services.core.main import build_servicer
from services.core.redis_server import start_local_redis
from services.core.view_wire import ViewWire

FIRST_SEED = 5_000_000


class _Context:
    """The one part of a gRPC servicer context Apply reads: the call metadata."""

    def __init__(self) -> None:
        self.metadata: tuple[tuple[str, str], ...] = ()

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        return self.metadata


async def handler_cpu(
    spec: Any, players: int, games: list[list[tuple[int, int]]], url: str, first: int = FIRST_SEED
) -> float:
    """CPU seconds per Apply of the servicer's handler, replaying ``games``
    (recorded from seeds ``first``, ``first + 1``, ...)."""
    os.environ["REDIS_URL"] = url
    servicer = build_servicer(spec, Settings.from_env(spec.default_port))
    m, context, spent, count = spec.messages, _Context(), 0.0, 0
    for offset, moves in enumerate(games):
        request = m.NewGameRequest(
            common=common_pb2.CommonOptions(players=players, seed=first + offset)
        )
        created = await servicer.NewGame(request, context)
        tokens = {c.seat: c.token for c in created.credentials}
        version = created.version
        for seat, choice in moves:
            context.metadata = (("x-seat-token", tokens[seat]),)
            apply = m.ApplyRequest(
                game_id=created.game_id, expected_version=version, action_id=choice
            )
            started = time.process_time()
            reply = await servicer.Apply(apply, context)
            spent += time.process_time() - started
            version = m.ApplyResponse.FromString(reply).version
            count += 1
    await servicer.store.client.aclose()
    return spent / count


async def baseline_cpu(url: str, size: int, calls: int = 3000) -> float:
    """CPU seconds per EVALSHA of ``size`` bytes through redis-py."""
    client = aioredis.Redis.from_url(url, protocol=2)
    script = client.register_script("redis.call('SET', KEYS[1], ARGV[1]) return 1")
    payload = b"x" * size
    await script(keys=["roost:{breakdown}:x"], args=[payload])
    started = time.process_time()
    for _ in range(calls):
        await script(keys=["roost:{breakdown}:x"], args=[payload])
    spent = time.process_time() - started
    await client.aclose()
    return spent / calls


def piece_cpu(spec: Any, players: int, games: list[list[tuple[int, int]]]) -> dict[str, float]:
    """CPU seconds per decision of each piece of an Apply, timed alone."""
    engine, codec = spec.engine, ActionCodec(spec.types.Action)
    # As the service encodes: identity-only for games whose view parts are shared.
    wire = ViewWire(spec.types.View, shared=spec.view_parts_shared)
    head = spec.messages.ApplyResponse
    field = head.DESCRIPTOR.fields_by_name["next_actions"].number
    spent = dict.fromkeys(
        ("rules", "view dict", "view bytes", "legal bytes", "encode", "head"), 0.0
    )
    plain = dict.fromkeys(PLAIN, 0.0)
    legal_reply = spec.messages.LegalResponse
    view_class = spec.types.View
    clock, count = time.process_time, 0
    for offset, moves in enumerate(games):
        state, kept = engine.setup(players, {}, FIRST_SEED + offset), {}
        for seat, choice in moves:
            action = engine.legal(state, seat)[choice]
            t0 = clock()
            state = engine.apply(state, seat, action)
            to_act = [] if engine.is_over(state) else engine.to_act(state)
            following = engine.legal(state, seat) if seat in to_act else []
            t1 = clock()
            view = engine.view(state, seat)
            t2 = clock()
            if spec.view_parts_are_values:
                wire.encode(view, kept)
            else:
                view_class(**view).SerializeToString()
            t3 = clock()
            codec.legal_wire(field, following)
            t4 = clock()
            engine.encode(state)
            t5 = clock()
            event = {"version": 2, "seat": seat, "kind": action.kind, "label": action.label}
            head(version=2, status=1, to_act=to_act, event=event).SerializeToString()
            t6 = clock()
            for name, began, ended in (
                ("rules", t0, t1), ("view dict", t1, t2), ("view bytes", t2, t3),
                ("legal bytes", t3, t4), ("encode", t4, t5), ("head", t5, t6),
            ):  # fmt: skip
                spent[name] += ended - began
            copy = engine.clone(state)
            p0 = clock()
            view_class(**view).SerializeToString()
            p1 = clock()
            reply = legal_reply()
            codec.fill_legal(reply.actions, following)
            reply.SerializeToString()
            p2 = clock()
            engine.encode(copy)
            p3 = clock()
            for name, began, ended in zip(PLAIN, (p0, p1, p2), (p1, p2, p3), strict=True):
                plain[name] += ended - began
            count += 1
    return {name: total / count for name, total in (spent | plain).items()}


#: The plain-path twins of the cached pieces (see the module docstring).
PLAIN = ("view bytes, plain", "legal bytes, plain", "encode, plain")


#: The table's piece columns, each cached piece followed by its plain twin.
ORDER = (
    "rules",
    "view dict",
    "view bytes",
    "view bytes, plain",
    "legal bytes",
    "legal bytes, plain",
    "encode",
    "encode, plain",
    "head",
)


def cache_rows(game: str, spec: Any, players: int, count: int, rounds: int, url: str) -> list[str]:
    """One table row per cache of ``game``'s engine: handler CPU µs per Apply
    with the cache, on its plain path, and the difference (least of ``rounds``
    alternating rounds each, every round on games of its own seeds)."""
    try:
        caches = importlib.import_module(f"services.{game}.rules.caches")
    except ModuleNotFoundError:
        return []
    rows, first = [], FIRST_SEED + 1_000_000
    for name in caches.KEPT:
        kept, plain = [], []
        for _ in range(rounds):
            for side in (kept, plain):
                seeds = list(range(first, first + count))
                games = record_games(spec.engine, players, seeds)
                if side is plain:
                    with caches.plain(name):
                        side.append(asyncio.run(handler_cpu(spec, players, games, url, first)))
                else:
                    side.append(asyncio.run(handler_cpu(spec, players, games, url, first)))
                first += count
        best, bare = min(kept) * 1e6, min(plain) * 1e6
        rows.append(
            f"| {game} | {players} | {name} | {best:,.1f} | {bare:,.1f} | {bare - best:+,.1f} "
            f"| {(bare - best) / best:+.1%} |"
        )
        print(rows[-1], flush=True)
    return rows


def main() -> None:
    """Measure and write the breakdown section of docs/BENCHMARKS.md."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=40, help="games per game kind")
    parser.add_argument(
        "--games",
        nargs="*",
        default=TWO_PLAYER_GAMES,
    )
    parser.add_argument("--no-write", action="store_true", help="print only; leave the docs")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per side for each cache")
    parser.add_argument("--caches-only", action="store_true", help="only the engines' caches")
    args = parser.parse_args()
    configure("warning")
    url = os.environ.get("REDIS_URL")
    local = None if url else start_local_redis()
    rows, cached = [], []
    try:
        for pair in args.games:
            game, players_text = pair.split(":")
            players = int(players_text)
            spec = importlib.import_module(f"services.{game}.service").SPEC
            cached += cache_rows(game, spec, players, args.count, args.rounds, url or local.url)
            if args.caches_only:
                continue
            seeds = [FIRST_SEED + k for k in range(args.count)]
            games = record_games(spec.engine, players, seeds)
            handler = asyncio.run(handler_cpu(spec, players, games, url or local.url))
            base = asyncio.run(baseline_cpu(url or local.url, state_size(spec.engine, players)))
            pieces = piece_cpu(spec, players, games)
            rest = handler - sum(v for k, v in pieces.items() if k not in PLAIN)
            cells = " | ".join(f"{pieces[k] * 1e6:,.0f}" for k in ORDER)
            rows.append(
                f"| {game} | {players} | {handler * 1e6:,.0f} | {base * 1e6:,.0f} | {cells} "
                f"| {rest * 1e6:,.0f} |"
            )
            print(rows[-1], flush=True)
    finally:
        if local:
            local.stop()
    lines = [
        "## Apply, piece by piece (one process, no gRPC)",
        "",
        f"Command: `python -m bench.apply_breakdown --count {args.count}` ({machine()}). "
        "CPU µs per Apply: the whole handler called directly over a real Redis, then each "
        "piece timed alone over the same decisions; 'Redis write and the rest' is the "
        "handler minus the pieces (the Lua write on the Apply lane, token check, metrics, "
        "logging context). Baseline: one EVALSHA of the game's largest state size through "
        "redis-py in the same process.",
        "",
        "Columns marked *plain* time the same piece without its cache (the view "
        "message built whole, the legal entries built as messages, the state encoded "
        "from a fresh clone); they are not part of the handler. A view-bytes figure equal "
        "to its plain twin means the game does not use the view reuse.",
        "",
        "| game | players | handler | baseline EVALSHA | rules (apply + next legal) "
        "| view dict | view bytes | *plain* | legal bytes | *plain* | encode | *plain* "
        "| reply head | Redis write and the rest |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
    ]
    cache_lines = [
        "## Engine caches against their plain paths, in CPU time",
        "",
        f"Command: `python -m bench.apply_breakdown --count {args.count} --rounds "
        f"{args.rounds}` ({machine()}). CPU µs per Apply of the whole handler (as in the "
        "table above), with each of the engine's caches and with that one cache switched "
        "to its plain path (`services/<game>/rules/caches.py`); each side is the least of "
        f"{args.rounds} alternating rounds of {args.count} games, every round on fresh "
        "seeds. On a busy machine these figures spread by ±15%; whether a cache stays is "
        "decided on the instruction counts of 'Engine caches against their plain paths' "
        "(`bench.cache_instructions`).",
        "",
        "| game | players | cache | handler, cached | handler, *plain* | plain − cached "
        "| relative |",
        "|---|---:|---|---:|---:|---:|---:|",
        *cached,
    ]
    if not args.no_write:
        if not args.caches_only:
            write_section("breakdown", "\n".join(lines))
        write_section("breakdown-caches", "\n".join(cache_lines))


if __name__ == "__main__":
    main()
