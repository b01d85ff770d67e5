"""Undecodable request bodies (services.core.decoding), on a real grpc.aio server.

Every kind of behaviour grpc accepts (coroutine, async generator, reader/writer
coroutine, sync function and sync generator; unary and streaming requests)
answers a body that does not parse with INVALID_ARGUMENT and the rich status,
and a body that parses exactly as before. Behaviours that check for the
sentinel themselves (the metrics decorators) are registered unwrapped.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any

import grpc
import pytest
from google.protobuf import wrappers_pb2
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from services.core import decoding, errors
from services.core.metrics import streaming, unary

SERVICE = "roost.test.v1.Decoding"
StringValue = wrappers_pb2.StringValue
BAD = (b"\xff\xff", b"\x0a\x02\xc3\x28", b"\x0a\x05ab", b"\x0f", b"\x0b" * 200)


def _echo(request: StringValue) -> StringValue:
    return StringValue(value=f"echo {request.value}")


# ------------------------------------------------------------------ behaviours


async def async_unary(request: StringValue, context: Any) -> StringValue:
    return _echo(request)


def sync_unary(request: StringValue, context: Any) -> StringValue:
    return _echo(request)


async def async_gen(request: StringValue, context: Any) -> AsyncIterator[StringValue]:
    yield _echo(request)
    yield _echo(request)


async def async_writer(request: StringValue, context: Any) -> None:
    await context.write(_echo(request))


def sync_gen(request: StringValue, context: Any) -> Iterator[StringValue]:
    yield _echo(request)


def sync_returns_iterator(request: StringValue, context: Any) -> Iterator[StringValue]:
    return iter([_echo(request)])


async def async_stream_unary(requests: Any, context: Any) -> StringValue:
    return StringValue(value=",".join([r.value async for r in requests]))


def sync_stream_unary(requests: Any, context: Any) -> StringValue:
    return StringValue(value=",".join(r.value for r in requests))


async def async_stream_stream(requests: Any, context: Any) -> AsyncIterator[StringValue]:
    async for request in requests:
        yield _echo(request)


def sync_stream_stream(requests: Any, context: Any) -> Iterator[StringValue]:
    for request in requests:
        yield _echo(request)


class Decorated:
    """Behaviours wrapped by the metrics decorators (they check themselves)."""

    @unary("test")
    async def Unary(self, request: StringValue, context: Any) -> StringValue:
        return _echo(request)

    @streaming("test")
    async def Stream(self, request: StringValue, context: Any) -> AsyncIterator[StringValue]:
        yield _echo(request)


def _handlers() -> dict[str, grpc.RpcMethodHandler]:
    kw = {
        "request_deserializer": StringValue.FromString,
        "response_serializer": StringValue.SerializeToString,
    }
    decorated = Decorated()
    return {
        "AsyncUnary": grpc.unary_unary_rpc_method_handler(async_unary, **kw),
        "SyncUnary": grpc.unary_unary_rpc_method_handler(sync_unary, **kw),
        "AsyncGen": grpc.unary_stream_rpc_method_handler(async_gen, **kw),
        "AsyncWriter": grpc.unary_stream_rpc_method_handler(async_writer, **kw),
        "SyncGen": grpc.unary_stream_rpc_method_handler(sync_gen, **kw),
        "SyncIterator": grpc.unary_stream_rpc_method_handler(sync_returns_iterator, **kw),
        "AsyncStreamUnary": grpc.stream_unary_rpc_method_handler(async_stream_unary, **kw),
        "SyncStreamUnary": grpc.stream_unary_rpc_method_handler(sync_stream_unary, **kw),
        "AsyncStreamStream": grpc.stream_stream_rpc_method_handler(async_stream_stream, **kw),
        "SyncStreamStream": grpc.stream_stream_rpc_method_handler(sync_stream_stream, **kw),
        "DecoratedUnary": grpc.unary_unary_rpc_method_handler(decorated.Unary, **kw),
        "DecoratedStream": grpc.unary_stream_rpc_method_handler(decorated.Stream, **kw),
    }


UNARY = ["AsyncUnary", "SyncUnary", "DecoratedUnary"]
SERVER_STREAM = ["AsyncGen", "AsyncWriter", "SyncGen", "SyncIterator", "DecoratedStream"]
CLIENT_STREAM = ["AsyncStreamUnary", "SyncStreamUnary"]
BIDI = ["AsyncStreamStream", "SyncStreamStream"]


@pytest.fixture(scope="module", params=["generic", "registered"])
def address(request: pytest.FixtureRequest) -> Iterator[str]:
    """A grpc.aio server behind a TolerantServer on its own loop, with the
    handlers added as generic handlers or as registered methods."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    holder: dict[str, Any] = {}

    async def boot() -> None:
        server = decoding.tolerant_server(grpc.aio.server())
        if request.param == "generic":
            server.add_generic_rpc_handlers(
                (grpc.method_handlers_generic_handler(SERVICE, _handlers()),)
            )
        else:
            server.add_registered_method_handlers(SERVICE, _handlers())
        holder["port"] = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        holder["server"] = server

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(boot())
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10)
    yield f"127.0.0.1:{holder['port']}"
    asyncio.run_coroutine_threadsafe(holder["server"].stop(0), loop).result(10)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)


