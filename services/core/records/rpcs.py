"""GetRecord, the record RPC of every game service.

:class:`~services.core.game_service.GameServicer` inherits it. No token is
needed: a game in progress gives its public part (what a spectator may see),
a game that has ended its complete record (docs/RECORDS.md).
"""

from __future__ import annotations

import asyncio
from typing import Any

import grpc

from services.core.game_context import GameContext
from services.core.metrics import unary
from services.core.reads import catalogue_version
from services.core.records.build import build_record
from services.core.requests import GameRequest


class RecordRpcs:
    """GetRecord (see the service.proto comment)."""

    game: GameContext

    @unary("game")
    async def GetRecord(self, request: GameRequest, context: grpc.aio.ServicerContext) -> Any:
        game = self.game
        game_id, meta, _seat = await game.caller(request, context, token_required=False)
        version, state, status, life = await game.load_with_life(game_id, meta)
        events = await game.store.events(game_id, 0, 0)
        # A complete record replays the game (CPU for tens of ms): off the loop.
        record = await asyncio.to_thread(
            build_record,
            game=game.spec.name,
            game_id=game_id,
            rules_version=rules_version(game),
            engine=game.engine,
            meta=meta,
            state=state,
            status=status,
            life=life,
            events=[e for e in events if e.version <= version],
        )
        return game.m.GetRecordResponse(record=record)


def rules_version(game: GameContext) -> str:
    """The game's rules version: its catalogue's content hash (computed once)."""
    cached = getattr(game, "_rules_version", None)
    if cached is None:
        cached = catalogue_version(game.spec.catalogue())
        game._rules_version = cached  # type: ignore[attr-defined]
    return cached
