"""Who sits where in a match, and what each ticket is told once its game exists."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from services.matchmaking import bots
from services.matchmaking.tickets import TicketData


def drawn_seats(match_id: str, datas: Sequence[TicketData], bot_seats: int) -> list[dict[str, Any]]:
    """The people of matched tickets and ``bot_seats`` bots, in a seat order
    drawn from the match id (bots of the first bot-allowing ticket's kind)."""
    people: list[dict[str, Any]] = [
        {"player_id": p, "name": n, "bot": False, "ticket_id": d.ticket_id}
        for d in datas
        for p, n in d.party
    ]
    bot_kind = next((d.bot_kind for d in datas if d.bots), bots.RANDOM)
    for i in range(bot_seats):
        people.append(
            {
                "player_id": bots.player_id(bot_kind),
                "name": f"{bot_kind.title()} bot {i + 1}",
                "bot": True,
                "kind": bot_kind,
            }
        )
    random.Random(match_id).shuffle(people)
    return people


def match_record(
    game: str,
    match_id: str,
    endpoint: Any,
    created: Any,
    players: int,
    people: list[dict[str, Any]],
    ids: list[str],
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """A created game's match record (seats in order, bots with their tokens) and
    each ticket's assignment (its own seats' tokens, the others' names)."""
    tokens = {c.seat: c.token for c in created.credentials}
    seats = []
    for seat, person in enumerate(people):
        entry = {**person, "seat": seat}
        if person["bot"]:
            entry["token"] = tokens[seat]
        seats.append(entry)
    record = {
        "match_id": match_id,
        "game": game,
        "game_id": created.game_id,
        "address": endpoint.address,
        "players": players,
        "seats": seats,
        # A game of bots only says nothing about people: it is not rated.
        "rated": any(not p["bot"] for p in people),
        # For the supervisor's no-show abort (supervisor.py): a seat's token
        # (any seat may Abort) and when the game was made.
        "abort_token": tokens[0],
        "created_ms": int(time.time() * 1000),
    }
    assignments: dict[str, dict[str, Any]] = {}
    for ticket_id in ids:
        mine = [s for s in seats if s.get("ticket_id") == ticket_id]
        others = [s for s in seats if s.get("ticket_id") != ticket_id]
        assignments[ticket_id] = {
            "game": game,
            "address": endpoint.public_address,
            "service_name": endpoint.service_name,
            "game_id": created.game_id,
            "players": players,
            "match_id": match_id,
            "seats": [
                {"player_id": s["player_id"], "seat": s["seat"], "token": tokens[s["seat"]]}
                for s in mine
            ],
            "others": [
                {
                    "seat": s["seat"],
                    "player_id": s["player_id"],
                    "name": s["name"],
                    "bot": s["bot"],
                }
                for s in others
            ],
        }
    return record, assignments
