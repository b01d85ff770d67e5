"""Watch fan-out: one stream reader per game, however many watchers."""

from __future__ import annotations

import asyncio
import contextlib

from services.core.store import GameMeta, GameStore, connect
from services.core.watch import EventHub


def _event(label: str) -> dict[str, str]:
    return {"s": "0", "k": "k", "a": "[]", "l": label, "x": "0", "p": "", "t": "0",
            "st": "IN_PROGRESS", "ta": "0"}  # fmt: skip


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
    assert hub.feeds == {}, "the reader stops when the last watcher leaves"
    await store.client.aclose()


def test_watchers_share_one_reader_and_miss_nothing(redis_server_url: str) -> None:
    """DESIGN 'Watch reads the game's stream': resumable, no gaps, no duplicates."""
    asyncio.run(_scenario(redis_server_url))
