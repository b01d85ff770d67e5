"""``make bench``: every benchmark, each writing its own section of docs/BENCHMARKS.md.

    python -m bench.run_all [--quick]

Runs each benchmark as its own process (they start servers and parse their own
arguments). ``--quick`` shortens every run, for a smoke check.
"""

from __future__ import annotations

import argparse
import subprocess
import sys


def main() -> int:
    """Run the engine, service, breakdown, tournament, bot strength, Watch,
    reliability, browser-port and expiry benchmarks in turn."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    seconds = "1" if args.quick else "3"
    runs = [
        ["bench.engine_speed", "--seconds", seconds],
        ["bench.service_apply", "--seconds", seconds],
        ["bench.apply_breakdown", *(["--count", "10"] if args.quick else [])],
        ["bench.tournament", *(["--games", "8"] if args.quick else [])],
        ["bench.bot_strength", *(["--games", "4", "--solo-games", "2"] if args.quick else [])],
        ["bench.watch_scale", *(["--streams", "1000"] if args.quick else [])],
        ["bench.reliability", *(["--races", "20", "--retries", "20"] if args.quick else [])],
        ["bench.browser_port", "--seconds", seconds, *(["--rounds", "1"] if args.quick else [])],
        [
            "bench.expiry_lateness",
            *(["--games", "1000", "--move-seconds", "5"] if args.quick else []),
        ],
    ]
    for run in runs:
        print(f"== python -m {' '.join(run)}", flush=True)
        status = subprocess.call([sys.executable, "-m", *run])
        if status != 0:
            return status
    return 0


if __name__ == "__main__":
    sys.exit(main())
