"""``roost tournament``: many bot games and their report."""

from __future__ import annotations

import asyncio
import json
import shlex
import time
from argparse import Namespace

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)

from clients import registry
from clients.bots.pool import tune_gc_for_bots
from clients.cli.commands.bots import with_search_budget
from clients.cli.commands.common import game_info
from clients.rpc import CliError, Exit
from clients.tournament import report as tournament_report
from clients.tournament.runner import GameOutcome, Tournament, TournamentConfig


def cmd_tournament(args: Namespace, console: Console) -> int:
    """Run a tournament and report."""
    info = game_info(args.game)
    if args.via_matchmaker and not registry.MATCHMAKER.available():
        raise CliError("the matchmaker stubs are not generated (run `make proto`)")
    config = TournamentConfig(
        game=info.name,
        players=args.players,
        games=args.games,
        concurrency=args.concurrency,
        bots=tuple(with_search_budget(list(args.bots), args)),
        via_matchmaker=args.via_matchmaker,
        target=args.target,
        matchmaker=args.matchmaker,
        seed=args.seed,
        options_json=args.options,
        game_timeout=args.timeout,
        time_control=args.time_control,
    )
    started = time.perf_counter()
    cpu_started = time.process_time()  # this process's CPU (all its bots), start-up excluded
    tournament = Tournament(config)
    tune_gc_for_bots()
    interrupted = False
    try:
        if args.no_progress or args.json:
            asyncio.run(tournament.run())
        else:
            columns = (
                SpinnerColumn(),
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(),
            )
            with Progress(*columns, console=console) as progress:
                task = progress.add_task(f"{info.name} games", total=args.games, rate="")

                def on_game(_outcome: GameOutcome | None) -> None:
                    elapsed = max(time.perf_counter() - started, 1e-9)
                    done = progress.tasks[0].completed + 1
                    progress.update(task, advance=1, rate=f"{done / elapsed:.1f} games/s")

                tournament.on_game = on_game
                asyncio.run(tournament.run())
    except KeyboardInterrupt:
        interrupted = True  # report what was played so far
    results = tournament.results
    if not results.seconds:
        results.seconds = time.perf_counter() - started
    report = results.to_dict()
    report["command"] = "roost " + shlex.join(args.argv)
    report["interrupted"] = interrupted
    report["client_cpu_seconds"] = round(time.process_time() - cpu_started, 3)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        tournament_report.show(report, console)
    if args.report:
        tournament_report.write(report, args.report)
        if not args.json:
            console.print(f"report written to {args.report}")
    if interrupted:
        return Exit.INTERRUPTED
    return Exit.OK if report["games_finished"] == args.games else Exit.ERROR
