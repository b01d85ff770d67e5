"""The ``roost`` commands (parsed by :mod:`clients.cli.main`)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
import uuid
from argparse import Namespace
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from clients import registry, sessions
from clients.bots.pool import BotPool, BotSeat, tune_gc_for_bots
from clients.cli import catalogue, render
from clients.cli.interactive import InteractivePlayer
from clients.cli.login import cmd_login, identity_channel, stored_player  # noqa: F401 (cmd_login: `roost login`)
from clients.cli.main import bot_spec
from clients.games import new_game_request
from clients.registry import ServiceInfo
from clients.rpc import CliError, Exit, Retry, channel, explain, retryable
from clients.tournament import report as tournament_report
from clients.tournament.runner import GameOutcome, Tournament, TournamentConfig

PROBE_TIMEOUT = 2.0
CALL_TIMEOUT = 15.0


def game_info(name: str) -> ServiceInfo:
    """The registry entry of a game, or a usage error listing the games."""
    try:
        info = registry.game(name)
    except KeyError:
        raise CliError(
            f"unknown game {name!r}; games: {', '.join(registry.names())}", Exit.USAGE
        ) from None
    if not info.available():
        raise CliError(
            f"the client stubs of {name} are not generated (run `make proto`)", Exit.ERROR
        )
    return info


def resolve_game(game_id: str, game: str | None, target: str | None) -> tuple[ServiceInfo, str]:
    """Which service holds ``game_id``: --game, the session file, or by asking each service."""
    if game:
        info = game_info(game)
        return info, info.address(target)
    session = sessions.get(game_id)
    if session:
        info = game_info(session["game"])
        return info, target or session["address"]
    unreachable: list[str] = []
    for info in registry.GAMES:
        if not info.available():
            continue
        address = info.address(target)
        messages = info.messages()
        with channel(address) as ch:
            try:
                info.stub(ch).GetState(
                    messages.GetStateRequest(game_id=game_id), timeout=PROBE_TIMEOUT
                )
                return info, address
            except grpc.RpcError as error:
                if error.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
                    unreachable.append(f"{info.name} at {address}")
    if unreachable and len(unreachable) == sum(1 for g in registry.GAMES if g.available()):
        raise CliError(
            "cannot reach any game service ("
            + ", ".join(unreachable)
            + "). Is the stack running? Start it with `roost up`.",
            Exit.UNAVAILABLE,
        )
    hint = f" (not reachable: {', '.join(unreachable)})" if unreachable else ""
    raise CliError(f"no game {game_id!r} on any game service{hint}", Exit.NOT_FOUND)


# ---------------------------------------------------------------------- up


def cmd_up(args: Namespace, console: Console) -> int:
    """Run ``python -m services.launcher``: in the foreground, or with --detach in the background.

    In the foreground Ctrl-C / SIGTERM stop it. Detached, its output goes to
    ``launcher.log`` in the log directory, the command returns once every
    service is ready, and ``roost down`` stops the stack.
    """
    command = [sys.executable, "-m", "services.launcher"]
    if args.log_to_terminal:
        command.append("--log-to-terminal")
    if not args.detach:
        process = subprocess.Popen(command)

        def forward(signum: int, _frame: Any) -> None:
            if process.poll() is None:
                process.send_signal(signum)

        previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            code = process.wait()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        return code if code >= 0 else Exit.INTERRUPTED
    running = _stack_pid()
    if running:
        raise CliError(f"a detached stack already runs (pid {running}); stop it with `roost down`")
    logs = Path(os.environ.get("ROOST_LOG_DIR") or ".roost/logs").absolute()
    logs.mkdir(parents=True, exist_ok=True)
    log_path = logs / "launcher.log"
    with open(log_path, "ab") as log:
        start_offset = log.tell()
        process = subprocess.Popen(
            [c for c in command if c != "--log-to-terminal"],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    (sessions.home() / "stack.json").write_text(
        json.dumps({"pid": process.pid, "log": str(log_path), "logs": str(logs)})
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        text = log_path.read_bytes()[start_offset:].decode(errors="replace")
        if "Roost is running" in text:
            print(text.rstrip(), flush=True)
            console.print(
                f"running in the background (pid {process.pid}); logs in {logs}; "
                "stop with `roost down`"
            )
            return Exit.OK
        if process.poll() is not None:
            raise CliError(f"the stack exited ({process.returncode}):\n{text.rstrip()}")
        time.sleep(0.2)
    raise CliError(f"the stack was not ready within 90 s; see {log_path}")


def _stack_pid() -> int | None:
    """The pid of the detached stack while it runs."""
    try:
        pid = int(json.loads((sessions.home() / "stack.json").read_text())["pid"])
        os.kill(pid, 0)
    except (OSError, ValueError, KeyError):
        return None
    return pid


def cmd_down(args: Namespace, console: Console) -> int:
    """Stop the stack started with ``roost up --detach`` (services drain, then Redis)."""
    pid = _stack_pid()
    if pid is None:
        console.print("no detached stack is running")
        return Exit.OK
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and _stack_pid() == pid:
        time.sleep(0.2)
    with contextlib.suppress(OSError):
        (sessions.home() / "stack.json").unlink()
    console.print(f"stopped the stack (pid {pid})")
    return Exit.OK


# ------------------------------------------------------------------- games


def _health(address: str, service: str, timeout: float) -> str:
    with channel(address) as ch:
        try:
            reply = health_pb2_grpc.HealthStub(ch).Check(
                health_pb2.HealthCheckRequest(service=service), timeout=timeout
            )
        except grpc.RpcError as error:
            return (
                "unreachable"
                if error.code()
                in (
                    grpc.StatusCode.UNAVAILABLE,
                    grpc.StatusCode.DEADLINE_EXCEEDED,
                )
                else error.code().name.lower()
            )
    return health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status).lower()


def game_options(info: ServiceInfo) -> list[str]:
    """The fields of a game's Options message (what ``--options`` JSON may set)."""
    try:
        fields = info.messages().NewGameRequest.DESCRIPTOR.fields_by_name["options"]
    except (ImportError, KeyError):
        return []
    return [f.json_name for f in fields.message_type.fields]


