"""The matchmaker's part of the Redis stall run (bench/redis_stall.py).

A client queues one player after another (``Enqueue`` with a client-chosen
ticket id, retried with the same id while UNAVAILABLE, so a retry never
queues twice) and reads each ticket back (``GetTicket``), every call with the
same 5 s deadline as the game calls. Afterwards every acknowledged ticket
must still be readable, for the same game and player: nothing the matchmaker
acknowledged during the stall is lost.
"""

from __future__ import annotations

import threading
import uuid
from typing import Any

import grpc
from roost.matchmaking.v1 import matchmaking_pb2 as mm
from roost.matchmaking.v1 import matchmaking_pb2_grpc as mm_grpc

MATCHMAKER = "roost.matchmaking.v1.Matchmaker"
GAME = "undertheleaves"
PORT = "matchmaker"


def queue_players(address: str, load: Any, stop: threading.Event, timed: Any) -> None:
    """Enqueue and read back tickets until ``stop``; ``load.tickets`` gains
    ticket id -> player id of every acknowledged Enqueue."""
    with grpc.insecure_channel(address) as channel:
        stub = mm_grpc.MatchmakerStub(channel)
        number = 0
        while not stop.is_set():
            number += 1
            player = f"stall-{number}-{uuid.uuid4().hex[:6]}"
            request = mm.EnqueueRequest(
                ticket_id=f"t-{player}", game=GAME, player_counts=[2],
                party=[mm.Player(player_id=player, name=player)],
            )  # fmt: skip
            try:
                _until_answered(load, stop, timed, stub.Enqueue, request)
                with load.lock:
                    load.tickets[request.ticket_id] = player
                _until_answered(
                    load, stop, timed, stub.GetTicket,
                    mm.GetTicketRequest(ticket_id=request.ticket_id),
                )  # fmt: skip
            except grpc.RpcError as error:
                load.errors.append(f"matchmaker {error.code().name}: {error.details()}")
                return
            except _Stopped:
                return
            stop.wait(0.1)


class _Stopped(Exception):
    """The run ended while a call was being retried."""


def _until_answered(load: Any, stop: threading.Event, timed: Any, method: Any, request: Any) -> Any:
    """``method(request)``, again while UNAVAILABLE (same request, same id)."""
    while not stop.is_set():
        try:
            return timed(load, method, request, port=PORT)
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.UNAVAILABLE:
                raise
            stop.wait(0.1)
    raise _Stopped


def missing_tickets(address: str, tickets: dict[str, str]) -> int:
    """Acknowledged tickets that cannot be read back for their game and player."""
    missing = 0
    with grpc.insecure_channel(address) as channel:
        stub = mm_grpc.MatchmakerStub(channel)
        for ticket_id, player in tickets.items():
            try:
                ticket = stub.GetTicket(mm.GetTicketRequest(ticket_id=ticket_id), timeout=5).ticket
            except grpc.RpcError:
                missing += 1
                continue
            if ticket.game != GAME or [p.player_id for p in ticket.party] != [player]:
                missing += 1
    return missing
