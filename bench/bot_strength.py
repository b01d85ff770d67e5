"""Bot strength: search against greedy against random, over gRPC, with ratings.

    python -m bench.bot_strength [--games N] [--baseline-games B] [--playouts P]
                                 [--solo-games S] [--only GAME ...] [--concurrency C]
                                 [--duels NAME ...] [--no-write]

For each game with a search observation builder it serves the game as its own
process over a local Redis (or ``REDIS_URL``) and runs ``roost tournament`` as a
separate process for three duels at 2 players (search@<P>p vs greedy, greedy
vs random, search@<P>p vs random; seats rotate; ``--duels`` picks some of
them; ``--duels`` with no names runs none), and, in games with a solo mode, solo
runs of each bot. From the reports it writes, into the ``bot-strength-<game>``
section of docs/BENCHMARKS.md (one per game): the first kind's share of the
head-to-head games with its 95% Wilson interval (a draw counts half), mean
scores, and OpenSkill ratings (the tournament's, over that duel's games); the
solo scores go to ``bot-strength-<game>-solo``. A section is written only by a
run that played its games, so solo games can be re-run without the duels.

The budget is a number of playouts per decision, so the games do not depend
on how loaded the machine is; the time that budget takes per decision is
measured separately, in process, on positions of random games.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shlex
import statistics
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.report import machine, write_section
from bench.tournament import _wait_healthy, start_service
from clients.bots.search import BUILDERS, builder
from clients.bots.search.ismcts import Budget, Settings, search
from clients.bots.search.policy import settings_of
from services.core.redis_server import start_local_redis
from services.registry import by_name

ROOT = Path(__file__).resolve().parent.parent
#: Games with a solo mode (the registry's min_players is 1), and what a solo
#: game is judged by: a win by the game's own solo rule, which the registry's note names.
SOLO = {
    g["name"]: f"won by its solo rule ({g['note']})"
    for g in tomllib.loads((ROOT / "protos/roost/games.toml").read_text(encoding="utf-8"))["games"]
    if g["min_players"] == 1
}
#: The duels at 2 players, by name: (first kind, second kind, games flag).
DUELS = {
    "search-greedy": ("search", "greedy", "games"),
    "greedy-random": ("greedy", "random", "baseline_games"),
    "search-random": ("search", "random", "games"),
}


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (successes may be fractional)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@contextmanager
def serve(game: str, redis_url: str) -> Iterator[str]:
    """The game's service as its own process; yields its address."""
    entry = by_name(game)
    server, address = start_service(entry, redis_url)
    try:
        _wait_healthy(address, entry.service_name, server)
        yield address
    finally:
        server.terminate()
        server.wait(timeout=30)


def tournament(
    game: str, address: str, players: int, games: int, bots: str, concurrency: int, seed: int
) -> dict[str, Any]:
    """One ``roost tournament`` run as its own process; its JSON report and command."""
    command = [
        "tournament", "--game", game, "--players", str(players), "--games", str(games),
        "--concurrency", str(concurrency), "--bots", bots, "--seed", str(seed), "--json",
        "--no-progress", "--timeout", "3600",
    ]  # fmt: skip
    result = subprocess.run(
        [sys.executable, "-m", "clients.cli.main", *command, "--target", address],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=6 * 3600,
    )
    if result.returncode not in (0, 1):
        raise RuntimeError(f"{game}: roost exited {result.returncode}: {result.stderr[-2000:]}")
    report = json.loads(result.stdout)
    report["command"] = "roost " + shlex.join(command)
    return report


