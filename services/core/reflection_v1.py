"""Server reflection as ``grpc.reflection.v1`` beside ``v1alpha``.

grpcio-reflection ships only the ``v1alpha`` service. ``grpc.reflection.v1``
is the same protocol under its stable name: the same messages with the same
field numbers, so the bytes on the wire are identical. This module registers
the v1 descriptor (v1alpha's, renamed) in the default pool, so reflection can
describe it, and serves the v1 method with grpcio-reflection's own handler.
"""

from __future__ import annotations

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection, reflection_pb2

SERVICE_NAME = "grpc.reflection.v1.ServerReflection"
_METHOD = "ServerReflectionInfo"


def _register_v1_descriptor() -> None:
    """Add ``grpc/reflection/v1/reflection.proto`` to the default pool (once)."""
    pool = descriptor_pool.Default()
    try:
        pool.FindServiceByName(SERVICE_NAME)
        return
    except KeyError:
        pass
    proto = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(proto)
    proto.name = "grpc/reflection/v1/reflection.proto"
    proto.package = "grpc.reflection.v1"
    for message in proto.message_type:
        for field in message.field:
            if field.type_name.startswith(".grpc.reflection.v1alpha."):
                field.type_name = field.type_name.replace(".v1alpha.", ".v1.", 1)
    for service in proto.service:
        for method in service.method:
            method.input_type = method.input_type.replace(".v1alpha.", ".v1.", 1)
            method.output_type = method.output_type.replace(".v1alpha.", ".v1.", 1)
    proto.options.Clear()
    pool.Add(proto)


def enable(service_names: tuple[str, ...], server: grpc.aio.Server) -> None:
    """Serve reflection for ``service_names`` as v1alpha and as v1."""
    _register_v1_descriptor()
    names = (*service_names, reflection.SERVICE_NAME, SERVICE_NAME)
    servicer = reflection.aio.ReflectionServicer(names)
    reflection.enable_server_reflection(names, server)
    handler = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(SERVICE_NAME, {_METHOD: handler}),)
    )
