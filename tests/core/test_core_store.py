"""The Redis store against a real Redis: keys, the Lua compare-and-set, expiry."""

from __future__ import annotations

import asyncio

import pytest
import redis

from services.core.events import StoredEvent
from services.core.store import GameMeta, GameStore, connect, events_key, game_key


def _meta() -> GameMeta:
    return GameMeta("g", 2, 1, {}, ["a", "b"], ["h0", "h1"])


def _event(label: str) -> StoredEvent:
    """An event of seat 0 (the store numbers it: its version here is not stored)."""
    return StoredEvent(0, 0, "k", "[]", label, False, "", 0, "IN_PROGRESS", (0,))


async def _scenario(url: str) -> None:
    store = GameStore(connect(url, cluster=False))
    assert await store.create("abc123", _meta(), b"s1", "IN_PROGRESS", _event("new"), 60)
    assert not await store.create("abc123", _meta(), b"s1", "IN_PROGRESS", _event("new"), 60)
    results = await asyncio.gather(
        *(
            store.apply("abc123", 1, f"s2-{i}".encode(), "IN_PROGRESS", _event(f"e{i}"),
                        request_id="", fingerprint="", result=b"", request_ttl=60, key_ttl=60)
            for i in range(5)
        )
    )  # fmt: skip
    kinds = sorted(r.kind for r in results)
    assert kinds == ["OK", "STALE", "STALE", "STALE", "STALE"]
    loaded = await store.load("abc123")
    assert loaded is not None and loaded.version == 2
    events = await store.events("abc123", 0)
    assert [e.version for e in events] == [1, 2]
    assert [e.version for e in await store.events("abc123", 1)] == [2]
    dup_args = dict(request_id="r1", fingerprint="f" * 40, result=b"first", request_ttl=60,
                    key_ttl=60)  # fmt: skip
    first = await store.apply("abc123", 2, b"s3", "FINISHED", _event("x"), **dup_args)
    again = await store.apply("abc123", 2, b"s3", "FINISHED", _event("x"), **dup_args)
    assert first.kind == "OK" and again.kind == "DUP"
    assert again.stored == b"f" * 40 + b"first"
    missing = await store.apply("nope", 1, b"", "IN_PROGRESS", _event("x"), **dup_args)
    assert missing.kind == "NOT_FOUND"
    await store.aclose()


def test_compare_and_set_lets_exactly_one_writer_win(redis_server_url: str) -> None:
    """DESIGN 'State in Redis': concurrent writers can never both win; retries replay."""
    asyncio.run(_scenario(redis_server_url))
    raw = redis.Redis.from_url(redis_server_url)
    assert raw.hget(game_key("abc123"), "version") == b"3"
    assert raw.xlen(events_key("abc123")) == 3
    ttl = raw.ttl(game_key("abc123"))
    assert 0 < ttl <= 60, "every write refreshes the expiry"
    raw.delete(game_key("abc123"), events_key("abc123"))


def test_all_keys_of_a_game_share_one_hash_tag() -> None:
    """Redis Cluster: every key of a game hashes to the same slot."""
    from redis.cluster import key_slot

    from services.core.store import request_key

    keys = [game_key("g1"), events_key("g1"), request_key("g1", "some-request")]
    assert len({key_slot(k.encode()) for k in keys}) == 1


async def _recovery_scenario(url: str) -> None:
    store = GameStore(connect(url, cluster=False))
    raw = redis.Redis.from_url(url)
    assert await store.create("rec123", _meta(), b"s1", "IN_PROGRESS", _event("new"), 60)
    args = dict(request_id="", fingerprint="", result=b"", request_ttl=60, key_ttl=60)
    assert (await store.apply("rec123", 1, b"s2", "IN_PROGRESS", _event("a"), **args)).kind == "OK"
    raw.script_flush()  # as after a Redis restart: the script must be loaded again
    assert (await store.apply("rec123", 2, b"s3", "IN_PROGRESS", _event("b"), **args)).kind == "OK"
    raw.client_kill_filter(_type="normal", skipme=True)  # the store's pooled connection dies
    assert (await store.apply("rec123", 3, b"s4", "IN_PROGRESS", _event("c"), **args)).kind == "OK"
    assert raw.hget(game_key("rec123"), "version") == b"4"
    assert raw.xlen(events_key("rec123")) == 4
    raw.delete(game_key("rec123"), events_key("rec123"))
    raw.close()
    await store.aclose()


def test_apply_survives_a_flushed_script_and_a_dropped_connection(redis_server_url: str) -> None:
    """The Apply write runs on a pooled connection: a script missing after a flush
    is loaded again, a dead connection is replaced, and each write lands once."""
    asyncio.run(_recovery_scenario(redis_server_url))


async def _paused_scenario(url: str) -> None:
    from redis.exceptions import TimeoutError as RedisTimeoutError

    store = GameStore(connect(url, cluster=False))
    assert store._apply_lane is not None
    store._apply_lane.timeout = 0.2  # not 10 s
    store._apply_lane.tick = 0.05
    raw = redis.Redis.from_url(url)
    assert await store.create("pause1", _meta(), b"s1", "IN_PROGRESS", _event("new"), 60)
    args = dict(request_id="", fingerprint="", result=b"", request_ttl=60, key_ttl=60)
    raw.execute_command("CLIENT", "PAUSE", "1500", "WRITE")  # Redis stops answering writes
    loop = asyncio.get_running_loop()
    started = loop.time()
    try:
        with pytest.raises(RedisTimeoutError):
            await store.apply("pause1", 1, b"s2", "IN_PROGRESS", _event("a"), **args)
        assert loop.time() - started < 1.4, "three bounded attempts, not a hang"
    finally:
        raw.execute_command("CLIENT", "UNPAUSE")
    # A write sent before the cut-off may still land once Redis answers again; the
    # version check makes sending it again safe: it lands exactly once.
    outcome = await store.apply("pause1", 1, b"s2", "IN_PROGRESS", _event("a"), **args)
    assert outcome.kind == "OK" or (outcome.kind == "STALE" and outcome.version == 2)
    assert raw.hget(game_key("pause1"), "version") == b"2"
    assert raw.xlen(events_key("pause1")) == 2
    # And the lane's connections work again.
    assert (await store.apply("pause1", 2, b"s3", "IN_PROGRESS", _event("b"), **args)).kind == "OK"
    raw.delete(game_key("pause1"), events_key("pause1"))
    raw.close()
    await store.aclose()


def test_an_apply_write_that_gets_no_answer_times_out(redis_server_url: str) -> None:
    """A Redis that stops answering: the Apply write fails with a timeout after its
    bounded retries (each dropping the quiet connection), and the lane recovers."""
    asyncio.run(_paused_scenario(redis_server_url))
