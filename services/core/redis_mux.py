"""One Redis connection shared by many concurrent callers (the Apply lane).

Redis answers the commands of one connection in the order they arrived, so
callers need not take turns: each writes its command at once and waits for
its own reply, matched by position in a queue. With many Applies in flight,
one socket read then carries several replies. Against redis-py's
one-command-at-a-time connections this costs 44 instead of 62 µs of client
CPU per EVALSHA one after another, and 11 instead of 25 µs with 8 or more in
flight (``bench/apply_breakdown.py`` has the in-handler figures).

The connection itself is redis-py's: taken from the client's pool, it has
connected, authenticated and selected its database (TLS and all) as any
other; this module then takes over its transport (``set_protocol``) and
parses replies with hiredis, redis-py's own C parser. A lost connection
fails every waiting call with redis-py's ``ConnectionError`` (the caller may
send again on a fresh one); a call with no answer within the deadline fails
with its ``TimeoutError`` and closes the connection, as redis-py would.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

import hiredis
import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from services.core.deadlines import SharedDeadlines


def _reply_error(message: str) -> Exception:
    """An error reply as redis-py's exception (NOSCRIPT is the one callers handle)."""
    if message.startswith("NOSCRIPT"):
        return NoScriptError(message[len("NOSCRIPT ") :])
    return ResponseError(message)


class _Replies(asyncio.Protocol):
    """The protocol of a taken-over connection: replies go to the waiting
    futures in order; a lost connection fails all of them."""

    def __init__(self, transport: asyncio.BaseTransport, previous: asyncio.BaseProtocol) -> None:
        self.transport: Any = transport
        #: redis-py's stream protocol, still told when the connection closes (its
        #: ``disconnect`` waits for that).
        self.previous = previous
        self.reader = hiredis.Reader(replyError=_reply_error)
        self.waiting: deque[asyncio.Future[Any]] = deque()
        self.lost = False

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while (reply := self.reader.gets()) is not False:
            future = self.waiting.popleft()
            if future.done():  # its caller gave up (cancelled): the reply is dropped
                continue
            if isinstance(reply, Exception):
                future.set_exception(reply)
            else:
                future.set_result(reply)

    def eof_received(self) -> bool:
        return False  # close the transport; connection_lost follows

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        self.previous.connection_lost(exc)
        error = RedisConnectionError(f"Connection to Redis lost: {exc or 'closed by server'}")
        while self.waiting:
            future = self.waiting.popleft()
            if not future.done():
                future.set_exception(error)

    def send(self, packed: bytes) -> asyncio.Future[Any]:
        future = asyncio.get_running_loop().create_future()
        self.waiting.append(future)
        self.transport.write(packed)
        return future


class MultiplexedConnection:
    """Commands from concurrent callers over one connection of ``pool``."""

    def __init__(self, pool: aioredis.ConnectionPool, timeout_seconds: float) -> None:
        self.pool = pool
        self.deadlines = SharedDeadlines(timeout_seconds, tick=1.0, error=RedisTimeoutError)
        self._connection: aioredis.Connection | None = None
        self._replies: _Replies | None = None
        self._connecting = asyncio.Lock()

    async def execute(self, *args: Any) -> Any:
        """Send one command and return its reply (error replies raise)."""
        replies = self._replies
        if replies is None or replies.lost or replies.transport.is_closing():
            replies = await self._connect()
        future = replies.send(hiredis.pack_command(args))
        try:
            return await self.deadlines.run(future)
        except RedisTimeoutError:
            replies.transport.close()  # like redis-py: a connection that went quiet is dropped
            raise

    async def _connect(self) -> _Replies:
        """A live connection: the current one, or a fresh one from the pool."""
        async with self._connecting:
            current = self._replies
            if current is not None and not current.lost and not current.transport.is_closing():
                return current
            if self._connection is not None:  # the lost one goes back, to reconnect there
                await self._connection.disconnect(nowait=True)
                await self.pool.release(self._connection)
                self._connection = None
            connection = await self.pool.get_connection()
            transport = connection._writer.transport  # type: ignore[union-attr]
            replies = _Replies(transport, transport.get_protocol())
            transport.set_protocol(replies)
            self._connection, self._replies = connection, replies
            return replies
