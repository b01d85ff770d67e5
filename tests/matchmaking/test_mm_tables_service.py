"""Private tables end to end: two matchmaker processes, one Redis, a real
Under the Leaves service, every call through gRPC."""

from __future__ import annotations

import time
import uuid

import grpc
import pytest
import redis
from roost.common.v1 import common_pb2
from roost.matchmaking.v1 import matchmaking_pb2 as pb

from services.core.redis_server import free_port
from services.matchmaking import keys
from services.registry import by_name
from tests.matchmaking.mmclient import MmClient, UtlClient
from tests.matchmaking.stack import Stack, start, with_db
from tests.service_contract import error_reason

# Matchmakers and game services as processes: left out of make test-fast.
pytestmark = pytest.mark.slow

GAME = "undertheleaves"


def person(player_id: str) -> pb.TableSeat:
    return pb.TableSeat(player_id=player_id)


def bot(kind: int, name: str = "") -> pb.TableSeat:
    return pb.TableSeat(bot=kind, name=name)


def table_request(party: list[str], seats: list[pb.TableSeat], **fields) -> pb.EnqueueRequest:
    return pb.EnqueueRequest(
        ticket_id=f"table-{uuid.uuid4().hex}",
        game=GAME,
        party=[pb.Player(player_id=p, name=p.upper()) for p in party],
        table=pb.Table(seats=seats),
        **fields,
    )


def assigned(mm: MmClient, request: pb.EnqueueRequest, via: int = 0) -> pb.Ticket:
    """Enqueue a table; its game exists when Enqueue answers."""
    reply = mm.stub(via).Enqueue(request, timeout=10)
    mm.tickets.append(reply.ticket.ticket_id)
    assert reply.ticket.status == pb.TICKET_STATUS_ASSIGNED, reply.ticket
    return reply.ticket


def test_a_private_table_is_created_at_once_as_seated_and_no_stranger_joins(
    mm: MmClient, utl: UtlClient
) -> None:
    before = mm.enqueue(counts=(3,))  # a stranger for the same game, count and options
    human = f"host-{uuid.uuid4().hex[:8]}"
    request = table_request(
        [human], [bot(pb.BOT_KIND_GREEDY, "Greta"), person(human), bot(pb.BOT_KIND_RANDOM)]
    )
    reply = mm.stub(1).Enqueue(request, timeout=10)
    mm.tickets.append(request.ticket_id)
    assert reply.created
    ticket = reply.ticket
    # At once: the Enqueue reply itself is ASSIGNED, no matchmaker tick in between.
    assert ticket.status == pb.TICKET_STATUS_ASSIGNED, "seated by the Enqueue call itself"
    after = mm.enqueue(counts=(3,), via=1)
    # The table as asked, echoed back, and every seat where the table put it.
    assert [s.WhichOneof("occupant") for s in ticket.table.seats] == ["bot", "player_id", "bot"]
    assert not ticket.bot_fill.enabled  # the bots are in the table, not a bot fill
    a = ticket.assignment
    assert a.players == 3 and a.game_id
    assert [(s.player_id, s.seat) for s in a.seats] == [(human, 1)]
    assert [(o.seat, o.player_id, o.name, o.bot) for o in a.others] == [
        (0, "bot:greedy", "Greta", True),
        (2, "bot:random", "Random bot 2", True),
    ]
    # Strangers queued before and after stay queued: nobody takes a bot's place.
    time.sleep(0.3)  # a few matching passes of both matchmakers
    for stranger in (before, after):
        assert mm.get(stranger.ticket_id).status == pb.TICKET_STATUS_QUEUED
        mm.stub().Cancel(pb.CancelRequest(ticket_id=stranger.ticket_id))
    # The game service agrees, and the bots play the game to its end with the person.
    (seat,) = a.seats
    assert utl.state(a.game_id, seat.token).viewer_seat == 1
    end = utl.play_seat_to_end(a.game_id, seat.token)
    assert end.status == common_pb2.GAME_STATUS_FINISHED
    # Rated like every game with bots: the person and the bots by kind.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        ratings = (
            mm.stub()
            .GetRatings(
                pb.GetRatingsRequest(game=GAME, player_ids=[human, "bot:greedy", "bot:random"])
            )
            .ratings
        )
        if ratings[0].games == 1:
            break
        time.sleep(0.1)
    assert [r.games >= 1 for r in ratings] == [True, True, True]
    assert ratings[0].games == 1


