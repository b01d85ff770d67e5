"""``roost bots``: bots for the seats of a game, their processes."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import signal
import time
from argparse import Namespace
from pathlib import Path
from typing import Any

import grpc
from rich.console import Console
from rich.table import Table

from clients import sessions
from clients.bots.pool import BotPool, BotSeat
from clients.cli.arguments import bot_spec
from clients.cli.commands.common import spawn_bots
from clients.rpc import CliError, Exit, explain

BOTS_USAGE = (
    "roost bots list | roost bots stop GAME_ID|--all | "
    "roost bots start GAME_ID [SEAT=KIND ...] | roost bots GAME_ID [SEAT=KIND ...]"
)


def with_search_budget(kinds: list[str], args: Namespace) -> list[str]:
    """``kinds`` with every plain ``search`` given the budget of ``--budget-ms N``
    (``search@<N>ms``) or ``--playouts N`` (``search@<N>p``); unchanged without
    either flag. A kind that already names its budget keeps it. A budget flag
    with no plain ``search`` among the kinds is a usage error: it would do nothing."""
    budget_ms = getattr(args, "budget_ms", None)
    playouts = getattr(args, "playouts", None)
    if budget_ms is None and playouts is None:
        return kinds
    flag = "--budget-ms" if budget_ms is not None else "--playouts"
    if "search" not in kinds:
        raise CliError(
            f"{flag} sets the budget of the search bot: name it as plain `search`",
            Exit.USAGE,
        )
    budgeted = f"search@{budget_ms}ms" if budget_ms is not None else f"search@{playouts}p"
    return [budgeted if kind == "search" else kind for kind in kinds]


def cmd_bots(args: Namespace, console: Console) -> int:
    """``roost bots``: list, stop, (re)start in the background, or play in the foreground."""
    words = list(args.words)
    action = words[0] if words and words[0] in ("list", "stop", "start") else "run"
    if action != "run":
        words = words[1:]
    if action == "list":
        return _bots_list(args, console)
    if action == "stop":
        return _bots_stop(words, console)
    if not words:
        raise CliError(f"which game? usage: {BOTS_USAGE}", Exit.USAGE)
    game_id, specs = words[0], words[1:]
    try:
        wanted = [bot_spec(spec) for spec in specs]
    except argparse.ArgumentTypeError as exc:
        raise CliError(str(exc), Exit.USAGE) from None
    session = sessions.get(game_id)
    if not session:
        raise CliError(
            f"no remembered seats for game {game_id} (create it with `roost new`)", Exit.AUTH
        )
    seats = _bot_seats(game_id, session, wanted)
    if getattr(args, "policy", None):
        seats = [dataclasses.replace(seat, kind=args.policy) for seat in seats]
    kinds = with_search_budget([seat.kind for seat in seats], args)
    seats = [dataclasses.replace(seat, kind=kind) for seat, kind in zip(seats, kinds, strict=True)]
    if action == "start":
        running = _bot_pid(session)
        if running:
            raise CliError(
                f"bots of game {game_id} already run (pid {running}); "
                f"stop them first with `roost bots stop {game_id}`",
                Exit.REJECTED,
            )
        pid, log_path = spawn_bots(game_id, seats)
        sessions.set_bot_process(game_id, pid, log_path)
        if args.json:
            print(json.dumps({"game_id": game_id, "bot_pid": pid, "bot_log": log_path}))
        else:
            console.print(
                f"bots playing seats {', '.join(str(s.seat) for s in seats)} of {game_id} "
                f"in the background (pid {pid}, log {log_path})"
            )
        return Exit.OK
    console.print(f"bots playing seats {', '.join(str(s.seat) for s in seats)}; Ctrl-C stops")

    async def play() -> list[Any]:
        pool = BotPool()
        try:
            return await pool.play(seats)
        finally:
            await pool.close()

    results = asyncio.run(play())
    for result in results:
        if isinstance(result, grpc.RpcError):
            raise explain(result, "game service", session["address"])
        if isinstance(result, BaseException):
            raise CliError(f"a bot failed: {result!r}")
    if any(getattr(r, "gone", False) for r in results):
        console.print("the game is gone (expired or abandoned)")
    else:
        console.print("the game is over")
    return Exit.OK


def _bot_seats(
    game_id: str, session: dict[str, Any], wanted: list[tuple[int, str]]
) -> list[BotSeat]:
    """The seats to play: those named (any remembered token), else the remembered bot seats."""
    bot_tokens: dict[str, str] = session.get("bot_tokens", {})
    kinds: dict[str, str] = session.get("bots", {})
    if not wanted:
        wanted = [(int(seat), kinds.get(seat, "random")) for seat in sorted(bot_tokens, key=int)]
        if not wanted:
            raise CliError(
                f"no bot seats remembered for game {game_id}: name them, e.g. 1=random",
                Exit.USAGE,
            )
    seats = []
    for seat, kind in wanted:
        token = bot_tokens.get(str(seat)) or session.get("seats", {}).get(str(seat))
        if not token:
            raise CliError(f"no token remembered for seat {seat}", Exit.AUTH)
        seats.append(BotSeat(session["game"], session["address"], game_id, seat, token, kind))
    return seats


def _bot_pid(session: dict[str, Any]) -> int | None:
    """The pid of the game's background bot process while it runs, else None."""
    pid = session.get("bot_pid")
    if not pid:
        return None
    try:
        os.kill(int(pid), 0)
    except (OSError, ValueError):
        return None
    proc = Path(f"/proc/{pid}")
    if proc.exists():
        try:
            if b"clients.bots" not in (proc / "cmdline").read_bytes():
                return None  # the pid was reused by another program
            if "\nState:\tZ" in (proc / "status").read_text():
                return None  # exited, not yet reaped
        except OSError:
            return None
    return int(pid)


