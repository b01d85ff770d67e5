"""Watch fan-out: one subscriber connection per Redis node, however many
watched games and watchers (services/core/watch.py)."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
import redis

from services.core.events import StoredEvent
from services.core.redis_server import start_local_redis
from services.core.store import GameMeta, GameStore, connect
from services.core.watch import EventHub, HubClosed, WatcherBehind


def _event(label: str) -> StoredEvent:
    """An event of seat 0 (the store numbers it: its version here is not stored)."""
    return StoredEvent(0, 0, "k", "[]", label, False, "", 0, "IN_PROGRESS", (0,))


async def _scenario(url: str) -> None:
    store = GameStore(connect(url, cluster=False))
    hub = EventHub(store)
    meta = GameMeta("g", 2, 1, {}, ["a", "b"], ["h0", "h1"])
    await store.create("hubgame1", meta, b"s", "IN_PROGRESS", _event("new"), 60)
    received: list[list[int]] = [[] for _ in range(10)]

    async def watcher(index: int, after: int) -> None:
        async with contextlib.aclosing(hub.events("hubgame1", after)) as batches:
            async for batch in batches:
                received[index].extend(e.version for e in batch)
                if received[index][-1] >= 4:
                    return

    tasks = [asyncio.create_task(watcher(i, i % 3)) for i in range(10)]
    await asyncio.sleep(0.2)
    assert len(hub.feeds) == 1, "all watchers of a game share one reader"
    for version in (1, 2, 3):
        await store.apply("hubgame1", version, b"s", "IN_PROGRESS", _event(f"e{version}"),
                          request_id="", fingerprint="", result=b"", request_ttl=60,
                          key_ttl=60)  # fmt: skip
    await asyncio.wait_for(asyncio.gather(*tasks), 10)
    for index, versions in enumerate(received):
        assert versions == list(range(index % 3 + 1, 5)), "each watcher gets every later event once"
    assert hub.feeds == {}, "the feed closes when the last watcher leaves"
    await hub.close()
    await store.aclose()


def test_watchers_share_one_reader_and_miss_nothing(redis_server_url: str) -> None:
    """DESIGN 'Watch reads the game's stream': resumable, no gaps, no duplicates."""
    asyncio.run(_scenario(redis_server_url))


_APPLY_ARGS = dict(request_id="", fingerprint="", result=b"", request_ttl=60, key_ttl=60)


async def _apply(store: GameStore, game_id: str, version: int) -> None:
    outcome = await store.apply(
        game_id, version, b"s", "IN_PROGRESS", _event(f"e{version}"), **_APPLY_ARGS
    )
    assert outcome.kind == "OK"


def _connections(url: str) -> int:
    """Client connections Redis sees (besides the one asking)."""
    raw = redis.Redis.from_url(url)
    count = len(raw.client_list()) - 1
    raw.close()
    return count


async def _many_games_scenario(url: str) -> None:
    before = _connections(url)
    store = GameStore(connect(url, cluster=False, pool_size=4))
    hub = EventHub(store)
    meta = GameMeta("g", 2, 1, {}, ["a", "b"], ["h0", "h1"])
    games = [f"many{n}" for n in range(300)]
    for game_id in games:
        await store.create(game_id, meta, b"s", "IN_PROGRESS", _event("new"), 60)
    seen: dict[str, list[int]] = {game_id: [] for game_id in games}

    async def watcher(game_id: str) -> None:
        async with contextlib.aclosing(hub.events(game_id, 1)) as batches:
            async for batch in batches:
                seen[game_id].extend(e.version for e in batch)
                if seen[game_id][-1] >= 3:
                    return

    tasks = [asyncio.create_task(watcher(g)) for g in games for _ in range(2)]
    while sum(len(f.queues) for f in hub.feeds.values()) < len(tasks) or not all(
        f.ready.is_set() for f in hub.feeds.values()
    ):
        await asyncio.sleep(0.02)
    assert hub.watched_games() == 300 and hub.watchers() == 600
    # 4 pooled command connections at most, plus one subscriber.
    assert _connections(url) - before <= 5
    for version in (1, 2):
        await asyncio.gather(*(_apply(store, g, version) for g in games))
    await asyncio.wait_for(asyncio.gather(*tasks), 20)
    assert all(versions == [2, 3, 2, 3] or sorted(versions) == [2, 2, 3, 3]
               for versions in seen.values())  # fmt: skip
    assert hub.feeds == {}
    await hub.close()
    await store.aclose()


def test_watching_many_games_takes_a_fixed_number_of_connections() -> None:
    """Issue 'Watch must scale': 600 watchers of 300 games on one subscriber
    connection and a pool of 4; every watcher gets every event once. (A Redis
    of its own, so that every connection it counts is this test's.)"""
    server = start_local_redis()
    try:
        asyncio.run(_many_games_scenario(server.url))
    finally:
        server.stop()


