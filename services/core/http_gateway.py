"""The browser port: Connect applications served by Hypercorn, with CORS.

A service process serves its gRPC port (grpc.aio) and, on a second port, the
same servicer through :mod:`services.core.connect_apps`: the Connect
protocol and gRPC-Web over HTTP/1.1 and HTTP/2: cleartext (HTTP/2 with prior
knowledge, TLS ending at an ingress), or HTTPS only from the gRPC port's certificate
(``TLS_CERT_FILE`` / ``TLS_KEY_FILE``, ALPN ``h2`` and ``http/1.1``: see
:class:`GatewayTls`). Both run on the one event loop of
the process, so a call over either reaches the same handlers, caps and store.

The ASGI stack, outermost first:

- CORS (Starlette's ``CORSMiddleware``): answers preflight ``OPTIONS`` for the
  allowed origins (``CORS_ALLOWED_ORIGINS``), allows the request headers the
  protocols and Roost use (:data:`ALLOWED_HEADERS`, ``x-seat-token``
  included) and exposes the response headers a browser client must read
  (:data:`EXPOSED_HEADERS`: the gRPC-Web status, Connect's metadata);
- :func:`tag_http_version`: records the request's HTTP version for metrics;
- :class:`Router`: each Connect application under its ``/<package>.<Service>/``
  path; anything else is 404.

Hypercorn (an established HTTP/1.1 + HTTP/2 ASGI server) runs inside the
service's event loop; :meth:`HttpGateway.stop` closes the listener and gives
calls in flight the same grace as the gRPC drain.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import socket
import ssl
from collections.abc import Awaitable, Callable, Iterable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from hypercorn.asyncio import serve
from starlette.middleware.cors import CORSMiddleware

from services.core.browser_errors import send_error, unknown_method
from services.core.browser_guard import BodyBudget, RequestGuard
from services.core.browser_tls import reloading_ssl_context
from services.core.config import DEFAULT_MAX_MESSAGE_BYTES, Settings
from services.core.connect_bridge import HTTP_VERSION
from services.core.hypercorn_protocols import PortState, RoostConfig
from services.core.hypercorn_protocols import install as install_protocols

#: Hypercorn's own log: only what it cannot hand to the application (an
#: exception escaping it, which the bridge never lets happen, is a bug), so
#: warnings and errors only; no access log (the RPC metrics count the calls).
SERVER_LOG = logging.getLogger("roost.http.server")
SERVER_LOG.setLevel(logging.WARNING)

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Request headers a browser may send cross-origin: the protocols' own and Roost's.
ALLOWED_HEADERS = (
    "content-type",
    "connect-protocol-version",
    "connect-timeout-ms",
    "connect-accept-encoding",
    "connect-content-encoding",
    "grpc-timeout",
    "grpc-accept-encoding",
    "grpc-encoding",
    "x-grpc-web",
    "x-user-agent",
    "x-seat-token",
    # A frontend's bearer identity (services/core/identity/).
    "authorization",
)
#: Response headers a browser client may read: the gRPC-Web status (sent as
#: headers in a trailers-only response) and Connect's encoding headers.
EXPOSED_HEADERS = (
    "grpc-status",
    "grpc-message",
    "grpc-status-details-bin",
    "grpc-encoding",
    "grpc-accept-encoding",
    "connect-content-encoding",
    "connect-accept-encoding",
    "content-encoding",
)
#: How long a browser may cache a preflight answer (seconds).
PREFLIGHT_MAX_AGE = 7200
#: Requests per connection before Hypercorn closes it (its default is 1,000).
KEEP_ALIVE_MAX_REQUESTS = 2**31
#: How long connections closed after a drain's grace get to end by themselves.
ABORT_WAIT_SECONDS = 2.0
#: Streams one HTTP/2 connection may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS).
H2_MAX_CONCURRENT_STREAMS = 100


class ConnectApp(Protocol):
    """A generated Connect ASGI application: an ASGI app with its service path."""

    @property
    def path(self) -> str: ...

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None: ...


class Router:
    """Dispatches each request to the application whose ``/<service>/`` path
    prefixes it; answers the lifespan protocol itself (the applications need
    no start-up). Any other path: 404; a WebSocket: refused."""

    def __init__(self, apps: Iterable[ConnectApp]) -> None:
        self.apps = {f"{app.path}/": app for app in apps}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "http":  # a WebSocket: refused (HTTP 403)
            await send({"type": "websocket.close", "code": 1008})
            return
        path: str = scope.get("path", "")
        prefix = path[: path.find("/", 1) + 1] if path.count("/") >= 2 else ""
        app = self.apps.get(prefix)
        if app is None:
            content_type = next(
                (v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"content-type"),
                "",
            )
            await send_error(send, content_type.lower(), unknown_method(path))
            return
        await app(scope, receive, send)


def tag_http_version(app: ASGIApp) -> ASGIApp:
    """``app``, with the request's HTTP version in
    :data:`~services.core.connect_bridge.HTTP_VERSION` while it runs."""

    async def tagged(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            HTTP_VERSION.set(scope.get("http_version", "unknown"))
        await app(scope, receive, send)

    return tagged


def origin_rules(origins: Sequence[str]) -> tuple[list[str], str | None]:
    """Exact origins and one regex for the patterns among ``origins``: ``*``
    alone allows any origin; a ``*`` inside an origin matches one host label
    or a port (``https://*.example.com``, ``http://localhost:*``)."""
    exact = [o for o in origins if o == "*" or "*" not in o]
    patterns = [
        re.escape(o).replace(r"\*", r"[A-Za-z0-9-]+") for o in origins if o != "*" and "*" in o
    ]
    return exact, ("|".join(f"(?:{p})" for p in patterns) or None)


def browser_app(
    apps: Iterable[ConnectApp],
    allowed_origins: Sequence[str],
    limits: GatewayLimits | None = None,
) -> ASGIApp:
    """The whole ASGI stack of the browser port (see the module docstring)."""
    limits = limits or GatewayLimits()
    exact, regex = origin_rules(allowed_origins)
    guard = RequestGuard(
        tag_http_version(Router(apps)),
        max_message_bytes=limits.max_message_bytes,
        body_timeout_seconds=limits.body_timeout,
        budget=BodyBudget(limits.max_body_buffer_bytes),
    )
    return CORSMiddleware(
        guard,
        allow_origins=exact,
        allow_origin_regex=regex,
        allow_methods=("GET", "POST"),
        allow_headers=ALLOWED_HEADERS,
        expose_headers=EXPOSED_HEADERS,
        max_age=PREFLIGHT_MAX_AGE,
    )


class HttpGateway:
    """Hypercorn serving :func:`browser_app` on one port, in this event loop,
    started through its public ``serve`` on a socket bound here (so port 0 works
    and the backlog is the setting's), with the protocols of
    :mod:`services.core.hypercorn_protocols`."""

    def __init__(
        self, app: ASGIApp, host: str, port: int, limits: GatewayLimits | None = None
    ) -> None:
        self.limits = limits or GatewayLimits()
        install_protocols()
        self.state = PortState(
            max_connections=self.limits.max_connections,
            max_connection_age=self.limits.max_connection_age,
            max_connection_age_grace=self.limits.max_connection_age_grace,
            idle_timeout=self.limits.idle_timeout,
            max_resets_per_second=self.limits.max_resets_per_second,
            reset_burst=self.limits.reset_burst,
        )
        self.config = RoostConfig(self.state)
        self.config.accesslog = None
        self.config.errorlog = SERVER_LOG
        # Hypercorn closes a connection after 1,000 requests by default; an HTTP/2
        # client may have sent more on it by then and sees them fail.
        self.config.keep_alive_max_requests = KEEP_ALIVE_MAX_REQUESTS
        self.config.keep_alive_timeout = self.limits.idle_timeout
        self.config.backlog = self.limits.backlog
        self.config.h2_max_concurrent_streams = H2_MAX_CONCURRENT_STREAMS
        self.host = host.strip("[]")
        self.requested_port = port
        self.app = app
        self.port = 0
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> int:
        """Bind, start serving and return the port (the one chosen, for port 0)."""
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
            sock.bind((self.host, self.requested_port))
            sock.listen(self.limits.backlog)  # connections queue until accepted
            self.port = sock.getsockname()[1]
            # Hypercorn takes the socket over by descriptor (its "fd://" bind).
            self.config.bind = [f"fd://{os.dup(sock.fileno())}"]
        finally:
            sock.close()
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(_quiet_cancelled_connections(loop.get_exception_handler()))
        started = loop.create_future()

        async def serving() -> None:
            started.set_result(None)
            await self._stop.wait()

        self._task = asyncio.create_task(
            serve(self.app, self.config, shutdown_trigger=serving, mode="asgi"),
            name="http-gateway",
        )
        await started  # serve() has bound its listener before it waits on the trigger
        return self.port

    async def stop(self, grace: float) -> None:
        """Stop accepting, give calls in flight ``grace`` seconds, then close
        every connection still open (a client never holds the stop up)."""
        if self._task is None:
            return
        # Hypercorn cancels what outlives its graceful timeout; the connections
        # are closed here first, so that they end by themselves.
        self.config.graceful_timeout = grace + ABORT_WAIT_SECONDS
        self._stop.set()
        done, _ = await asyncio.wait({self._task}, timeout=grace)
        if not done:
            await self.state.abort_all(ABORT_WAIT_SECONDS)
            await asyncio.wait({self._task}, timeout=ABORT_WAIT_SECONDS)
        if not self._task.done():
            self._task.cancel()
            await asyncio.wait({self._task}, timeout=ABORT_WAIT_SECONDS)
        if self._task.done() and not self._task.cancelled():
            self._task.exception()  # retrieved: a failure of the server was logged by it


def _required(context: ssl.SSLContext | None) -> ssl.SSLContext:
    assert context is not None, "certfile and keyfile are set"
    return context


def _quiet_cancelled_connections(previous: Any) -> Any:
    """The loop's exception handler, minus one CPython 3.11 false alarm: asyncio's
    stream server callback calls ``task.exception()`` on a connection task that a
    stop cancelled and logs the resulting CancelledError as an error (3.12 checks
    ``task.cancelled()`` first). Everything else goes to ``previous``."""

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if isinstance(context.get("exception"), asyncio.CancelledError) and (
            "StreamReaderProtocol" in str(context.get("message", ""))
        ):
            return
        if previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    return handle


@dataclass(frozen=True)
class GatewayTls:
    """The browser port's certificate and key (PEM paths; the same files as the
    gRPC port's). Set, the port speaks HTTPS only (ALPN ``h2``, ``http/1.1``): a
    plaintext request fails its TLS handshake and is never served. Renewed files
    are used by new connections without a restart
    (:func:`services.core.browser_tls.reloading_ssl_context`)."""

    cert_file: str
    key_file: str

    @classmethod
    def from_settings(cls, settings: Settings) -> GatewayTls | None:
        """The pair from ``TLS_CERT_FILE`` / ``TLS_KEY_FILE``, None when neither
        is set (both or neither: the gRPC port refuses one alone first)."""
        if not (settings.tls_cert_file and settings.tls_key_file):
            return None
        return cls(settings.tls_cert_file, settings.tls_key_file)


@dataclass(frozen=True)
class GatewayLimits:
    """The browser port's limits (from :class:`services.core.config.Settings`)."""

    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    idle_timeout: float = 15.0
    body_timeout: float = 10.0
    backlog: int = 4096
    max_connections: int = 4096
    max_body_buffer_bytes: int = 64 * 1024 * 1024
    max_connection_age: float = 0.0
    max_connection_age_grace: float = 60.0
    max_resets_per_second: float = 100.0
    reset_burst: int = 200

    @classmethod
    def from_settings(cls, settings: Settings) -> GatewayLimits:
        b = settings.browser
        return cls(
            max_message_bytes=settings.max_message_bytes,
            idle_timeout=b.idle_timeout_seconds,
            body_timeout=b.body_timeout_seconds,
            backlog=b.backlog,
            max_connections=b.max_connections,
            max_body_buffer_bytes=b.max_body_buffer_bytes,
            max_connection_age=float(settings.max_connection_age_seconds),
            max_connection_age_grace=settings.max_connection_age_grace_seconds,
            max_resets_per_second=b.max_resets_per_second,
            reset_burst=b.reset_burst,
        )


async def start_gateway(
    apps: Sequence[ConnectApp],
    host: str,
    port: int,
    allowed_origins: Sequence[str],
    limits: GatewayLimits | None = None,
    tls: GatewayTls | None = None,
) -> HttpGateway:
    """Serve ``apps`` on ``host:port`` (0: a free port) with CORS for
    ``allowed_origins``; over HTTPS only when ``tls`` is given."""
    limits = limits or GatewayLimits()
    gateway = HttpGateway(browser_app(apps, allowed_origins, limits), host, port, limits)
    if tls is not None:
        # Hypercorn's SSL context offers ALPN h2 then http/1.1 (its alpn_protocols).
        gateway.config.certfile = tls.cert_file
        gateway.config.keyfile = tls.key_file
        make = gateway.config.create_ssl_context  # Hypercorn's, with the settings above
        gateway.config.create_ssl_context = lambda: reloading_ssl_context(  # type: ignore[method-assign]
            lambda: _required(make()), tls.cert_file, tls.key_file
        )
    await gateway.start()
    return gateway
