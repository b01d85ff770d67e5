"""The Sky Garden game service: the engine plugged into the platform."""

from __future__ import annotations

from roost.skygarden.v1 import service_pb2, service_pb2_grpc, types_pb2

from services.core.game_service import GameSpec
from services.registry import by_name
from services.skygarden import catalogue
from services.skygarden.rules import ENGINE
from services.skygarden.servicer import SkyGardenService

#: The game's name, proto service and port, from the registry.
IDENTITY = by_name("skygarden")

SPEC = GameSpec(
    name=IDENTITY.name,
    service_name=IDENTITY.service_name,
    default_port=IDENTITY.default_port,
    engine=ENGINE,
    messages=service_pb2,
    types=types_pb2,
    grpc_module=service_pb2_grpc,
    view_parts_are_values=True,
    catalogue=catalogue.build,
    servicer=SkyGardenService,
)