def _ident(data: bytes) -> bytes:
    return data


def _call(channel: grpc.Channel, method: str, body: bytes) -> list[bytes]:
    """Send ``body`` raw; the raw responses."""
    path = f"/{SERVICE}/{method}"
    kw = {"request_serializer": _ident, "response_deserializer": _ident}
    if method in UNARY:
        return [channel.unary_unary(path, **kw)(body, timeout=10)]
    if method in SERVER_STREAM:
        return list(channel.unary_stream(path, **kw)(body, timeout=10))
    if method in CLIENT_STREAM:
        return [channel.stream_unary(path, **kw)(iter([body]), timeout=10)]
    return list(channel.stream_stream(path, **kw)(iter([body]), timeout=10))


def _assert_invalid_request(error: grpc.RpcError) -> None:
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    assert error.details().startswith("the request body does not decode")
    status = rpc_status.from_call(error)
    assert status is not None
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info)
    assert info.reason == "ERROR_REASON_INVALID_REQUEST"
    assert info.domain == errors.DOMAIN
    assert info.metadata["message_type"] == "google.protobuf.StringValue"


@pytest.mark.parametrize("method", UNARY + SERVER_STREAM + CLIENT_STREAM + BIDI)
def test_undecodable_bodies_are_invalid_argument(address: str, method: str) -> None:
    with grpc.insecure_channel(address) as channel:
        for body in BAD:
            with pytest.raises(grpc.RpcError) as caught:
                _call(channel, method, body)
            _assert_invalid_request(caught.value)


@pytest.mark.parametrize("method", UNARY + SERVER_STREAM + CLIENT_STREAM + BIDI)
def test_bodies_that_parse_are_served_as_before(address: str, method: str) -> None:
    with grpc.insecure_channel(address) as channel:
        replies = _call(channel, method, StringValue(value="hi").SerializeToString())
    assert replies
    values = {StringValue.FromString(r).value for r in replies}
    assert values == ({"hi"} if method in CLIENT_STREAM else {"echo hi"})


def test_a_later_undecodable_message_of_a_stream_ends_the_call(address: str) -> None:
    path = f"/{SERVICE}/AsyncStreamStream"
    good = StringValue(value="one").SerializeToString()
    with grpc.insecure_channel(address) as channel:
        call = channel.stream_stream(path, request_serializer=_ident, response_deserializer=_ident)
        replies = call(iter([good, b"\xff"]), timeout=10)
        with pytest.raises(grpc.RpcError) as caught:
            for _ in replies:
                pass
    _assert_invalid_request(caught.value)


def test_checked_behaviours_are_not_wrapped_and_guarding_twice_changes_nothing() -> None:
    handlers = _handlers()
    decorated = handlers["DecoratedUnary"]
    guarded = decoding.guard(decorated, f"/{SERVICE}/DecoratedUnary")
    assert guarded.unary_unary is decorated.unary_unary  # no call layer added
    assert guarded.request_deserializer is not decorated.request_deserializer
    assert decoding.guard(guarded, "x") is guarded
    plain = decoding.guard(handlers["AsyncUnary"], f"/{SERVICE}/AsyncUnary")
    assert plain.unary_unary is not async_unary


def test_the_deserializer_returns_the_error_instead_of_raising() -> None:
    deserialize = decoding.tolerant_deserializer(StringValue.FromString, "/x/Y")
    assert deserialize is not None
    assert deserialize(StringValue(value="ok").SerializeToString()).value == "ok"
    bad = deserialize(b"\xff")
    assert isinstance(bad, decoding.Undecodable)
    assert bad.error.code == grpc.StatusCode.INVALID_ARGUMENT
    assert bad.error.metadata == {"message_type": "google.protobuf.StringValue"}
    assert decoding.tolerant_deserializer(None, "/x/Y") is None


def test_a_status_cuts_what_a_client_sent_to_a_bounded_size() -> None:
    huge = "x" * 100_000
    error = errors.ServiceError(
        grpc.StatusCode.NOT_FOUND,
        "ERROR_REASON_TICKET_NOT_FOUND",
        f"no ticket {huge!r}",
        metadata={"ticket_id": huge},
        field_violations={"ticket_id": huge},
    )
    assert len(error.message) == errors.MAX_MESSAGE
    assert error.message.endswith("…")
    assert len(error.metadata["ticket_id"]) == errors.MAX_DETAIL
    status = error.to_status()
    assert sum(len(value) for _key, value in status.trailing_metadata) < 2_000
    short = errors.ServiceError(grpc.StatusCode.NOT_FOUND, "R", "no ticket 'abc'")
    assert short.message == "no ticket 'abc'"


def test_a_sync_abort_after_the_client_has_gone_ends_quietly() -> None:
    """A sync behaviour's abort runs on a worker thread whose result nobody may
    await any more (the client cancelled): it must not raise, or the exception
    would be logged with a traceback."""

    class FinishedCall:
        def abort(self, *args: object) -> None:
            raise RuntimeError("the call has already ended")

    request = decoding.Undecodable(errors.invalid_argument("request", "does not decode"))
    decoding._abort_sync(FinishedCall(), "/x/Y", request)  # no exception
    assert list(decoding._aborting(FinishedCall(), "/x/Y", request)) == []
