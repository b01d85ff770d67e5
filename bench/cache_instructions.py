"""Each engine cache against its plain path, in instructions per Apply.

    python -m bench.cache_instructions [--games GAME ...] [--no-write]

For each game with a ``services/<game>/rules/caches.py``, runs
``bench.apply_instructions --window`` under callgrind (a local Redis, started
here): once with every cache, then once per cache with that one switched to
its plain path; each figure is instructions per Apply of the service's
handler over the same 32 interleaved games (deterministic to about 0.1%).
Writes the table to docs/BENCHMARKS.md (section ``engine-caches``). Needs
valgrind and a C compiler (``bench.callgrind_window``).
"""

from __future__ import annotations

import argparse
import importlib
import re
import subprocess
import sys

from bench.report import machine, write_section
from services.core.redis_server import start_local_redis

#: A cache stays in an engine when its plain path costs at least this much more.
PAYS = 0.02


def instructions(url: str, game: str, plain: tuple[str, ...] = ()) -> int:
    """Instructions counted by callgrind in the measured round of one run."""
    command = [
        "valgrind", "--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no",
        "--callgrind-out-file=/dev/null",
        sys.executable, "-m", "bench.apply_instructions", url, "0", "--window", "--game", game,
    ]  # fmt: skip
    if plain:
        command += ["--plain", *plain]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return int(re.search(r"Collected : (\d+)", done.stderr).group(1))  # type: ignore[union-attr]


def applies(url: str, game: str) -> int:
    """The Applies of the measured round."""
    command = [sys.executable, "-m", "bench.apply_instructions", url, "--count", "--game", game]
    return int(subprocess.run(command, capture_output=True, text=True, check=True).stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=["undertheleaves", "wingspan", "skygarden"])
    parser.add_argument("--no-write", action="store_true", help="print only; leave the docs")
    args = parser.parse_args()
    local = start_local_redis()
    rows = []
    try:
        for game in args.games:
            caches = importlib.import_module(f"services.{game}.rules.caches")
            count = applies(local.url, game)
            base = instructions(local.url, game) / count
            for name in caches.KEPT:
                bare = instructions(local.url, game, (name,)) / count
                rows.append(
                    f"| {game} | {name} | {base:,.0f} | {bare:,.0f} | {(bare - base) / base:+.1%} |"
                )
                print(rows[-1], flush=True)
    finally:
        local.stop()
    lines = [
        "## Engine caches against their plain paths",
        "",
        f"Command: `python -m bench.cache_instructions` ({machine()}; valgrind's callgrind). "
        "Instructions per Apply of the service's handler (`bench.apply_instructions --window`: "
        "one servicer, 32 two-player games played turn about, counted in the third round), "
        "with every cache of the engine and with one cache switched to its plain path "
        "(`services/<game>/rules/caches.py`). Runs repeat to about 0.1% (Under the Leaves) "
        "and 1% (Wingspan). A cache stays only where its plain path costs at least "
        f"{PAYS:.0%} more, here or in the engine's random games (`bench.engine_instructions "
        "--plain`: Wingspan's legal list, which the flow works out anyway to spot a lone "
        "option, saves a sixth of a random game's instructions, 16.3M to 13.6M per 2-player "
        "game; Sky Garden's labelled actions save 3.6%, 61.4M to 59.3M).",
        "",
        "| game | cache | with every cache | this one *plain* | plain costs |",
        "|---|---|---:|---:|---:|",
        *rows,
    ]
    if not args.no_write:
        write_section("engine-caches", "\n".join(lines))


if __name__ == "__main__":
    main()
