"""The browser port's request guard: what reaches the Connect runtime is sane.

An ASGI middleware between CORS and the router. Before any handler runs it
refuses, in the request's own protocol (:mod:`services.core.browser_errors`)
and with an ``ErrorInfo`` reason:

- a header name or value that is not UTF-8, a ``connect-timeout-ms`` or
  ``grpc-timeout`` not of its protocol's form, a ``connect-protocol-version``
  other than 1 (``ERROR_REASON_INVALID_HEADER``, INVALID_ARGUMENT);
- gRPC (``application/grpc``) over HTTP/1.1, which cannot carry its trailers
  (``ERROR_REASON_UNSUPPORTED_PROTOCOL``, UNIMPLEMENTED: use HTTP/2, or
  gRPC-Web or Connect);
- a body over ``MAX_MESSAGE_BYTES`` (plus a message envelope's 5 bytes)
  (``ERROR_REASON_MESSAGE_TOO_LARGE``, INVALID_ARGUMENT);
- a body that has not fully arrived ``body_timeout`` seconds after the headers
  (``ERROR_REASON_REQUEST_TIMEOUT``, DEADLINE_EXCEEDED; the connection is closed);
- a body that would take the port over its buffer budget
  (``ERROR_REASON_OVERLOADED``, RESOURCE_EXHAUSTED, retryable).

Every method served takes one request message (unary and server streams), so
the guard reads the whole body before the runtime sees it and hands it over in
one piece: the size and time limits hold whatever the client sends, and the
body's bytes are counted against :class:`BodyBudget` until the call ends.

Answering **before** the body is read would break the connection: on HTTP/1.1
the server must then close it while the client is still writing (the client
sees ``EPIPE``), so an oversize body is read and dropped (up to
:data:`DRAIN_FACTOR` times the limit, within the body timeout) and the
connection kept; only a larger or slower one is answered with ``Connection:
close``. On HTTP/2 the answer goes at once and the stream is reset with
NO_ERROR (:mod:`services.core.hypercorn_protocols`), the connection and its
other streams untouched.

The runtime's own refusals are given the same form: its bare 404 (no such
method), 405 and 415 are rewritten here (UNIMPLEMENTED with
``ERROR_REASON_UNKNOWN_METHOD`` / ``ERROR_REASON_UNSUPPORTED_PROTOCOL``; over
gRPC and gRPC-Web with a ``grpc-status``), and :class:`ErrorInfoInterceptor`
adds the ``ErrorInfo`` to the errors it raises while reading a message (a
broken envelope, an unknown compression).

gRPC-Web text (``application/grpc-web-text``, Google's grpc-web default) is
served: the base64 body is decoded to binary gRPC-Web for the runtime and the
response encoded back, chunk by chunk.
"""

from __future__ import annotations

import asyncio
import base64
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import grpc
from connectrpc.errors import ConnectError
from connectrpc.request import RequestContext

from services.core import browser_errors, errors
from services.core.browser_errors import protocol_kind, send_error
from services.core.errors import ServiceError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: A message envelope's prefix (flags and length) in gRPC, gRPC-Web and Connect streams.
ENVELOPE_BYTES = 5
#: An oversize HTTP/1.1 body up to this many times the limit is read and dropped,
#: keeping the connection; a larger one is answered at once with Connection: close.
DRAIN_FACTOR = 4
_GRPC_TIMEOUT = re.compile(r"[0-9]{1,8}[HMSmun]")
_BASE64_SEGMENT = re.compile(rb"[A-Za-z0-9+/]+={0,2}")


