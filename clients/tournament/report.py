"""Tournament results as rich tables and a JSON file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table


def show(report: dict[str, Any], console: Console) -> None:
    """Print the summary, latency, errors and bot tables."""
    summary = Table(title="Tournament", box=box.SIMPLE_HEAVY, title_justify="left")
    summary.add_column("")
    summary.add_column("", justify="right")
    mode = "matchmaker" if report["via_matchmaker"] else "direct"
    rows = [
        ("game", f"{report['game']} ({report['players']} players, {mode})"),
        ("games finished", f"{report['games_finished']} / {report['games_requested']}"),
        ("concurrency", str(report["concurrency"])),
        ("seconds", f"{report['seconds']:.2f}"),
        ("games per second", f"{report['games_per_second']:.2f}"),
        ("decisions", str(report["decisions"])),
        ("decisions per second", f"{report['decisions_per_second']:.1f}"),
    ]
    if report.get("interrupted"):
        rows.append(("interrupted", "yes (Ctrl-C): a partial report"))
    if len(report["bots"]) > 1:
        same = report["games_finished"] - report["head_to_head_games"]
        rows.append(
            (
                "head-to-head games",
                f"{report['head_to_head_games']} (kinds against each other); "
                f"{same} with one kind only",
            )
        )
    if "matchmaking_wait_ms" in report:
        waits = report["matchmaking_wait_ms"]
        rows.append(("queue wait p50 / p95 ms", f"{waits['p50']} / {waits['p95']}"))
    for name, value in rows:
        summary.add_row(name, value)
    console.print(summary)

    latency = Table(title="RPC latency (client side)", box=box.SIMPLE_HEAVY, title_justify="left")
    for column in ("method", "calls", "p50 ms", "p95 ms", "p99 ms", "max ms"):
        latency.add_column(column, justify="left" if column == "method" else "right")
    for method, values in report["rpc_latency"].items():
        latency.add_row(
            method,
            str(values["calls"]),
            f"{values['p50_ms']:.2f}",
            f"{values['p95_ms']:.2f}",
            f"{values['p99_ms']:.2f}",
            f"{values['max_ms']:.2f}",
        )
    console.print(latency)

    errors = Table(title="Errors by status code", box=box.SIMPLE_HEAVY, title_justify="left")
    errors.add_column("code")
    errors.add_column("count", justify="right")
    for code, count in report["errors_by_code"].items():
        errors.add_row(code, str(count))
    if not report["errors_by_code"]:
        errors.add_row("none", "0")
    console.print(errors)

    bots = Table(title="Bots", box=box.SIMPLE_HEAVY, title_justify="left")
    timed = bool(report.get("time_control"))
    columns = ["bot", "seats", "wins", "win rate", "mean score", "mu", "sigma", "ordinal"]
    if timed:
        columns += ["timeouts", "forfeits"]
    for column in columns:
        bots.add_column(column, justify="left" if column == "bot" else "right")
    for kind, row in report["bots_summary"].items():
        bots.add_row(
            kind,
            str(row["seats"]),
            str(row["wins"]),
            f"{row['win_rate']:.1%}",
            f"{row['mean_score']:.2f}",
            f"{row['mu']:.2f}",
            f"{row['sigma']:.2f}",
            f"{row['ordinal']:.2f}",
            *((str(row["timeouts"]), str(row["forfeits"])) if timed else ()),
        )
    console.print(bots)
    if report["via_matchmaker"] and len(report["bots"]) > 1:
        games = Table(
            title="Games (as the matchmaker grouped the tickets)",
            box=box.SIMPLE_HEAVY,
            title_justify="left",
        )
        for column in ("game id", "seats", "head-to-head", "winners"):
            games.add_column(column)
        for game in report["games"]:
            seats = ", ".join(f"{seat}={kind}" for seat, kind in game["kinds"].items())
            winners = ", ".join(str(w) for w in game["winners"])
            games.add_row(game["game_id"], seats, "yes" if game["head_to_head"] else "no", winners)
        console.print(games)
    for failure in report["failures"]:
        console.print(f"[red]failed:[/red] {failure}")


def write(report: dict[str, Any], path: str) -> None:
    """Write the JSON report."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(report, indent=2, sort_keys=False) + "\n")
