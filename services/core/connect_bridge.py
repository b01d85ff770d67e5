"""One handler, two transports: a grpc.aio handler called by the Connect runtime.

The Connect project's runtime (``connectrpc``) speaks the Connect protocol,
gRPC-Web and gRPC; :mod:`services.core.connect_apps` builds its applications
from the generated stubs, with one function per RPC made here from the
servicer's own method by :func:`bridge_unary` / :func:`bridge_stream`:

- the handler receives the decoded request and a :class:`BridgedContext`: the
  part of ``grpc.aio.ServicerContext`` Roost's handlers use, read from the HTTP
  request (headers as invocation metadata, so ``x-seat-token`` works as over
  gRPC; the Connect or gRPC-Web timeout as ``time_remaining``; the client's
  address as ``peer``);
- ``context.abort`` / ``abort_with_status`` raise :class:`BridgedAbort`, both a
  ``grpc.aio.AbortError`` (the servicer's wrappers let it through, exactly as
  a real abort) and a ``ConnectError`` with the same code, message and details
  (the ``google.rpc.ErrorInfo`` reason and metadata, ``BadRequest``), which
  the runtime writes in each protocol's own way;
- a handler may return its response as serialized bytes (Apply does): they
  are handed to the runtime as a :class:`SerializedReply`, which the binary
  codec writes as they are (no parse and re-serialize) and the JSON codec
  parses once to write its JSON.

Nothing here implements a wire protocol. The caps, metrics and logging of the
servicer's ``unary`` / ``streaming`` wrappers apply unchanged; each bridged
call is also counted by protocol in ``roost_browser_rpcs_total``.
"""

from __future__ import annotations

import contextvars
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from typing import Any

import grpc
from connectrpc.code import Code
from connectrpc.errors import ConnectError, ErrorDetail
from connectrpc.request import RequestContext
from google.protobuf.message import Message
from google.rpc import status_pb2
from prometheus_client import Counter
from protobuf.wkt import Any as WireAny

from services.core.logging import get_logger

log = get_logger("roost.connect")

#: The trailing metadata key of a gRPC rich status (``google.rpc.Status``).
STATUS_DETAILS_KEY = "grpc-status-details-bin"

#: The HTTP version of the request being handled (set by the HTTP gateway).
HTTP_VERSION: contextvars.ContextVar[str] = contextvars.ContextVar(
    "roost_http_version", default="unknown"
)

BROWSER_RPCS = Counter(
    "roost_browser_rpcs",
    "RPCs received on the browser port (Connect, gRPC-Web, gRPC over HTTP), by service, "
    "method, protocol, HTTP version and status code; also counted in roost_rpcs_total",
    ["service", "method", "protocol", "http_version", "code"],
)


def connect_code(code: grpc.StatusCode) -> Code:
    """The Connect code of a gRPC status code (the same names; gRPC spells CANCELLED)."""
    return Code.CANCELED if code is grpc.StatusCode.CANCELLED else Code[code.name]


def protocol_of(content_type: str) -> str:
    """``connect``, ``grpc-web`` or ``grpc``, from a request's content type."""
    if content_type.startswith("application/grpc-web"):
        return "grpc-web"
    if content_type.startswith("application/grpc"):
        return "grpc"
    return "connect"


def _details(trailing_metadata: Iterable[tuple[str, str | bytes]]) -> list[ErrorDetail]:
    """The rich status details carried in ``trailing_metadata``, as Connect details."""
    for key, value in trailing_metadata or ():
        if key == STATUS_DETAILS_KEY and isinstance(value, bytes):
            status = status_pb2.Status.FromString(value)
            return [
                ErrorDetail(WireAny(type_url=detail.type_url, value=detail.value))
                for detail in status.details
            ]
    return []


class BridgedAbort(grpc.aio.AbortError, ConnectError):
    """An aborted call: to the servicer's wrappers a ``grpc.aio.AbortError``
    (re-raised untouched, as a real abort is), to the Connect runtime the
    ``ConnectError`` it answers with."""

    def __init__(self, code: grpc.StatusCode, message: str, details: list[ErrorDetail]) -> None:
        ConnectError.__init__(self, connect_code(code), message, details)
        self.grpc_code = code


