"""Generic gRPC clients of the game services, built from the registry.

The matchmaker knows no game: for every registry entry it imports the
generated ``roost.<game>.v1.service_pb2`` / ``service_pb2_grpc`` modules
(named after the proto service) and talks to the service through the method
and field names every game shares.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message
from roost.common.v1 import common_pb2

from services.matchmaking.config import game_address, public_address
from services.registry import GAMES, ServiceEntry

TOKEN_METADATA_KEY = "x-seat-token"


class OptionsError(ValueError):
    """options_json does not fit the game's Options message."""


def game_channel(address: str) -> grpc.aio.Channel:
    """A channel to a game service: TLS trusting ``GAME_TLS_CA_FILE`` (PEM) when
    set (game services with TLS_CERT_FILE), plaintext otherwise."""
    ca_file = os.environ.get("GAME_TLS_CA_FILE", "").strip()
    if not ca_file:
        return grpc.aio.insecure_channel(address)
    with open(ca_file, "rb") as ca:
        credentials = grpc.ssl_channel_credentials(root_certificates=ca.read())
    return grpc.aio.secure_channel(address, credentials)


@dataclass
class GameEndpoint:
    """One game service as the matchmaker sees it."""

    name: str
    service_name: str
    address: str
    public_address: str
    messages: ModuleType
    stub_class: type
    #: The player counts the game supports (from the registry).
    min_players: int = 1
    max_players: int = 1
    channel: grpc.aio.Channel | None = None
    _stub: Any = None

    @property
    def stub(self) -> Any:
        """The (lazily created) asyncio stub."""
        if self._stub is None:
            self.channel = game_channel(self.address)
            self._stub = self.stub_class(self.channel)
        return self._stub

    def canonical_options(
        self, options_json: str, time_control: common_pb2.TimeControl | None = None
    ) -> str:
        """Validate ``options_json`` against the game's Options message; canonical
        JSON. A time control that is set follows on a second line (canonical JSON
        of the TimeControl), so tickets match only with the same options and
        clock, and :func:`split_options` takes the two apart."""
        options = self._new_options()
        if options_json.strip():
            try:
                json_format.Parse(options_json, options)
            except json_format.ParseError as exc:
                raise OptionsError(str(exc)) from exc
        canonical = json_format.MessageToJson(options, indent=None, sort_keys=True)
        if time_control is not None and time_control.ByteSize():
            clock = json_format.MessageToJson(time_control, indent=None, sort_keys=True)
            canonical += "\n" + clock
        return canonical

    def options_message(self, canonical: str) -> Message:
        """The Options message of canonical options JSON."""
        return json_format.Parse(split_options(canonical)[0], self._new_options())

    def _new_options(self) -> Message:
        """An empty Options message of this game (the type of NewGameRequest.options)."""
        return type(self.messages.NewGameRequest().options)()

    def supports_preview(self) -> bool:
        """True when Legal can fill a one-ply score preview."""
        return "with_score_preview" in self.messages.LegalRequest.DESCRIPTOR.fields_by_name

    async def new_game(self, players: int, names: list[str], canonical_options: str) -> Any:
        """NewGame with seat names and options."""
        request = self.messages.NewGameRequest(
            common=common_pb2.CommonOptions(players=players, seat_names=names),
            options=self.options_message(canonical_options),
        )
        time_control = split_options(canonical_options)[1]
        if time_control is not None:
            request.common.time_control.CopyFrom(time_control)
        return await self.stub.NewGame(request, timeout=15)

    def watch(self, game_id: str, from_version: int) -> Any:
        """A spectator's Watch stream."""
        return self.stub.Watch(
            self.messages.WatchRequest(game_id=game_id, from_version=from_version)
        )

    async def state(self, game_id: str) -> Any:
        """GetState as a spectator."""
        return await self.stub.GetState(self.messages.GetStateRequest(game_id=game_id), timeout=10)

    async def score(self, game_id: str) -> Any:
        """Score."""
        return await self.stub.Score(self.messages.ScoreRequest(game_id=game_id), timeout=10)

    async def legal(self, game_id: str, token: str, preview: bool = False) -> Any:
        """Legal for the token's seat."""
        request = self.messages.LegalRequest(game_id=game_id)
        if preview:
            request.with_score_preview = True
        return await self.stub.Legal(request, metadata=((TOKEN_METADATA_KEY, token),), timeout=10)

    async def apply(
        self, game_id: str, token: str, version: int, action_id: int, request_id: str
    ) -> Any:
        """Apply one action by id."""
        request = self.messages.ApplyRequest(
            game_id=game_id, expected_version=version, action_id=action_id, request_id=request_id
        )
        return await self.stub.Apply(request, metadata=((TOKEN_METADATA_KEY, token),), timeout=10)

    async def abort(self, game_id: str, token: str) -> Any:
        """Abort (accepted until every seat has made its first decision)."""
        request = self.messages.AbortRequest(game_id=game_id)
        return await self.stub.Abort(request, metadata=((TOKEN_METADATA_KEY, token),), timeout=10)

    async def close(self) -> None:
        """Close the channel."""
        if self.channel is not None:
            await self.channel.close()
            self.channel = None
            self._stub = None


def split_options(canonical: str) -> tuple[str, common_pb2.TimeControl | None]:
    """The options JSON and the time control (None: untimed) of a canonical string."""
    options, _newline, clock = canonical.partition("\n")
    if not clock:
        return options, None
    return options, json_format.Parse(clock, common_pb2.TimeControl())


def _modules(entry: ServiceEntry) -> tuple[ModuleType, ModuleType] | None:
    package, _short = entry.service_name.rsplit(".", 1)
    try:
        messages = importlib.import_module(f"{package}.service_pb2")
        grpc_module = importlib.import_module(f"{package}.service_pb2_grpc")
    except ImportError:
        return None
    return messages, grpc_module


def load_endpoint(entry: ServiceEntry) -> GameEndpoint | None:
    """The endpoint of a registry game, or None when its stubs are not generated."""
    modules = _modules(entry)
    if modules is None:
        return None
    messages, grpc_module = modules
    short = entry.service_name.rsplit(".", 1)[1]
    return GameEndpoint(
        name=entry.name,
        service_name=entry.service_name,
        address=game_address(entry.name, entry.default_port),
        public_address=public_address(entry.name, entry.default_port),
        messages=messages,
        stub_class=getattr(grpc_module, f"{short}Stub"),
        min_players=entry.min_players,
        max_players=entry.max_players,
    )


class GameDirectory:
    """The games this matchmaker serves, by name."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.endpoints: dict[str, GameEndpoint] = {}
        self.unavailable: dict[str, str] = {}
        for entry in GAMES:
            if entry.name not in names:
                continue
            if not entry.implemented():
                self.unavailable[entry.name] = "it has no service yet"
                continue
            endpoint = load_endpoint(entry)
            if endpoint is None:
                self.unavailable[entry.name] = "its generated stubs are missing"
            else:
                self.endpoints[entry.name] = endpoint

    def get(self, name: str) -> GameEndpoint | None:
        """The endpoint of ``name``, if served."""
        return self.endpoints.get(name)

    def names(self) -> list[str]:
        """Served games."""
        return sorted(self.endpoints)

    async def close(self) -> None:
        """Close every channel."""
        for endpoint in self.endpoints.values():
            await endpoint.close()
