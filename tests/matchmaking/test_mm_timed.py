"""Leavers through the matchmaker (issue 27): a timed table whose person
vanishes is ended by the game service's clock, and the rating counts the
forfeit as a loss for the leaver only. Two matchmaker processes, one Redis, a
real Under the Leaves service, every call through gRPC."""

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

pytestmark = [pytest.mark.slow, pytest.mark.e2e]

GAME = "undertheleaves"


def _timed_table(human: str, tc: common_pb2.TimeControl) -> pb.EnqueueRequest:
    return pb.EnqueueRequest(
        ticket_id=f"timed-{uuid.uuid4().hex}",
        game=GAME,
        party=[pb.Player(player_id=human, name="Leaver")],
        table=pb.Table(seats=[pb.TableSeat(bot=pb.BOT_KIND_RANDOM), pb.TableSeat(player_id=human)]),
        time_control=tc,
    )


def test_a_vanished_person_forfeits_on_time_and_only_the_leaver_loses_rating(
    mm: MmClient, utl: UtlClient
) -> None:
    human = f"leaver-{uuid.uuid4().hex[:8]}"
    tc = common_pb2.TimeControl(move_seconds=0.5, on_timeout=common_pb2.TIMEOUT_POLICY_FORFEIT)
    reply = mm.stub().Enqueue(_timed_table(human, tc), timeout=10)
    mm.tickets.append(reply.ticket.ticket_id)
    ticket = reply.ticket
    assert ticket.status == pb.TICKET_STATUS_ASSIGNED
    assert ticket.time_control.move_seconds == 0.5
    (seat,) = ticket.assignment.seats
    game_id = ticket.assignment.game_id
    md = [("x-seat-token", seat.token)]
    # The person makes its first decision (once the bot has made its own), then vanishes.
    end = time.monotonic() + 20
    while True:
        state = utl.state(game_id, seat.token)
        if seat.seat in state.to_act:
            legal = utl.stub.Legal(utl_pb.LegalRequest(game_id=game_id), metadata=md)
            utl.stub.Apply(
                utl_pb.ApplyRequest(game_id=game_id, expected_version=legal.version, action_id=0),
                metadata=md,
            )
            break
        assert time.monotonic() < end
        time.sleep(0.02)
    while utl.state(game_id).status != common_pb2.GAME_STATUS_FINISHED:
        assert time.monotonic() < end + 20, "the clock never ended the game"
        time.sleep(0.05)
    board = utl.stub.Score(utl_pb.ScoreRequest(game_id=game_id)).scoreboard
    assert board.ending == common_pb2.GAME_ENDING_TIMEOUT
    assert list(board.left_seats) == [seat.seat] and list(board.winners) == [0]
    while True:
        ratings = mm.stub().GetRatings(pb.GetRatingsRequest(game=GAME, player_ids=[human])).ratings
        if ratings[0].games == 1:
            break
        assert time.monotonic() < end + 40
        time.sleep(0.1)
    assert ratings[0].mu < 25.0  # OpenSkill's starting mu: the leaver lost


def test_a_bad_time_control_is_refused_at_enqueue(mm: MmClient) -> None:
    request = _timed_table("nobody", common_pb2.TimeControl(increment_seconds=3))
    with pytest.raises(grpc.RpcError) as caught:
        mm.stub().Enqueue(request, timeout=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_reason(caught.value) == "ERROR_REASON_INVALID_REQUEST"
