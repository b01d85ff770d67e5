"""The matchmaker over its browser port: a real matchmaker process (and the
Under the Leaves service it assigns to) over a real Redis, called with the
generated Connect client over HTTP/1.1 and HTTP/2."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from connectrpc.protocol import ProtocolType
from roost.matchmaking.v1 import matchmaking_pb2 as pb
from roost.matchmaking.v1.matchmaking_connect import MatchmakerClient

from services.core.redis_server import free_port
from tests.connect.connect_support import error_info, http_client, raw, run
from tests.matchmaking.stack import implemented_games, stack


@pytest.fixture(scope="module")
def mm_base(redis_server_url: str) -> Iterator[str]:
    """The base URL of a matchmaker's browser port."""
    if "undertheleaves" not in {g.name for g in implemented_games()}:
        pytest.skip("the Under the Leaves service is not available")
    port = free_port()
    with stack(redis_server_url, ["undertheleaves"], 1, 6, CONNECT_PORT=str(port)):
        yield f"http://127.0.0.1:{port}"


def enqueue_request(players: int = 1) -> pb.EnqueueRequest:
    return pb.EnqueueRequest(
        ticket_id=f"web-{uuid.uuid4().hex}",
        game="undertheleaves",
        player_counts=[2],
        party=[pb.Player(player_id=f"p-{uuid.uuid4().hex[:8]}") for _ in range(players)],
    )


@pytest.mark.parametrize(
    ("protocol", "http"), [(ProtocolType.CONNECT, "1.1"), (ProtocolType.GRPC_WEB, "2")]
)
def test_enqueue_get_and_cancel(mm_base: str, protocol: ProtocolType, http: str) -> None:
    async def go() -> tuple[Any, Any, Any]:
        async with MatchmakerClient(mm_base, protocol=protocol, http_client=http_client(http)) as c:
            request = enqueue_request()
            enqueued = await c.enqueue(request)
            got = await c.get_ticket(pb.GetTicketRequest(ticket_id=request.ticket_id))
            cancelled = await c.cancel(pb.CancelRequest(ticket_id=request.ticket_id))
            return enqueued, got, cancelled

    enqueued, got, cancelled = run(go())
    assert enqueued.created
    assert got.ticket.ticket_id == enqueued.ticket.ticket_id
    assert cancelled.ticket.status == pb.TICKET_STATUS_CANCELLED


def test_watch_ticket_streams_the_assignment(mm_base: str) -> None:
    """A party that fills a two-player game is assigned at once: the stream
    carries the ticket until it is assigned."""

    async def go() -> list[Any]:
        async with MatchmakerClient(mm_base, protocol=ProtocolType.GRPC_WEB) as c:
            request = enqueue_request(players=2)
            await c.enqueue(request)
            statuses = []
            stream = c.watch_ticket(
                pb.WatchTicketRequest(ticket_id=request.ticket_id), timeout_ms=15_000
            )
            async with contextlib.aclosing(stream):
                async for reply in stream:
                    statuses.append(reply.ticket)
                    if reply.ticket.status == pb.TICKET_STATUS_ASSIGNED:
                        break
            return statuses

    tickets = run(go())
    assert tickets[-1].status == pb.TICKET_STATUS_ASSIGNED
    assert tickets[-1].assignment.game_id


def test_a_bad_request_has_the_matchmakers_error(mm_base: str) -> None:
    async def go() -> ConnectError:
        async with MatchmakerClient(mm_base) as c:
            with pytest.raises(ConnectError) as caught:
                await c.enqueue(pb.EnqueueRequest(ticket_id="x", player_counts=[2]))
        return caught.value

    error = run(go())
    assert error.code == Code.INVALID_ARGUMENT
    assert error_info(error).reason == "ERROR_REASON_INVALID_REQUEST"


def test_matchmaker_health_over_connect(mm_base: str) -> None:
    reply = raw(
        f"{mm_base}/grpc.health.v1.Health/Check",
        body=b'{"service": "roost.matchmaking.v1.Matchmaker"}',
        headers={"content-type": "application/json"},
    )
    assert reply.status == 200 and b"SERVING" in reply.body