def duel(report: dict[str, Any], first: str, second: str) -> dict[str, Any]:
    """``first``'s share of the head-to-head games (a draw: half), with its interval."""
    won = drawn = lost = 0
    for entry in report["games"]:
        seats = {int(s): k for s, k in entry["kinds"].items()}
        if set(seats.values()) != {first, second}:
            continue
        kinds = {seats[s] for s in entry["winners"]}
        if kinds == {first}:
            won += 1
        elif kinds == {second}:
            lost += 1
        else:
            drawn += 1
    games = won + drawn + lost
    share = (won + drawn / 2) / games if games else 0.0
    low, high = wilson(won + drawn / 2, games)
    summary = report["bots_summary"]
    return {
        "game": report["game"],
        "first": first,
        "second": second,
        "games": games,
        "won": won,
        "drawn": drawn,
        "lost": lost,
        "share": share,
        "low": low,
        "high": high,
        "first_score": summary[first]["mean_score"],
        "second_score": summary[second]["mean_score"],
        "first_mu": summary[first]["mu"],
        "first_sigma": summary[first]["sigma"],
        "second_mu": summary[second]["mu"],
        "second_sigma": summary[second]["sigma"],
        "command": report["command"],
    }


def search_settings(game: str) -> Settings:
    """The settings the search bot plays ``game`` with (its builder's, plus the
    greedy prior and potential where greedy looks a turn ahead): what is timed."""
    return settings_of(game, builder(game))


def decision_times(game: str, players: int, playouts: int, positions: int = 40) -> dict[str, float]:
    """Milliseconds a search of ``playouts`` playouts takes, over positions of random
    games, with the settings the bot plays with (:func:`search_settings`)."""
    module = builder(game)
    assert module is not None
    settings = search_settings(game)
    engine = module.ENGINE
    rng = random.Random(0)
    times: list[float] = []
    seed = 0
    while len(times) < positions:
        state = engine.setup(players, {}, seed)
        seed += 1
        while not engine.is_over(state) and len(times) < positions:
            seat = engine.to_act(state)[0]
            actions = engine.legal(state, seat)
            if len(actions) > 1 and rng.random() < 0.2:
                started = time.perf_counter()
                search(
                    engine, state, seat, Budget(playouts=playouts), random.Random(seed), settings
                )
                times.append((time.perf_counter() - started) * 1000)
            state = engine.apply(state, seat, actions[rng.randrange(len(actions))])
    times.sort()
    return {
        "mean": statistics.fmean(times),
        "p95": times[min(len(times) - 1, int(0.95 * len(times)))],
        "load": os.getloadavg()[0],
    }


def _header(argv: list[str], playouts: int) -> list[str]:
    return [
        f"`python -m bench.bot_strength {shlex.join(argv)}`".replace(" `", "`"),
        f"on {machine()}. Every game is played over gRPC by remote bots (seats rotate);",
        f"`search@{playouts}p` searches {playouts} playouts per decision from its own view",
        "(docs/BOTS.md).",
    ]


def section(
    game: str,
    duels: list[dict[str, Any]],
    timing: dict[str, dict[str, float]],
    playouts: int,
    argv: list[str],
) -> str:
    """The Markdown of the bot-strength section: the duels and the search's time."""
    lines = [
        f"## Bot strength in {game}: search, greedy and random",
        "",
        *_header(argv, playouts),
        "Share: the first bot's share of the games between the two (a draw",
        "counts half), with its 95% Wilson interval. Ratings: OpenSkill (Plackett-Luce)",
        "mu ± sigma over the duel's games, from `roost tournament`.",
        "",
        "| game | first vs second | games | won / drawn / lost | share [95% CI] "
        "| mean score | rating mu ± sigma |",
        "|---|---|---|---|---|---|---|",
    ]
    for d in duels:
        lines.append(
            f"| {d['game']} | {d['first']} vs {d['second']} | {d['games']} "
            f"| {d['won']} / {d['drawn']} / {d['lost']} "
            f"| {d['share']:.0%} [{d['low']:.0%}, {d['high']:.0%}] "
            f"| {d['first_score']:.1f} vs {d['second_score']:.1f} "
            f"| {d['first_mu']:.1f} ± {d['first_sigma']:.1f} vs "
            f"{d['second_mu']:.1f} ± {d['second_sigma']:.1f} |"
        )
    lines += ["", f"Time per decision of `search@{playouts}p`, in process, on this machine:", ""]
    lines += [
        f"- {game}: mean {t['mean']:.0f} ms, p95 {t['p95']:.0f} ms (load average "
        f"{t['load']:.1f} on {os.cpu_count()} CPUs, shared with other work)"
        for game, t in timing.items()
    ]
    lines += ["", "The client commands (each against the game's own service):", ""]
    lines += [f"- `{c}`" for c in dict.fromkeys(d["command"] for d in duels)]
    return "\n".join(lines)


