"""``roost.undertheleaves.v1.UnderTheLeaves``: the Under the Leaves RPCs,
typed with the game's generated messages.

Each RPC hands the call to the shared platform (services/core/game_service.py):
Apply to its pipeline, the reads to :class:`~services.core.reads.GameReads`,
Watch to :class:`~services.core.watching.WatchStreams`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from grpc.aio import ServicerContext
from roost.undertheleaves.v1 import service_pb2 as pb
from roost.undertheleaves.v1 import service_pb2_grpc

from services.core.game_service import GameServicer
from services.core.metrics import streaming, unary
from services.core.new_game import new_game


class UnderTheLeavesService(GameServicer, service_pb2_grpc.UnderTheLeavesServicer):
    """The Under the Leaves service: a typed subclass of the generated servicer."""

    @unary("game")
    async def NewGame(
        self, request: pb.NewGameRequest, context: ServicerContext
    ) -> pb.NewGameResponse:
        await self.callers.admit_new_game(context)
        return await new_game(self.game, request)

    @unary("game")
    async def GetState(
        self, request: pb.GetStateRequest, context: ServicerContext
    ) -> pb.GetStateResponse:
        return await self.reads.get_state(request, context)

    @unary("game")
    async def Legal(self, request: pb.LegalRequest, context: ServicerContext) -> pb.LegalResponse:
        return await self.reads.legal(request, context)

    @unary("game")
    async def Apply(self, request: pb.ApplyRequest, context: ServicerContext) -> bytes:
        """The reply is the serialized ``ApplyResponse`` the pipeline assembled."""
        return await self.pipeline.apply(request, context)

    @unary("game")
    async def Score(self, request: pb.ScoreRequest, context: ServicerContext) -> pb.ScoreResponse:
        return await self.reads.score(request, context)

    @streaming("game")
    async def Watch(
        self, request: pb.WatchRequest, context: ServicerContext
    ) -> AsyncIterator[pb.WatchResponse | bytes]:
        async for response in self.watching.watch(request, context):
            yield response

    @unary("game")
    async def GetLog(
        self, request: pb.GetLogRequest, context: ServicerContext
    ) -> pb.GetLogResponse:
        return await self.reads.get_log(request, context)

    @unary("game")
    async def GetCatalogue(
        self, request: pb.GetCatalogueRequest, context: ServicerContext
    ) -> bytes:
        """The serialized ``GetCatalogueResponse`` (built once per process)."""
        return self.reads.get_catalogue(request)
