"""What every command family shares: finding a game's service, a seat's token, the bots' process."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
from argparse import Namespace
from typing import Any

import grpc
from rich.console import Console

from clients import registry, sessions
from clients.bots.pool import BotPool, BotSeat
from clients.registry import ServiceInfo
from clients.rpc import CliError, Exit, channel

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


def spawn_bots(game_id: str, seats: list[BotSeat]) -> tuple[int, str]:
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
    process.stdin.write(json.dumps([seat_dict(s) for s in seats]).encode())
    process.stdin.close()
    return process.pid, str(log_path)


def seat_dict(seat: BotSeat) -> dict[str, Any]:
    return {
        "game": seat.game,
        "address": seat.address,
        "game_id": seat.game_id,
        "seat": seat.seat,
        "token": seat.token,
        "kind": seat.kind,
    }


def bots_in_thread(seats: list[BotSeat]) -> threading.Thread:
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


def seat_token(args: Namespace) -> str:
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


def notice(text: str) -> None:
    """A retry notice, on standard error (standard output stays the command's)."""
    Console(stderr=True).print(f"[yellow]{text}[/yellow]", highlight=False)


def registry_finished() -> int:
    """The common FINISHED status value."""
    from roost.common.v1 import common_pb2

    return common_pb2.GAME_STATUS_FINISHED


# ------------------------------------------------------------------- queue
