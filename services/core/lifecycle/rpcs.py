"""The lifecycle RPCs of every game service: Resign, Abort, OfferRematch, AcceptRematch.

Mixed into each game's servicer beside :class:`~services.core.game_service.GameServicer`
(whose helpers they use); the work is in :mod:`.writes` and :mod:`.rematch`.
"""

from __future__ import annotations

import secrets
from typing import Any

import grpc
from roost.common.v1 import common_pb2

from services.core import errors
from services.core.lifecycle import rematch, writes
from services.core.lifecycle.record import Life
from services.core.metrics import unary
from services.core.store import GameMeta
from services.core.tokens import hash_token


class LifecycleRpcs:
    """Resign, Abort and the rematch calls (see the service.proto comments)."""

    @unary("game")
    async def Resign(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        game_id, meta, seat = await self._caller(request, context, token_required=True)
        version, event = await self.lifecycle.resign(game_id, meta, seat)
        return self.m.ResignResponse(version=version, status=event["status"], event=event)

    @unary("game")
    async def Abort(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        game_id, meta, seat = await self._caller(request, context, token_required=True)
        version, event = await self.lifecycle.abort(game_id, meta, seat)
        return self.m.AbortResponse(version=version, status=event["status"], event=event)

    @unary("game")
    async def OfferRematch(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        return self.m.OfferRematchResponse(rematch=await self._rematch(request, context, True))

    @unary("game")
    async def AcceptRematch(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        return self.m.AcceptRematchResponse(rematch=await self._rematch(request, context, False))

    async def _rematch(self, request: Any, context: grpc.aio.ServicerContext, offer: bool) -> Any:
        game_id, meta, seat = await self._caller(request, context, token_required=True)
        loaded = await self.lifecycle.load(game_id, meta)
        if loaded.stored.status not in writes.OVER:
            raise errors.precondition(
                "ERROR_REASON_GAME_NOT_OVER", "a rematch is offered from a game that has ended"
            )
        life = loaded.life
        new_id = rematch.rematch_id(game_id)
        token = rematch.rematch_token(self._token(context) or "", new_id)
        key = rematch.rematch_key(game_id)
        client = self.store.client
        if not offer and not await client.exists(key):
            raise errors.precondition(
                "ERROR_REASON_NO_REMATCH_OFFER", "nobody has offered a rematch of this game"
            )
        if seat in life.left:
            raise errors.precondition("ERROR_REASON_SEAT_LEFT", f"seat {seat} left this game")
        await client.hset(key, str(seat), hash_token(token))
        await client.expire(key, self.settings.game_ttl_seconds)
        accepted = {int(k): v.decode() for k, v in (await client.hgetall(key)).items()}
        awaited = [s for s in life.active_seats() if s not in accepted]
        started = not awaited and await self._start_rematch(new_id, meta, life, accepted)
        players = meta.players
        return self.m.Rematch(
            game_id=new_id,
            started=started,
            accepted_seats=sorted(accepted),
            awaited_seats=awaited,
            credential=common_pb2.SeatCredential(seat=rematch.new_seat(seat, players), token=token),
        )

    async def _start_rematch(
        self, new_id: str, meta: GameMeta, life: Life, accepted: dict[int, str]
    ) -> bool:
        """Create the rematch (once: the id is fixed); True once it exists."""
        if await self.store.load_meta(new_id) is not None:
            return True
        players = meta.players
        olds = [rematch.old_seat(new, players) for new in range(players)]
        hashes = [accepted.get(old) or hash_token(secrets.token_urlsafe(24)) for old in olds]
        seed = secrets.randbits(63)
        new_meta = GameMeta(
            game=meta.game,
            players=players,
            seed=seed,
            options=meta.options,
            seat_names=[meta.seat_names[old] for old in olds],
            token_hashes=hashes,
        )
        state = self.engine.setup(players, meta.options, seed)
        left = tuple(new for new, old in enumerate(olds) if old in life.left)
        await self.create_game(new_id, new_meta, state, life.tc, left)
        return True
