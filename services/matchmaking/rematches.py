"""Rematches of matched and private tables: the matchmaker's bot seats accept.

When a supervised game with at least one person and at least one bot seat has
ended, the supervisor offers a rematch from each bot seat (an offer is the
bot's acceptance: services/core/lifecycle/rematch.py), so the new game starts
as soon as the human seats accept; they decide. The rematch becomes a match of
its own (``<match id>.r``) with the seats rotated as the game service rotates
them and each bot's new token from its own offer's reply, supervised like any
other: its bots play, it is rated if the first was. It waits for the people
up to :data:`WAIT_MS`; a rematch nobody accepts in that time is forgotten.

A game of bots only is never rematched (it would start at once, for ever).
Offers are idempotent (the rematch id is fixed by the old game), so an
adopted supervisor that offers again changes nothing.
"""

from __future__ import annotations

import time
from typing import Any

import grpc

from services.matchmaking.games import GameEndpoint

#: How long a rematch's match waits for its people to accept (ms).
WAIT_MS = 10 * 60 * 1000


def wanted(record: dict[str, Any]) -> bool:
    """True when the match's bots offer a rematch (a person and a bot sit at it)."""
    seats = record["seats"]
    return any(s.get("bot") for s in seats) and any(not s.get("bot") for s in seats)


def waiting(record: dict[str, Any]) -> bool:
    """True while a rematch's match may still start (its people have time to accept)."""
    return int(record.get("waits_until_ms", 0)) > int(time.time() * 1000)


async def offer(endpoint: GameEndpoint, record: dict[str, Any]) -> dict[str, Any] | None:
    """Offer the rematch from every bot seat; the rematch's match record (None
    when the game service refuses, e.g. the game is gone)."""
    players = int(record["players"])
    seats: list[dict[str, Any]] = []
    new_game_id = ""
    for seat in record["seats"]:
        entry = {**seat, "seat": (int(seat["seat"]) - 1) % players}
        if seat.get("bot"):
            try:
                rematch = await endpoint.offer_rematch(record["game_id"], seat["token"])
            except grpc.aio.AioRpcError as error:
                if error.code() in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.FAILED_PRECONDITION):
                    return None
                raise
            new_game_id = rematch.game_id
            entry["token"] = rematch.credential.token
        seats.append(entry)
    # No no-show abort for a rematch: its people are there, they accepted it.
    kept = {k: v for k, v in record.items() if k not in ("abort_token", "created_ms")}
    return {
        **kept,
        "match_id": f"{record['match_id']}.r",
        "game_id": new_game_id,
        "seats": sorted(seats, key=lambda s: s["seat"]),
        "rematch_of": record["game_id"],
        "waits_until_ms": int(time.time() * 1000) + WAIT_MS,
    }
