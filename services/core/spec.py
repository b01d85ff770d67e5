"""What the shared platform needs to know about one game: :class:`GameSpec`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from google.protobuf.message import Message

from services.core.engine import Engine


@dataclass(frozen=True)
class GameSpec:
    """Everything the shared servicer needs to know about one game.

    ``messages`` is the generated ``service_pb2`` module (requests, responses,
    ``Options``, ``LegalAction``), ``types`` the ``types_pb2`` module
    (``View``, ``Action``) and ``grpc_module`` the ``service_pb2_grpc``
    module. ``adapt_options`` turns the set fields of the ``Options``
    message into the engine's option mapping. ``servicer`` is the game's
    typed servicer class (``services/<game>/service.py``).
    """

    name: str
    service_name: str
    default_port: int
    engine: Engine[Any]
    messages: ModuleType
    types: ModuleType
    grpc_module: ModuleType
    #: Builds the game's ``Catalogue`` message (every card, tile, ... with its
    #: printed facts) from the rules data; called once per process, on the
    #: first GetCatalogue (``services/<game>/catalogue.py``). Every game has
    #: one: GetCatalogue is part of the service contract.
    catalogue: Callable[[], Message]
    adapt_options: Callable[[dict[str, Any]], dict[str, Any]] = field(default=lambda o: o)
    #: The engine's views are fresh values that never alias its mutable state,
    #: so Apply may keep them to reuse the bytes of unchanged parts
    #: (:class:`~services.core.view_wire.ViewWire`).
    view_parts_are_values: bool = False
    #: Beyond that, every view part that did not change is the very dict handed
    #: out before (built once and shared), so the wire cache matches parts by
    #: identity alone and keeps nothing per game (``ViewWire(shared=True)``).
    view_parts_shared: bool = False
    #: The game's servicer: a subclass of
    #: :class:`~services.core.game_service.GameServicer` and the generated
    #: ``<Game>Servicer`` base, with the RPCs typed by the generated messages.
    servicer: type | None = None
