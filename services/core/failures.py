"""Failures that are not the client's mistake, as the statuses a client retries on.

A Redis that cannot be reached, that does not answer in time, that is loading
or whose cluster is reshaping is ``UNAVAILABLE`` (``ERROR_REASON_STORE_UNAVAILABLE``);
a Redis at ``maxmemory`` refusing a write is ``RESOURCE_EXHAUSTED``
(``ERROR_REASON_STORE_FULL``); a full Apply lane is ``RESOURCE_EXHAUSTED``
(``ERROR_REASON_OVERLOADED``); a Watch ended by a draining server is
``UNAVAILABLE`` (``ERROR_REASON_DRAINING``). None of them is ``INTERNAL``.
"""

from __future__ import annotations

from redis.exceptions import (
    ClusterError,
    OutOfMemoryError,
    ReadOnlyError,
    ResponseError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from services.core import errors
from services.core.errors import ServiceError
from services.core.redis_mux import LaneFull
from services.core.watch import HubClosed, WatcherBehind

_UNAVAILABLE = (
    RedisConnectionError,  # refused, reset, lost, no pooled connection free in time
    RedisTimeoutError,
    ReadOnlyError,  # a replica answering while a failover promotes a new primary
    TryAgainError,
    ClusterError,
    ConnectionError,  # OSError family raised by sockets directly
    TimeoutError,
)


def as_service_error(error: BaseException) -> ServiceError | None:
    """The status a client should see for ``error``; None for a real bug."""
    if isinstance(error, ServiceError):
        return error
    if isinstance(error, LaneFull):
        return errors.overloaded("redis_commands_waiting")
    if isinstance(error, HubClosed):
        return errors.draining()
    if isinstance(error, WatcherBehind):
        return errors.watch_behind(error.last_version)
    if isinstance(error, OutOfMemoryError) or (
        isinstance(error, ResponseError) and str(error).startswith("OOM")
    ):
        return errors.store_full()
    if isinstance(error, _UNAVAILABLE):
        return errors.store_unavailable()
    return None
