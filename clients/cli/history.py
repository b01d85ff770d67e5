"""``roost history``: a player's (or a game's) ended games, from the matchmaker's
ListGames over the archive (docs/RECORDS.md)."""

from __future__ import annotations

import argparse
import json
from argparse import Namespace
from collections.abc import Callable
from datetime import UTC, datetime

import grpc
from google.protobuf import json_format
from rich.console import Console
from rich.table import Table
from roost.common.v1 import common_pb2

from clients import registry
from clients.rpc import Exit, channel, explain

EXAMPLES = {
    "history": [
        "roost history --player alice",
        "roost history --game wingspan --since 2026-01-01 --limit 50",
        "roost history --player alice --json",
    ],
}


def since_ms(text: str) -> int:
    """A date (YYYY-MM-DD), an ISO time, or Unix milliseconds, as Unix ms (UTC)."""
    if text.isdigit():
        return int(text)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date, a time or Unix ms") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


def add_parser(command: Callable[..., argparse.ArgumentParser]) -> None:
    """Register ``history`` with the main parser's ``command`` helper."""
    hist = command("history", "list ended games from the archive (the matchmaker's ListGames)")
    hist.add_argument("--player", default="", help="a player id (a seat identity)")
    hist.add_argument("--game", default="", help="only this game")
    hist.add_argument("--since", type=since_ms, default=0, help="ended at or after (date or ms)")
    hist.add_argument("--until", type=since_ms, default=0, help="ended before (date or ms)")
    hist.add_argument("--limit", type=int, default=20, help="games per page (at most 500)")
    hist.add_argument("--page-token", default="", help="the next page's token")
    hist.add_argument("--matchmaker", help="the matchmaker's address")
    hist.add_argument("--json", action="store_true", help="print the reply as JSON")
    hist.set_defaults(run="history")


def cmd_history(args: Namespace, console: Console) -> int:
    """One page of ended games."""
    mm = registry.MATCHMAKER
    address = mm.address(args.matchmaker)
    pb = mm.messages()
    request = pb.ListGamesRequest(
        player_id=args.player, game=args.game, since_ms=args.since, until_ms=args.until,
        limit=args.limit, page_token=args.page_token,
    )  # fmt: skip
    with channel(address) as ch:
        try:
            reply = mm.stub(ch).ListGames(request, timeout=15)
        except grpc.RpcError as error:
            raise explain(error, "matchmaker", address) from error
    if args.json:
        print(json.dumps(json_format.MessageToDict(reply, preserving_proto_field_name=True)))
        return Exit.OK
    table = Table("ended (UTC)", "game", "players", "ending", "game id")
    for game in reply.games:
        ended = datetime.fromtimestamp(game.ended_ms / 1000, UTC).strftime("%Y-%m-%d %H:%M")
        ending = common_pb2.GameEnding.Name(game.ending)
        table.add_row(ended, game.game, str(game.players), ending.removeprefix("GAME_ENDING_"),
                      game.game_id)  # fmt: skip
    console.print(table)
    if reply.next_page_token:
        console.print(f"next page: --page-token {reply.next_page_token}", highlight=False)
    return Exit.OK
