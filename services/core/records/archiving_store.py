"""A game store that remembers ended games in the archive (records/archive.py).

Writes: before a write that ends a game (its status is FINISHED or ABORTED)
the game id is added to the game's *pending* sorted set in Redis (score: the
time it was marked), and after the write succeeded the archiver is told
(:class:`~services.core.records.archiver.Archiver`). Marking first means a
process killed between the ending write and the archive write leaves the id
behind: whichever replica drains the set next (at start and periodically)
archives the game. A mark whose write did not happen (a stale version) is
dropped by the archiver once it is old and the game is still in progress.

Reads: a game whose Redis keys are gone (expired after ``GAME_TTL_SECONDS``)
is read from the archive, which holds the same stored fields, so every read
RPC answers with the same bytes as before.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from services.core import errors
from services.core.events import OVER, StoredEvent
from services.core.logging import get_logger
from services.core.records.archive import Archive, ArchivedGame
from services.core.store import ApplyOutcome, GameMeta, GameStore, StoredGame, game_key

log = get_logger("roost.archive")

#: Archived games kept in memory (an archived game never changes).
CACHE_SIZE = 256


def pending_key(game: str) -> str:
    """The sorted set of ``game``'s ended games not yet archived (id -> ms marked)."""
    return f"roost:archive:pending:{game}"


class ArchivingStore(GameStore):
    """:class:`GameStore` plus the archive: marks ending writes, reads archived games."""

    def __init__(self, client: Any, archive: Archive, **kwargs: Any) -> None:
        super().__init__(client, **kwargs)
        self.archive = archive
        #: Called with (game, game id) after a write that ended a game.
        self.on_ended: Callable[[str, str], None] | None = None
        self._archived: OrderedDict[str, ArchivedGame] = OrderedDict()

    async def mark(self, game: str, game_id: str) -> None:
        """Record that ``game_id`` is (about to be) ended and not archived."""
        await self.client.zadd(pending_key(game), {game_id: int(time.time() * 1000)})

    async def create(self, game_id: str, meta: GameMeta, state: bytes, status: str, *args: Any,
                     **kwargs: Any) -> bool:  # fmt: skip
        if status in OVER:
            await self.mark(meta.game, game_id)
        created = await super().create(game_id, meta, state, status, *args, **kwargs)
        if created and status in OVER and self.on_ended:
            self.on_ended(meta.game, game_id)
        return created

    async def apply(self, game_id: str, expected_version: int, state: bytes, status: str,
                    event: StoredEvent, **kwargs: Any) -> ApplyOutcome:  # fmt: skip
        game = kwargs.get("game", "")
        if status in OVER:
            if not game:
                meta = await self.load_meta(game_id)
                game = meta.game if meta else ""
            if game:
                await self.mark(game, game_id)
        outcome = await super().apply(game_id, expected_version, state, status, event, **kwargs)
        if outcome.kind == "OK" and status in OVER and game and self.on_ended:
            self.on_ended(game, game_id)
        return outcome

    # ------------------------------------------------------------- reads

    async def archived(self, game_id: str) -> ArchivedGame | None:
        """The archived game (cached), or None."""
        found = self._archived.get(game_id)
        if found is None:
            try:
                found = await asyncio.to_thread(self.archive.load, game_id)
            except sa.exc.SQLAlchemyError as exc:
                # Not the caller's mistake: retry later, as with Redis down.
                log.warning("archive_unavailable", game_id=game_id, error=type(exc).__name__)
                raise errors.store_unavailable() from exc
            if found is None:
                return None
            self._archived[game_id] = found
            if len(self._archived) > CACHE_SIZE:
                self._archived.popitem(last=False)
        return found

    async def load(self, game_id: str, meta: GameMeta | None = None) -> StoredGame | None:
        stored = await super().load(game_id, meta)
        if stored is not None:
            return stored
        archived = await self.archived(game_id)
        return None if archived is None else archived.stored

    async def load_meta(self, game_id: str) -> GameMeta | None:
        meta = await super().load_meta(game_id)
        if meta is not None:
            return meta
        archived = await self.archived(game_id)
        return None if archived is None else archived.stored.meta

    async def version_and_status(self, game_id: str) -> tuple[int, str] | None:
        found = await super().version_and_status(game_id)
        if found is not None:
            return found
        archived = await self.archived(game_id)
        return None if archived is None else (archived.stored.version, archived.stored.status)

    async def events(self, game_id: str, after_version: int, limit: int = 0) -> list[StoredEvent]:
        events = await super().events(game_id, after_version, limit)
        if events or await self.client.exists(game_key(game_id)):
            return events
        archived = await self.archived(game_id)
        if archived is None:
            return events
        later = [e for e in archived.events if e.version > after_version]
        return later[:limit] if limit > 0 else later

    async def last_version(self, game_id: str) -> int:
        version = await super().last_version(game_id)
        if version:
            return version
        archived = await self.archived(game_id)
        return 0 if archived is None else archived.stored.version
