"""A small blocking client of the matchmaker for tests."""

from __future__ import annotations

import contextlib
import random
import time
import uuid
from typing import Any

import grpc
from roost.common.v1 import common_pb2
from roost.matchmaking.v1 import matchmaking_pb2 as pb
from roost.matchmaking.v1 import matchmaking_pb2_grpc as pb_grpc
from roost.undertheleaves.v1 import service_pb2 as utl
from roost.undertheleaves.v1 import service_pb2_grpc as utl_grpc

TERMINAL = {
    pb.TICKET_STATUS_ASSIGNED,
    pb.TICKET_STATUS_CANCELLED,
    pb.TICKET_STATUS_EXPIRED,
    pb.TICKET_STATUS_FAILED,
}


class MmClient:
    """Stubs of every matchmaker of a stack; remembers tickets to clean up."""

    def __init__(self, addresses: list[str]) -> None:
        self.channels = [grpc.insecure_channel(a) for a in addresses]
        self.stubs = [pb_grpc.MatchmakerStub(c) for c in self.channels]
        self.tickets: list[str] = []

    def stub(self, index: int = 0) -> pb_grpc.MatchmakerStub:
        """The stub of matchmaker ``index`` (modulo their number)."""
        return self.stubs[index % len(self.stubs)]

    def enqueue(
        self,
        players: list[str] | None = None,
        counts: tuple[int, ...] = (2,),
        via: int = 0,
        ticket_id: str = "",
        bots_after_ms: int | None = None,
        bot_kind: int = pb.BOT_KIND_RANDOM,
        options_json: str = "",
        game: str = "undertheleaves",
    ) -> pb.Ticket:
        """Enqueue a ticket through matchmaker ``via``."""
        ticket_id = ticket_id or f"test-{uuid.uuid4().hex}"
        players = players or [f"p-{uuid.uuid4().hex[:8]}"]
        request = pb.EnqueueRequest(
            ticket_id=ticket_id,
            game=game,
            player_counts=list(counts),
            options_json=options_json,
            party=[pb.Player(player_id=p) for p in players],
        )
        if bots_after_ms is not None:
            request.bot_fill.CopyFrom(
                pb.BotFill(enabled=True, after_ms=bots_after_ms, kind=bot_kind)
            )
        reply = self.stub(via).Enqueue(request, timeout=10)
        self.tickets.append(reply.ticket.ticket_id)
        return reply.ticket

    def final(self, ticket_id: str, via: int = 0, timeout: float = 20.0) -> pb.Ticket:
        """Follow WatchTicket to the ticket's final state."""
        last = None
        for item in self.stub(via).WatchTicket(
            pb.WatchTicketRequest(ticket_id=ticket_id), timeout=timeout
        ):
            last = item.ticket
            if last.status in TERMINAL:
                break
        assert last is not None
        return last

    def get(self, ticket_id: str, via: int = 0) -> pb.Ticket:
        """GetTicket."""
        return self.stub(via).GetTicket(pb.GetTicketRequest(ticket_id=ticket_id), timeout=10).ticket

    def cleanup(self) -> None:
        """Cancel whatever is still queued, so later tests start from an empty queue."""
        for ticket_id in self.tickets:
            with contextlib.suppress(grpc.RpcError):
                self.stub().Cancel(pb.CancelRequest(ticket_id=ticket_id), timeout=5)
        for channel in self.channels:
            channel.close()


class UtlClient:
    """Plays seats of Under the Leaves games randomly."""

    def __init__(self, address: str) -> None:
        self.channel = grpc.insecure_channel(address)
        self.stub = utl_grpc.UnderTheLeavesStub(self.channel)

    def state(self, game_id: str, token: str | None = None) -> Any:
        """GetState as a seat or spectator."""
        md = [("x-seat-token", token)] if token else []
        return self.stub.GetState(utl.GetStateRequest(game_id=game_id), metadata=md, timeout=10)

    def play_seat_to_end(self, game_id: str, token: str, timeout: float = 60.0) -> Any:
        """Play one seat randomly until the game ends (others are played by someone else)."""
        md = [("x-seat-token", token)]
        rng = random.Random(7)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.state(game_id, token)
            if state.status == common_pb2.GAME_STATUS_FINISHED:
                return state
            if state.viewer_seat in state.to_act:
                legal = self.stub.Legal(utl.LegalRequest(game_id=game_id), metadata=md, timeout=10)
                if legal.actions:
                    try:
                        self.stub.Apply(
                            utl.ApplyRequest(
                                game_id=game_id,
                                expected_version=legal.version,
                                action_id=rng.randrange(len(legal.actions)),
                            ),
                            metadata=md,
                            timeout=10,
                        )
                    except grpc.RpcError as error:
                        if error.code() != grpc.StatusCode.ABORTED:
                            raise
                continue
            time.sleep(0.02)
        raise AssertionError(f"game {game_id} did not finish in {timeout} s")

    def close(self) -> None:
        """Close the channel."""
        self.channel.close()
