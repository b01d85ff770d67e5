"""A draining matchmaker ends its ticket watches at once (issue 'Reliability at
the edges': drains end their streams so clients resume elsewhere)."""

from __future__ import annotations

import signal
import time

import grpc
import pytest
from roost.matchmaking.v1 import matchmaking_pb2 as pb
from roost.matchmaking.v1 import matchmaking_pb2_grpc as pb_grpc

from tests.matchmaking.stack import stack
from tests.service_contract import error_reason

pytestmark = [pytest.mark.reliability, pytest.mark.slow]

#: A long grace: "right after SIGTERM, not after the grace" is told by deadlines
#: of half of it, never by timing.
GRACE = 120


def test_sigterm_ends_every_ticket_watch_with_draining(redis_server_url: str) -> None:
    """Waiting tickets' WatchTicket streams end with UNAVAILABLE
    (ERROR_REASON_DRAINING) right after SIGTERM, not after the grace period."""
    with stack(redis_server_url, ["undertheleaves"], matchmakers=1, mm_db=9,
               GRACE_SECONDS=str(GRACE)) as running:  # fmt: skip
        matchmaker = running.matchmakers[0]
        with grpc.insecure_channel(matchmaker.address) as channel:
            stub = pb_grpc.MatchmakerStub(channel)
            streams = []
            for n in range(3):  # three single players never fill a 4-player game
                ticket = stub.Enqueue(
                    pb.EnqueueRequest(
                        ticket_id=f"drain-{n}-{time.monotonic_ns()}", game="undertheleaves",
                        player_counts=[4], party=[pb.Player(player_id=f"drainer-{n}")],
                    ),
                    timeout=10,
                ).ticket  # fmt: skip
                # A stream the drain did not end runs to this deadline (DEADLINE_EXCEEDED).
                stream = stub.WatchTicket(
                    pb.WatchTicketRequest(ticket_id=ticket.ticket_id), timeout=GRACE / 2
                )
                assert next(stream).ticket.ticket_id == ticket.ticket_id
                streams.append(stream)
            matchmaker.process.send_signal(signal.SIGTERM)
            for stream in streams:
                with pytest.raises(grpc.RpcError) as caught:
                    for reply in stream:  # the ticket may still change before the drain
                        assert reply.ticket.status != pb.TICKET_STATUS_ASSIGNED
                assert caught.value.code() == grpc.StatusCode.UNAVAILABLE
                assert error_reason(caught.value) == "ERROR_REASON_DRAINING"
            assert matchmaker.process.wait(GRACE / 2) == 0  # long before the grace is out
