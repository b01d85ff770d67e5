"""One Redis connection shared by many concurrent callers (the Apply lane).

Redis answers the commands of one connection in the order they arrived, so
callers need not take turns: each writes its command at once and waits for
its own reply, matched by position in a queue. With many Applies in flight,
one socket read then carries several replies. Against redis-py's
one-command-at-a-time connections this costs 44 instead of 62 µs of client
CPU per EVALSHA one after another, and 11 instead of 25 µs with 8 or more in
flight (``bench/apply_breakdown.py`` has the in-handler figures).

The lane owns its connection: it opens the socket itself (TCP, TLS or a unix
socket, from the same settings redis-py parsed out of ``REDIS_URL``: the
client pool's ``connection_kwargs``), authenticates and selects the database
with ordinary commands on it, and parses replies with hiredis, redis-py's own
C parser. Nothing of redis-py's connection internals is touched.

Two bounds keep a stalled Redis from piling up work:

* **one watchdog** on the oldest reply still awaited: when it is older than
  ``timeout_seconds`` the connection is closed and every waiting caller fails
  with redis-py's ``TimeoutError`` (Redis answers in order, so when the oldest
  reply is late, every later one is too);
* **a cap on waiting commands** (``max_pending``): a command over it is
  refused at once with :class:`LaneFull` instead of queueing in memory.

A lost connection fails every waiting call with redis-py's ``ConnectionError``;
the next command opens a fresh connection.
"""

from __future__ import annotations

import asyncio
import ssl
from collections import deque
from collections.abc import Mapping
from typing import Any

import hiredis
from redis.asyncio.connection import RedisSSLContext
from redis.exceptions import AuthenticationError, NoScriptError, ResponseError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError


class LaneFull(Exception):
    """More commands are waiting on the lane than its cap allows."""


def _reply_error(message: str) -> Exception:
    """An error reply as redis-py's exception (NOSCRIPT is the one callers handle)."""
    if message.startswith("NOSCRIPT"):
        return NoScriptError(message[len("NOSCRIPT ") :])
    return ResponseError(message)


