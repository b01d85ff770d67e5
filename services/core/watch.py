"""Watch fan-out: every watched game of a process on one connection per Redis node.

Each Apply publishes its event on the game's sharded pub/sub channel
(``SPUBLISH roost:{id}:live``, in the same script that writes it; see
services/core/store.py). A process keeps one subscriber connection per Redis
node (one in all on a single Redis; one per shard on a cluster, where a
sharded channel lives on the node that owns its game's slot). The first
watcher of a game subscribes to its channel, the last one to leave
unsubscribes, and each published event is copied into every watcher's queue.
So the number of Redis connections does not grow with the number of watched
games or streams: a Watch costs a queue and a subscription, not a connection.

Pub/sub delivers at most once: a message published while a subscriber is
reconnecting is lost. Nothing depends on it, because the stream stays the
record: a feed that sees a gap (a version above the next one it expects), and
every feed of a subscriber that had to reconnect, reads the missing events
from the stream (``XRANGE``) before it passes newer ones on.

No event can fall between a watcher's catch-up and the live feed: a feed fixes
its cursor (the stream's last version) only once its subscription is
confirmed, watchers join the feed before they read the history, and each
watcher skips the versions it has already yielded.

Each watcher's queue is bounded: a watcher whose reader falls
``max_behind`` batches behind the game (its client reads more slowly than
the game moves, or not at all) is dropped from the feed and its stream ends
with :class:`WatcherBehind` (UNAVAILABLE, ``ERROR_REASON_WATCH_BEHIND``):
the client resumes from the last version it received, as after any cut, and
reads what it missed from the stream. Memory never grows with a slow reader.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

from redis.asyncio.cluster import RedisCluster
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from services.core.logging import get_logger
from services.core.store import GameStore, StoredEvent, decode_live, live_channel

log = get_logger("roost.watch")

#: What a watcher's queue carries: a batch of events, or the end of the feed
#: (``None``: the hub closed; the stream should be resumed elsewhere;
#: :data:`BEHIND`: the watcher fell too far behind).
Batch = list[StoredEvent] | None

#: The queue item that ends a watcher which fell ``max_behind`` batches behind.
BEHIND: list[StoredEvent] = []

#: Batches (normally one event each) a watcher's queue holds before the
#: watcher is ended as too far behind (``WATCH_MAX_BEHIND``).
DEFAULT_MAX_BEHIND = 1024

#: Seconds without a message after which a subscriber pings Redis, and after
#: which an unanswered connection is given up and opened again.
IDLE_PING_SECONDS = 5.0
DEAD_AFTER_SECONDS = 15.0
#: Pause before a failed subscriber connects again (doubling up to the cap).
RECONNECT_DELAY_SECONDS = (0.1, 2.0)
#: How long a new watcher waits for Redis to confirm its game's subscription.
SUBSCRIBE_TIMEOUT_SECONDS = 5.0
#: Channels per SSUBSCRIBE command when a connection subscribes again.
SUBSCRIBE_CHUNK = 500


def is_own(event: StoredEvent, seat: int) -> bool:
    """True for an event of ``seat``'s own decision that is not the final one:
    what a watcher skipping its own events leaves out. A decision the house bot
    made for the seat is not its own: the seat learns of it from the stream."""
    return event.seat == seat and not event.finished and not event.house_bot


def _without_own(events: list[StoredEvent], seat: int | None) -> list[StoredEvent]:
    return events if seat is None else [e for e in events if not is_own(e, seat)]


class HubClosed(Exception):
    """The hub is closing (the server drains): watchers resume elsewhere."""


class WatcherBehind(Exception):
    """The watcher's queue reached its bound: it was dropped from the feed and
    resumes from the last version it received (a new Watch)."""

    def __init__(self, last_version: int) -> None:
        super().__init__(f"the watcher fell too far behind after version {last_version}")
        #: The last version passed to this watcher.
        self.last_version = last_version


class _Feed:
    """One watched game: its watchers' queues and the last version passed on."""

    def __init__(self, game_id: str, max_behind: int = DEFAULT_MAX_BEHIND) -> None:
        self.game_id = game_id
        self.max_behind = max_behind
        self.channel = live_channel(game_id).encode()
        #: Each watcher's queue -> the seat whose own events it skips, or None.
        self.queues: dict[asyncio.Queue[Batch], int | None] = {}
        self.cursor = 0
        #: Set once the subscription is confirmed and the cursor is fixed.
        self.ready = asyncio.Event()
        #: Live events that arrived while a catch-up read was under way.
        self.held: list[StoredEvent] | None = None
        self.failure: BaseException | None = None

    def deliver(self, events: list[StoredEvent]) -> None:
        """Pass events above the cursor, in order, to every watcher (not to one
        that skips its seat's own events when they are all the batch holds)."""
        fresh = [event for event in events if event.version > self.cursor]
        if not fresh:
            return
        self.cursor = fresh[-1].version
        behind: list[asyncio.Queue[Batch]] = []
        for queue, skipped in self.queues.items():
            if skipped is None or not all(is_own(event, skipped) for event in fresh):
                if queue.qsize() >= self.max_behind:
                    behind.append(queue)
                else:
                    queue.put_nowait(fresh)
        for queue in behind:  # bounded: one more item ends the watcher
            del self.queues[queue]
            queue.put_nowait(BEHIND)

    def end(self) -> None:
        """Tell every watcher the feed has ended."""
        for queue in self.queues:
            queue.put_nowait(None)


