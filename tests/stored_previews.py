"""Score previews of stored states, read by fresh replicas (real gRPC, real Redis).

A game's stored state is replaced behind the services' back (same game, same
version), as another replica's write would, and a new server process on the same
Redis, whose caches are empty, answers ``Legal(with_score_preview=True)``. Two
states that differ only in what the asking seat cannot see must preview the same.
"""

from __future__ import annotations

from typing import Any

import redis

from services.core.game_service import GameSpec
from services.core.store import game_key
from tests.harness import game_server
from tests.service_contract import Client


def previews_of_stored(
    spec: GameSpec,
    redis_url: str,
    game_id: str,
    state: Any,
    token: str,
    reader_token: str | None = None,
) -> tuple[list[tuple[str, int]], Any]:
    """Store ``state`` as the game's current state, then ask a fresh replica for the
    token's seat's legal actions with previews (label, score_after), and for the view
    of ``reader_token`` (spectator when None) to show which state it read."""
    raw = redis.Redis.from_url(redis_url)
    try:
        raw.hset(game_key(game_id), "state", spec.engine.encode(state))
    finally:
        raw.close()
    with game_server(spec, redis_url) as replica:
        client = Client(replica, spec)
        try:
            legal = client.stub.Legal(
                spec.messages.LegalRequest(game_id=game_id, with_score_preview=True),
                metadata=client.md(token),
            )
            view = client.state(game_id, reader_token).view
        finally:
            client.channel.close()
    return [(entry.ref.label, entry.score_after) for entry in legal.actions], view
