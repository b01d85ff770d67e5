"""The archive: finished games in a SQL database, after Redis forgets them.

One SQL layer (SQLAlchemy Core) for SQLite (the embedded default of
``make run``, a file under ``.roost/``) and PostgreSQL (deployments, through
psycopg), selected by ``ARCHIVE_URL``; the schema is Alembic's
(:mod:`services.core.records.migrations`), brought up to date when an archive
is opened.

A row holds everything the read RPCs of an ended game use: its metadata, its
final state, decision epochs and lifecycle record, every stored event (the
stored fields, exactly as in Redis), so GetState, GetLog, Score, Watch and
GetRecord answer from it with the bytes they gave from Redis; plus the game's
record as canonical JSON, for exports (docs/RECORDS.md). A row is written
once: the insert is keyed by the game id and ignores a second write of the
same game (two replicas may both archive it after a crash).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import orjson
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from services.core.events import StoredEvent
from services.core.store import GameMeta, StoredGame

METADATA = sa.MetaData()

#: One row per archived game.
GAMES = sa.Table(
    "games",
    METADATA,
    sa.Column("game_id", sa.String(64), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("ending", sa.String(16), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
    sa.Column("ended_ms", sa.BigInteger, nullable=False),
    sa.Column("meta", sa.Text, nullable=False),
    sa.Column("state", sa.LargeBinary, nullable=False),
    sa.Column("pending", sa.LargeBinary, nullable=False),
    sa.Column("life", sa.LargeBinary, nullable=False),
    #: JSON: [[version, name, value, name, value, ...], ...] (StoredEvent.fields()).
    sa.Column("events", sa.LargeBinary, nullable=False),
    #: The complete GameRecord as canonical JSON (docs/RECORDS.md).
    sa.Column("record_json", sa.Text, nullable=False),
    sa.Index("games_by_game_and_end", "game", "ended_ms", "game_id"),
    sa.Index("games_by_end", "ended_ms", "game_id"),
)

#: Who sat where in each archived game (a player's games).
SEATS = sa.Table(
    "game_seats",
    METADATA,
    sa.Column("game_id", sa.String(64), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("identity", sa.String(128), nullable=False),
    sa.Column("ended_ms", sa.BigInteger, nullable=False),
    sa.Index("seats_by_identity", "identity", "ended_ms"),
)


@dataclass(frozen=True, slots=True)
class ArchivedGame:
    """What the archive gives back of one game."""

    stored: StoredGame
    events: list[StoredEvent]
    record_json: str


def default_url(root: Path | str = ".roost") -> str:
    """The embedded default: a SQLite file under ``root``."""
    path = Path(root) / "archive.sqlite3"
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


def engine_for(url: str) -> sa.Engine:
    """A SQLAlchemy engine for ``url`` (``postgresql://`` uses psycopg 3)."""
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    if url.startswith("sqlite"):
        database = sa.make_url(url).database
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(url, connect_args={"timeout": 30})

        @sa.event.listens_for(engine, "connect")
        def _wal(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    return sa.create_engine(url, pool_pre_ping=True)


class Archive:
    """The archive over one database (blocking calls: run them in a thread)."""

    def __init__(self, url: str) -> None:
        from services.core.records.migrations import upgrade

        self.url = url
        self.engine = engine_for(url)
        upgrade(self.engine)

    def close(self) -> None:
        """Release the connection pool."""
        self.engine.dispose()

    def _insert(self, table: sa.Table) -> sa.Insert:
        """An insert that ignores a row whose key exists (exactly once)."""
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        return dialect.insert(table).on_conflict_do_nothing()

    def write(
        self, stored: StoredGame, game_id: str, events: list[StoredEvent], record_json: str,
        ending: str, identities: list[str] | None = None,
    ) -> bool:  # fmt: skip
        """Archive one ended game; False when it was archived already."""
        meta = stored.meta
        ended_ms = events[-1].time_ms if events else 0
        row = {
            "game_id": game_id,
            "game": meta.game,
            "players": meta.players,
            "status": stored.status,
            "ending": ending,
            "version": stored.version,
            "created_ms": events[0].time_ms if events else 0,
            "ended_ms": ended_ms,
            "meta": meta.to_json(),
            "state": stored.state,
            "pending": stored.pending,
            "life": stored.life,
            "events": orjson.dumps([[e.version, *e.fields()] for e in events]),
            "record_json": record_json,
        }
        ids = identities or [""] * meta.players
        seats = [
            {"game_id": game_id, "seat": s, "name": n, "identity": ids[s], "ended_ms": ended_ms}
            for s, n in enumerate(meta.seat_names)
        ]
        with self.engine.begin() as conn:
            inserted = conn.execute(self._insert(GAMES), row).rowcount == 1
            if inserted and seats:
                conn.execute(self._insert(SEATS), seats)
        return inserted

    def has(self, game_id: str) -> bool:
        """True once the game is archived."""
        with self.engine.connect() as conn:
            query = sa.select(GAMES.c.game_id).where(GAMES.c.game_id == game_id)
            return conn.execute(query).first() is not None

    def load(self, game_id: str) -> ArchivedGame | None:
        """The archived game, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(GAMES).where(GAMES.c.game_id == game_id)).first()
        if row is None:
            return None
        meta = GameMeta.from_json(row.meta)
        stored = StoredGame(
            row.version, bytes(row.state), row.status, meta, bytes(row.pending), bytes(row.life)
        )
        events = [
            StoredEvent.from_fields(entry[0], dict(zip(entry[1::2], entry[2::2], strict=True)))
            for entry in orjson.loads(row.events)
        ]
        return ArchivedGame(stored, events, row.record_json)

    def records(
        self, game: str | None = None, since_ms: int = 0, batch: int = 1000
    ) -> Iterator[str]:
        """Canonical JSON records, oldest ending first (bulk export), streamed."""
        query = sa.select(GAMES.c.record_json).where(GAMES.c.ended_ms >= since_ms)
        if game:
            query = query.where(GAMES.c.game == game)
        query = query.order_by(GAMES.c.ended_ms, GAMES.c.game_id)
        with self.engine.connect() as conn:
            result = conn.execution_options(stream_results=True, yield_per=batch).execute(query)
            for (text,) in result:
                yield text

    def list_games(
        self, *, identity: str = "", game: str = "", since_ms: int = 0, until_ms: int = 0,
        limit: int = 50, after: tuple[int, str] | None = None,
    ) -> list[sa.Row]:  # fmt: skip
        """Archived games, newest ending first: a player's (``identity``) or a
        game's between two times; ``after`` is the (ended_ms, game_id) of the
        last row of the previous page."""
        query = sa.select(
            GAMES.c.game_id, GAMES.c.game, GAMES.c.players, GAMES.c.status, GAMES.c.ending,
            GAMES.c.created_ms, GAMES.c.ended_ms,
        )  # fmt: skip
        if identity:
            query = query.where(
                GAMES.c.game_id.in_(sa.select(SEATS.c.game_id).where(SEATS.c.identity == identity))
            )
        if game:
            query = query.where(GAMES.c.game == game)
        if since_ms:
            query = query.where(GAMES.c.ended_ms >= since_ms)
        if until_ms:
            query = query.where(GAMES.c.ended_ms < until_ms)
        if after is not None:
            query = query.where(sa.tuple_(GAMES.c.ended_ms, GAMES.c.game_id) < after)
        query = query.order_by(GAMES.c.ended_ms.desc(), GAMES.c.game_id.desc()).limit(limit)
        with self.engine.connect() as conn:
            return list(conn.execute(query))
