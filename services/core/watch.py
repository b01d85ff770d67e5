"""Watch fan-out: one blocking stream read per watched game per process.

Without it every Watch call would hold its own Redis connection in
``XREAD BLOCK``. A :class:`EventHub` runs one reader task per game that has
watchers and copies each event batch into every watcher's queue; the task ends
when the last watcher leaves.

No event can fall between a watcher's catch-up and the live feed: the feed
fixes its starting cursor (the stream's last version) before any watcher reads
the history, watchers subscribe before they read it, and each watcher skips the
versions it has already yielded.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from services.core.logging import get_logger
from services.core.store import BLOCKING_READ_MS as BLOCK_MS
from services.core.store import GameStore, StoredEvent

log = get_logger("roost.watch")

Batch = list[StoredEvent] | None


class _Feed:
    """The reader of one game's stream and its subscribers."""

    def __init__(self, hub: EventHub, game_id: str) -> None:
        self.hub = hub
        self.game_id = game_id
        self.cursor = 0
        self.queues: set[asyncio.Queue[Batch]] = set()
        self.ready = asyncio.Event()
        self.task = asyncio.create_task(self.run())

    async def run(self) -> None:
        store = self.hub.store
        try:
            self.cursor = await store.last_version(self.game_id)
            self.ready.set()
            while self.queues:
                batch = await store.wait_events(self.game_id, self.cursor, BLOCK_MS)
                if not batch:
                    if await store.load_meta(self.game_id) is None:
                        break  # the game expired
                    continue
                self.cursor = batch[-1].version
                for queue in self.queues:
                    queue.put_nowait(batch)
        except asyncio.CancelledError:
            raise
        except Exception:
            if self.queues:  # a cancelled blocking read surfaces as a timeout
                log.exception("watch_feed_failed", game_id=self.game_id)
        finally:
            self.ready.set()
            for queue in self.queues:
                queue.put_nowait(None)
            self.hub.forget(self)


class EventHub:
    """Per-process registry of game feeds."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.feeds: dict[str, _Feed] = {}

    def forget(self, feed: _Feed) -> None:
        """Drop ``feed`` if it is still the game's current feed."""
        if self.feeds.get(feed.game_id) is feed:
            del self.feeds[feed.game_id]

    async def events(self, game_id: str, after_version: int) -> AsyncIterator[list[StoredEvent]]:
        """Batches of events above ``after_version``: the history first, then live.

        Ends when the game expires; callers stop reading after the final event.
        Use it with ``contextlib.aclosing`` so leaving early releases the feed.
        """
        queue: asyncio.Queue[Batch] = asyncio.Queue()
        feed = self.feeds.get(game_id)
        if feed is None:
            feed = _Feed(self, game_id)
            self.feeds[game_id] = feed
        feed.queues.add(queue)
        try:
            await feed.ready.wait()
            last = after_version
            history = await self.store.events(game_id, after_version)
            if history:
                last = history[-1].version
                yield history
            while True:
                batch = await queue.get()
                if batch is None:
                    return
                fresh = [event for event in batch if event.version > last]
                if fresh:
                    last = fresh[-1].version
                    yield fresh
        finally:
            feed.queues.discard(queue)
            if not feed.queues:
                self.forget(feed)  # a newcomer starts a fresh feed
                # Not awaited: redis-py shields a blocking read from cancellation,
                # so the task ends by itself within BLOCK_MS.
                feed.task.cancel()
