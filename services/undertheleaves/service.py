"""The Under the Leaves game service: the engine plugged into the platform."""

from __future__ import annotations

from typing import Any

from roost.undertheleaves.v1 import service_pb2, service_pb2_grpc, types_pb2

from services.core.game_service import GameSpec
from services.registry import by_name
from services.undertheleaves import catalogue
from services.undertheleaves.rules import ENGINE
from services.undertheleaves.servicer import UnderTheLeavesService


def adapt_options(options: dict[str, Any]) -> dict[str, Any]:
    """Map the Options message onto the engine's options: an explicit list of
    dweller cards is passed as the ``dwellers`` option."""
    cards = options.pop("dweller_cards", None)
    if cards:
        options["dwellers"] = cards
    return options


#: The game's name, proto service and port, from the registry.
IDENTITY = by_name("undertheleaves")

SPEC = GameSpec(
    name=IDENTITY.name,
    service_name=IDENTITY.service_name,
    default_port=IDENTITY.default_port,
    engine=ENGINE,
    messages=service_pb2,
    types=types_pb2,
    grpc_module=service_pb2_grpc,
    adapt_options=adapt_options,
    view_parts_are_values=True,
    view_parts_shared=True,
    catalogue=catalogue.build,
    servicer=UnderTheLeavesService,
)