def cmd_games(args: Namespace, console: Console) -> int:
    """List the services: players, options, addresses and whether they answer."""
    rows = []
    for info in (registry.MATCHMAKER, *registry.GAMES):
        address = info.address()
        rows.append(
            {
                "name": info.name,
                "title": info.title,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "options": game_options(info) if info.max_players else [],
                "address": address,
                "address_variable": info.env_var,
                "stubs": info.available(),
                "health": _health(address, info.full_name, args.timeout),
            }
        )
    if args.json:
        print(json.dumps(rows))
        return Exit.OK
    table = Table(title="Roost services", title_justify="left")
    for column in ("name", "title", "players", "address", "health"):
        table.add_column(column, no_wrap=column in ("name", "address"))
    for row in rows:
        low, high = row["min_players"], row["max_players"]
        players = (f"{low}" if low == high else f"{low}-{high}") if high else ""
        stubs = "" if row["stubs"] else " (stubs missing: make proto)"
        table.add_row(row["name"], row["title"], players, row["address"], row["health"] + stubs)
    console.print(table)
    console.print("options (--options JSON, e.g. --options '{\"allowFlip\": false}'):")
    for row in rows:
        if row["options"]:
            console.print(f"  {row['name']}: {', '.join(row['options'])}", highlight=False)
    console.print("addresses: --target, or the variables in docs/CLI.md (GAME_ADDR_<NAME>, ...)")
    return Exit.OK


# --------------------------------------------------------------------- new


