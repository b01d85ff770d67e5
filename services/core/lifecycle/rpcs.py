"""The lifecycle RPCs of every game service: Resign, Abort, OfferRematch, AcceptRematch.

:class:`~services.core.game_service.GameServicer` inherits them, so every
game's servicer serves them over its :class:`~services.core.game_context.GameContext`
(``self.game``); the work is in :mod:`.writes` and :mod:`.rematch`.
"""

from __future__ import annotations

import secrets
from typing import Any

import grpc
from roost.common.v1 import common_pb2

from services.core import errors
from services.core.events import OVER
from services.core.game_context import GameContext, token_of
from services.core.lifecycle import rematch
from services.core.lifecycle.record import Life
from services.core.metrics import unary
from services.core.new_game import create_game
from services.core.requests import GameRequest
from services.core.store import GameMeta
from services.core.tokens import hash_token


class LifecycleRpcs:
    """Resign, Abort and the rematch calls (see the service.proto comments)."""

    game: GameContext

    @unary("game")
    async def Resign(self, request: GameRequest, context: grpc.aio.ServicerContext) -> Any:
        game_id, meta, seat = await self.game.caller(request, context, token_required=True)
        assert seat is not None
        version, event = await self.game.lifecycle.resign(game_id, meta, seat)
        return self.game.m.ResignResponse(version=version, status=event["status"], event=event)

    @unary("game")
    async def Abort(self, request: GameRequest, context: grpc.aio.ServicerContext) -> Any:
        game_id, meta, seat = await self.game.caller(request, context, token_required=True)
        assert seat is not None
        version, event = await self.game.lifecycle.abort(game_id, meta, seat)
        return self.game.m.AbortResponse(version=version, status=event["status"], event=event)

    @unary("game")
    async def OfferRematch(self, request: GameRequest, context: grpc.aio.ServicerContext) -> Any:
        rematch_message = await self._rematch(request, context, offer=True)
        return self.game.m.OfferRematchResponse(rematch=rematch_message)

    @unary("game")
    async def AcceptRematch(self, request: GameRequest, context: grpc.aio.ServicerContext) -> Any:
        rematch_message = await self._rematch(request, context, offer=False)
        return self.game.m.AcceptRematchResponse(rematch=rematch_message)

    async def _rematch(
        self, request: GameRequest, context: grpc.aio.ServicerContext, *, offer: bool
    ) -> Any:
        """Record the caller's acceptance (an offer is one) and start the game
        once every seat that stayed has accepted (see :mod:`.rematch`)."""
        game = self.game
        game_id, meta, seat = await game.caller(request, context, token_required=True)
        assert seat is not None
        loaded = await game.lifecycle.load(game_id, meta)
        if loaded.stored.status not in OVER:
            raise errors.precondition(
                "ERROR_REASON_GAME_NOT_OVER", "a rematch is offered from a game that has ended"
            )
        life = loaded.life
        client = game.store.client
        key = rematch.rematch_key(game_id)
        if not offer and not await client.exists(key):
            raise errors.precondition(
                "ERROR_REASON_NO_REMATCH_OFFER", "nobody has offered a rematch of this game"
            )
        new_id = rematch.rematch_id(game_id, game.store.cluster)
        token = rematch.rematch_token(token_of(context) or "", new_id)
        await client.hset(key, str(seat), hash_token(token))
        await client.expire(key, game.settings.game_ttl_seconds)
        accepted = {int(k): v.decode() for k, v in (await client.hgetall(key)).items()}
        awaited = [s for s in rematch.required_seats(life) if s not in accepted]
        started = not awaited and await self._start_rematch(new_id, meta, life, accepted)
        return game.m.Rematch(
            game_id=new_id,
            started=started,
            accepted_seats=sorted(accepted),
            awaited_seats=awaited,
            credential=common_pb2.SeatCredential(
                seat=rematch.new_seat(seat, meta.players), token=token
            ),
        )

    async def _start_rematch(
        self, new_id: str, meta: GameMeta, life: Life, accepted: dict[int, str]
    ) -> bool:
        """Create the rematch (once: its id is fixed); True once it exists."""
        game = self.game
        if await game.store.load_meta(new_id) is not None:
            return True
        players = meta.players
        olds = [rematch.old_seat(new, players) for new in range(players)]
        # A seat that left has no token: a random hash nobody holds (the house bot plays it).
        hashes = [accepted.get(old) or hash_token(secrets.token_urlsafe(24)) for old in olds]
        seed = secrets.randbits(63)
        new_meta = GameMeta(
            game=meta.game,
            players=players,
            seed=seed,
            options=meta.options,
            seat_names=[meta.seat_names[old] for old in olds],
            token_hashes=hashes,
            identities=[meta.identities[old] for old in olds] if meta.identities else [],
        )
        state = game.engine.setup(players, meta.options, seed)
        # A seat that left and did not accept is the house bot's from the start.
        left = tuple(
            new for new, old in enumerate(olds) if old in life.left and old not in accepted
        )
        await create_game(game, new_id, new_meta, state, life.tc, left)
        return True
