"""The archiver: writes each ended game of one game service to the archive, once.

Every replica runs one. It archives a game as soon as this process's write
ended it (:meth:`Archiver.notify`), and drains the game's pending set in
Redis (services/core/records/archiving_store.py) at start and every
``ARCHIVE_POLL_SECONDS``: a game another replica ended but did not archive
(it was killed in between) is archived by whichever replica drains first.
The insert is keyed by the game id and ignores a second write, so a game two
replicas archive at once is still stored once; its pending mark is removed
only after the row is in the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from services.core.config import Settings
from services.core.events import OVER
from services.core.game_context import GameContext
from services.core.lifecycle.record import Life
from services.core.logging import get_logger
from services.core.records.archiving_store import ArchivingStore, pending_key
from services.core.records.build import build_record
from services.core.records.canonical import to_json
from services.core.records.rpcs import rules_version
from services.core.store import GameStore

log = get_logger("roost.archive")

#: A pending mark of a game still in progress this long after marking is a
#: write that never happened (a stale version): it is dropped.
STALE_MARK_MS = 60_000


class Archiver:
    """Archives one game service's ended games (see the module docstring)."""

    def __init__(self, game: GameContext, store: ArchivingStore, poll_seconds: float) -> None:
        self.game = game
        self.store = store
        self.poll_seconds = poll_seconds
        self._task: asyncio.Task[Any] | None = None
        self._inflight: set[asyncio.Task[Any]] = set()
        store.on_ended = self.notify

    def notify(self, game: str, game_id: str) -> None:
        """A write of this process ended ``game_id``: archive it now."""
        if game != self.game.spec.name:
            return
        task = asyncio.get_running_loop().create_task(self.archive_one(game_id))
        self._inflight.add(task)
        task.add_done_callback(self._inflight.discard)

    async def archive_one(self, game_id: str, marked_ms: int | None = None) -> bool:
        """Archive ``game_id`` if it has ended; True when its mark is settled."""
        game = self.game
        key = pending_key(game.spec.name)
        try:
            stored = await GameStore.load(self.store, game_id)  # Redis only
            if stored is None:
                # Expired before anyone archived it (or archived and expired).
                await self.store.client.zrem(key, game_id)
                return True
            if stored.status not in OVER:
                now = int(time.time() * 1000)
                if marked_ms is not None and now - marked_ms > STALE_MARK_MS:
                    await self.store.client.zrem(key, game_id)
                    return True
                return False
            events = await GameStore.events(self.store, game_id, 0, 0)
            events = [e for e in events if e.version <= stored.version]
            state = game.engine.decode(stored.state)
            life = Life.from_json(stored.life, stored.meta.players)
            version = rules_version(game)

            def build_and_write() -> bool:
                """The record (a replay: CPU for tens of ms) and its row, off the loop."""
                record = build_record(
                    game=game.spec.name, game_id=game_id, rules_version=version,
                    engine=game.engine, meta=stored.meta, state=state, status=stored.status,
                    life=life, events=events,
                )  # fmt: skip
                return self.store.archive.write(
                    stored, game_id, events, to_json(record), life.ending or "NORMAL",
                    stored.meta.identities,
                )  # fmt: skip

            inserted = await asyncio.to_thread(build_and_write)
            await self.store.client.zrem(key, game_id)
            log.info("game_archived", game_id=game_id, inserted=inserted)
            return True
        except Exception:  # the mark stays: the next drain retries
            log.exception("archive_failed", game_id=game_id)
            return False

    async def drain(self) -> int:
        """Archive every pending game of this service; how many marks were settled."""
        key = pending_key(self.game.spec.name)
        settled = 0
        for member, score in await self.store.client.zrange(key, 0, 999, withscores=True):
            game_id = member.decode() if isinstance(member, bytes) else member
            settled += await self.archive_one(game_id, int(score))
        return settled

    def start(self) -> None:
        """Drain now and then every ``poll_seconds`` (on the running loop)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            await self.drain()
            await asyncio.sleep(self.poll_seconds)

    async def stop(self) -> None:
        """Stop polling and finish the archive writes under way."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._inflight:
            await asyncio.gather(*self._inflight, return_exceptions=True)


def archiver_for(game: GameContext, store: GameStore, settings: Settings) -> Archiver | None:
    """The game's archiver when ``store`` archives (ARCHIVE_URL is set)."""
    if not isinstance(store, ArchivingStore):
        return None
    return Archiver(game, store, settings.archive_poll_seconds)
