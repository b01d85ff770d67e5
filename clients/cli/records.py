"""``roost replay --verify`` and ``roost export``: game records (docs/RECORDS.md).

``replay --verify RECORD`` re-simulates a complete record through the game's
pure rules engine (``services/<game>/rules``, as the search bots use it) and
checks every version, the seat and legality of every action, the seats asked
to decide and the status after it, the digests of every view and of the
engine state at every version, and the final score board. The exit status names the first check
that failed (:data:`VERIFY_EXIT`). ``export GAME_ID`` writes a game's record
(GetRecord) as canonical JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import sys
from argparse import Namespace
from collections.abc import Callable
from pathlib import Path
from typing import Any

from google.protobuf import json_format
from rich.console import Console
from roost.common.v1 import common_pb2, record_pb2

from clients.cli import bulk
from clients.cli.history import since_ms
from clients.rpc import CliError, Exit, channel
from services.core.engine.replay import Decision, ReplayMismatch, replay

#: The exit status of ``roost replay --verify`` for each check that can fail.
VERIFY_EXIT = {
    "version": 20,
    "seat": 21,
    "action": 22,
    "to_act": 23,
    "status": 24,
    "view": 25,
    "state": 26,
    "score": 27,
    "incomplete": 28,
}

VERIFY_EPILOG = "replay --verify exit codes:\n" + "\n".join(
    f"  {code}   {fact}" for fact, code in VERIFY_EXIT.items()
)

EXAMPLES = {
    "replay": ["roost replay --verify game.json", "roost export GAME_ID | roost replay --verify -"],
    "export": [
        "roost export GAME_ID > game.json",
        "roost export GAME_ID --game wingspan --binary --out game.pb",
        "roost export --game wingspan --since 2026-01-01 --format jsonl > wingspan.jsonl",
    ],
}

OVER = (common_pb2.GAME_STATUS_FINISHED, common_pb2.GAME_STATUS_ABORTED)


def add_parsers(command: Callable[..., argparse.ArgumentParser]) -> None:
    """Register ``replay`` and ``export`` with the main parser's ``command`` helper."""
    rp = command("replay", "replay a game record through the rules engine")
    rp.add_argument("record", metavar="RECORD", help="a record file (canonical JSON or binary)")
    rp.add_argument(
        "--verify", action="store_true", help="check every step; the exit status says which failed"
    )
    rp.epilog = (rp.epilog or "") + "\n" + VERIFY_EPILOG
    rp.set_defaults(run="replay")
    ex = command(
        "export",
        "write a game's record (GetRecord) as canonical JSON, or stream the archive",
        "With GAME_ID: that game's record from its service (GetRecord). Without: every "
        "archived game (--game, --since) as JSON Lines, read from the archive database.",
    )
    ex.add_argument("game_id", metavar="GAME_ID", nargs="?", default="")
    ex.add_argument("--game", help="the game (its service, or the games to stream)")
    ex.add_argument("--since", type=since_ms, default=0, help="games that ended at or after")
    ex.add_argument("--format", choices=["jsonl"], default="jsonl", help="bulk format")
    ex.add_argument("--archive", help="the archive's URL (default $ARCHIVE_URL, else .roost/)")
    ex.add_argument("--target", help="the game service's address")
    ex.add_argument("--out", help="write here instead of standard output")
    ex.add_argument("--binary", action="store_true", help="the protobuf bytes, not JSON")
    ex.set_defaults(run="export")


def to_json(record: record_pb2.GameRecord) -> str:
    """The record's canonical JSON (docs/RECORDS.md: the service's form)."""
    return json_format.MessageToJson(
        record, preserving_proto_field_name=True, indent=None, ensure_ascii=False, sort_keys=True
    )


def from_json_text(text: str) -> record_pb2.GameRecord:
    """A record from its JSON (canonical or any protobuf JSON form)."""
    return json_format.Parse(text, record_pb2.GameRecord())


def read_record(path: str) -> record_pb2.GameRecord:
    """A record from a file: canonical JSON, or protobuf bytes."""
    data = Path(path).read_bytes() if path != "-" else sys.stdin.buffer.read()
    record = record_pb2.GameRecord()
    try:
        if data.lstrip()[:1] == b"{":
            json_format.Parse(data.decode(), record)
        else:
            record.ParseFromString(data)
    except (json_format.ParseError, ValueError) as exc:
        raise CliError(f"{path}: not a game record ({exc})", Exit.USAGE) from None
    return record