class _Replies(asyncio.Protocol):
    """The lane's protocol: replies go to the waiting futures in order; a lost
    connection fails all of them."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.reader = hiredis.Reader(replyError=_reply_error)
        #: (reply future, loop time the command was sent), oldest first.
        self.waiting: deque[tuple[asyncio.Future[Any], float]] = deque()
        self.lost = False
        self.failure: Exception | None = None  # what to fail waiters with on close

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while (reply := self.reader.gets()) is not False:
            future = self.waiting.popleft()[0]
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
        error = self.failure or RedisConnectionError(
            f"Connection to Redis lost: {exc or 'closed by server'}"
        )
        while self.waiting:
            future = self.waiting.popleft()[0]
            if not future.done():
                future.set_exception(error)

    def send(self, packed: bytes, now: float) -> asyncio.Future[Any]:
        assert self.transport is not None
        future = asyncio.get_running_loop().create_future()
        self.waiting.append((future, now))
        self.transport.write(packed)
        return future

    def close(self, failure: Exception) -> None:
        """Close the connection, failing every waiter with ``failure``."""
        if self.transport is not None and not self.lost:
            self.failure = failure
            self.transport.close()

    @property
    def usable(self) -> bool:
        return not self.lost and self.transport is not None and not self.transport.is_closing()


class MultiplexedConnection:
    """Commands from concurrent callers over one connection of the lane's own.

    ``connection_kwargs`` are the keyword arguments redis-py's pool would give
    a connection (``host``, ``port``, ``path``, ``username``, ``password``,
    ``db``, ``ssl_*``); ``use_tls`` selects TLS.
    """

    def __init__(
        self,
        connection_kwargs: Mapping[str, Any],
        *,
        use_tls: bool = False,
        timeout_seconds: float = 10.0,
        max_pending: int = 10_000,
        watchdog_tick: float = 0.5,
    ) -> None:
        self.kwargs = dict(connection_kwargs)
        self.use_tls = use_tls
        self.timeout = timeout_seconds
        self.max_pending = max_pending
        self.tick = watchdog_tick
        self._replies: _Replies | None = None
        self._connecting = asyncio.Lock()
        self._watchdog: asyncio.TimerHandle | None = None

    @classmethod
    def for_pool(cls, pool: Any, **options: Any) -> MultiplexedConnection:
        """A lane with the same server, credentials and database as ``pool``."""
        kwargs = pool.connection_kwargs
        use_tls = any(key.startswith("ssl_") for key in kwargs) or (
            getattr(pool.connection_class, "__name__", "") == "SSLConnection"
        )
        return cls(kwargs, use_tls=use_tls, **options)

    @property
    def pending(self) -> int:
        """Commands sent and not yet answered."""
        replies = self._replies
        return len(replies.waiting) if replies is not None else 0

    async def execute(self, *args: Any) -> Any:
        """Send one command and return its reply (error replies raise).

        Raises :class:`LaneFull` at once when ``max_pending`` commands wait."""
        replies = self._replies
        if replies is None or not replies.usable:
            replies = await self._connect()
        if len(replies.waiting) >= self.max_pending:
            raise LaneFull(f"{len(replies.waiting)} Redis commands already waiting")
        loop = asyncio.get_running_loop()
        future = replies.send(hiredis.pack_command(args), loop.time())
        if self._watchdog is None:
            self._watchdog = loop.call_later(self.tick, self._check, loop)
        return await future

    def _check(self, loop: asyncio.AbstractEventLoop) -> None:
        """The watchdog: close the connection when its oldest reply is overdue."""
        self._watchdog = None
        replies = self._replies
        if replies is None or not replies.waiting:
            return
        if loop.time() - replies.waiting[0][1] > self.timeout:
            replies.close(RedisTimeoutError(f"no reply from Redis within {self.timeout} s"))
            return
        self._watchdog = loop.call_later(self.tick, self._check, loop)

    async def _connect(self) -> _Replies:
        """A live connection: the current one, or a fresh one."""
        async with self._connecting:
            current = self._replies
            if current is not None and current.usable:
                return current
            try:
                async with asyncio.timeout(self.timeout):
                    replies = await self._open()
            except TimeoutError:
                raise RedisTimeoutError("timed out connecting to Redis") from None
            except OSError as error:
                raise RedisConnectionError(f"cannot connect to Redis: {error}") from error
            self._replies = replies
            return replies

    async def _open(self) -> _Replies:
        """Open the socket, then authenticate and select the database."""
        loop = asyncio.get_running_loop()
        kwargs = self.kwargs
        if kwargs.get("path"):
            _transport, replies = await loop.create_unix_connection(_Replies, kwargs["path"])
        else:
            host = kwargs.get("host", "localhost")
            _transport, replies = await loop.create_connection(
                _Replies, host, kwargs.get("port", 6379), ssl=self._tls_context()
            )
        handshake = []
        password = kwargs.get("password")
        if password:
            username = kwargs.get("username")
            auth = ("AUTH", username, password) if username else ("AUTH", password)
            handshake.append(replies.send(hiredis.pack_command(auth), loop.time()))
        db = int(kwargs.get("db") or 0)
        if db:
            handshake.append(replies.send(hiredis.pack_command(("SELECT", db)), loop.time()))
        try:
            for reply in handshake:
                await reply
        except ResponseError as error:
            replies.close(RedisConnectionError("handshake failed"))
            raise AuthenticationError(str(error)) from error
        return replies

    def _tls_context(self) -> ssl.SSLContext | None:
        """The TLS context redis-py would build from the same ``ssl_*`` settings."""
        if not self.use_tls:
            return None
        k = self.kwargs
        return RedisSSLContext(
            keyfile=k.get("ssl_keyfile"),
            certfile=k.get("ssl_certfile"),
            cert_reqs=k.get("ssl_cert_reqs", "required"),
            ca_certs=k.get("ssl_ca_certs"),
            ca_data=k.get("ssl_ca_data"),
            ca_path=k.get("ssl_ca_path"),
            check_hostname=k.get("ssl_check_hostname", True),
            min_version=k.get("ssl_min_version"),
            ciphers=k.get("ssl_ciphers"),
            password=k.get("ssl_password"),
        ).get()

    async def aclose(self) -> None:
        """Close the connection (waiting callers fail with ConnectionError)."""
        replies = self._replies
        if replies is not None:
            replies.close(RedisConnectionError("the Apply lane was closed"))
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
