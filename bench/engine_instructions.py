"""Random full games of one engine, in process: the workload for counting
instructions per game with callgrind (deterministic, unlike timings).

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python -m bench.engine_instructions GAME PLAYERS 0
    (the same with 10)

The run with N plays N seeded random games (the ``bench.engine_speed`` loop,
seeds 1..N) after the same imports and setup as the run with 0; the
difference of the two totals divided by N is the figure recorded in
docs/BENCHMARKS.md. A refactor of an engine compares this figure before and
after: timings on a shared machine move by more than the 10% a change may cost.
With ``--plain CACHE ...`` the engine's named caches (``rules/caches.py``) take
their plain paths.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib

from bench.engine_speed import play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("games", type=int, nargs="?", default=0)
    parser.add_argument(
        "--plain", nargs="*", default=[], help="engine caches to switch to their plain paths"
    )
    args = parser.parse_args()
    engine = importlib.import_module(f"services.{args.game}.rules").ENGINE
    switches = contextlib.nullcontext()
    if args.plain:
        switches = importlib.import_module(f"services.{args.game}.rules.caches").plain(*args.plain)
    with switches:
        for seed in range(1, args.games + 1):
            play(engine, args.players, seed)


if __name__ == "__main__":
    main()
