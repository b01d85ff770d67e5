"""Apply's handler, in process, over 32 games played turn about: the workload for
counting instructions per Apply with callgrind (deterministic, unlike timings).

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python -m bench.apply_instructions REDIS_URL 0
    (the same with 1)

Faster, one run: ``valgrind --tool=callgrind --instr-atstart=no
--collect-atstart=no --callgrind-out-file=/dev/null python -m
bench.apply_instructions REDIS_URL 0 --window`` plays the two warm-up rounds
uninstrumented and counts only the measured round (``bench.callgrind_window``):
valgrind's "Collected" total divided by the Applies ``--count`` prints.

With ``--plain CACHE ...`` the named caches of the engine
(``services/<game>/rules/caches.py``) are switched to their plain paths for
the whole run: the difference against the run without is what the cache saves.

The run with 1 plays 32 more games than the run with 0 (each run plays two
rounds first, to warm the caches); the difference of the two totals divided by
the Applies of those games (printed by ``--count``) is the figure recorded in
docs/BENCHMARKS.md. One servicer (one codec, one view encoder) serves every
game, as in the running service, and games are interleaved Apply by Apply, so
the per-game caches are exercised as they are under 32 clients.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from typing import Any

from roost.common.v1 import common_pb2

import bench.apply_breakdown as breakdown
from bench.callgrind_window import window
from services.core.config import Settings
from services.core.logging import configure

GAMES = 32
ROUNDS = (5000, 6000, 7000)  # first seeds: two warm-up rounds, then the measured one


async def play(servicer: Any, spec: Any, moves: list[list[tuple[int, int]]], first: int) -> None:
    """Create the games of ``moves`` and play them to the end, one Apply per game in turn."""
    m, context = spec.messages, breakdown._Context()
    live = []
    for offset, game in enumerate(moves):
        request = m.NewGameRequest(common=common_pb2.CommonOptions(players=2, seed=first + offset))
        created = await servicer.NewGame(request, context)
        tokens = {c.seat: c.token for c in created.credentials}
        live.append([created.game_id, tokens, created.version, iter(game)])
    while live:
        for game in list(live):
            step = next(game[3], None)
            if step is None:
                live.remove(game)
                continue
            seat, choice = step
            context.metadata = (("x-seat-token", game[1][seat]),)
            request = m.ApplyRequest(game_id=game[0], expected_version=game[2], action_id=choice)
            await servicer.Apply(request, context)
            game[2] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("redis_url")
    parser.add_argument("measure", type=int, choices=(0, 1), nargs="?", default=0)
    parser.add_argument("--game", default="undertheleaves")
    parser.add_argument("--count", action="store_true", help="print the measured Applies")
    parser.add_argument(
        "--window",
        action="store_true",
        help="count only the measured round (run with measure 0; see bench.callgrind_window)",
    )
    parser.add_argument(
        "--plain", nargs="*", default=[], help="engine caches to switch to their plain paths"
    )
    args = parser.parse_args()
    spec = __import__(f"services.{args.game}.service", fromlist=["SPEC"]).SPEC
    recorded = {
        first: breakdown.record_games(spec.engine, 2, list(range(first, first + GAMES)))
        for first in ROUNDS
    }
    if args.count:
        print(sum(len(game) for game in recorded[ROUNDS[-1]]))
        return
    configure("warning")
    os.environ["REDIS_URL"] = args.redis_url

    async def run() -> None:
        servicer = breakdown.build_servicer(spec, Settings.from_env(spec.default_port))
        for first in ROUNDS[: 2 + args.measure]:
            await play(servicer, spec, recorded[first], first)
        if args.window:
            with window():
                await play(servicer, spec, recorded[ROUNDS[-1]], ROUNDS[-1])
        await servicer.store.client.aclose()

    if args.plain:
        caches = __import__(f"services.{args.game}.rules.caches", fromlist=["plain"])
        with caches.plain(*args.plain):
            asyncio.run(run())
    else:
        asyncio.run(run())


if __name__ == "__main__":
    main()
