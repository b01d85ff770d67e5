"""Random full games per second, in process, for every rules engine.

    python -m bench.engine_speed [--seconds S] [--games NAME ...]

For each game and player count it plays random full games (uniform choice
among legal actions, the same loop as ``services.core.engine.playout``) for
about S seconds and reports games/s, decisions/s and the largest encoded state
seen. A fixed pure-Python workload timed in the same process is the baseline:
"games per baseline unit" stays comparable across machines.
"""

from __future__ import annotations

import argparse
import importlib
import time
from typing import Any

from bench.report import machine, write_section
from services.core.engine import Rng
from services.registry import GAMES

# Published figures to compare with (games/s, one core on this kind of machine): the most
# complete public Python Wingspan engine, at the same atomic granularity (issue 5).
REFERENCES: dict[tuple[str, int], float] = {("wingspan", 2): 40.0, ("wingspan", 4): 18.0}


def baseline_units_per_second(seconds: float = 1.0) -> float:
    """Iterations/s of a fixed mixed workload (dict, list, int ops) in pure Python."""
    done = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        table: dict[int, int] = {}
        values = list(range(200))
        for i in values:
            table[i % 37] = table.get(i % 37, 0) + i * 3
        sorted(values, key=lambda v: -v)
        done += 1
    return done / (time.perf_counter() - started)


def play(engine: Any, players: int, seed: int) -> tuple[int, int]:
    """One random game; returns (decisions, largest encoded size sampled)."""
    state = engine.setup(players, {}, seed)
    chooser = Rng(seed ^ 0x5EED)
    decisions = 0
    largest = len(engine.encode(state))
    while not engine.is_over(state):
        seats = engine.to_act(state)
        seat = seats[chooser.below(len(seats))] if len(seats) > 1 else seats[0]
        actions = engine.legal(state, seat)
        state = engine.apply(state, seat, actions[chooser.below(len(actions))])
        decisions += 1
        if decisions % 25 == 0:
            largest = max(largest, len(engine.encode(state)))
    return decisions, max(largest, len(engine.encode(state)))


def measure(engine: Any, players: int, seconds: float) -> dict[str, float]:
    """Games/s, decisions/s and the largest state for one player count."""
    games = decisions = largest = 0
    started = time.perf_counter()
    seed = 1
    while time.perf_counter() - started < seconds or games < 3:
        d, size = play(engine, players, seed)
        games += 1
        decisions += d
        largest = max(largest, size)
        seed += 1
    elapsed = time.perf_counter() - started
    return {
        "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed,
        "decisions_per_game": decisions / games,
        "largest_state_bytes": largest,
        "games": games,
    }


def main() -> None:
    """Measure every available engine and write the engines section."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--games", nargs="*", default=[g.name for g in GAMES])
    args = parser.parse_args()
    baseline = baseline_units_per_second()
    rows = []
    for name in args.games:
        try:
            engine = importlib.import_module(f"services.{name}.rules").ENGINE
        except (ModuleNotFoundError, AttributeError):
            continue
        for players in range(engine.min_players, engine.max_players + 1):
            result = measure(engine, players, args.seconds)
            rows.append((name, players, result))
            print(name, players, {k: round(v, 1) for k, v in result.items()}, flush=True)
    lines = [
        "## Rules engines: random full games in process",
        "",
        f"Command: `python -m bench.engine_speed --seconds {args.seconds:g}` "
        f"({machine()}, one core).",
        f"Baseline: {baseline:,.0f} units/s of a fixed pure-Python workload in the same process; "
        "'games per 1k units' = games/s ÷ (baseline/1000).",
        "",
        "| game | players | games/s | decisions/s | decisions/game | games per 1k units "
        "| largest state (bytes) | vs reference |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, players, r in rows:
        reference = REFERENCES.get((name, players))
        versus = f"{r['games_per_s'] / reference:.1f}× ({reference:g}/s)" if reference else ""
        lines.append(
            f"| {name} | {players} | {r['games_per_s']:.1f} | {r['decisions_per_s']:,.0f} "
            f"| {r['decisions_per_game']:.0f} | {r['games_per_s'] / (baseline / 1000):.2f} "
            f"| {r['largest_state_bytes']:,} | {versus} |"
        )
    lines += [
        "",
        "Reference: the most complete public Python Wingspan engine completes about 40 random "
        "2-player and 18 random 4-player games per second on one core of this kind of machine "
        "(figures given in the Wingspan issue; the target is 5×). Our Wingspan engine applies a "
        "decision automatically when it has exactly one option (one way to pay, one bird with "
        "room for an egg), so it counts fewer decisions per game than an engine that asks about "
        "every forced step; every real choice is still a decision.",
    ]
    write_section("engines", "\n".join(lines))


if __name__ == "__main__":
    main()
