"""``roost queue`` and ``roost leaderboard``: the matchmaker."""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
import uuid
from argparse import Namespace
from typing import Any

import grpc
from rich.console import Console
from rich.table import Table

from clients import registry, sessions
from clients.cli.commands.common import CALL_TIMEOUT, game_info, notice
from clients.cli.interactive import InteractivePlayer
from clients.cli.login import identity_channel, stored_player
from clients.registry import ServiceInfo
from clients.rpc import CliError, Exit, Retry, channel, explain, retryable


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
    reply = Retry("matchmaker", address, notify=notice).call(
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
    retry = Retry("matchmaker", address, notify=notice)
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
