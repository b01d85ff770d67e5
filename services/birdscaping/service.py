"""The Birdscaping game service: the engine plugged into the platform."""

from __future__ import annotations

from roost.birdscaping.v1 import service_pb2, service_pb2_grpc, types_pb2

from services.birdscaping.rules import ENGINE
from services.core.game_service import GameSpec

SPEC = GameSpec(
    name="birdscaping",
    service_name="roost.birdscaping.v1.Birdscaping",
    default_port=50053,
    engine=ENGINE,
    messages=service_pb2,
    types=types_pb2,
    grpc_module=service_pb2_grpc,
    view_parts_are_values=True,
)
