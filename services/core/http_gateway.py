"""The browser port: Connect applications served by Hypercorn, with CORS.

A service process serves its gRPC port (grpc.aio) and, on a second port, the
same servicer through :mod:`services.core.connect_apps`: the Connect
protocol and gRPC-Web over HTTP/1.1 and HTTP/2 (cleartext with prior knowledge;
TLS ends at the ingress). Both run on the one event loop of
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
import contextlib
import logging
import re
from collections.abc import Awaitable, Callable, Iterable, MutableMapping, Sequence
from typing import Any, Protocol

from hypercorn.asyncio.run import worker_serve
from hypercorn.config import Config
from hypercorn.utils import wrap_app
from starlette.middleware.cors import CORSMiddleware

from services.core.connect_bridge import HTTP_VERSION

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
            await send({"type": "http.response.start", "status": 404, "headers": []})
            await send({"type": "http.response.body", "body": b""})
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


def browser_app(apps: Iterable[ConnectApp], allowed_origins: Sequence[str]) -> ASGIApp:
    """The whole ASGI stack of the browser port (see the module docstring)."""
    exact, regex = origin_rules(allowed_origins)
    return CORSMiddleware(
        tag_http_version(Router(apps)),
        allow_origins=exact,
        allow_origin_regex=regex,
        allow_methods=("GET", "POST"),
        allow_headers=ALLOWED_HEADERS,
        expose_headers=EXPOSED_HEADERS,
        max_age=PREFLIGHT_MAX_AGE,
    )


class HttpGateway:
    """Hypercorn serving :func:`browser_app` on one port, in this event loop."""

    def __init__(self, app: ASGIApp, host: str, port: int) -> None:
        self.config = Config()
        self.config.bind = [f"{host}:{port}"]
        self.config.accesslog = None
        self.config.errorlog = SERVER_LOG
        # Hypercorn closes a connection after 1,000 requests by default; an HTTP/2
        # client may have sent more on it by then and sees them fail.
        self.config.keep_alive_max_requests = KEEP_ALIVE_MAX_REQUESTS
        self.app = app
        self.port = 0
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> int:
        """Bind, start serving and return the port (the one chosen, for port 0)."""
        sockets = self.config.create_sockets()
        for sock in sockets.insecure_sockets:
            sock.listen(self.config.backlog)  # connections queue until accepted
        self.port = sockets.insecure_sockets[0].getsockname()[1]
        self._task = asyncio.create_task(
            worker_serve(
                wrap_app(self.app, self.config.wsgi_max_body_size, "asgi"),
                self.config,
                sockets=sockets,
                shutdown_trigger=self._stop.wait,
            ),
            name="http-gateway",
        )
        return self.port

    async def stop(self, grace: float) -> None:
        """Stop accepting, give calls in flight ``grace`` seconds, then stop."""
        if self._task is None:
            return
        self.config.graceful_timeout = grace
        self._stop.set()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


async def start_gateway(
    apps: Sequence[ConnectApp], host: str, port: int, allowed_origins: Sequence[str]
) -> HttpGateway:
    """Serve ``apps`` on ``host:port`` (0: a free port) with CORS for ``allowed_origins``."""
    gateway = HttpGateway(browser_app(apps, allowed_origins), host, port)
    await gateway.start()
    return gateway