def _spawn_bots(game_id: str, seats: list[BotSeat]) -> tuple[int, str]:
    """Start ``python -m clients.bots`` in the background; tokens go over its stdin."""
    home = sessions.home()
    home.mkdir(parents=True, exist_ok=True)
    log_path = home / f"bots-{game_id}.log"
    with open(log_path, "ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "clients.bots"],
            stdin=subprocess.PIPE,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    assert process.stdin is not None
    process.stdin.write(json.dumps([_seat_dict(s) for s in seats]).encode())
    process.stdin.close()
    return process.pid, str(log_path)


def _seat_dict(seat: BotSeat) -> dict[str, Any]:
    return {
        "game": seat.game,
        "address": seat.address,
        "game_id": seat.game_id,
        "seat": seat.seat,
        "token": seat.token,
        "kind": seat.kind,
    }


def _bots_in_thread(seats: list[BotSeat]) -> threading.Thread:
    def run() -> None:
        async def play() -> None:
            pool = BotPool()
            try:
                await pool.play(seats)
            finally:
                await pool.close()

        asyncio.run(play())

    thread = threading.Thread(target=run, daemon=True, name="roost-bots")
    thread.start()
    return thread


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
        retry = Retry(f"{info.title} service", address, notify=_notice)
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
        pid, log_path = _spawn_bots(created.game_id, bot_seats)
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
            _bots_in_thread(bot_seats)
        return InteractivePlayer(console, info, address, created.game_id, humans[args.play]).run()
    return Exit.OK


# -------------------------------------------------------------------- play


def _token(args: Namespace) -> str:
    if args.token:
        return str(args.token)
    seats = (sessions.get(args.game_id) or {}).get("seats", {})
    if args.seat is not None:
        token = seats.get(str(args.seat))
        if not token:
            raise CliError(
                f"no token remembered for seat {args.seat} of {args.game_id}; pass --token",
                Exit.AUTH,
            )
        return str(token)
    if len(seats) == 1:
        return str(next(iter(seats.values())))
    if seats:
        raise CliError(
            f"you hold seats {', '.join(sorted(seats))} of this game: choose one with --seat",
            Exit.USAGE,
        )
    raise CliError(
        "no seat token: pass --token TOKEN (or --seat N for a game created here with "
        "`roost new` / `roost queue`)",
        Exit.AUTH,
    )


def cmd_play(args: Namespace, console: Console) -> int:
    """Play one seat interactively."""
    info, address = resolve_game(args.game_id, args.game, args.target)
    token = _token(args)
    return InteractivePlayer(
        console, info, address, args.game_id, token, board=not args.no_board
    ).run()


# ------------------------------------------------------------------- watch


def cmd_watch(args: Namespace, console: Console) -> int:
    """Follow a game as a spectator until it ends, resuming after a dropped connection."""
    info, address = resolve_game(args.game_id, args.game, args.target)
    m = info.messages()
    retry = Retry(f"{info.title} service", address, notify=_notice)
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


def _notice(text: str) -> None:
    """A retry notice, on standard error (standard output stays the command's)."""
    Console(stderr=True).print(f"[yellow]{text}[/yellow]", highlight=False)


def registry_finished() -> int:
    """The common FINISHED status value."""
    from roost.common.v1 import common_pb2

    return common_pb2.GAME_STATUS_FINISHED


# ------------------------------------------------------------------- queue


def cmd_queue(args: Namespace, console: Console) -> int:
    """Enqueue, heartbeat, wait for the assignment."""
    info = game_info(args.game)
    mm = registry.MATCHMAKER
    address = mm.address(args.matchmaker)
    pb = mm.messages()
    player = args.player or stored_player() or os.environ.get("USER") or "player"
    party = [pb.Player(player_id=player, name=args.name or player)]
    party += [pb.Player(player_id=p.strip()) for p in args.party.split(",") if p.strip()]
    counts = queue_counts(info, args.players, len(party))
    request = pb.EnqueueRequest(
        ticket_id=args.ticket_id or uuid.uuid4().hex,
        game=info.name,
        player_counts=counts,
        options_json=args.options,
        party=party,
        bot_fill=pb.BotFill(
            enabled=args.bots is not None,
            after_ms=int(args.bot_wait * 1000),
            kind=pb.BOT_KIND_GREEDY if args.bots == "greedy" else pb.BOT_KIND_RANDOM,
        ),
    )
    ch = identity_channel(address)  # the `roost login` identity, when there is one
    stub = mm.stub(ch)
    # The same ticket id makes a retried Enqueue harmless.
    reply = Retry("matchmaker", address, notify=_notice).call(
        lambda: stub.Enqueue(request, timeout=CALL_TIMEOUT)
    )
    ticket = reply.ticket
    note = "" if reply.created else " (it already existed)"
    if args.json:  # standard output carries the JSON alone; progress goes to stderr
        console = Console(stderr=True)
    console.print(
        f"Queued ticket {ticket.ticket_id}{note} for {info.title}, "
        f"{'/'.join(map(str, ticket.player_counts))} players. Waiting for a match; "
        "Ctrl-C cancels."
    )
    stop = threading.Event()
    interval = max(ticket.heartbeat_interval_ms, 200) / 1000.0

    def heartbeat() -> None:
        while not stop.wait(interval):
            with contextlib.suppress(grpc.RpcError):
                stub.Heartbeat(pb.HeartbeatRequest(ticket_id=ticket.ticket_id), timeout=5)

    beat = threading.Thread(target=heartbeat, daemon=True)
    beat.start()
    final = None
    deadline = time.monotonic() + args.timeout if args.timeout else None
    retry = Retry("matchmaker", address, notify=_notice)
    retry.connected = True  # the Enqueue answered: a lost stream is worth resuming
    try:
        while final is None or final.status in _waiting(pb):
            left = None if deadline is None else max(deadline - time.monotonic(), 0.01)
            watch = pb.WatchTicketRequest(ticket_id=ticket.ticket_id)
            stream = stub.WatchTicket(watch, timeout=left)
            try:
                for item in stream:
                    retry.reset()
                    final = item.ticket
                    name = pb.TicketStatus.Name(final.status).removeprefix("TICKET_STATUS_")
                    console.print(f"ticket {final.ticket_id}: {name.lower()}")
                if final is None:
                    break
                time.sleep(0.2)  # the stream ended while the ticket waits: watch it again
            except grpc.RpcError as error:
                timed_out = deadline is not None and time.monotonic() >= deadline
                if timed_out or not retryable(error, stream=True):
                    raise
                retry.wait(error)  # a draining or restarted matchmaker: watch the ticket again
            finally:
                stream.cancel()
    except KeyboardInterrupt:
        stop.set()
        _cancel(stub, pb, ticket.ticket_id)
        console.print("cancelled the ticket")
        return Exit.INTERRUPTED
    except grpc.RpcError as error:
        stop.set()
        if error.code() == grpc.StatusCode.DEADLINE_EXCEEDED and args.timeout:
            _cancel(stub, pb, ticket.ticket_id)
            raise CliError(
                f"no match within {args.timeout:g} s; the ticket was cancelled", Exit.TICKET_ENDED
            ) from error
        raise explain(error, "matchmaker", address) from error
    finally:
        stop.set()
    ch.close()
    if final is None or final.status != pb.TICKET_STATUS_ASSIGNED:
        status = pb.TicketStatus.Name(final.status) if final else "UNKNOWN"
        why = f": {final.error}" if final is not None and final.error else ""
        raise CliError(f"the ticket ended without a game ({status}){why}", Exit.TICKET_ENDED)
    a = final.assignment
    seats = {s.seat: s.token for s in a.seats}
    sessions.save(a.game_id, a.game, a.address, seats)
    if args.json:
        print(
            json.dumps(
                {
                    "ticket_id": final.ticket_id,
                    "game": a.game,
                    "game_id": a.game_id,
                    "address": a.address,
                    "seats": [
                        {"player_id": s.player_id, "seat": s.seat, "token": s.token}
                        for s in a.seats
                    ],
                    "others": [
                        {"seat": o.seat, "player_id": o.player_id, "name": o.name, "bot": o.bot}
                        for o in a.others
                    ],
                }
            )
        )
    else:
        table = Table(title=f"Matched: {info.title} game {a.game_id}", title_justify="left")
        table.add_column("seat", justify="right")
        table.add_column("player")
        table.add_column("token (secret)")
        rows = [(s.seat, s.player_id, s.token) for s in a.seats]
        rows += [(o.seat, o.name + (" (bot)" if o.bot else ""), "") for o in a.others]
        for seat, who, token in sorted(rows):
            table.add_row(str(seat), who, token)
        console.print(table)
        console.print(f"service: {a.address}")
        if not args.play:
            console.print(f"play with: roost play {a.game_id} --seat {min(seats)}")
    if args.play:
        return InteractivePlayer(console, info, a.address, a.game_id, seats[min(seats)]).run()
    return Exit.OK


def _waiting(pb: Any) -> tuple[int, ...]:
    """Ticket states that still wait for a match."""
    return tuple(
        getattr(pb, name)
        for name in ("TICKET_STATUS_UNSPECIFIED", "TICKET_STATUS_QUEUED", "TICKET_STATUS_MATCHING")
    )


def queue_counts(info: ServiceInfo, wanted: list[int] | None, party: int) -> list[int]:
    """The player counts to queue for, checked against the game's registry entry.

    Default: the smallest count of a game with others (at least 2) that seats
    the party; a solo-only game queues for 1. Counts the game cannot be played
    with, or that cannot seat the party, are refused at once (exit 2).
    """
    low, high = info.min_players, info.max_players
    if wanted is None:
        if high <= 1:
            return [max(low, 1)]
        default = max(low, 2, party)
        if default > high:
            raise CliError(
                f"a party of {party} does not fit in {info.title} ({low}-{high} players)",
                Exit.USAGE,
            )
        return [default]
    impossible = [n for n in wanted if not low <= n <= high]
    if impossible:
        raise CliError(
            f"{info.title} is played by {low} to {high} players; "
            f"cannot queue for {', '.join(map(str, impossible))}",
            Exit.USAGE,
        )
    small = [n for n in wanted if n < party]
    if small:
        raise CliError(
            f"a party of {party} does not fit in a {'/'.join(map(str, small))}-player game",
            Exit.USAGE,
        )
    return wanted


def _cancel(stub: Any, pb: Any, ticket_id: str) -> None:
    with contextlib.suppress(grpc.RpcError):
        stub.Cancel(pb.CancelRequest(ticket_id=ticket_id), timeout=5)


# ------------------------------------------------------------- leaderboard


def cmd_leaderboard(args: Namespace, console: Console) -> int:
    """Ratings per game from the matchmaker."""
    mm = registry.MATCHMAKER
    address = mm.address(args.matchmaker)
    pb = mm.messages()
    games = [game_info(args.game).name] if args.game else registry.names()
    out: dict[str, Any] = {}
    with channel(address) as ch:
        stub = mm.stub(ch)
        for game in games:
            try:
                reply = stub.Leaderboard(
                    pb.LeaderboardRequest(game=game, limit=args.limit), timeout=CALL_TIMEOUT
                )
            except grpc.RpcError as error:
                if args.game is None and error.code() == grpc.StatusCode.INVALID_ARGUMENT:
                    continue  # a game this matchmaker does not serve
                raise explain(error, "matchmaker", address) from error
            out[game] = reply
    if args.json:
        print(
            json.dumps(
                {
                    game: [
                        {
                            "rank": e.rank,
                            "player_id": e.rating.player_id,
                            "mu": e.rating.mu,
                            "sigma": e.rating.sigma,
                            "ordinal": e.rating.ordinal,
                            "games": e.rating.games,
                            "wins": e.rating.wins,
                        }
                        for e in reply.entries
                    ]
                    for game, reply in out.items()
                }
            )
        )
        return Exit.OK
    for game, reply in out.items():
        table = Table(
            title=f"{registry.game(game).title}: {reply.total} rated players",
            title_justify="left",
        )
        for column in ("#", "player", "ordinal", "mu", "sigma", "games", "wins"):
            table.add_column(column, justify="left" if column == "player" else "right")
        for e in reply.entries:
            r = e.rating
            table.add_row(
                str(e.rank), r.player_id, f"{r.ordinal:.2f}", f"{r.mu:.2f}", f"{r.sigma:.2f}",
                str(r.games), str(r.wins),
            )  # fmt: skip
        console.print(table)
    return Exit.OK


# -------------------------------------------------------------------- bots


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
        pid, log_path = _spawn_bots(game_id, seats)
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
