"""Redis clients whose every command passes the store gate.

:func:`services.core.store.connect` returns one of these, so every process
that reaches Redis through it (the game services, the matchmaker, their
identity checks and limits) fails fast while the watchdog sees Redis stalled
(:mod:`services.core.store_gate`): each command, script call (``EVALSHA``
goes through ``execute_command``) and pipeline ``execute`` is an
``await STORE_GATE.call(...)``, and a call waiting when the gate trips ends
with :class:`~services.core.store_gate.StoreStalled`, which the servicers
answer UNAVAILABLE with ``ERROR_REASON_STORE_UNAVAILABLE``.

Not gated: :func:`probe` (the watchdog's own ping, which must reach Redis to
see it answer again), pub/sub connections (the Watch subscribers, which
notice a dead connection themselves) and the Apply lane
(services/core/redis_mux.py, which the game store gates itself).
"""

from __future__ import annotations

from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.client import Pipeline
from redis.asyncio.cluster import ClusterPipeline, RedisCluster

from services.core.store_gate import STORE_GATE


class GatedPipeline(Pipeline):
    """A pipeline whose ``execute`` passes the gate."""

    async def execute(self, raise_on_error: bool = True) -> list[Any]:
        return await STORE_GATE.call(super().execute(raise_on_error))


class GatedRedis(aioredis.Redis):
    """A single-node client whose commands and pipelines pass the gate."""

    async def execute_command(self, *args: Any, **options: Any) -> Any:
        return await STORE_GATE.call(super().execute_command(*args, **options))

    def pipeline(self, transaction: bool = True, shard_hint: str | None = None) -> Pipeline:
        return GatedPipeline(self.connection_pool, self.response_callbacks, transaction, shard_hint)


class GatedClusterPipeline(ClusterPipeline):
    """A cluster pipeline whose ``execute`` passes the gate."""

    async def execute(self, raise_on_error: bool = True, allow_redirections: bool = True) -> Any:
        return await STORE_GATE.call(super().execute(raise_on_error, allow_redirections))


class GatedRedisCluster(RedisCluster):
    """A cluster client whose commands and pipelines pass the gate."""

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        return await STORE_GATE.call(super().execute_command(*args, **kwargs))

    def pipeline(self, transaction: Any = None, shard_hint: Any = None) -> ClusterPipeline:
        if shard_hint:
            return super().pipeline(transaction, shard_hint)  # raises, as redis-py does
        return GatedClusterPipeline(self, transaction)


async def probe(client: aioredis.Redis | RedisCluster) -> None:
    """PING past the gate (every node, on a cluster): the watchdog's check."""
    if isinstance(client, RedisCluster):
        await RedisCluster.execute_command(client, "PING")
    else:
        await aioredis.Redis.execute_command(client, "PING")
