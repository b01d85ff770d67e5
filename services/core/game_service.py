"""The game servicer: every game's RPCs over the shared platform.

A game service is a :class:`GameSpec` (its engine, its generated messages and
its proto service name) and a servicer class in ``services/<game>/service.py``:
a subclass of :class:`GameServicer` and the generated ``<Game>Servicer`` base
whose RPC methods take the game's generated request types and hand each call
to one of the shared parts:

* Apply: :class:`~services.core.apply.ApplyPipeline` (its steps read top to bottom);
* NewGame: :func:`~services.core.new_game.new_game`;
* GetState, Legal, Score, GetLog, GetCatalogue: :class:`~services.core.reads.GameReads`;
* Watch: :class:`~services.core.watching.WatchStreams`;
* Resign, Abort, OfferRematch, AcceptRematch: :class:`~services.core.lifecycle.rpcs.LifecycleRpcs`
  (inherited), and every process's expiry poller
  (:class:`~services.core.lifecycle.expiry.ExpiryPoller`, started with the server).

They share one :class:`~services.core.game_context.GameContext` (engine,
store, caller's seat, caches).
"""

from __future__ import annotations

import grpc
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass

from services.core import decoding
from services.core.apply import ApplyPipeline
from services.core.config import Settings
from services.core.game_context import GameContext
from services.core.identity.game_callers import GameCallers
from services.core.identity.settings import IdentitySettings
from services.core.lifecycle.expiry import ExpiryPoller
from services.core.lifecycle.rpcs import LifecycleRpcs
from services.core.reads import GameReads, catalogue_replies, catalogue_version
from services.core.spec import GameSpec
from services.core.store import GameStore
from services.core.watching import WatchStreams

__all__ = [
    "GameServicer",
    "GameSpec",
    "add_to_server",
    "catalogue_replies",
    "catalogue_version",
    "servicer_class",
]


class GameServicer(LifecycleRpcs):
    """The shared part of a game's servicer: its Apply pipeline, reads and
    Watch streams over one :class:`GameContext`.

    A game subclasses it together with the generated ``<Game>Servicer`` base
    (see ``services/undertheleaves/service.py``); its RPC methods stay one line.
    """

    def __init__(self, spec: GameSpec, store: GameStore, settings: Settings) -> None:
        self.spec = spec
        self.store = store
        self.game = GameContext(spec, store, settings)
        #: The process's Watch fan-out (closed when the server drains).
        self.hub = self.game.hub
        self.pipeline = ApplyPipeline(self.game)
        self.reads = GameReads(self.game)
        self.watching = WatchStreams(self.game)
        #: Fires this game's due deadlines, as every replica does (lifecycle/expiry.py).
        self.expiry = ExpiryPoller(self.game.lifecycle, settings.expiry_poll_ms)
        #: Bearer identities and NewGame per identity (services/core/identity/).
        self.callers = GameCallers(IdentitySettings.from_env(), store.client)


def servicer_class(spec: GameSpec) -> type[GameServicer]:
    """The game's servicer class (``spec.servicer``)."""
    if spec.servicer is None or not issubclass(spec.servicer, GameServicer):
        raise TypeError(f"{spec.name}: GameSpec.servicer must subclass GameServicer")
    return spec.servicer


def _serialize(response: Message | bytes) -> bytes:
    """A response message's bytes; a handler may also return them ready-made."""
    return response if isinstance(response, bytes) else response.SerializeToString()


def add_to_server(spec: GameSpec, servicer: GameServicer, server: grpc.aio.Server) -> None:
    """Register a game's servicer on ``server``.

    As the generated ``add_<Game>Servicer_to_server`` does (registered
    methods), except that a handler may return its response already
    serialized (Apply assembles its reply from cached bytes), and that a request
    body which does not decode is INVALID_ARGUMENT (:func:`decoding.guard`).
    """
    short = spec.service_name.rsplit(".", 1)[1]
    service = spec.messages.DESCRIPTOR.services_by_name[short]
    handlers = {}
    for method in service.methods:
        factory = (
            grpc.unary_stream_rpc_method_handler
            if method.server_streaming
            else grpc.unary_unary_rpc_method_handler
        )
        handlers[method.name] = decoding.guard(
            factory(
                getattr(servicer, method.name),
                request_deserializer=GetMessageClass(method.input_type).FromString,
                response_serializer=_serialize,
            ),
            f"/{spec.service_name}/{method.name}",
        )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(spec.service_name, handlers),)
    )
    server.add_registered_method_handlers(spec.service_name, handlers)
    servicer.expiry.start()  # every replica polls its game's deadlines