def solo_section(game: str, solos: list[dict[str, Any]], playouts: int, argv: list[str]) -> str:
    """The Markdown of the solo scores (a section of its own: a run of solo games
    alone leaves the duels' rows as they are)."""
    lines = [
        f"### Solo scores in {game}",
        "",
        *_header(argv, playouts),
        "",
        f"Solo (one seat; {game}: {SOLO[game]}):",
        "",
        "| game | bot | games | won [95% CI] | mean score |",
        "|---|---|---|---|---|",
    ]
    for s in solos:
        low, high = wilson(s["wins"], s["games"])
        lines.append(
            f"| {s['game']} | {s['bot']} | {s['games']} "
            f"| {s['wins']} ({s['wins'] / max(s['games'], 1):.0%}) [{low:.0%}, {high:.0%}] "
            f"| {s['mean_score']:.1f} |"
        )
    lines += ["", "The client commands (each against the game's own service):", ""]
    lines += [f"- `{s['command']}`" for s in solos]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the duels and write the section."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60, help="games per duel with search")
    parser.add_argument(
        "--baseline-games", type=int, default=200, help="games of greedy vs random (cheap)"
    )
    parser.add_argument("--playouts", type=int, default=64, help="search playouts per decision")
    parser.add_argument("--solo-games", type=int, default=20, help="solo games per bot (0: none)")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=None, help="game names")
    parser.add_argument(
        "--duels", nargs="*", choices=tuple(DUELS), default=list(DUELS), help="duels to run"
    )
    parser.add_argument("--no-write", action="store_true", help="print only")
    raw = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(raw)
    search_kind = f"search@{args.playouts}p"
    games = [g for g in BUILDERS if args.only is None or g in args.only]
    url = os.environ.get("REDIS_URL")
    local = None if url else start_local_redis()
    try:
        redis_url = url or local.url  # type: ignore[union-attr]
        for game in games:
            duels: list[dict[str, Any]] = []
            solos: list[dict[str, Any]] = []
            timing: dict[str, dict[str, float]] = {}
            if args.duels:
                timing[game] = decision_times(game, 2, args.playouts)
            with serve(game, redis_url) as address:
                for name in args.duels:
                    first, second, flag = DUELS[name]
                    first = search_kind if first == "search" else first
                    count = getattr(args, flag)
                    report = tournament(
                        game, address, 2, count, f"{first},{second}", args.concurrency, 1
                    )
                    duels.append(duel(report, first, second))
                    print(json.dumps(duels[-1]), flush=True)
                if game in SOLO and args.solo_games:
                    for bot in ("random", "greedy", search_kind):
                        report = tournament(
                            game, address, 1, args.solo_games, bot, args.concurrency, 1
                        )
                        row = report["bots_summary"][bot]
                        solos.append(
                            {
                                "game": game,
                                "bot": bot,
                                "games": row["seats"],
                                "wins": row["wins"],
                                "mean_score": row["mean_score"],
                                "command": report["command"],
                            }
                        )
                        print(json.dumps(solos[-1]), flush=True)
            parts = []
            if duels:
                parts.append(
                    (f"bot-strength-{game}", section(game, duels, timing, args.playouts, raw))
                )
            if solos:
                parts.append(
                    (f"bot-strength-{game}-solo", solo_section(game, solos, args.playouts, raw))
                )
            for name, text in parts:
                if args.no_write:
                    print(text)
                else:
                    write_section(name, text)
    finally:
        if local is not None:
            local.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
