"""The client-side game registry: the only per-game code of the clients.

Each entry names a game, its generated proto package, its service and its
default port. Everything else (requests, responses, stubs) is found by the
method and field names every Roost game shares.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from types import ModuleType
from typing import Any


@dataclass(frozen=True, slots=True)
class ServiceInfo:
    """One gRPC service a client can call."""

    name: str
    title: str
    package: str
    service: str
    default_port: int
    modules: tuple[str, str] = ("service_pb2", "service_pb2_grpc")

    @property
    def full_name(self) -> str:
        """Fully qualified proto service name."""
        return f"{self.package}.{self.service}"

    @property
    def env_var(self) -> str:
        """Environment variable that overrides the address."""
        return f"GAME_ADDR_{self.name.upper()}"

    def address(self, override: str | None = None) -> str:
        """``override``, else $GAME_ADDR_<NAME>, else 127.0.0.1:<default port>."""
        if override:
            return override
        return os.environ.get(self.env_var, "").strip() or f"127.0.0.1:{self.default_port}"

    def messages(self) -> ModuleType:
        """The generated messages module (ImportError when not generated)."""
        return importlib.import_module(f"{self.package}.{self.modules[0]}")

    def grpc_module(self) -> ModuleType:
        """The generated gRPC module."""
        return importlib.import_module(f"{self.package}.{self.modules[1]}")

    def stub(self, channel: Any) -> Any:
        """A stub over a blocking or an asyncio channel."""
        return getattr(self.grpc_module(), f"{self.service}Stub")(channel)

    def available(self) -> bool:
        """True when the generated stubs can be imported."""
        try:
            self.messages()
            self.grpc_module()
        except ImportError:
            return False
        return True


@dataclass(frozen=True, slots=True)
class MatchmakerInfo(ServiceInfo):
    """The matchmaker: its address comes from $MATCHMAKER_ADDR."""

    @property
    def env_var(self) -> str:
        """Environment variable that overrides the address."""
        return "MATCHMAKER_ADDR"


GAMES: tuple[ServiceInfo, ...] = (
    ServiceInfo("skygarden", "Sky Garden", "roost.skygarden.v1", "SkyGarden", 50051),
    ServiceInfo("wingspan", "Wingspan", "roost.wingspan.v1", "Wingspan", 50052),
    ServiceInfo("birdscaping", "Birdscaping", "roost.birdscaping.v1", "Birdscaping", 50053),
    ServiceInfo(
        "undertheleaves", "Under the Leaves", "roost.undertheleaves.v1", "UnderTheLeaves", 50054
    ),
)

MATCHMAKER = MatchmakerInfo(
    "matchmaking",
    "Matchmaker",
    "roost.matchmaking.v1",
    "Matchmaker",
    50050,
    modules=("matchmaking_pb2", "matchmaking_pb2_grpc"),
)


def game(name: str) -> ServiceInfo:
    """The game called ``name`` (KeyError with the known names otherwise)."""
    for entry in GAMES:
        if entry.name == name:
            return entry
    raise KeyError(name)


def names() -> list[str]:
    """Every game name."""
    return [g.name for g in GAMES]