def _bots_list(args: Namespace, console: Console) -> int:
    rows = []
    for game_id, session in sorted(
        sessions.load_all().items(), key=lambda item: item[1].get("time", 0)
    ):
        kinds = session.get("bots", {})
        if not kinds and not session.get("bot_pid"):
            continue
        pid = _bot_pid(session)
        rows.append(
            {
                "game_id": game_id,
                "game": session.get("game", ""),
                "seats": {seat: kinds[seat] for seat in sorted(kinds, key=int)},
                "restartable": sorted(int(s) for s in session.get("bot_tokens", {})),
                "pid": pid,
                "running": pid is not None,
                "log": session.get("bot_log", ""),
            }
        )
    if args.json:
        print(json.dumps(rows))
        return Exit.OK
    if not rows:
        console.print("no bots remembered")
        return Exit.OK
    table = Table(title="Bots", title_justify="left")
    for column in ("game id", "game", "seats", "state", "log"):
        table.add_column(column)
    for row in rows:
        seats = ", ".join(f"{seat}={kind}" for seat, kind in row["seats"].items())
        state = f"running (pid {row['pid']})" if row["running"] else "stopped"
        table.add_row(row["game_id"], row["game"], seats, state, row["log"])
    console.print(table)
    console.print("restart stopped bots with: roost bots start GAME_ID")
    return Exit.OK


def _bots_stop(words: list[str], console: Console) -> int:
    everything = sessions.load_all()
    if words == ["--all"]:
        targets = list(everything)
    elif len(words) == 1:
        if words[0] not in everything:
            raise CliError(f"no remembered game {words[0]}", Exit.NOT_FOUND)
        targets = words
    else:
        raise CliError(f"usage: {BOTS_USAGE}", Exit.USAGE)
    stopped = 0
    for game_id in targets:
        pid = _bot_pid(everything[game_id])
        if pid is None:
            continue
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
        for _ in range(50):
            if _bot_pid(everything[game_id]) is None:
                break
            time.sleep(0.1)
        sessions.set_bot_process(game_id, None)
        console.print(f"stopped the bots of {game_id} (pid {pid})")
        stopped += 1
    if not stopped:
        console.print("no running bots to stop")
    return Exit.OK


# -------------------------------------------------------------- tournament
