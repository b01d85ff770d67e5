"""The Redis game store.

All keys of one game share the hash tag ``{<game_id>}`` so a game lives in one
Redis Cluster slot:

* ``roost:{id}:game``   hash: ``version``, ``state`` (engine bytes), ``status``,
  ``meta`` (JSON: game, players, seed, options, seat names, token hashes),
  ``pending`` (JSON: the decision epoch of every seat asked to decide, see
  services/core/pending.py), ``life`` (JSON: the clock, the seats that left,
  the ending and the decision counters, see services/core/lifecycle/record.py).
* ``roost:deadlines:<game>`` sorted set (no hash tag: one per game type, shared
  by every game of that type): game id -> the game's next deadline in server
  milliseconds, written by the same script as the version it belongs to and
  polled by every replica (services/core/lifecycle/expiry.py). Only games
  that ever had a deadline (timed, or with a seat that left) are in it.
* ``roost:{id}:events`` stream: one entry per version, with the explicit
  stream id ``<version>-0`` so a reader resumes from any version.
* ``roost:{id}:req:<request_id>`` string: the stored result of an Apply, kept
  ``REQUEST_TTL_SECONDS`` for retries.
* ``roost:{id}:live`` sharded pub/sub channel (``SPUBLISH``): every new event,
  as a JSON array ``[version, name, value, ...]``, for the processes that
  watch the game (services/core/watch.py). Nothing is stored under it.

Every write is one Lua script: creation, and the compare-and-set of an Apply
that checks the request id and the expected version, writes the state, appends
the event, publishes it and stores the result. Concurrent writers can never
both win.

While the watchdog sees Redis stalled, every call here fails at once with
:class:`~services.core.store_gate.StoreStalled` (services/core/store_gate.py):
the client :func:`connect` returns passes every command through the gate
(services/core/gated_redis.py), and the Apply lane's script is gated here;
``ping`` does not pass that gate.

Connections are bounded: commands share a blocking pool of ``REDIS_POOL_SIZE``
connections (a caller waits for a free one, up to the socket timeout), Applies
share one more (the Apply lane), and watching takes one per Redis node
(services/core/watch.py), whatever the number of games or calls.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import orjson
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError
from redis.exceptions import TimeoutError as RedisTimeoutError

from services.core.events import StoredEvent
from services.core.gated_redis import GatedRedis, GatedRedisCluster, probe
from services.core.lifecycle import slots
from services.core.redis_mux import MultiplexedConnection
from services.core.store_gate import STORE_GATE

__all__ = ["ApplyOutcome", "GameMeta", "GameStore", "StoredEvent", "StoredGame"]

_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'version', '1', 'state', ARGV[1], 'status', ARGV[2], 'meta', ARGV[3],
           'pending', ARGV[5], 'life', ARGV[6])
if ARGV[7] ~= 'x' and ARGV[7] ~= '' then redis.call('ZADD', KEYS[3], ARGV[7], ARGV[8]) end
redis.call('XADD', KEYS[2], '1-0', unpack(ARGV, 9))
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
return 1
"""

_APPLY = """
local current = redis.call('HGET', KEYS[1], 'version')
if not current then return {'NOT_FOUND', ''} end
if ARGV[3] ~= '' then
  local previous = redis.call('GET', KEYS[3])
  if previous then return {'DUP', previous} end
end
if current ~= ARGV[1] then return {'STALE', current} end
local version = tonumber(current) + 1
redis.call('HSET', KEYS[1], 'version', tostring(version), 'state', ARGV[2], 'status', ARGV[7],
           'pending', ARGV[8], 'life', ARGV[9])
if ARGV[10] == '' then redis.call('ZREM', KEYS[5], ARGV[11])
elseif ARGV[10] ~= 'x' then redis.call('ZADD', KEYS[5], ARGV[10], ARGV[11]) end
redis.call('XADD', KEYS[2], tostring(version) .. '-0', unpack(ARGV, 12))
redis.call('SPUBLISH', KEYS[4], cjson.encode({tostring(version), unpack(ARGV, 12)}))
if ARGV[3] ~= '' then
  redis.call('SET', KEYS[3], ARGV[3] .. ARGV[4], 'EX', ARGV[5])
end
redis.call('EXPIRE', KEYS[1], ARGV[6])
redis.call('EXPIRE', KEYS[2], ARGV[6])
return {'OK', tostring(version)}
"""

# Puts a game's deadline right when the entry disagrees with the stored version's
# (ARGV[1]: that version; ARGV[2]: its deadline, '' = none; ARGV[3]: the game id).
_REPAIR_DEADLINE = """
local current = redis.call('HGET', KEYS[1], 'version')
if not current then redis.call('ZREM', KEYS[2], ARGV[3]) return 0 end
if current ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('ZREM', KEYS[2], ARGV[3])
else redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3]) end
return 1
"""

