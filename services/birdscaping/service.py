"""The Birdscaping game service: the engine plugged into the platform."""

from __future__ import annotations

from roost.birdscaping.v1 import service_pb2, service_pb2_grpc, types_pb2

from services.birdscaping import catalogue
from services.birdscaping.rules import ENGINE
from services.birdscaping.servicer import BirdscapingService
from services.core.game_service import GameSpec
from services.registry import by_name

#: The game's name, proto service and port, from the registry.
IDENTITY = by_name("birdscaping")

SPEC = GameSpec(
    name=IDENTITY.name,
    service_name=IDENTITY.service_name,
    default_port=IDENTITY.default_port,
    engine=ENGINE,
    messages=service_pb2,
    types=types_pb2,
    grpc_module=service_pb2_grpc,
    # The views are values (tests/view_values.py), but reusing their unchanged
    # parts' bytes is slower than building the View whole for this game
    # (bench/apply_breakdown.py, "view bytes" against its plain twin).
    view_parts_are_values=False,
    catalogue=catalogue.build,
    servicer=BirdscapingService,
)
