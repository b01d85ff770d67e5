"""The Connect applications of a service process, from the generated stubs.

``make proto`` generates, next to each proto file's gRPC stubs, its Connect
stubs (``*_connect.py``, by ``protoc-gen-connectrpc`` for google.protobuf
messages): per service an ASGI application that calls a service object with
one snake_case method per RPC. :func:`connect_app` gives that application the
existing grpc.aio servicer, each method through
:mod:`services.core.connect_bridge`, and :class:`HealthApp` does the same for
the gRPC health ``Check``.

Requests are decoded by :data:`CODECS` (binary protobuf and protobuf JSON): a
body that does not decode reaches the handler as the same
:class:`~services.core.decoding.Undecodable` gRPC produces, so it is refused
with the same INVALID_ARGUMENT and reason.
"""

from __future__ import annotations

import importlib
import re
from types import ModuleType, SimpleNamespace
from typing import Any

import orjson
from connectrpc.codec import Codec
from connectrpc.compat import google_protobuf_binary_codec, google_protobuf_codecs
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.server import ConnectASGIApplication, Endpoint
from google.protobuf import json_format
from google.protobuf.descriptor import ServiceDescriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass
from grpc_health.v1 import health_pb2

from services.core.browser_guard import ErrorInfoInterceptor
from services.core.config import max_message_bytes_from_env
from services.core.connect_bridge import SerializedReply, bridge_stream, bridge_unary
from services.core.decoding import Undecodable, undecodable_error


class TolerantCodec:
    """A google.protobuf codec whose ``decode`` never raises: a body that is
    not a request message becomes the :class:`Undecodable` the gRPC side
    produces, so the handler refuses it with the same status and reason."""

    def __init__(self, inner: Codec) -> None:
        self._inner = inner

    def name(self) -> str:
        return self._inner.name()

    def encode(self, message: Message | SerializedReply) -> bytes:
        if isinstance(message, SerializedReply):
            return message.encoded(self._inner)
        return self._inner.encode(message)

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Any:
        try:
            return self._inner.decode(data, message_class)
        except Exception as exc:  # any parser failure is the client's bytes
            return Undecodable(undecodable_error(message_class.DESCRIPTOR.full_name, exc))


class CompactJsonCodec:
    """Protobuf JSON (google.protobuf's ``json_format``, the same mapping as the
    runtime's own JSON codec) written without indentation by orjson: half the
    bytes and a third of the time of ``MessageToJson`` for a view. Unknown
    fields in a request are ignored, as the runtime's codec does."""

    def name(self) -> str:
        return "json"

    def encode(self, message: Message) -> bytes:
        return orjson.dumps(json_format.MessageToDict(message))

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Message:
        message = message_class()
        json_format.Parse(bytes(data), message, ignore_unknown_fields=True)
        return message


#: Binary protobuf and protobuf JSON, both tolerant.
CODECS: tuple[TolerantCodec, ...] = (
    TolerantCodec(google_protobuf_binary_codec()),
    TolerantCodec(CompactJsonCodec()),
)


def snake_case(name: str) -> str:
    """The generated stubs' method name of an RPC (``GetCatalogue`` → ``get_catalogue``)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def bridged_service(
    servicer: object, descriptor: ServiceDescriptor, output_types: dict[str, type[Message]]
) -> SimpleNamespace:
    """The service object a generated Connect application calls: one snake_case
    function per RPC of ``descriptor``, each calling the servicer's method."""
    functions: dict[str, Any] = {}
    for method in descriptor.methods:
        if method.client_streaming:
            raise ValueError(f"{method.full_name}: client streaming is not bridged")
        wrap = bridge_stream if method.server_streaming else bridge_unary
        functions[snake_case(method.name)] = wrap(
            getattr(servicer, method.name),
            output_types[method.name],
            descriptor.full_name,
            method.name,
        )
    return SimpleNamespace(**functions)


def connect_module(grpc_module: ModuleType) -> ModuleType:
    """The generated ``*_connect`` module next to a ``*_pb2_grpc`` module."""
    return importlib.import_module(grpc_module.__name__.removesuffix("_pb2_grpc") + "_connect")


def connect_app(
    servicer: object,
    messages: ModuleType,
    grpc_module: ModuleType,
    service_name: str,
    max_message_bytes: int | None = None,
) -> ConnectASGIApplication[Any]:
    """The Connect ASGI application of ``service_name`` (``package.Service``)
    over ``servicer``, from the generated stubs of the same proto file.

    ``messages`` is the ``*_pb2`` module (its descriptor lists the RPCs).
    ``max_message_bytes`` (default: ``MAX_MESSAGE_BYTES``) bounds a message
    after decompression too; the runtime's errors about a request's framing
    carry their ErrorInfo (:class:`ErrorInfoInterceptor`)."""
    limit = max_message_bytes_from_env() if max_message_bytes is None else max_message_bytes
    short = service_name.rsplit(".", 1)[1]
    descriptor = messages.DESCRIPTOR.services_by_name[short]
    outputs = {m.name: GetMessageClass(m.output_type) for m in descriptor.methods}
    application = getattr(connect_module(grpc_module), f"{short}ASGIApplication")
    return application(
        bridged_service(servicer, descriptor, outputs),
        codecs=CODECS,
        read_max_bytes=limit,
        interceptors=(ErrorInfoInterceptor(limit),),
    )


class HealthApp(ConnectASGIApplication[Any]):
    """``grpc.health.v1.Health/Check`` over Connect and gRPC-Web, answered by the
    process's gRPC health servicer (the same statuses as the probes read). A
    side-effect-free call, so Connect also allows it as an HTTP GET."""

    SERVICE = "grpc.health.v1.Health"

    def __init__(self, health_servicer: Any) -> None:
        check = MethodInfo(
            name="Check",
            service_name=self.SERVICE,
            input=health_pb2.HealthCheckRequest,
            output=health_pb2.HealthCheckResponse,
            idempotency_level=IdempotencyLevel.NO_SIDE_EFFECTS,
            stream_type=StreamType.UNARY,
        )
        function = bridge_unary(
            health_servicer.Check, health_pb2.HealthCheckResponse, self.SERVICE, "Check"
        )
        super().__init__(
            service=health_servicer,
            endpoints=lambda _svc: {f"/{self.SERVICE}/Check": Endpoint.unary(check, function)},
            codecs=google_protobuf_codecs(),
            read_max_bytes=max_message_bytes_from_env(),
            interceptors=(ErrorInfoInterceptor(max_message_bytes_from_env()),),
        )

    @property
    def path(self) -> str:
        return f"/{self.SERVICE}"