FINGERPRINT_LENGTH = 40  # hex SHA-1 of the request, prefixed to a stored result


def game_key(game_id: str) -> str:
    """Key of the game hash."""
    return f"roost:{{{game_id}}}:game"


def events_key(game_id: str) -> str:
    """Key of the game's event stream."""
    return f"roost:{{{game_id}}}:events"


def live_channel(game_id: str) -> str:
    """The sharded pub/sub channel of the game's new events (same hash tag)."""
    return f"roost:{{{game_id}}}:live"


def deadlines_key(game: str) -> str:
    """Key of the sorted set of the next deadlines of ``game``'s games (a single
    Redis; on a cluster one set per slot bucket, :mod:`services.core.lifecycle.slots`)."""
    return slots.single_key(game)


def request_key(game_id: str, request_id: str) -> str:
    """Key of one stored Apply result (same hash tag as the game)."""
    return f"roost:{{{game_id}}}:req:{request_id}"


@dataclass(frozen=True, slots=True)
class GameMeta:
    """What never changes after creation."""

    game: str
    players: int
    seed: int
    options: dict[str, Any]
    seat_names: list[str]
    token_hashes: list[str]
    #: Who plays each seat (CommonOptions.seat_identities), or empty.
    identities: list[str] = field(default_factory=list)

    def to_json(self) -> str:
        """Canonical JSON."""
        return json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, raw: bytes | str) -> GameMeta:
        """Inverse of :meth:`to_json`."""
        return cls(**json.loads(raw))


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as read from Redis."""

    version: int
    state: bytes
    status: str
    meta: GameMeta
    #: The seats' decision epochs as stored (``pending.py``); empty when absent.
    pending: bytes = b""
    #: The lifecycle record (``lifecycle/record.py``); empty for a game stored before it.
    life: bytes = b""


@dataclass(frozen=True, slots=True)
class ApplyOutcome:
    """Result of the compare-and-set.

    ``kind`` is ``OK`` (``version`` is the new version), ``DUP`` (``stored``
    holds the first result of this request id, fingerprint first), ``STALE``
    (``version`` is the current version) or ``NOT_FOUND``.
    """

    kind: str
    version: int = 0
    stored: bytes = b""


#: Socket read timeout of every client. Blocking stream reads (Watch, the
#: matchmaker's notifications) use ``BLOCKING_READ_MS``, well below it; redis-py's
#: own default (5 s) would race a 5 s ``XREAD BLOCK``.
SOCKET_TIMEOUT_SECONDS = 10.0
BLOCKING_READ_MS = 2000


#: Connections of a process's command pool (the Apply lane and the watch
#: subscribers come on top: one each, per Redis node).
DEFAULT_POOL_SIZE = 16
CONNECT_TIMEOUT_SECONDS = 2.0


def connect(
    url: str, cluster: bool, pool_size: int = DEFAULT_POOL_SIZE
) -> aioredis.Redis | RedisCluster:
    """An asyncio client with at most ``pool_size`` command connections (per
    node on a cluster); a caller waits for a free one instead of opening more.
    Its commands and pipelines pass the store gate (services/core/gated_redis.py)."""
    if cluster:
        return GatedRedisCluster.from_url(
            url,
            decode_responses=False,
            socket_timeout=SOCKET_TIMEOUT_SECONDS,
            socket_connect_timeout=CONNECT_TIMEOUT_SECONDS,
            max_connections=pool_size,
        )
    pool = aioredis.BlockingConnectionPool.from_url(
        url,
        decode_responses=False,
        protocol=2,
        socket_timeout=SOCKET_TIMEOUT_SECONDS,
        socket_connect_timeout=CONNECT_TIMEOUT_SECONDS,
        max_connections=pool_size,
        timeout=SOCKET_TIMEOUT_SECONDS,
    )
    return GatedRedis.from_pool(pool)


class GameStore:
    """Reads and atomic writes of games in Redis."""

    def __init__(
        self, client: aioredis.Redis | RedisCluster, *, max_pending_applies: int = 10_000
    ) -> None:
        self.client = client
        self._create = client.register_script(_CREATE)
        self._apply = client.register_script(_APPLY)
        self._repair_deadline = client.register_script(_REPAIR_DEADLINE)
        # The Apply lane: one connection of its own that every Apply's script
        # shares, replies matched in order (services/core/redis_mux.py).
        self._apply_lane = (
            MultiplexedConnection.for_pool(
                client.connection_pool,
                timeout_seconds=SOCKET_TIMEOUT_SECONDS,
                max_pending=max_pending_applies,
            )
            if isinstance(client, aioredis.Redis)
            else None
        )

    def _deadlines(self, game: str, game_id: str) -> str | None:
        """The deadline set's key for a write script: on a cluster the bucket in
        the game's slot (:mod:`services.core.lifecycle.slots`); None when the
        game's id is in no bucket's slot (it has no deadline entry)."""
        return slots.bucket_key(game, game_id) if self.cluster else deadlines_key(game)

    def _deadline_keys(self, game: str) -> list[str]:
        """Every deadline set of ``game`` (one per bucket on a cluster)."""
        return slots.bucket_keys(game) if self.cluster else [deadlines_key(game)]

    @property
    def cluster(self) -> bool:
        """True on Redis Cluster."""
        return isinstance(self.client, RedisCluster)

    async def ping(self) -> None:
        """Raise unless Redis answers (every node, on a cluster); past the gate."""
        await probe(self.client)

    async def aclose(self) -> None:
        """Close the lane and the client's connections."""
        if self._apply_lane is not None:
            await self._apply_lane.aclose()
        await self.client.aclose()

    async def create(
        self,
        game_id: str,
        meta: GameMeta,
        state: bytes,
        status: str,
        event: StoredEvent,
        ttl_seconds: int,
        pending: str = "",
        life: bytes = b"",
        deadline: str = "x",
    ) -> bool:
        """Store a new game at version 1 with its creation event; False if the id
        exists. ``deadline`` is the game's first deadline in ms ("" or "x": none yet)."""
        deadlines = self._deadlines(meta.game, game_id)
        keys = [game_key(game_id), events_key(game_id), deadlines or game_key(game_id)]
        if deadlines is None:
            deadline = "x"
        args = [
            state, status, meta.to_json(), str(ttl_seconds), pending, life, deadline, game_id,
            *event.fields(),
        ]  # fmt: skip
        return bool(await self._create(keys=keys, args=args))

    async def load(self, game_id: str, meta: GameMeta | None = None) -> StoredGame | None:
        """The game's version, state and status (and meta unless given)."""
        fields = ["version", "state", "status", "pending", "life"]
        if meta is None:
            fields.append("meta")
        values = await self.client.hmget(game_key(game_id), fields)
        if values[0] is None:
            return None
        loaded_meta = meta or GameMeta.from_json(values[5])
        return StoredGame(
            int(values[0]),
            values[1],
            values[2].decode(),
            loaded_meta,
            values[3] or b"",
            values[4] or b"",
        )

    async def load_many(self, game_ids: list[str]) -> list[StoredGame | None]:
        """:meth:`load` of many games (with their meta) in one pipeline; None
        for a game that is gone (the expiry poller reads its due games so)."""
        fields = ["version", "state", "status", "pending", "life", "meta"]
        pipe = self.client.pipeline() if self.cluster else self.client.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hmget(game_key(game_id), fields)
        rows = await pipe.execute()
        return [
            None
            if v[0] is None
            else StoredGame(
                int(v[0]), v[1], v[2].decode(), GameMeta.from_json(v[5]), v[3] or b"", v[4] or b""
            )
            for v in rows
        ]

    async def version_and_status(self, game_id: str) -> tuple[int, str] | None:
        """The game's version and status only (None when it does not exist)."""
        version, status = await self.client.hmget(game_key(game_id), ["version", "status"])
        return None if version is None else (int(version), status.decode())

    async def load_meta(self, game_id: str) -> GameMeta | None:
        """Only the immutable part."""
        raw = await self.client.hget(game_key(game_id), "meta")
        return GameMeta.from_json(raw) if raw is not None else None

    async def stored_result(self, game_id: str, request_id: str) -> bytes | None:
        """A stored Apply result (fingerprint first) for a request id, if any."""
        return await self.client.get(request_key(game_id, request_id))

    async def apply(
        self,
        game_id: str,
        expected_version: int,
        state: bytes,
        status: str,
        event: StoredEvent,
        *,
        request_id: str,
        fingerprint: str,
        result: bytes,
        request_ttl: int,
        key_ttl: int,
        pending: str = "",
        game: str = "",
        life: bytes = b"",
        deadline: str = "x",
    ) -> ApplyOutcome:
        """The compare-and-set of one Apply (see module docstring); ``pending``
        and ``life`` replace the stored decision epochs and lifecycle record with
        the write, and ``deadline`` the game's entry in ``game``'s deadline set
        (ms; "" removes it; "x" leaves the set alone: the game never had one)."""
        keys = [
            game_key(game_id),
            events_key(game_id),
            request_key(game_id, request_id),
            live_channel(game_id),
        ]
        deadlines = self._deadlines(game, game_id)
        keys.append(deadlines or game_key(game_id))
        if deadlines is None:
            deadline = "x"

        args: list[Any] = [
            str(expected_version),
            state,
            fingerprint if request_id else "",
            result,
            str(request_ttl),
            str(key_ttl),
            status,
            pending,
            life,
            deadline,
            game_id,
            *event.fields(),
        ]
        kind_raw, payload = await STORE_GATE.call(self._run_apply(keys, args))
        kind = kind_raw.decode()
        if kind == "OK":
            return ApplyOutcome("OK", version=int(payload))
        if kind == "STALE":
            return ApplyOutcome("STALE", version=int(payload))
        if kind == "DUP":
            return ApplyOutcome("DUP", stored=payload)
        return ApplyOutcome("NOT_FOUND")

    async def _run_apply(self, keys: list[str], args: list[Any]) -> Any:
        """``EVALSHA`` of the Apply script.

        On a plain client, on the Apply lane: one connection that concurrent
        Applies share (:class:`~services.core.redis_mux.MultiplexedConnection`),
        skipping redis-py's command layers (retry wrapper, script object,
        response callbacks) and the pool's per-command checkout, about a fifth
        of an Apply's handler time together. Like redis-py, a call that met a
        connection error or a timeout is sent again (up to three times in all)
        on a fresh connection, and a script missing after a Redis restart or
        flush is loaded and the call sent again. Cluster clients keep
        redis-py's routing.
        """
        lane = self._apply_lane
        if lane is None:
            return await self._apply(keys=keys, args=args)
        for attempt in range(3):
            try:
                return await lane.execute("EVALSHA", self._apply.sha, len(keys), *keys, *args)
            except (RedisConnectionError, RedisTimeoutError):
                # Sending again is safe: the script checks the version, so a write
                # that did land answers STALE (or, with a request id, its stored result).
                if attempt == 2:
                    raise
                continue
            except NoScriptError:
                if attempt == 2:
                    raise
            await self.client.script_load(_APPLY)
        raise AssertionError("unreachable")

    async def due_games(self, game: str, now_ms: int, limit: int) -> list[tuple[str, int]]:
        """``game``'s games whose next deadline is at or before ``now_ms``, with
        that deadline (ms), earliest first (from every bucket on a cluster)."""
        keys = self._deadline_keys(game)
        if len(keys) == 1:
            replies = [
                await self.client.zrangebyscore(keys[0], "-inf", now_ms, 0, limit, withscores=True)
            ]
        else:
            pipe = self.client.pipeline()
            for key in keys:
                pipe.zrangebyscore(key, "-inf", now_ms, 0, limit, withscores=True)
            replies = await pipe.execute()
        due = sorted(
            ((i.decode(), int(score)) for r in replies for i, score in r), key=lambda d: d[1]
        )
        return due[:limit]

    async def next_deadline(self, game: str) -> int | None:
        """The earliest deadline in ``game``'s sets (None when they are empty)."""
        keys = self._deadline_keys(game)
        if len(keys) == 1:
            replies = [await self.client.zrange(keys[0], 0, 0, withscores=True)]
        else:
            pipe = self.client.pipeline()
            for key in keys:
                pipe.zrange(key, 0, 0, withscores=True)
            replies = await pipe.execute()
        firsts = [int(r[0][1]) for r in replies if r]
        return min(firsts) if firsts else None

    async def repair_deadline(self, game: str, game_id: str, version: int, deadline: str) -> None:
        """Set the game's deadline entry to ``deadline`` ("" removes it) if the
        game is still at ``version`` (removed when the game is gone)."""
        deadlines = self._deadlines(game, game_id)
        if deadlines is None:
            return
        await self._repair_deadline(
            keys=[game_key(game_id), deadlines], args=[str(version), deadline, game_id]
        )

    async def events(self, game_id: str, after_version: int, limit: int = 0) -> list[StoredEvent]:
        """Events with a version above ``after_version``, oldest first."""
        start = f"({after_version}-0" if after_version > 0 else "-"
        if limit > 0:
            entries = await self.client.xrange(events_key(game_id), start, "+", count=limit)
        else:
            entries = await self.client.xrange(events_key(game_id), start, "+")
        return [_decode_entry(entry_id, fields) for entry_id, fields in entries]

    async def last_version(self, game_id: str) -> int:
        """The version of the newest event (0 when the stream is empty or gone)."""
        newest = await self.client.xrevrange(events_key(game_id), "+", "-", count=1)
        return int(newest[0][0].split(b"-", 1)[0]) if newest else 0


def _decode_entry(entry_id: bytes, fields: Mapping[bytes, bytes]) -> StoredEvent:
    version = int(entry_id.split(b"-", 1)[0])
    return StoredEvent.from_fields(version, {k.decode(): v.decode() for k, v in fields.items()})


def decode_live(payload: bytes) -> StoredEvent:
    """An event as published on the game's live channel (``[version, name, value, ...]``)."""
    items = orjson.loads(payload)
    return StoredEvent.from_fields(int(items[0]), dict(zip(items[1::2], items[2::2], strict=True)))
