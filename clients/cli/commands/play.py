"""``roost new``, ``roost play`` and ``roost watch``: one game at a time."""

from __future__ import annotations

import json
import time
from argparse import Namespace
from typing import Any

import grpc
from rich.console import Console
from rich.table import Table

from clients import sessions
from clients.bots.pool import BotSeat
from clients.cli import catalogue, render
from clients.cli.commands.common import (
    CALL_TIMEOUT,
    bots_in_thread,
    game_info,
    notice,
    registry_finished,
    resolve_game,
    seat_token,
    spawn_bots,
)
from clients.cli.interactive import InteractivePlayer
from clients.games import new_game_request
from clients.rpc import CliError, Exit, Retry, channel, explain, retryable


def cmd_new(args: Namespace, console: Console) -> int:
    """NewGame, print the tokens, start the bots."""
    info = game_info(args.game)
    address = info.address(args.target)
    bots = dict(args.bot)
    for seat in bots:
        if seat >= args.players:
            raise CliError(
                f"--bot seat {seat} is not a seat of a {args.players}-player game", Exit.USAGE
            )
    if args.play is not None and not 0 <= args.play < args.players:
        raise CliError(f"--play {args.play} is not a seat of this game", Exit.USAGE)
    if args.play is not None and args.play in bots:
        raise CliError(f"seat {args.play} is both --play and --bot", Exit.USAGE)
    names = [n.strip() for n in args.names.split(",")] if args.names else []
    if names and len(names) != args.players:
        raise CliError(f"--names needs {args.players} names", Exit.USAGE)
    if not names and bots:
        names = [f"{bots[s]} bot" if s in bots else f"Seat {s}" for s in range(args.players)]
    messages = info.messages()
    try:
        request = new_game_request(messages, args.players, args.seed, names, args.options)
    except Exception as exc:
        raise CliError(f"--options is not valid for {info.name}: {exc}", Exit.USAGE) from exc
    with channel(address) as ch:
        stub = info.stub(ch)
        # A store outage or an overload is retried (with a notice); a service that is
        # not running is reported at once.
        retry = Retry(f"{info.title} service", address, notify=notice)
        created = retry.call(lambda: stub.NewGame(request, timeout=CALL_TIMEOUT))
    humans = {c.seat: c.token for c in created.credentials if c.seat not in bots}
    bot_tokens = {c.seat: c.token for c in created.credentials if c.seat in bots}
    sessions.save(created.game_id, info.name, address, humans, bots, bot_tokens)
    bot_seats = [
        BotSeat(info.name, address, created.game_id, c.seat, c.token, bots[c.seat])
        for c in created.credentials
        if c.seat in bots
    ]
    pid = None
    log_path = ""
    if bot_seats and args.play is None:
        pid, log_path = spawn_bots(created.game_id, bot_seats)
        sessions.set_bot_process(created.game_id, pid, log_path)
    if args.json:
        print(
            json.dumps(
                {
                    "game": info.name,
                    "game_id": created.game_id,
                    "address": address,
                    "seats": [
                        {
                            "seat": s.seat,
                            "name": s.name,
                            "token": humans.get(s.seat, ""),
                            "bot": bots.get(s.seat, ""),
                        }
                        for s in created.seats
                    ],
                    "to_act": list(created.to_act),
                    "bot_pid": pid,
                    "bot_log": log_path,
                }
            )
        )
    else:
        table = Table(title=f"{info.title} game {created.game_id}", title_justify="left")
        table.add_column("seat", justify="right")
        table.add_column("name")
        table.add_column("token (secret)")
        for s in created.seats:
            token = f"[dim]{bots[s.seat]} bot[/dim]" if s.seat in bots else humans[s.seat]
            table.add_row(str(s.seat), s.name, token)
        console.print(table)
        console.print(f"service: {address}")
        if pid:
            console.print(f"bots are playing in the background (pid {pid}, log {log_path})")
        if args.play is None and humans:
            first = min(humans)
            console.print(f"play with: roost play {created.game_id} --seat {first}")
    if args.play is not None:
        if bot_seats:
            bots_in_thread(bot_seats)
        return InteractivePlayer(console, info, address, created.game_id, humans[args.play]).run()
    return Exit.OK


# -------------------------------------------------------------------- play


def cmd_play(args: Namespace, console: Console) -> int:
    """Play one seat interactively."""
    info, address = resolve_game(args.game_id, args.game, args.target)
    token = seat_token(args)
    return InteractivePlayer(
        console, info, address, args.game_id, token, board=not args.no_board
    ).run()


# ------------------------------------------------------------------- watch


def cmd_watch(args: Namespace, console: Console) -> int:
    """Follow a game as a spectator until it ends, resuming after a dropped connection."""
    info, address = resolve_game(args.game_id, args.game, args.target)
    m = info.messages()
    retry = Retry(f"{info.title} service", address, notify=notice)
    with channel(address) as ch:
        stub = info.stub(ch)

        def get_state() -> Any:
            request = m.GetStateRequest(game_id=args.game_id)
            return retry.call(lambda: stub.GetState(request, timeout=CALL_TIMEOUT))

        state = get_state()
        names = {s.seat: s.name for s in state.seats}
        known = catalogue.load(info, stub)

        def draw(view: Any) -> None:
            console.print(render.board(info.name, view, known, width=console.width, names=names))

        console.rule()
        console.print(f"[bold]{info.title}[/bold] — game {args.game_id} — spectator")
        draw(state.view)
        last = state.version if args.from_version is None else args.from_version
        finished = state.status == registry_finished()
        quiet_ends = 0
        followed = False
        while not finished or (args.from_version is not None and not followed):
            followed = True
            stream = stub.Watch(
                m.WatchRequest(game_id=args.game_id, from_version=last, include_view=args.boards)
            )
            try:
                for item in stream:
                    retry.reset()
                    quiet_ends = 0
                    last = max(last, item.event.version)
                    console.print(render.event_line(item.event, names))
                    if args.boards and item.HasField("view"):
                        draw(item.view)
                    if item.event.status == registry_finished():
                        finished = True
                        break
            except grpc.RpcError as error:
                if not retryable(error, stream=True):
                    raise explain(error, f"{info.title} service", address) from error
                retry.wait(error)  # a dropped connection or a restarted service: resume
                continue
            finally:
                stream.cancel()
            if finished:
                break
            # The stream ended without the final event: ask the state what happened.
            state = get_state()
            finished = state.status == registry_finished()
            quiet_ends += 1
            if finished or quiet_ends >= 3:
                break
            time.sleep(0.2 * quiet_ends)
        if followed and not args.boards:
            draw(get_state().view)
        request = m.ScoreRequest(game_id=args.game_id)
        board = retry.call(lambda: stub.Score(request, timeout=CALL_TIMEOUT))
    console.print(render.scoreboard(board.scoreboard, names))
    if board.scoreboard.final:
        console.print(render.outcome(board.scoreboard, names))
    return Exit.OK