class BodyBudget:
    """Request bytes held at once by the whole port, up to ``limit``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held = 0

    def take(self, size: int) -> bool:
        """Reserve ``size`` bytes; False (nothing reserved) when over the limit."""
        if self.held + size > self.limit:
            return False
        self.held += size
        return True

    def give(self, size: int) -> None:
        self.held -= size


class _Refused(Exception):
    """A request refused before it reached the runtime."""

    def __init__(self, error: ServiceError, close: bool = False, read: bool = True) -> None:
        super().__init__(error.message)
        self.error = error
        self.close = close
        #: False when refused before the body was looked at (HTTP/1.1 drains it).
        self.read = read


#: Headers whose values the guard checks (or reads), and what it checks.
_CHECKED = frozenset({b"connect-timeout-ms", b"grpc-timeout", b"connect-protocol-version"})


def _header_problem(scope: Scope) -> ServiceError | None:
    """The first header not of its protocol's form, as an error (one pass; an
    ASCII header, nearly all of them, is not decoded at all)."""
    for raw_name, raw_value in scope.get("headers", ()):
        if not (raw_name.isascii() and raw_value.isascii()):
            try:
                raw_name.decode("utf-8")
                raw_value.decode("utf-8")
            except UnicodeDecodeError:
                shown = raw_name.decode("latin-1")
                return browser_errors.invalid_header(shown, "is not UTF-8")
        if raw_name in _CHECKED:
            problem = _timeout_problem(raw_name.decode(), raw_value.decode("utf-8"))
            if problem is not None:
                return problem
    return None


def _timeout_problem(name: str, value: str) -> ServiceError | None:
    if name == "connect-timeout-ms" and not (
        value.isascii() and value.isdigit() and len(value) <= 10
    ):
        return browser_errors.invalid_header(name, "must be 1 to 10 digits (milliseconds)")
    if name == "grpc-timeout" and not _GRPC_TIMEOUT.fullmatch(value):
        return browser_errors.invalid_header(name, "must be 1 to 8 digits and a unit")
    if name == "connect-protocol-version" and value != "1":
        return browser_errors.invalid_header(name, "must be 1")
    return None


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return ""


def decode_grpc_web_text(body: bytes) -> bytes:
    """The binary gRPC-Web body of a text-mode one (base64, possibly in
    several padded pieces); raises ValueError when it is not base64."""
    compact = b"".join(body.split())
    pieces = _BASE64_SEGMENT.findall(compact)
    if b"".join(pieces) != compact:
        raise ValueError("not base64")
    return b"".join(base64.b64decode(piece + b"=" * (-len(piece) % 4)) for piece in pieces)


class _TextEncoder:
    """Encodes a gRPC-Web response body to text mode as it is sent: whole
    3-byte groups at once, the rest carried to the next chunk, padded at the end."""

    def __init__(self) -> None:
        self.carry = b""

    def encode(self, chunk: bytes, last: bool) -> bytes:
        data = self.carry + chunk
        cut = len(data) if last else len(data) - len(data) % 3
        self.carry = data[cut:]
        return base64.b64encode(data[:cut])


class RequestGuard:
    """The ASGI middleware (see the module docstring) in front of ``app``."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_message_bytes: int,
        body_timeout_seconds: float,
        budget: BodyBudget,
    ) -> None:
        self.app = app
        self.limit = max_message_bytes
        self.body_timeout = body_timeout_seconds
        self.budget = budget

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        content_type = _header(scope, b"content-type").lower()
        held = 0
        try:
            problem = _header_problem(scope)
            if problem is not None:
                raise _Refused(problem, read=False)
            kind = protocol_kind(content_type)
            if kind == "grpc" and scope.get("http_version") != "2":
                raise _Refused(
                    browser_errors.unsupported_protocol(
                        content_type,
                        "gRPC needs HTTP/2 (its status travels in trailers); over "
                        "HTTP/1.1 use gRPC-Web or Connect",
                    ),
                    read=False,
                )
            body, held = await self._read_body(scope, receive)
            if kind == "grpc-web-text":
                scope, body = self._as_binary_grpc_web(scope, body)
                send = self._text_sender(send)
        except _Refused as refused:
            self.budget.give(held)
            close = refused.close
            if not refused.read and scope.get("http_version") != "2":
                close = not await self._drain(receive)
            await send_error(send, content_type, refused.error, close=close)
            return
        try:
            await self.app(
                scope,
                self._replay(body, receive),
                self._rewriter(send, content_type, scope.get("path", "")),
            )
        finally:
            self.budget.give(held)

    async def _read_body(self, scope: Scope, receive: Receive) -> tuple[bytes, int]:
        """The whole body and the bytes reserved for it (see the module docstring)."""
        limit = self.limit + ENVELOPE_BYTES
        http1 = scope.get("http_version") != "2"
        declared = _header(scope, b"content-length")
        expected = int(declared) if declared.isdigit() else -1
        if expected > limit and not (http1 and expected <= DRAIN_FACTOR * limit):
            raise _Refused(errors.message_too_large(expected, self.limit), close=http1)
        chunks: list[bytes] = []
        size = held = 0
        try:
            async with asyncio.timeout(self.body_timeout):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":  # the client went away
                        raise _Refused(browser_errors.request_timeout(self.body_timeout), True)
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > limit:
                        if not http1 or size > DRAIN_FACTOR * limit:
                            raise _Refused(errors.message_too_large(size, self.limit), close=http1)
                        chunks.clear()  # dropped: read on only to keep the connection
                    elif chunk:
                        if not self.budget.take(len(chunk)):
                            raise _Refused(browser_errors.body_buffer_full(), close=http1)
                        held += len(chunk)
                        chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            self.budget.give(held)
            raise _Refused(browser_errors.request_timeout(self.body_timeout), close=True) from None
        except _Refused:
            self.budget.give(held)
            raise
        if size > limit:
            self.budget.give(held)
            raise _Refused(errors.message_too_large(size, self.limit))
        return b"".join(chunks), held

    async def _drain(self, receive: Receive) -> bool:
        """Read and drop the rest of an HTTP/1.1 body (at most
        :data:`DRAIN_FACTOR` times the limit, within the body timeout), so the
        connection can carry the answer and the next request; False when it
        could not be (the connection is then closed after the answer)."""
        size = 0
        try:
            async with asyncio.timeout(self.body_timeout):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":
                        return False
                    size += len(message.get("body", b""))
                    if size > DRAIN_FACTOR * (self.limit + ENVELOPE_BYTES):
                        return False
                    if not message.get("more_body", False):
                        return True
        except TimeoutError:
            return False

    @staticmethod
    def _replay(body: bytes, receive: Receive) -> Receive:
        """A receive that hands over ``body`` in one message, then waits on the
        real one (which reports the client's disconnect)."""
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return replay

    @staticmethod
    def _as_binary_grpc_web(scope: Scope, body: bytes) -> tuple[Scope, bytes]:
        """The scope and body of a gRPC-Web text request as binary gRPC-Web."""
        try:
            binary = decode_grpc_web_text(body)
        except ValueError:
            raise _Refused(
                ServiceError(
                    grpc.StatusCode.INVALID_ARGUMENT,
                    "ERROR_REASON_MALFORMED_FRAME",
                    "the gRPC-Web text body is not base64",
                )
            ) from None
        headers = [
            (k, v.replace(b"grpc-web-text", b"grpc-web"))
            if k in {b"content-type", b"accept"}
            else (k, v)
            for k, v in scope.get("headers", ())
        ]
        return {**scope, "headers": headers}, binary

    @staticmethod
    def _text_sender(send: Send) -> Send:
        """A send that writes a binary gRPC-Web response as gRPC-Web text."""
        encoder = _TextEncoder()

        async def text_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (k, v.replace(b"grpc-web", b"grpc-web-text"))
                    if k == b"content-type"
                    else (k, v)
                    for k, v in message.get("headers", ())
                    if k != b"content-length"
                ]
                message = {**message, "headers": headers}
            elif message["type"] == "http.response.body":
                last = not message.get("more_body", False)
                message = {**message, "body": encoder.encode(message.get("body", b""), last)}
            await send(message)

        return text_send

    @staticmethod
    def _rewriter(send: Send, content_type: str, path: str) -> Send:
        """A send that turns the runtime's bare 404 / 405 / 415 (no body type)
        into Roost errors with ErrorInfo (and a grpc-status for gRPC and gRPC-Web)."""
        swallowing = False

        async def rewrite(message: Message) -> None:
            nonlocal swallowing
            if swallowing:
                return  # the runtime's own (empty) body of a rewritten answer
            if message["type"] == "http.response.start" and message["status"] in {404, 405, 415}:
                types = [v for k, v in message.get("headers", ()) if k == b"content-type"]
                if not types:
                    swallowing = True
                    await send_error(
                        send, content_type, _bare_status_error(message["status"], path)
                    )
                    return
            await send(message)

        return rewrite


def _bare_status_error(status: int, path: str) -> ServiceError:
    if status == 404:
        return browser_errors.unknown_method(path)
    if status == 405:
        return browser_errors.unsupported_protocol("", "only POST (and GET for reads) is served")
    return browser_errors.unsupported_protocol(
        "", "content type not served: use application/proto or application/json (Connect), "
        "application/grpc-web(+proto), application/grpc-web-text or application/grpc (HTTP/2)",
    )  # fmt: skip


class ErrorInfoInterceptor:
    """A Connect metadata interceptor: an error the runtime raised about the
    request's framing (no details) leaves with its Roost ``ErrorInfo``
    (:func:`~services.core.browser_errors.protocol_error`)."""

    def __init__(self, max_message_bytes: int) -> None:
        self.limit = max_message_bytes

    async def on_start(self, ctx: RequestContext[Any, Any]) -> None:
        return None

    async def on_end(
        self, token: None, ctx: RequestContext[Any, Any], error: Exception | None, /
    ) -> None:
        if isinstance(error, ConnectError):
            roost = browser_errors.protocol_error(error, self.limit)
            if roost is not None:
                raise browser_errors.connect_error(roost)
