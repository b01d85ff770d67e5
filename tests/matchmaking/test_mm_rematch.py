"""Rematches of a private table (issue 27, "Rematch"): the matchmaker's bot seat
accepts on its own (services/matchmaking/rematches.py), the person decides; the
rematch, seats rotated, is supervised and rated like the first game. Two
matchmaker processes, one Redis, a real Under the Leaves service, over gRPC."""

from __future__ import annotations

import time
import uuid

import grpc
import pytest
from roost.common.v1 import common_pb2
from roost.matchmaking.v1 import matchmaking_pb2 as pb
from roost.undertheleaves.v1 import service_pb2 as utl_pb

from tests.matchmaking.mmclient import MmClient, UtlClient
from tests.service_contract import error_reason

# Matchmakers and game services as processes: left out of make test-fast.
pytestmark = pytest.mark.slow

GAME = "undertheleaves"


def _accept_once_offered(utl: UtlClient, game_id: str, token: str) -> utl_pb.Rematch:
    """AcceptRematch as the person, once the bot seat has offered (it does so
    after the supervisor saw the game end)."""
    end = time.monotonic() + 20
    while True:
        try:
            return utl.stub.AcceptRematch(
                utl_pb.AcceptRematchRequest(game_id=game_id),
                metadata=[("x-seat-token", token)],
                timeout=10,
            ).rematch
        except grpc.RpcError as error:
            assert error_reason(error) == "ERROR_REASON_NO_REMATCH_OFFER", error
        assert time.monotonic() < end, "the bot seat never offered a rematch"
        time.sleep(0.05)


def test_the_bot_seat_accepts_a_rematch_and_the_person_starts_it(
    mm: MmClient, utl: UtlClient
) -> None:
    human = f"again-{uuid.uuid4().hex[:8]}"
    request = pb.EnqueueRequest(
        ticket_id=f"rematch-{uuid.uuid4().hex}",
        game=GAME,
        party=[pb.Player(player_id=human, name="Again")],
        table=pb.Table(seats=[pb.TableSeat(player_id=human), pb.TableSeat(bot=pb.BOT_KIND_RANDOM)]),
    )
    reply = mm.stub().Enqueue(request, timeout=10)
    mm.tickets.append(reply.ticket.ticket_id)
    first = reply.ticket.assignment
    (seat,) = first.seats
    assert seat.seat == 0
    assert utl.play_seat_to_end(first.game_id, seat.token).status == common_pb2.GAME_STATUS_FINISHED
    rematch = _accept_once_offered(utl, first.game_id, seat.token)
    # The bot had accepted: the person's acceptance starts the game, seats rotated.
    assert rematch.started and list(rematch.accepted_seats) == [0, 1]
    assert rematch.credential.seat == 1
    # The matchmaker supervises the rematch: its bot (now seat 0) plays it to the end.
    second = utl.play_seat_to_end(rematch.game_id, rematch.credential.token)
    assert second.status == common_pb2.GAME_STATUS_FINISHED
    # ... and rates it like the first game.
    end = time.monotonic() + 20
    while True:
        ratings = mm.stub().GetRatings(pb.GetRatingsRequest(game=GAME, player_ids=[human])).ratings
        if ratings[0].games == 2:
            break
        assert time.monotonic() < end, f"rated {ratings[0].games} games, not 2"
        time.sleep(0.1)
