"""The Sky Garden game service: the engine plugged into the platform."""

from __future__ import annotations

from roost.skygarden.v1 import service_pb2, service_pb2_grpc, types_pb2

from services.core.game_service import GameSpec
from services.skygarden.rules import ENGINE

SPEC = GameSpec(
    name="skygarden",
    service_name="roost.skygarden.v1.SkyGarden",
    default_port=50051,
    engine=ENGINE,
    messages=service_pb2,
    types=types_pb2,
    grpc_module=service_pb2_grpc,
    view_parts_are_values=True,
)