async def _reconnect_scenario(url: str) -> None:
    store = GameStore(connect(url, cluster=False))
    hub = EventHub(store)
    meta = GameMeta("g", 2, 1, {}, ["a", "b"], ["h0", "h1"])
    await store.create("gap1", meta, b"s", "IN_PROGRESS", _event("new"), 60)
    versions: list[int] = []
    done = asyncio.Event()

    async def watcher() -> None:
        async with contextlib.aclosing(hub.events("gap1", 1)) as batches:
            async for batch in batches:
                versions.extend(e.version for e in batch)
                if versions[-1] >= 6:
                    done.set()
                    return

    task = asyncio.create_task(watcher())
    while not (hub.feeds and hub.feeds["gap1"].ready.is_set()):
        await asyncio.sleep(0.01)
    await _apply(store, "gap1", 1)
    raw = redis.Redis.from_url(url)
    raw.client_kill_filter(_type="pubsub")  # the subscriber loses its connection
    raw.close()
    for version in (2, 3, 4, 5):  # published while nobody listens: lost to pub/sub
        await _apply(store, "gap1", version)
    await asyncio.wait_for(done.wait(), 10)
    await task
    assert versions == [2, 3, 4, 5, 6], "events published while reconnecting come from the stream"
    await hub.close()
    await store.aclose()


def test_events_missed_while_the_subscriber_reconnects_are_read_from_the_stream(
    redis_server_url: str,
) -> None:
    """Pub/sub delivers at most once; the stream is the record, so nothing is lost."""
    asyncio.run(_reconnect_scenario(redis_server_url))


async def _close_scenario(url: str) -> None:
    store = GameStore(connect(url, cluster=False))
    hub = EventHub(store)
    meta = GameMeta("g", 2, 1, {}, ["a", "b"], ["h0", "h1"])
    await store.create("close1", meta, b"s", "IN_PROGRESS", _event("new"), 60)

    async def watcher() -> list[int]:
        seen: list[int] = []
        async with contextlib.aclosing(hub.events("close1", 0)) as batches:
            async for batch in batches:
                seen.extend(e.version for e in batch)
        return seen

    tasks = [asyncio.create_task(watcher()) for _ in range(5)]
    while hub.watchers() < 5:
        await asyncio.sleep(0.01)
    await hub.close()
    for task in tasks:
        with pytest.raises(HubClosed):
            await asyncio.wait_for(task, 5)
    with pytest.raises(HubClosed):
        await watcher()
    await store.aclose()


def test_closing_the_hub_ends_every_watch_at_once(redis_server_url: str) -> None:
    """A draining server ends its Watch streams instead of waiting out its grace."""
    asyncio.run(_close_scenario(redis_server_url))


async def _behind_scenario(url: str) -> None:
    store = GameStore(connect(url, cluster=False))
    hub = EventHub(store, max_behind=3)
    meta = GameMeta("g", 2, 1, {}, ["a", "b"], ["h0", "h1"])
    await store.create("behind1", meta, b"s", "IN_PROGRESS", _event("new"), 60)
    slow = hub.events("behind1", 0)
    seen = [e.version for e in await slow.__anext__()]  # the history, then it stops reading
    fast_seen: list[int] = []

    async def fast() -> None:
        async with contextlib.aclosing(hub.events("behind1", 0)) as batches:
            async for batch in batches:
                fast_seen.extend(e.version for e in batch)
                if fast_seen[-1] == 11:
                    return

    reader = asyncio.create_task(fast())
    while hub.watchers() < 2:
        await asyncio.sleep(0.01)
    for version in range(1, 11):
        await _apply(store, "behind1", version)
    await asyncio.wait_for(reader, 10)
    assert fast_seen == list(range(1, 12)), "a reader that keeps up is not affected"
    assert hub.watchers() == 0, "the watcher that fell behind left the feed at once"
    with pytest.raises(WatcherBehind) as ended:
        while True:
            seen.extend(e.version for e in await slow.__anext__())
    assert len(seen) <= 1 + 3, "no more than max_behind batches were held for it"
    assert ended.value.last_version == seen[-1]
    async with contextlib.aclosing(hub.events("behind1", ended.value.last_version)) as batches:
        async for batch in batches:
            seen.extend(e.version for e in batch)
            if seen[-1] == 11:
                break
    assert seen == list(range(1, 12)), "resumed from its last version: nothing lost or repeated"
    await hub.close()
    await store.aclose()


def test_a_watcher_too_far_behind_is_ended_and_resumes_from_its_last_version(
    redis_server_url: str,
) -> None:
    """Bounded Watch queues (services/core/watch.py): a reader that falls
    ``max_behind`` batches behind is ended with WatcherBehind (UNAVAILABLE,
    ERROR_REASON_WATCH_BEHIND) and a new Watch from its last version misses nothing."""
    asyncio.run(_behind_scenario(redis_server_url))


def test_a_watcher_behind_is_unavailable_with_its_reason() -> None:
    """The status a client sees: retryable UNAVAILABLE naming the reason and the version."""
    import grpc

    from services.core.failures import as_service_error

    error = as_service_error(WatcherBehind(7))
    assert error is not None and error.code == grpc.StatusCode.UNAVAILABLE
    assert error.reason == "ERROR_REASON_WATCH_BEHIND"
    assert error.metadata == {"last_version": "7"}
