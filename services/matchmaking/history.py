"""ListGames: ended games from the archive (services/core/records/archive.py).

Newest ending first, filtered by player (a seat identity), game and end time,
paged by an opaque token (the last row's end time and game id), so a page
never repeats or skips a game while new games are archived.
"""

from __future__ import annotations

import asyncio
import base64

from roost.common.v1 import common_pb2
from roost.matchmaking.v1 import matchmaking_pb2 as pb

from services.core.records.archive import Archive
from services.matchmaking import errors

DEFAULT_LIMIT = 20
MAX_LIMIT = 500


def encode_token(ended_ms: int, game_id: str) -> str:
    """The page token after the row (ended_ms, game_id)."""
    return base64.urlsafe_b64encode(f"{ended_ms}:{game_id}".encode()).decode()


def decode_token(token: str) -> tuple[int, str] | None:
    """Inverse of :func:`encode_token` (INVALID_ARGUMENT when it is not one)."""
    if not token:
        return None
    try:
        ended, game_id = base64.urlsafe_b64decode(token.encode()).decode().split(":", 1)
        return int(ended), game_id
    except (ValueError, UnicodeDecodeError):
        raise errors.invalid("page_token", "not a token ListGames returned") from None


async def list_games(archive: Archive | None, request: pb.ListGamesRequest) -> pb.ListGamesResponse:
    """One page of archived games (an empty page without an archive)."""
    if request.limit < 0 or request.since_ms < 0 or request.until_ms < 0:
        raise errors.invalid("limit/since_ms/until_ms", "must not be negative")
    after = decode_token(request.page_token)
    if archive is None:
        return pb.ListGamesResponse()
    limit = min(request.limit or DEFAULT_LIMIT, MAX_LIMIT)
    rows = await asyncio.to_thread(
        archive.list_games,
        identity=request.player_id, game=request.game, since_ms=request.since_ms,
        until_ms=request.until_ms, limit=limit + 1, after=after,
    )  # fmt: skip
    page = rows[:limit]
    response = pb.ListGamesResponse(
        games=[
            pb.ArchivedGame(
                game_id=r.game_id,
                game=r.game,
                players=r.players,
                status=common_pb2.GameStatus.Value(f"GAME_STATUS_{r.status}"),
                ending=common_pb2.GameEnding.Value(f"GAME_ENDING_{r.ending}"),
                created_ms=r.created_ms,
                ended_ms=r.ended_ms,
            )
            for r in page
        ]
    )
    if len(rows) > limit:
        response.next_page_token = encode_token(page[-1].ended_ms, page[-1].game_id)
    return response
