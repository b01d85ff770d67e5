"""Request bodies that do not decode: INVALID_ARGUMENT, never UNKNOWN.

gRPC parses a request with its method's deserializer before any handler code
runs. When the bytes are not a message of the request type (random bytes, a
truncated message, an invalid wire type, invalid UTF-8 in a string field) the
deserializer raises, and grpc answers UNKNOWN and logs a multi-line traceback:
any client could flood the logs. Every method handler is therefore registered
through :func:`guard`:

- its deserializer never raises: a body that does not parse becomes an
  :class:`Undecodable` holding the client-facing error (INVALID_ARGUMENT,
  ``ERROR_REASON_INVALID_REQUEST``), and nothing is logged there;
- its behaviour rejects that value before doing anything else, with the rich
  status and one structured log line. The behaviours of Roost's own services
  are wrapped by :func:`services.core.metrics.unary` / ``streaming``, which do
  this check themselves (one type check, no extra call layer on the hot Apply
  path) and say so with :func:`rejects_undecodable`; any other behaviour
  (health, reflection) is wrapped here, keeping its kind (coroutine, async
  generator or sync function), and so are the request iterators of
  client-streaming methods.

:class:`TolerantServer` applies :func:`guard` to everything registered through
it (the generated ``add_*_to_server`` functions and the health and reflection
helpers), using only public grpc API.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any, TypeVar

import grpc
from google.protobuf.message import DecodeError

from services.core import errors
from services.core.logging import get_logger

log = get_logger("roost.rpc")

F = TypeVar("F", bound=Callable[..., Any])

#: Set on a behaviour that rejects an :class:`Undecodable` request itself.
_REJECTS = "_roost_rejects_undecodable"
#: Set on a deserializer that already never raises (guarding twice is a no-op).
_TOLERANT = "_roost_tolerant"


class MessageLimit:
    """The largest request message a guarded deserializer accepts (bytes): the
    process's ``MAX_MESSAGE_BYTES``, set when the server starts. A larger one
    is refused as INVALID_ARGUMENT, ``ERROR_REASON_MESSAGE_TOO_LARGE``; grpc's
    own receive limit sits above it (see services/core/server.py)."""

    __slots__ = ("max_bytes",)

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes


MESSAGE_LIMIT = MessageLimit(4 * 1024 * 1024)


class Undecodable:
    """What a guarded deserializer returns for a body that does not parse: the
    error to answer with. A behaviour checks ``request.__class__ is Undecodable``
    before it reads the request."""

    __slots__ = ("error",)

    def __init__(self, error: errors.ServiceError) -> None:
        self.error = error


def undecodable_error(message_type: str, exc: Exception) -> errors.ServiceError:
    """INVALID_ARGUMENT for a body that is not a ``message_type``; the parser's
    own words when it is protobuf's (they name the type and what was wrong)."""
    detail = str(exc) if isinstance(exc, DecodeError) else f"not a valid {message_type}"
    return errors.ServiceError(
        grpc.StatusCode.INVALID_ARGUMENT,
        "ERROR_REASON_INVALID_REQUEST",
        f"the request body does not decode: {detail}",
        metadata={"message_type": message_type},
    )


def tolerant_deserializer(
    deserializer: Callable[[bytes], Any] | None, method: str
) -> Callable[[bytes], Any] | None:
    """``deserializer``, returning an :class:`Undecodable` instead of raising.
    The message type comes from the deserializer (``Message.FromString``), else
    the method's path names it. ``None`` (raw bytes) stays ``None``."""
    if deserializer is None or getattr(deserializer, _TOLERANT, False):
        return deserializer
    descriptor = getattr(getattr(deserializer, "__self__", None), "DESCRIPTOR", None)
    message_type = getattr(descriptor, "full_name", None) or f"request of {method}"
    parse = deserializer

    def deserialize(data: bytes) -> Any:
        if len(data) > MESSAGE_LIMIT.max_bytes:
            return Undecodable(errors.message_too_large(len(data), MESSAGE_LIMIT.max_bytes))
        try:
            return parse(data)
        except Exception as exc:  # any parser failure is the client's bytes
            return Undecodable(undecodable_error(message_type, exc))

    setattr(deserialize, _TOLERANT, True)
    return deserialize


def rejects_undecodable(behaviour: F) -> F:
    """Mark ``behaviour`` as one that answers an :class:`Undecodable` request
    itself (with its status), so :func:`guard` leaves it unwrapped."""
    setattr(behaviour, _REJECTS, True)
    return behaviour


def _log_rejected(method: str, error: errors.ServiceError) -> None:
    log.info("rpc_rejected", method=method, code=error.code.name, reason=error.reason)


async def _abort(context: grpc.aio.ServicerContext, method: str, request: Undecodable) -> None:
    _log_rejected(method, request.error)
    await context.abort_with_status(request.error.to_status())


def _abort_sync(context: Any, method: str, request: Undecodable) -> None:
    """Abort from a sync behaviour (it runs on a worker thread, as does this).

    Returns instead of raising: the worker's result may never be awaited (the
    client can cancel meanwhile), and an exception left in it would be logged
    with a traceback. The call is aborted all the same: grpc raises the abort
    once the behaviour returns (or answers nothing if the client has gone)."""
    _log_rejected(method, request.error)
    status = request.error.to_status()
    with contextlib.suppress(Exception):  # AbortError; or the call ended first
        context.abort(status.code, status.details, tuple(status.trailing_metadata))


