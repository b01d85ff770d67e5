"""The reads of a game: GetState, Legal, Score, GetLog and GetCatalogue.

A read never changes a stored game. Each answers from the stored version
(states, legal lists and views this process already holds for that version
are used as they are: a version never changes once written).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf.message import Message
from roost.common.v1 import common_pb2

from services.core import errors
from services.core.convert import scoreboard_to_proto
from services.core.events import OVER, status_value
from services.core.game_context import GameContext
from services.core.lifecycle import ending as lifecycle_ending
from services.core.lifecycle.writes import KINDS as LIFECYCLE_KINDS
from services.core.requests import GameRequest, GetCatalogueRequest, GetLogRequest, LegalRequest


@dataclass(frozen=True, slots=True)
class CatalogueReplies:
    """A game's GetCatalogue answers, serialized once: the catalogue never changes
    while the process runs."""

    #: Content hash of the catalogue (hex SHA-256 of its deterministic bytes, 32 digits).
    version: str
    #: The response carrying the catalogue.
    full: bytes
    #: The response for a caller that already has ``version``.
    unchanged: bytes


def catalogue_version(catalogue: Message) -> str:
    """The catalogue's content hash: the same data gives the same version in every
    process (deterministic serialization; catalogues hold no maps)."""
    return hashlib.sha256(catalogue.SerializeToString(deterministic=True)).hexdigest()[:32]


def catalogue_replies(catalogue: Message, response: type[Message]) -> CatalogueReplies:
    """Both GetCatalogue answers of ``catalogue``, ready to send."""
    version = catalogue_version(catalogue)
    full = response(version=version, catalogue=catalogue).SerializeToString(deterministic=True)
    unchanged = response(version=version, not_modified=True).SerializeToString()
    return CatalogueReplies(version=version, full=full, unchanged=unchanged)


def canonical_json(options: dict[str, Any]) -> str:
    """Options as canonical JSON (sorted keys, no spaces)."""
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


class GameReads:
    """The read RPCs of one game."""

    def __init__(self, game: GameContext) -> None:
        self.game = game
        self._catalogue: CatalogueReplies | None = None

    async def get_state(self, request: GameRequest, context: grpc.aio.ServicerContext) -> Message:
        """The game's current version as the caller (a seat, or a spectator) sees it."""
        game = self.game
        game_id, meta, seat = await game.caller(request, context, token_required=False)
        version, state, status, life = await game.load_with_life(game_id, meta)
        response = game.m.GetStateResponse(
            game_id=game_id,
            version=version,
            status=status_value(status),
            to_act=[] if status in OVER else game.engine.to_act(state),
            clock=life.clock(),
            viewer_seat=-1 if seat is None else seat,
            seats=[common_pb2.Seat(seat=i, name=n) for i, n in enumerate(meta.seat_names)],
        )
        game.fill_stored_view(response.view, game_id, version, state, seat)
        return response

    async def legal(self, request: LegalRequest, context: grpc.aio.ServicerContext) -> Message:
        """The seat's legal actions at the current version (a token is required)."""
        game = self.game
        game_id, meta, seat = await game.caller(request, context, token_required=True)
        assert seat is not None
        version, state, status = await game.load(game_id, meta)
        response = game.m.LegalResponse(version=version)
        if status not in OVER:  # a game ended early (resign, timeout, a cap) has none
            game.fill_legal(response, game_id, version, state, seat, request.with_score_preview)
        return response

    async def score(self, request: GameRequest, context: grpc.aio.ServicerContext) -> Message:
        """The scoreboard at the current version."""
        game = self.game
        game_id, meta, _seat = await game.caller(request, context, token_required=False)
        version, state, status, life = await game.load_with_life(game_id, meta)
        board = scoreboard_to_proto(lifecycle_ending.adjust(game.engine.score(state), life))
        lifecycle_ending.fill_proto(board, life, status in OVER)
        return game.m.ScoreResponse(version=version, scoreboard=board)

    async def get_log(self, request: GetLogRequest, context: grpc.aio.ServicerContext) -> Message:
        """The events after ``from_version`` (at most ``limit``), each with its
        action unless the reader may not see it; the seed once the game is over."""
        if request.from_version < 0 or request.limit < 0:
            raise errors.invalid_argument("from_version/limit", "must not be negative")
        game = self.game
        game_id, meta, seat = await game.caller(request, context, token_required=False)
        version, _state, status = await game.load(game_id, meta)
        entries = []
        for stored in await game.store.events(game_id, request.from_version, request.limit):
            event = stored.to_proto(seat)
            entry = game.m.LogEntry(event=event)
            if not event.redacted and event.seat >= 0 and event.kind not in LIFECYCLE_KINDS:
                entry.action.CopyFrom(game.codec.from_args_json(stored.kind, stored.args_json))
            entries.append(entry)
        finished = status in OVER
        return game.m.GetLogResponse(
            entries=entries,
            version=version,
            seed=meta.seed if finished else 0,
            options_json=canonical_json(meta.options),
            players=meta.players,
        )

    def get_catalogue(self, request: GetCatalogueRequest) -> bytes:
        """The game's catalogue, or ``not_modified`` when the caller has this version."""
        replies = self._catalogue
        if replies is None:
            replies = self._catalogue = catalogue_replies(
                self.game.spec.catalogue(), self.game.m.GetCatalogueResponse
            )
        return replies.unchanged if request.if_version == replies.version else replies.full
