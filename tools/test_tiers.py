"""Run the test suite's tiers as ``make test`` does (tests/tiers.py, tests/README.md).

Phase 1: the unit and service tiers together, in parallel (pytest-xdist, each
worker its own Redis and its own slice of ports). Phase 2: the end-to-end tier,
serially. Both phases always run; the exit status is non-zero when either fails,
and the last line is one pytest-style summary of both (what CI reads).

    python tools/test_tiers.py [--workers N|auto] [--only TIER] [--no-slow] [pytest args...]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The marker expression of each tier (unmarked tests are the unit tier).
TIERS = {
    "unit": "not service and not e2e",
    "service": "service",
    "e2e": "e2e",
}

#: pytest's order of outcomes in its summary line.
OUTCOMES = ("failed", "passed", "skipped", "deselected", "xfailed", "xpassed", "error")

#: pytest's "no tests collected" status: a phase with nothing to run is no failure.
NO_TESTS = 5


def phase_command(marks: str, workers: str | None, extra: list[str], summary: Path) -> list[str]:
    """The pytest command line of one phase."""
    command = [sys.executable, "-m", "pytest", "-q", "-m", marks]
    if workers not in (None, "0", "1"):
        # Service tests share module-scoped servers: a file stays on one worker.
        # Unit tests share nothing costly: they spread test by test.
        unit_only = TIERS["unit"] in marks and "service" not in marks.replace(TIERS["unit"], "")
        dist = "load" if unit_only else "loadfile"
        command += ["-n", str(workers), "--dist", dist]
    return [*command, *extra, f"--roost-summary={summary}"]


def run_phase(marks: str, workers: str | None, extra: list[str]) -> tuple[int, dict[str, int]]:
    """Run one phase; its exit status and its outcome counts."""
    with tempfile.TemporaryDirectory(prefix="roost-tiers-") as scratch:
        summary = Path(scratch) / "summary.json"
        status = subprocess.call(phase_command(marks, workers, extra, summary), cwd=ROOT)
        counts = json.loads(summary.read_text()) if summary.exists() else {}
    return (0 if status == NO_TESTS else status), counts


def summary_line(counts: dict[str, int], seconds: float) -> str:
    """A pytest-style final line, e.g. ``==== 1 failed, 2290 passed in 300.12s ====``."""
    shown = [
        f"{counts[o]} {o}{'s' if o == 'error' and counts[o] != 1 else ''}"
        for o in OUTCOMES
        if counts.get(o)
    ]
    text = f" {', '.join(shown) or 'no tests ran'} in {seconds:.2f}s "
    width = 80
    side = max(2, (width - len(text)) // 2)
    return "=" * side + text + "=" * side


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default=os.environ.get("TEST_WORKERS", "auto"))
    parser.add_argument("--only", choices=sorted(TIERS), help="run one tier alone")
    parser.add_argument("--no-slow", action="store_true", help="leave out @pytest.mark.slow")
    args, extra = parser.parse_known_args(argv)
    started = time.monotonic()
    if args.only:
        workers = None if args.only == "e2e" else args.workers
        phases = [(TIERS[args.only], workers)]
    else:
        phases = [("not e2e", args.workers), (TIERS["e2e"], None)]
    if args.no_slow:
        phases = [(f"({marks}) and not slow", workers) for marks, workers in phases]
    total: dict[str, int] = {}
    worst = 0
    for marks, workers in phases:
        status, counts = run_phase(marks, workers, extra)
        worst = worst or status
        for outcome, count in counts.items():
            total[outcome] = total.get(outcome, 0) + count
    if len(phases) > 1:
        total.pop("deselected", None)
        print(summary_line(total, time.monotonic() - started), flush=True)
    return worst


if __name__ == "__main__":
    raise SystemExit(main())