class BridgedContext:
    """What Roost's handlers use of ``grpc.aio.ServicerContext``, over HTTP.

    Invocation metadata are the request's headers (lower-case names, values as
    sent); trailing metadata go out as the response's trailers."""

    __slots__ = ("_ctx",)

    def __init__(self, ctx: RequestContext[Any, Any]) -> None:
        self._ctx = ctx

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        return tuple(self._ctx.request_headers.allitems())

    async def abort(
        self,
        code: grpc.StatusCode,
        details: str = "",
        trailing_metadata: Sequence[tuple[str, str | bytes]] = (),
    ) -> None:
        raise BridgedAbort(code, details, _details(trailing_metadata))

    async def abort_with_status(self, status: grpc.Status) -> None:
        await self.abort(status.code, status.details, status.trailing_metadata)

    def time_remaining(self) -> float | None:
        remaining = self._ctx.timeout_ms
        return None if remaining is None else max(remaining / 1000.0, 0.0)

    def peer(self) -> str:
        """As grpc writes it: ``ipv4:host:port`` or ``ipv6:[host]:port``."""
        address = self._ctx.client_address
        if not address:
            return ""
        host, _, port = address.rpartition(":")
        return f"ipv6:[{host}]:{port}" if ":" in host else f"ipv4:{address}"

    def set_trailing_metadata(self, metadata: Sequence[tuple[str, str]]) -> None:
        for key, value in metadata:
            self._ctx.response_trailers.add(key, value)

    def cancelled(self) -> bool:
        return False

    def done(self) -> bool:
        return False


Handler = Callable[[Any, Any], Any]


class SerializedReply:
    """A response the handler already serialized (binary protobuf of ``output``).

    :class:`~services.core.connect_apps.TolerantCodec` asks :meth:`encoded`
    for the bytes of its codec: the binary codec gets them untouched, any other
    codec the parsed message."""

    __slots__ = ("data", "output")

    def __init__(self, data: bytes, output: type[Message]) -> None:
        self.data = data
        self.output = output

    def encoded(self, codec: Any) -> bytes:
        if codec.name() == "proto":
            return self.data
        return codec.encode(self.output.FromString(self.data))


def _as_message(response: Message | bytes, output: type[Message]) -> Any:
    return SerializedReply(response, output) if isinstance(response, bytes) else response


def _unexpected(exc: Exception, method: str) -> ConnectError:
    """INTERNAL for what the servicer's wrappers did not turn into a status
    (they do for everything, so this is a bug): never the exception's text."""
    log.error("connect_bridge_failed", method=method, error=f"{type(exc).__name__}: {exc}")
    return ConnectError(Code.INTERNAL, "internal error")


def _record(service: str, method: str, ctx: RequestContext[Any, Any], code: str) -> None:
    protocol = protocol_of(ctx.request_headers.get("content-type", ""))
    BROWSER_RPCS.labels(service, method, protocol, HTTP_VERSION.get(), code).inc()


def _code_name(exc: BaseException) -> str:
    if isinstance(exc, BridgedAbort):
        return exc.grpc_code.name
    if isinstance(exc, ConnectError):
        return exc.code.name
    return "INTERNAL"


def bridge_unary(
    handler: Handler, output: type[Message], service: str, method: str
) -> Callable[[Any, RequestContext[Any, Any]], Awaitable[Message]]:
    """A Connect unary function calling the grpc.aio unary ``handler``."""

    async def call(request: Any, ctx: RequestContext[Any, Any]) -> Message:
        code = "OK"
        try:
            return _as_message(await handler(request, BridgedContext(ctx)), output)
        except ConnectError as exc:
            code = _code_name(exc)
            raise
        except Exception as exc:
            code = "INTERNAL"
            raise _unexpected(exc, method) from exc
        except BaseException:  # cancelled: the client went away or the deadline passed
            code = "CANCELLED"
            raise
        finally:
            _record(service, method, ctx, code)

    return call


def bridge_stream(
    handler: Handler, output: type[Message], service: str, method: str
) -> Callable[[Any, RequestContext[Any, Any]], AsyncIterator[Message]]:
    """A Connect server-stream function iterating the grpc.aio stream ``handler``."""

    async def stream(request: Any, ctx: RequestContext[Any, Any]) -> AsyncIterator[Message]:
        code = "OK"
        responses = handler(request, BridgedContext(ctx))
        try:
            async for response in responses:
                yield _as_message(response, output)
        except ConnectError as exc:
            code = _code_name(exc)
            raise
        except Exception as exc:
            code = "INTERNAL"
            raise _unexpected(exc, method) from exc
        except BaseException:  # cancelled: the client went away
            code = "CANCELLED"
            raise
        finally:
            await responses.aclose()
            _record(service, method, ctx, code)

    return stream
