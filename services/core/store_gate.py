"""Fail fast while the store is stalled.

A stalled Redis (alive, but not answering: a failover, a long fork, a paused
process) would hold every call until the socket timeouts expire, ten seconds
and more, and the clients' own deadlines would pass first. The process's
:class:`~services.core.server.StoreWatchdog` pings Redis twice a second; when a
ping has gone unanswered for ``STORE_STALL_SECONDS`` it *trips* the gate:

- every store call waiting at that moment is ended at once (its task is
  cancelled and the cancellation turned into :class:`StoreStalled`);
- every store call made while the gate is tripped fails at once with it.

:class:`StoreStalled` is a redis-py ``ConnectionError``, so callers answer it
as they answer a lost connection: UNAVAILABLE, ``ERROR_REASON_STORE_UNAVAILABLE``
(services/core/failures.py), which clients retry. The first ping Redis answers
again resets the gate.

Nothing is applied twice or lost by ending a call early: an Apply whose script
reached Redis before the stall runs once when Redis resumes (its result stored
under its request id), and its retry, with the same request id, gets that
result (services/core/store.py); one that never reached Redis is simply not
applied, and its retry applies it. Only calls that need the store pass the
gate; the watchdog's own ping does not.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

from redis.exceptions import ConnectionError as RedisConnectionError

T = TypeVar("T")


class StoreStalled(RedisConnectionError):
    """The store is stalled (the watchdog's ping went unanswered)."""


class StoreGate:
    """The gate of one process's store calls (see the module docstring)."""

    def __init__(self) -> None:
        self.tripped = False
        #: Tasks inside a store call now.
        self._waiting: set[asyncio.Task[object]] = set()
        #: Those the trip cancelled (their cancellation becomes StoreStalled).
        self._ended: set[asyncio.Task[object]] = set()

    def trip(self) -> None:
        """The store is stalled: end the calls waiting on it, refuse new ones."""
        self.tripped = True
        for task in self._waiting:
            if task not in self._ended:
                self._ended.add(task)
                task.cancel()

    def reset(self) -> None:
        """The store answers again."""
        self.tripped = False

    async def call(self, awaitable: Awaitable[T]) -> T:
        """``await awaitable``, unless the gate is or becomes tripped."""
        if self.tripped:
            if asyncio.iscoroutine(awaitable):
                awaitable.close()
            raise StoreStalled("the store is not answering (stalled)")
        task = asyncio.current_task()
        if task is None:
            return await awaitable
        self._waiting.add(task)
        try:
            return await awaitable
        except asyncio.CancelledError:
            if task not in self._ended:
                raise
            if task.uncancel() > 0:
                # Cancelled by someone else too (a stop, a deadline): two cancel()
                # calls may deliver one CancelledError, so theirs must go on.
                raise
            raise StoreStalled("the store stopped answering (stalled)") from None
        finally:
            self._waiting.discard(task)
            self._ended.discard(task)


#: The gate of this process's game store (tripped by the watchdog).
STORE_GATE = StoreGate()
