"""Game records and the archive: write cost, replay verification, bulk export.

    python -m bench.records_archive [--games-per-kind N] [--export-games M] [--write]

In process, one core, SQLite in a temporary directory:

* archive write per finished game: building the complete record (the replay
  that computes every version's view and state digests), its canonical JSON,
  and the idempotent insert, against a plain replay of the same game (the
  baseline measured in the same process: "x replay" stays comparable across
  machines);
* ``roost replay --verify`` games/s;
* ``roost export --format jsonl`` games/s from SQLite (the archive filled
  with copies of the recorded games under new ids), and the archive's bytes
  per game (row payload: record JSON, events, state).

Random games (uniform legal choices) stand in for real ones; their logs are
stored exactly as the service stores them (services/core/events.py).
"""

from __future__ import annotations

import argparse
import importlib
import io
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from bench.report import machine, write_section
from clients.cli import bulk
from clients.cli import records as cli_records
from services.core.convert import args_to_json
from services.core.engine import Rng
from services.core.engine.replay import replay
from services.core.events import StoredEvent, status_name
from services.core.lifecycle.record import Life
from services.core.records.archive import GAMES, Archive
from services.core.records.build import build_record, decision_of
from services.core.records.canonical import to_json
from services.core.store import GameMeta, StoredGame

KINDS = [("skygarden", 2), ("wingspan", 2), ("wingspan", 4), ("birdscaping", 2),
         ("undertheleaves", 2)]  # fmt: skip


def random_game(game: str, players: int, seed: int) -> tuple[Any, GameMeta, Any, list[StoredEvent]]:
    """A random finished game: (engine, meta, final state, stored events)."""
    engine = importlib.import_module(f"services.{game}.rules").ENGINE
    meta = GameMeta(game, players, seed, {}, [f"Seat {i}" for i in range(players)],
                    ["x" * 64] * players)  # fmt: skip
    state = engine.setup(players, {}, seed)
    rng = Rng(seed + 1)
    t = 1_700_000_000_000
    first = status_name(engine.is_over(state))
    events = [StoredEvent(1, -1, "new_game", "[]", "created", False, "", t,
                          first, tuple(engine.to_act(state)))]  # fmt: skip
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        action = rng.choice(engine.legal(state, seat))
        state = engine.apply(state, seat, action)
        over = engine.is_over(state)
        events.append(StoredEvent(
            len(events) + 1, seat, action.kind, args_to_json(action), action.label, action.secret,
            action.public_label, t + len(events), status_name(over),
            () if over else tuple(engine.to_act(state)),
        ))  # fmt: skip
    return engine, meta, state, events


class NullSink(io.RawIOBase):
    """A binary output that keeps nothing (the export's own cost only)."""

    def write(self, data: Any) -> int:
        return len(data)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games-per-kind", type=int, default=4)
    parser.add_argument("--export-games", type=int, default=20_000)
    parser.add_argument("--write", action="store_true", help="write docs/BENCHMARKS.md")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="roost-bench-archive-"))
    url = f"sqlite:///{tmp / 'archive.sqlite3'}"
    archive = Archive(url)
    rows = ["| game | players | decisions | replay ms | archive write ms | write / replay "
            "| verify games/s | bytes per game |", "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    n = 0
    for game, players in KINDS:
        replay_s = write_s = verify_s = 0.0
        decisions = size = 0
        for i in range(args.games_per_kind):
            engine, meta, state, events = random_game(game, players, 1000 + i)
            decisions += len(events)
            started = time.perf_counter()
            for _ in replay(engine, players, {}, meta.seed, map(decision_of, events),
                            with_views=False):  # fmt: skip
                pass
            replay_s += time.perf_counter() - started
            n += 1
            stored = StoredGame(len(events), engine.encode(state), "FINISHED", meta, b"", b"")
            life = Life.from_json(None, players)
            started = time.perf_counter()
            record = build_record(game=game, game_id=f"g{n}", rules_version="bench",
                                  engine=engine, meta=meta, state=state, status="FINISHED",
                                  life=life, events=events)  # fmt: skip
            text = to_json(record)
            archive.write(stored, f"g{n}", events, text, "NORMAL")
            write_s += time.perf_counter() - started
            started = time.perf_counter()
            cli_records.verify(cli_records.from_json_text(text))
            verify_s += time.perf_counter() - started
            with archive.engine.connect() as conn:
                row = conn.execute(sa.select(GAMES).where(GAMES.c.game_id == f"g{n}")).one()
            size += len(row.record_json) + len(row.events) + len(row.state) + len(row.meta)
        k = args.games_per_kind
        rows.append(
            f"| {game} | {players} | {decisions // k} | {replay_s / k * 1000:.1f} | "
            f"{write_s / k * 1000:.1f} | {write_s / replay_s:.1f}x | {k / verify_s:.1f} | "
            f"{size // k:,} |"
        )
    # Bulk export: fill the archive with copies of the recorded games under new ids.
    with archive.engine.begin() as conn:
        base = [dict(r._mapping) for r in conn.execute(sa.select(GAMES))]
        copies = []
        for i in range(args.export_games - len(base)):
            row = dict(base[i % len(base)])
            row["game_id"] = f"c{i}"
            row["ended_ms"] = row["ended_ms"] + i
            copies.append(row)
            if len(copies) == 2000:
                conn.execute(sa.insert(GAMES), copies)
                copies.clear()
        if copies:
            conn.execute(sa.insert(GAMES), copies)
    sink = NullSink()
    started_cpu, started = time.process_time(), time.perf_counter()
    games, written = bulk.export_jsonl(url, sink)
    wall, cpu = time.perf_counter() - started, time.process_time() - started_cpu
    body = "\n".join([
        "## Game records and the archive (SQLite, one core)",
        "",
        f"`python -m bench.records_archive --games-per-kind {args.games_per_kind} "
        f"--export-games {args.export_games}` ({machine()}; a shared 2-core machine under "
        "other load, so absolute times are indicative; the write / replay ratio is measured "
        "in the same process). An archive write builds the complete record (a replay "
        "computing every version's view and state digests), its canonical JSON and the "
        "row; `verify` is `roost replay --verify` on the record's JSON.",
        "",
        *rows,
        "",
        f"Bulk export (`roost export --format jsonl`, SQLite, all games): {games:,} games, "
        f"{written / games / 1024:.1f} KiB per line, {games / wall:,.0f} games/s wall, "
        f"{games / cpu:,.0f} games/s of CPU.",
    ])  # fmt: skip
    print(body)
    if args.write:
        write_section("records-archive", body)
    archive.close()
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