def test_a_table_of_bots_only_is_a_game_to_watch_and_is_not_rated(
    mm: MmClient, utl: UtlClient, mm_stack: Stack
) -> None:
    board = {r.player_id: r.games for r in mm.stub().GetRatings(
        pb.GetRatingsRequest(game=GAME, player_ids=["bot:greedy", "bot:random"])
    ).ratings}  # fmt: skip
    ticket = assigned(mm, table_request([], [bot(pb.BOT_KIND_RANDOM), bot(pb.BOT_KIND_GREEDY)]))
    a = ticket.assignment
    assert list(a.seats) == [] and a.game_id
    assert [(o.seat, o.player_id) for o in a.others] == [(0, "bot:random"), (1, "bot:greedy")]
    deadline = time.monotonic() + 60
    while utl.state(a.game_id).status != common_pb2.GAME_STATUS_FINISHED:
        assert time.monotonic() < deadline, "the bots did not finish their game"
        time.sleep(0.1)
    raw = redis.Redis.from_url(mm_stack.mm_redis_url)
    while raw.sismember(keys.live(GAME), a.match_id):  # the supervisor is done with it
        assert time.monotonic() < deadline
        time.sleep(0.05)
    after = {r.player_id: r.games for r in mm.stub().GetRatings(
        pb.GetRatingsRequest(game=GAME, player_ids=["bot:greedy", "bot:random"])
    ).ratings}  # fmt: skip
    assert after == board


@pytest.mark.parametrize(
    ("party", "seats", "extra", "field"),
    [
        (["ann"], [person("ann"), *[bot(pb.BOT_KIND_GREEDY)] * 4], {}, "table.seats"),
        (["ann"], [person("ann")], {}, "table.seats"),
        (["ann"], [person("ann"), person("ann")], {}, "table.seats[1].player_id"),
        (["ann", "bea"], [person("ann"), bot(pb.BOT_KIND_RANDOM)], {}, "table.seats"),
        (["ann"], [person("ann"), person("cat")], {}, "table.seats[1].player_id"),
        (["ann"], [person("ann"), bot(7)], {}, "table.seats[1].bot"),
        (["ann"], [person("ann"), pb.TableSeat()], {}, "table.seats[1]"),
        (["ann"], [person("ann"), pb.TableSeat(player_id="ann", name="x")], {},
         "table.seats[1].name"),
        (["ann"], [person("ann"), bot(pb.BOT_KIND_RANDOM)], {"player_counts": [3]},
         "player_counts"),
        (["ann"], [person("ann"), bot(pb.BOT_KIND_RANDOM)],
         {"bot_fill": pb.BotFill(enabled=True)}, "bot_fill"),
        ([], [], {}, "table.seats"),
    ],
)  # fmt: skip
def test_a_bad_table_is_invalid_argument_and_nothing_is_stored(
    mm: MmClient, mm_stack: Stack, party: list[str], seats: list, extra: dict, field: str
) -> None:
    request = table_request(party, seats, **extra)
    with pytest.raises(grpc.RpcError) as caught:
        mm.stub().Enqueue(request, timeout=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_reason(caught.value) == "ERROR_REASON_INVALID_REQUEST"
    assert caught.value.details().startswith(f"{field}:"), caught.value.details()
    raw = redis.Redis.from_url(mm_stack.mm_redis_url)
    assert not raw.exists(keys.ticket_index(request.ticket_id))
    assert not raw.exists(keys.ticket(GAME, request.ticket_id))
    with pytest.raises(grpc.RpcError) as missing:
        mm.stub(1).GetTicket(pb.GetTicketRequest(ticket_id=request.ticket_id), timeout=10)
    assert missing.value.code() == grpc.StatusCode.NOT_FOUND


def test_a_table_whose_game_service_was_away_is_seated_by_the_matching_loop(
    mm_stack: Stack,
) -> None:
    """Enqueue cannot create the game (nothing listens yet): the ticket goes
    back to the queue, and once the service is up a matching pass seats it as
    the table says."""
    port = free_port()
    solo = Stack(mm_stack.redis_url, with_db(mm_stack.mm_redis_url, 6))
    redis.Redis.from_url(solo.mm_redis_url).flushdb()
    service = None
    try:
        address = f"127.0.0.1:{port}"
        client = MmClient([solo.start_matchmaker(GAME_ADDR_UNDERTHELEAVES=address).address])
        request = table_request(["ann"], [bot(pb.BOT_KIND_GREEDY), person("ann")])
        reply = client.stub().Enqueue(request, timeout=10)
        client.tickets.append(request.ticket_id)
        assert reply.ticket.status == pb.TICKET_STATUS_QUEUED
        service = start(by_name(GAME), {"REDIS_URL": mm_stack.redis_url}, port=port)
        deadline = time.monotonic() + 30
        while True:
            ticket = client.get(request.ticket_id)
            if ticket.status != pb.TICKET_STATUS_QUEUED:
                break
            assert time.monotonic() < deadline, "the matching loop never seated the table"
            client.stub().Heartbeat(pb.HeartbeatRequest(ticket_id=request.ticket_id))
            time.sleep(0.2)
        ticket = client.final(request.ticket_id, timeout=10)
        assert ticket.status == pb.TICKET_STATUS_ASSIGNED
        assert [(s.player_id, s.seat) for s in ticket.assignment.seats] == [("ann", 1)]
        assert [(o.seat, o.player_id) for o in ticket.assignment.others] == [(0, "bot:greedy")]
        client.cleanup()
    finally:
        for proc in solo.matchmakers:
            proc.stop()
        if service is not None:
            service.stop()