def _unary_request(
    behaviour: Callable[..., Any], method: str, response_streaming: bool
) -> Callable[..., Any]:
    """A unary-request behaviour that rejects an undecodable request first."""
    if inspect.isasyncgenfunction(behaviour):

        async def stream(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            if request.__class__ is Undecodable:
                await _abort(context, method, request)
            async for response in behaviour(request, context):
                yield response

        return stream
    if inspect.iscoroutinefunction(behaviour):

        async def call(request: Any, context: grpc.aio.ServicerContext) -> Any:
            if request.__class__ is Undecodable:
                await _abort(context, method, request)
            return await behaviour(request, context)

        return call
    if response_streaming:

        def sync_stream(request: Any, context: Any) -> Any:
            if request.__class__ is Undecodable:
                # grpc.aio calls a sync streaming behaviour on the event loop and
                # iterates what it returns on a worker thread: abort from there.
                return _aborting(context, method, request)
            return behaviour(request, context)

        return sync_stream

    def sync(request: Any, context: Any) -> Any:  # runs on a worker thread
        if request.__class__ is Undecodable:
            _abort_sync(context, method, request)
            return None
        return behaviour(request, context)

    return sync


def _aborting(context: Any, method: str, request: Undecodable) -> Iterator[Any]:
    _abort_sync(context, method, request)
    yield from ()


def _stream_request(behaviour: Callable[..., Any], method: str) -> Callable[..., Any]:
    """A client-streaming behaviour whose request iterator aborts the call at
    the first undecodable message."""
    if inspect.isasyncgenfunction(behaviour):

        async def stream(requests: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            async for response in behaviour(_checked(requests, context, method), context):
                yield response

        return stream
    if inspect.iscoroutinefunction(behaviour):

        async def call(requests: Any, context: grpc.aio.ServicerContext) -> Any:
            return await behaviour(_checked(requests, context, method), context)

        return call

    def sync(requests: Any, context: Any) -> Any:
        return behaviour(_checked_sync(requests, context, method), context)

    return sync


async def _checked(
    requests: Any, context: grpc.aio.ServicerContext, method: str
) -> AsyncIterator[Any]:
    async for request in requests:
        if request.__class__ is Undecodable:
            await _abort(context, method, request)
        yield request


def _checked_sync(requests: Any, context: Any, method: str) -> Iterator[Any]:
    for request in requests:
        if request.__class__ is Undecodable:
            _abort_sync(context, method, request)
            return
        yield request


_BEHAVIOURS = ("unary_unary", "unary_stream", "stream_unary", "stream_stream")


def guard(handler: grpc.RpcMethodHandler, method: str) -> grpc.RpcMethodHandler:
    """``handler`` (a ``grpc.RpcMethodHandler`` of the method at path
    ``method``) with a deserializer that never raises and a behaviour that
    answers an undecodable request with INVALID_ARGUMENT. Idempotent."""
    if getattr(handler.request_deserializer, _TOLERANT, False):
        return handler
    changes: dict[str, Any] = {
        "request_deserializer": tolerant_deserializer(handler.request_deserializer, method)
    }
    for name in _BEHAVIOURS:
        behaviour = getattr(handler, name)
        if behaviour is None or getattr(behaviour, _REJECTS, False):
            continue
        if handler.request_streaming:
            changes[name] = _stream_request(behaviour, method)
        else:
            changes[name] = _unary_request(behaviour, method, handler.response_streaming)
    return handler._replace(**changes)  # RpcMethodHandler is a namedtuple


class _TolerantGenericHandler(grpc.GenericRpcHandler):
    """A generic handler whose method handlers come out guarded (each guarded
    once and kept, so a call costs one dict lookup more than before)."""

    def __init__(self, inner: grpc.GenericRpcHandler) -> None:
        self._inner = inner
        self._guarded: dict[int, tuple[grpc.RpcMethodHandler, grpc.RpcMethodHandler]] = {}

    def service(self, handler_call_details: grpc.HandlerCallDetails) -> Any:
        handler = self._inner.service(handler_call_details)
        if handler is None:
            return None
        known = self._guarded.get(id(handler))
        if known is None or known[0] is not handler:
            known = (handler, guard(handler, handler_call_details.method))
            self._guarded[id(handler)] = known
        return known[1]


class TolerantServer(grpc.aio.Server):
    """A ``grpc.aio.Server`` whose registered method handlers are all guarded
    (:func:`guard`); everything else is the wrapped server's."""

    def __init__(self, server: grpc.aio.Server) -> None:
        self._server = server

    def add_generic_rpc_handlers(self, generic_rpc_handlers: Sequence[Any]) -> None:
        self._server.add_generic_rpc_handlers(
            tuple(_TolerantGenericHandler(h) for h in generic_rpc_handlers)
        )

    def add_registered_method_handlers(
        self, service_name: str, method_handlers: dict[str, grpc.RpcMethodHandler]
    ) -> None:
        self._server.add_registered_method_handlers(
            service_name,
            {
                name: guard(handler, f"/{service_name}/{name}")
                for name, handler in method_handlers.items()
            },
        )

    def add_insecure_port(self, address: str) -> int:
        return self._server.add_insecure_port(address)

    def add_secure_port(self, address: str, server_credentials: grpc.ServerCredentials) -> int:
        return self._server.add_secure_port(address, server_credentials)

    async def start(self) -> None:
        await self._server.start()

    async def stop(self, grace: float | None) -> None:
        await self._server.stop(grace)

    async def wait_for_termination(self, timeout: float | None = None) -> bool:
        return await self._server.wait_for_termination(timeout)


def tolerant_server(server: grpc.aio.Server) -> TolerantServer:
    """``server`` behind a :class:`TolerantServer` (itself if it is one)."""
    return server if isinstance(server, TolerantServer) else TolerantServer(server)
