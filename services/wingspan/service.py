"""The Wingspan game service: the engine plugged into the platform."""

from __future__ import annotations

from roost.wingspan.v1 import service_pb2, service_pb2_grpc, types_pb2

from services.core.game_service import GameSpec
from services.wingspan.rules import ENGINE

SPEC = GameSpec(
    name="wingspan",
    service_name="roost.wingspan.v1.Wingspan",
    default_port=50052,
    engine=ENGINE,
    messages=service_pb2,
    types=types_pb2,
    grpc_module=service_pb2_grpc,
    view_parts_are_values=True,
)