class _Subscriber:
    """One subscribe-mode connection to one Redis node and its channels.

    ``connection_factory`` makes an unconnected redis-py connection to the node
    speaking RESP2, where subscribe-mode messages are plain replies (its
    ``connect``, ``send_command`` and ``read_response`` are used as they are:
    authentication, TLS and unix sockets come with them).
    """

    def __init__(self, hub: EventHub, name: str, connection_factory: Callable[[], Any]) -> None:
        self.hub = hub
        self.name = name
        self.factory = connection_factory
        self.channels: set[bytes] = set()
        #: channel -> futures waiting for its subscription to be confirmed
        self.confirming: dict[bytes, list[asyncio.Future[None]]] = {}
        #: channel -> unsubscriptions sent and not yet confirmed
        self.leaving: dict[bytes, int] = {}
        self.connection: Any = None
        self.connected = asyncio.Event()
        self.task = asyncio.create_task(self._run(), name=f"watch-subscriber-{name}")

    async def subscribe(self, channel: bytes) -> None:
        """Subscribe to ``channel``; returns once Redis confirmed it."""
        self.channels.add(channel)
        future = asyncio.get_running_loop().create_future()
        self.confirming.setdefault(channel, []).append(future)
        if self.connected.is_set():
            await self._send("SSUBSCRIBE", channel)
        await future  # also resolved when a fresh connection subscribes it again

    def unsubscribe(self, channel: bytes) -> None:
        """Leave ``channel`` (no wait)."""
        self.channels.discard(channel)
        for future in self.confirming.pop(channel, ()):
            if not future.done():
                future.cancel()
        if self.connected.is_set():
            self.leaving[channel] = self.leaving.get(channel, 0) + 1
            self.hub.spawn(self._send("SUNSUBSCRIBE", channel))

    async def _send(self, *args: Any) -> None:
        connection = self.connection
        if connection is None:
            return  # the next connection subscribes every wanted channel
        try:
            await connection.send_command(*args, check_health=False)
        except (RedisError, OSError):
            await connection.disconnect(nowait=True)  # the reader reconnects

    async def _run(self) -> None:
        """Connect, subscribe every wanted channel, read messages; again on failure."""
        delay = RECONNECT_DELAY_SECONDS[0]
        first = True
        while not self.hub.closed:
            connection = self.factory()
            try:
                await connection.connect()
                self.connection = connection
                self.leaving.clear()
                # Subscriptions asked for from now on are sent by subscribe()
                # itself (a channel subscribed twice is confirmed twice: harmless).
                self.connected.set()
                wanted = sorted(self.channels)
                for start in range(0, len(wanted), SUBSCRIBE_CHUNK):
                    await connection.send_command(
                        "SSUBSCRIBE", *wanted[start : start + SUBSCRIBE_CHUNK], check_health=False
                    )
                if not first:
                    log.info("watch_resubscribed", node=self.name, games=len(wanted))
                    self.hub.catch_up_all(self)
                first = False
                delay = RECONNECT_DELAY_SECONDS[0]
                await self._read(connection)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as error:
                if not self.hub.closed:
                    log.warning("watch_subscriber_lost", node=self.name, error=repr(error))
            except Exception:
                log.exception("watch_subscriber_failed", node=self.name)
            finally:
                self.connected.clear()
                self.connection = None
                with contextlib.suppress(Exception):
                    await connection.disconnect(nowait=True)
            if not self.hub.closed:
                await asyncio.sleep(delay)
                delay = min(delay * 2, RECONNECT_DELAY_SECONDS[1])

    async def _read(self, connection: Any) -> None:
        """Read subscribe-mode replies until the connection fails."""
        loop = asyncio.get_running_loop()
        heard = loop.time()
        pinged = False
        while not self.hub.closed:
            reply = await connection.read_response(timeout=IDLE_PING_SECONDS)
            now = loop.time()
            if reply is None:
                if now - heard > DEAD_AFTER_SECONDS:
                    raise RedisError("no answer to PING on the watch connection")
                if not pinged:
                    await connection.send_command("PING", check_health=False)
                    pinged = True
                continue
            heard, pinged = now, False
            self._dispatch(reply)

    def _dispatch(self, reply: Any) -> None:
        if not isinstance(reply, list) or len(reply) < 3:
            return  # a PONG
        kind, channel, payload = reply[0], reply[1], reply[2]
        if kind == b"smessage":
            self.hub.on_message(channel, payload)
        elif kind == b"ssubscribe":
            for future in self.confirming.pop(channel, ()):
                if not future.done():
                    future.set_result(None)
        elif kind == b"sunsubscribe":
            pending = self.leaving.get(channel, 0)
            if pending:
                self.leaving[channel] = pending - 1
            elif channel in self.channels:
                # Redis dropped it (its slot moved to another node): route again.
                self.hub.reroute(self, channel)


