"""``roost export --game G --since T --format jsonl``: stream the archive.

Reads the archive database directly (``--archive``, else ``$ARCHIVE_URL``,
else the embedded ``sqlite:///.roost/archive.sqlite3`` of ``make run``) with
SQLAlchemy Core, and writes one complete record per line, as canonical JSON
(docs/RECORDS.md), oldest ending first. The records were written as canonical
JSON when the games were archived, so an export copies text and never
re-encodes: it is bound by the database's read speed.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import BinaryIO

import sqlalchemy as sa

#: The embedded archive of ``make run``.
DEFAULT_ARCHIVE_URL = "sqlite:///.roost/archive.sqlite3"

GAMES = sa.table(
    "games",
    sa.column("game_id"),
    sa.column("game"),
    sa.column("ended_ms"),
    sa.column("record_json"),
)


def archive_url(given: str | None) -> str:
    """The archive to read: ``given``, ``$ARCHIVE_URL`` or the embedded default."""
    url = given or os.environ.get("ARCHIVE_URL") or DEFAULT_ARCHIVE_URL
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    return url


def records(url: str, game: str = "", since_ms: int = 0, batch: int = 2000) -> Iterator[bytes]:
    """Each archived record's canonical JSON (UTF-8), oldest ending first."""
    engine = sa.create_engine(url)
    # SQLite hands the text over as bytes without decoding it (a plain copy).
    column = (
        sa.cast(GAMES.c.record_json, sa.LargeBinary)
        if engine.dialect.name == "sqlite"
        else GAMES.c.record_json
    )
    query = sa.select(column).where(GAMES.c.ended_ms >= since_ms)
    if game:
        query = query.where(GAMES.c.game == game)
    query = query.order_by(GAMES.c.ended_ms, GAMES.c.game_id)
    try:
        with engine.connect() as conn:
            result = conn.execution_options(stream_results=True, yield_per=batch).execute(query)
            for (text,) in result:
                yield text if isinstance(text, bytes) else text.encode()
    finally:
        engine.dispose()


def export_jsonl(
    url: str, out: BinaryIO | None = None, game: str = "", since_ms: int = 0
) -> tuple[int, int]:
    """Write every matching record as a JSON line; (games, bytes) written."""
    target = out or sys.stdout.buffer
    games = written = 0
    buffer: list[bytes] = []
    for text in records(url, game, since_ms):
        line = text + b"\n"
        buffer.append(line)
        games += 1
        written += len(line)
        if len(buffer) >= 256:
            target.write(b"".join(buffer))
            buffer.clear()
    target.write(b"".join(buffer))
    target.flush()
    return games, written