def decisions_of(record: record_pb2.GameRecord) -> list[Decision]:
    """The record's decisions as the replay reads them."""
    return [
        Decision(
            version=d.version,
            seat=d.seat,
            kind=d.kind,
            args_json=d.args_json,
            over=d.status in OVER,
            to_act=tuple(d.to_act),
            view_sha256=d.view_sha256,
            state_sha256=d.state_sha256,
        )
        for d in record.decisions
    ]


def verify(record: record_pb2.GameRecord) -> tuple[int, Any]:
    """Replay ``record``; the number of versions and the final state, or
    ReplayMismatch at the first difference."""
    if not record.complete:
        raise ReplayMismatch(0, "incomplete", "the record is the public part of a game in progress")
    engine = importlib.import_module(f"services.{record.game}.rules").ENGINE
    options = json.loads(record.options_json or "{}")
    state = None
    steps = 0
    for step in replay(engine, record.players, options, record.seed, decisions_of(record)):
        state, steps = step.state, steps + 1
    if record.decisions and record.decisions[-1].status not in OVER:
        raise ReplayMismatch(record.decisions[-1].version, "status", "the record never ends")
    check_score(engine, state, record)
    return steps, state


def check_score(engine: Any, state: Any, record: record_pb2.GameRecord) -> None:
    """Each seat's total, categories and tiebreak as the engine scores the
    replayed state (ranks and winners follow from them and the leavers)."""
    last = record.decisions[-1].version if record.decisions else 0
    board = engine.score(state)
    for seat_score in board.seats:
        recorded = next((s for s in record.scoreboard.seats if s.seat == seat_score.seat), None)
        categories = [(c.name, c.points) for c in recorded.categories] if recorded else []
        if (
            recorded is None
            or recorded.total != seat_score.total
            or list(recorded.tiebreak) != list(seat_score.tiebreak)
            or categories != list(seat_score.categories.items())
        ):
            raise ReplayMismatch(
                last,
                "score",
                f"seat {seat_score.seat}: the record says "
                f"{recorded.total if recorded else None}, the replay {seat_score.total}",
            )


def cmd_replay(args: Namespace, console: Console) -> int:
    """``roost replay [--verify] RECORD``."""
    record = read_record(args.record)
    try:
        importlib.import_module(f"services.{record.game}.rules")
    except ImportError:
        raise CliError(f"no rules engine for game {record.game!r}", Exit.USAGE) from None
    try:
        steps, _state = verify(record)
    except ReplayMismatch as mismatch:
        Console(stderr=True).print(
            f"[bold red]differs[/bold red] at version {mismatch.version} "
            f"({mismatch.fact}): {mismatch.message}",
            highlight=False,
        )
        return VERIFY_EXIT[mismatch.fact]
    totals = ", ".join(f"seat {s.seat}: {s.total}" for s in record.scoreboard.seats)
    console.print(
        f"{record.game} {record.game_id}: {steps} versions replayed, every check passed ({totals})",
        highlight=False,
    )
    return Exit.OK


def cmd_export(args: Namespace, console: Console) -> int:
    """``roost export GAME_ID``: the game's record as canonical JSON (or bytes)."""
    from clients.cli.commands.common import CALL_TIMEOUT, resolve_game

    if not args.game_id:
        with open(args.out, "wb") if args.out else contextlib.nullcontext(None) as out:
            bulk.export_jsonl(bulk.archive_url(args.archive), out, args.game or "", args.since)
        return Exit.OK
    info, address = resolve_game(args.game_id, args.game, args.target)
    messages = info.messages()
    with channel(address) as ch:
        reply = info.stub(ch).GetRecord(
            messages.GetRecordRequest(game_id=args.game_id), timeout=CALL_TIMEOUT
        )
    data = (
        reply.record.SerializeToString(deterministic=True)
        if args.binary
        else (to_json(reply.record) + "\n").encode()
    )
    if args.out:
        Path(args.out).write_bytes(data)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    return Exit.OK
