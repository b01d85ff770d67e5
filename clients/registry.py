"""The clients' view of the registry: where each service is and how to call it.

The identities (name, title, proto package and service, default port, player
counts) are those of ``roost.games``, generated from protos/roost/games.toml
with the stubs; this module adds what a client does with them (its address,
its generated modules, a stub). Everything else (requests, responses) is found
by the method and field names every Roost game shares.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from roost import games as identities


@dataclass(frozen=True, slots=True)
class ServiceInfo:
    """One gRPC service a client can call."""

    name: str
    title: str
    package: str
    service: str
    default_port: int
    modules: tuple[str, str] = ("service_pb2", "service_pb2_grpc")
    #: Player counts a game accepts (0 for the matchmaker).
    min_players: int = 0
    max_players: int = 0

    @classmethod
    def of(cls, identity: identities.ServiceIdentity) -> ServiceInfo:
        """The client entry of a registry identity."""
        players = (0, 0)
        if isinstance(identity, identities.GameIdentity):
            players = (identity.min_players, identity.max_players)
        return cls(
            identity.name,
            identity.title,
            identity.package,
            identity.service,
            identity.default_port,
            (f"{identity.proto_file}_pb2", f"{identity.proto_file}_pb2_grpc"),
            *players,
        )

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


GAMES: tuple[ServiceInfo, ...] = tuple(ServiceInfo.of(g) for g in identities.GAMES)

MATCHMAKER: ServiceInfo = MatchmakerInfo.of(identities.MATCHMAKER)


def game(name: str) -> ServiceInfo:
    """The game called ``name`` (KeyError with the known names otherwise)."""
    for entry in GAMES:
        if entry.name == name:
            return entry
    raise KeyError(name)


def names() -> list[str]:
    """Every game name."""
    return [g.name for g in GAMES]


def games_with_module(package: str) -> tuple[str, ...]:
    """The registry's games that have a module ``<package>.<game>``: how a client
    finds a game's optional parts (a CLI board, a bot's observation builder or
    value function) by their presence, with no list of games of its own."""
    found = []
    for name in names():
        try:
            if importlib.util.find_spec(f"{package}.{name}") is not None:
                found.append(name)
        except ModuleNotFoundError:
            continue
    return tuple(found)