class EventHub:
    """Per-process registry of watched games and their subscriber connections."""

    def __init__(
        self,
        store: GameStore,
        *,
        catch_up_concurrency: int = 8,
        max_behind: int = DEFAULT_MAX_BEHIND,
    ) -> None:
        self.store = store
        #: Batches a watcher's queue holds before the watcher is ended (:class:`WatcherBehind`).
        self.max_behind = max_behind
        self.feeds: dict[str, _Feed] = {}
        self.by_channel: dict[bytes, _Feed] = {}
        self.subscribers: dict[str, _Subscriber] = {}
        self.closed = False
        self.background: set[asyncio.Task[Any]] = set()
        self._reads = asyncio.Semaphore(catch_up_concurrency)

    # ------------------------------------------------------------- watchers

    async def events(
        self, game_id: str, after_version: int, skip_seat: int | None = None
    ) -> AsyncIterator[list[StoredEvent]]:
        """Batches of events above ``after_version``: the history first, then live.
        With ``skip_seat``, without that seat's own events but the final one
        (:func:`is_own`); a live batch that holds nothing else wakes nobody.

        Runs until the caller stops reading; raises :class:`HubClosed` when the
        hub closes and :class:`WatcherBehind` when the caller fell
        ``max_behind`` batches behind the live feed. Use it with
        ``contextlib.aclosing`` so leaving early releases the feed.
        """
        if self.closed:
            raise HubClosed()
        skipped = skip_seat
        queue: asyncio.Queue[Batch] = asyncio.Queue()
        feed = self.feeds.get(game_id)
        if feed is None:
            feed = self._open(game_id)
        feed.queues[queue] = skipped
        try:
            await feed.ready.wait()
            if feed.failure is not None:
                raise feed.failure
            last = after_version
            history = await self.store.events(game_id, after_version)
            if history:
                last = history[-1].version
                shown = _without_own(history, skipped)
                if shown:
                    yield shown
            while True:
                batch = await queue.get()
                if batch is None:
                    raise HubClosed()
                if batch is BEHIND:
                    raise WatcherBehind(last)
                fresh = [event for event in batch if event.version > last]
                if fresh:
                    last = fresh[-1].version
                    shown = _without_own(fresh, skipped)
                    if shown:
                        yield shown
        finally:
            feed.queues.pop(queue, None)
            if not feed.queues and self.feeds.get(game_id) is feed:
                self._close(feed)

    def _open(self, game_id: str) -> _Feed:
        feed = _Feed(game_id, self.max_behind)
        self.feeds[game_id] = feed
        self.by_channel[feed.channel] = feed
        self.spawn(self._start(feed))
        return feed

    async def _start(self, feed: _Feed) -> None:
        """Subscribe, then fix the cursor at the stream's last version."""
        try:
            subscriber = self._subscriber_for(feed.channel)
            assert subscriber is not None
            try:
                async with asyncio.timeout(SUBSCRIBE_TIMEOUT_SECONDS):
                    await subscriber.subscribe(feed.channel)
            except TimeoutError:
                raise RedisTimeoutError("no subscription confirmed by Redis") from None
            feed.cursor = await self.store.last_version(feed.game_id)
        except asyncio.CancelledError:
            pass
        except Exception as error:  # the watchers report it (UNAVAILABLE)
            feed.failure = error
            if self.feeds.get(feed.game_id) is feed:
                self._close(feed)
        finally:
            feed.ready.set()

    def _close(self, feed: _Feed) -> None:
        del self.feeds[feed.game_id]
        self.by_channel.pop(feed.channel, None)
        subscriber = self._subscriber_for(feed.channel, create=False)
        if subscriber is not None:
            subscriber.unsubscribe(feed.channel)

    def cursor(self, game_id: str) -> int | None:
        """The newest version this process has passed on for the game (its
        feed's cursor), or None when it is not known here: nobody watches the
        game, its subscription is not confirmed yet, or a catch-up read is
        under way."""
        feed = self.feeds.get(game_id)
        if feed is None or feed.held is not None or not feed.ready.is_set():
            return None
        return feed.cursor

    def watched_games(self) -> int:
        """How many games have watchers in this process."""
        return len(self.feeds)

    def watchers(self) -> int:
        """How many Watch streams this process serves."""
        return sum(len(feed.queues) for feed in self.feeds.values())

    # ----------------------------------------------------------- subscribers

    def _subscriber_for(self, channel: bytes, create: bool = True) -> _Subscriber | None:
        """The subscriber of the node that owns ``channel``."""
        client = self.store.client
        if isinstance(client, RedisCluster):
            node = client.get_node_from_key(channel)
            name, connection_class, kwargs = (
                node.name,
                node.connection_class,
                node.connection_kwargs,
            )
        else:
            pool = client.connection_pool
            name, connection_class, kwargs = "redis", pool.connection_class, pool.connection_kwargs
        subscriber = self.subscribers.get(name)
        if subscriber is None and create:

            def factory() -> Any:
                return connection_class(**{**kwargs, "protocol": 2})

            subscriber = self.subscribers[name] = _Subscriber(self, name, factory)
        return subscriber

    def reroute(self, subscriber: _Subscriber, channel: bytes) -> None:
        """A node dropped ``channel``: subscribe again where it lives now, then
        read what was missed."""
        subscriber.channels.discard(channel)
        feed = self.by_channel.get(channel)
        if feed is None:
            return

        async def again() -> None:
            with contextlib.suppress(Exception):
                await self.store.client.nodes_manager.initialize()  # type: ignore[union-attr]
            target = self._subscriber_for(channel)
            assert target is not None
            await target.subscribe(channel)
            await self._catch_up(feed)

        self.spawn(again())

    def on_message(self, channel: bytes, payload: bytes) -> None:
        """A live event: pass it on, or read the stream first if one is missing."""
        feed = self.by_channel.get(channel)
        if feed is None or not feed.ready.is_set():
            return  # not yet fixed: the watchers' history read covers it
        event = decode_live(payload)
        if feed.held is not None:
            feed.held.append(event)
        elif event.version <= feed.cursor + 1:
            feed.deliver([event])
        else:
            feed.held = [event]
            self._spawn_catch_up(feed)

    def catch_up_all(self, subscriber: _Subscriber) -> None:
        """After a reconnect: every feed of ``subscriber`` reads what it missed."""
        for feed in list(self.feeds.values()):
            wanted = feed.channel in subscriber.channels and feed.ready.is_set()
            if wanted and feed.held is None:
                feed.held = []
                self._spawn_catch_up(feed)

    def _spawn_catch_up(self, feed: _Feed) -> None:
        self.spawn(self._catch_up(feed))

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background, kept until it ends (and cancelled by
        :meth:`close`)."""
        task = asyncio.create_task(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def _catch_up(self, feed: _Feed) -> None:
        """Read the stream after the cursor, then pass on what was held."""
        if feed.held is None:
            feed.held = []
        try:
            while True:
                async with self._reads:
                    missed = await self.store.events(feed.game_id, feed.cursor)
                feed.deliver(missed)
                held = sorted(feed.held or [], key=lambda event: event.version)
                while held and held[0].version <= feed.cursor + 1:
                    feed.deliver([held.pop(0)])
                if not held:
                    feed.held = None
                    return
                feed.held = held  # still a gap: read again
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.warning("watch_catch_up_failed", game_id=feed.game_id, error=str(error))
            feed.held = None
            await asyncio.sleep(RECONNECT_DELAY_SECONDS[1])
            if self.by_channel.get(feed.channel) is feed:
                self._spawn_catch_up(feed)

    # ---------------------------------------------------------------- close

    async def close(self) -> None:
        """End every Watch stream (they raise :class:`HubClosed`) and disconnect."""
        if self.closed:
            return
        self.closed = True
        for feed in list(self.feeds.values()):
            feed.end()
        for subscriber in self.subscribers.values():
            subscriber.task.cancel()
        for task in list(self.background):
            task.cancel()
        tasks = [s.task for s in self.subscribers.values()] + list(self.background)
        await asyncio.gather(*tasks, return_exceptions=True)
