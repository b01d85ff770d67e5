"""``roost.matchmaking.v1.Matchmaker``: a thin adapter from messages to :mod:`.engine`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import grpc
from roost.matchmaking.v1 import matchmaking_pb2 as pb
from roost.matchmaking.v1 import matchmaking_pb2_grpc as pb_grpc

from services import registry
from services.core.errors import ServiceError
from services.core.identity import errors as id_errors
from services.core.identity.guest import issue_guest_token
from services.core.identity.limits import Limiter
from services.core.identity.settings import IdentitySettings
from services.core.identity.verifier import Identity, Verifier, peer_host
from services.core.logging import bind
from services.core.metrics import streaming, unary
from services.core.records.archive import Archive
from services.matchmaking import errors
from services.matchmaking.callers import CallerRules, Callers
from services.matchmaking.engine import EnqueueInput, Matchmaker
from services.matchmaking.games import split_options
from services.matchmaking.history import list_games
from services.matchmaking.ratings import PlayerRating
from services.matchmaking.tables import TableSeat
from services.matchmaking.tickets import TicketRecord, ticket_ref

SERVICE_NAME = registry.MATCHMAKER.service_name
DEFAULT_PORT = registry.MATCHMAKER.default_port
LEADERBOARD_DEFAULT = 20
LEADERBOARD_MAX = 500
#: The numbers BotKind defines (0: the matchmaker's default)
BOT_KINDS = frozenset(pb.BotKind.values())
BOT_KIND_ENUM = pb.BotKind.DESCRIPTOR.full_name


def kind_name(kind: int) -> str:
    """The engine's name of a BotKind number (UNSPECIFIED: the default, random)."""
    name = pb.BotKind.Name(kind).removeprefix("BOT_KIND_")
    return "RANDOM" if name == "UNSPECIFIED" else name


def table_from_proto(table: pb.Table) -> tuple[TableSeat, ...]:
    """The seats of a Table message; INVALID_ARGUMENT for a seat without an
    occupant or with a bot kind BotKind does not define."""
    seats = []
    for number, seat in enumerate(table.seats):
        field = f"table.seats[{number}]"
        occupant = seat.WhichOneof("occupant")
        if occupant == "bot":
            if seat.bot not in BOT_KINDS:  # an open enum: any number parses
                raise errors.invalid(
                    f"{field}.bot", f"{seat.bot} is not a value of {BOT_KIND_ENUM}"
                )
            seats.append(TableSeat(bot_kind=kind_name(seat.bot), name=seat.name))
        elif occupant == "player_id":
            seats.append(TableSeat(player_id=seat.player_id, name=seat.name))
        else:
            raise errors.invalid(field, "set either player_id or bot")
    return tuple(seats)


def table_to_proto(seats: tuple[TableSeat, ...]) -> pb.Table:
    """The Table message of stored seats."""
    return pb.Table(
        seats=[
            pb.TableSeat(bot=pb.BotKind.Value(f"BOT_KIND_{s.bot_kind}"), name=s.name)
            if s.is_bot
            else pb.TableSeat(player_id=s.player_id)
            for s in seats
        ]
    )


def ticket_to_proto(record: TicketRecord, heartbeat_interval_ms: int) -> pb.Ticket:
    """The Ticket message of a stored ticket."""
    data = record.data
    ticket = pb.Ticket(
        ticket_id=data.ticket_id,
        game=data.game,
        player_counts=list(data.counts),
        options_json=split_options(data.options)[0],
        time_control=split_options(data.options)[1],
        party=[pb.Player(player_id=p, name=n) for p, n in data.party],
        bot_fill=pb.BotFill(
            enabled=data.bots,
            after_ms=data.bot_after_ms,
            kind=pb.BotKind.Value(f"BOT_KIND_{data.bot_kind}"),
        ),
        status=pb.TicketStatus.Value(f"TICKET_STATUS_{record.status}"),
        enqueued_ms=data.enqueued_ms,
        rating=data.rating,
        heartbeat_interval_ms=heartbeat_interval_ms,
        error=record.error,
    )
    if data.table:
        ticket.table.CopyFrom(table_to_proto(data.table))
    a = record.assignment
    if a is not None:
        ticket.assignment.CopyFrom(
            pb.Assignment(
                game=a["game"],
                address=a["address"],
                game_id=a["game_id"],
                service_name=a["service_name"],
                players=a["players"],
                match_id=a["match_id"],
                seats=[pb.SeatAssignment(**s) for s in a["seats"]],
                others=[pb.OtherSeat(**s) for s in a["others"]],
            )
        )
    return ticket


def rating_to_proto(rating: PlayerRating) -> pb.Rating:
    """The Rating message."""
    return pb.Rating(
        player_id=rating.player_id,
        mu=rating.mu,
        sigma=rating.sigma,
        ordinal=rating.ordinal,
        games=rating.games,
        wins=rating.wins,
    )


class MatchmakerService(pb_grpc.MatchmakerServicer):
    """Every RPC validates, calls the engine and converts."""

    def __init__(
        self, engine: Matchmaker, callers: Callers | None = None, archive: Archive | None = None
    ) -> None:
        self.engine = engine
        #: The archive of ended games (ARCHIVE_URL), for ListGames.
        self.archive = archive
        self.interval = max(engine.settings.heartbeat_timeout_ms // 3, 1)
        self.callers = callers or Callers(
            Verifier(IdentitySettings(), engine.client),
            CallerRules(),
            engine.client,
            engine.settings.heartbeat_timeout_ms,
        )
        settings = self.callers.verifier.settings
        self.guest_tokens = Limiter(
            engine.client,
            "guest_tokens",
            "ERROR_REASON_LIMIT_GUEST_TOKENS",
            settings.guest_token_limit,
            int(settings.limit_window_seconds * 1000),
        )

    async def _owned(self, ticket_id: str, context: grpc.aio.ServicerContext) -> None:
        """Refuse a verified caller that does not own the ticket (anonymous: as before)."""
        identity = await self.callers.caller(context)
        if identity is not None:
            _game, record = await self.engine.locate(ticket_id)
            self.callers.check_owner(identity, record)

    async def _status_of(self, ticket_id: str) -> str | None:
        try:
            return (await self.engine.locate(ticket_id))[1].status
        except ServiceError:
            return None

    def _ticket(self, record: TicketRecord) -> pb.Ticket:
        return ticket_to_proto(record, self.interval)

    @unary("matchmaking")
    async def Enqueue(
        self, request: pb.EnqueueRequest, context: grpc.aio.ServicerContext
    ) -> pb.EnqueueResponse:
        if request.bot_fill.kind not in BOT_KINDS:  # an open enum: any number parses
            raise errors.invalid(
                "bot_fill.kind", f"{request.bot_fill.kind} is not a value of {BOT_KIND_ENUM}"
            )
        if not request.game:
            raise errors.invalid("game", "required")
        table = table_from_proto(request.table) if request.HasField("table") else None
        bind(ticket_ref=ticket_ref(request.ticket_id), game=request.game)
        party = tuple((p.player_id, p.name) for p in request.party)
        identity = await self.callers.caller(context)
        self.callers.check_enqueue(identity, party, table or ())
        await self.callers.check_limits(identity, table is not None, self._status_of)
        record, created = await self.engine.enqueue(
            EnqueueInput(
                ticket_id=request.ticket_id,
                game=request.game,
                counts=tuple(request.player_counts),
                options_json=request.options_json,
                party=party,
                bots=request.bot_fill.enabled,
                bot_after_ms=request.bot_fill.after_ms,
                bot_kind=kind_name(request.bot_fill.kind),
                table=table,
                time_control=request.time_control if request.HasField("time_control") else None,
            )
        )
        self.callers.check_owner(identity, record)  # an existing ticket id of another identity
        if created:
            await self.callers.opened(identity, record)
        return pb.EnqueueResponse(ticket=self._ticket(record), created=created)

    @streaming("matchmaking")
    async def WatchTicket(
        self, request: pb.WatchTicketRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[pb.WatchTicketResponse]:
        bind(ticket_ref=ticket_ref(request.ticket_id))
        await self._owned(request.ticket_id, context)
        async for record in self.engine.watch(request.ticket_id):
            yield pb.WatchTicketResponse(ticket=self._ticket(record))

    @unary("matchmaking")
    async def GetTicket(
        self, request: pb.GetTicketRequest, context: grpc.aio.ServicerContext
    ) -> pb.GetTicketResponse:
        bind(ticket_ref=ticket_ref(request.ticket_id))
        identity = await self.callers.caller(context)
        _game, record = await self.engine.locate(request.ticket_id)
        self.callers.check_owner(identity, record)
        return pb.GetTicketResponse(ticket=self._ticket(record))

    @unary("matchmaking")
    async def Heartbeat(
        self, request: pb.HeartbeatRequest, context: grpc.aio.ServicerContext
    ) -> pb.HeartbeatResponse:
        bind(ticket_ref=ticket_ref(request.ticket_id))
        await self._owned(request.ticket_id, context)
        status, expires = await self.engine.heartbeat(request.ticket_id)
        return pb.HeartbeatResponse(
            status=pb.TicketStatus.Value(f"TICKET_STATUS_{status}"), expires_ms=expires
        )

    @unary("matchmaking")
    async def Cancel(
        self, request: pb.CancelRequest, context: grpc.aio.ServicerContext
    ) -> pb.CancelResponse:
        bind(ticket_ref=ticket_ref(request.ticket_id))
        await self._owned(request.ticket_id, context)
        return pb.CancelResponse(ticket=self._ticket(await self.engine.cancel(request.ticket_id)))

    @unary("matchmaking")
    async def Leaderboard(
        self, request: pb.LeaderboardRequest, context: grpc.aio.ServicerContext
    ) -> pb.LeaderboardResponse:
        await self.callers.verifier.caller(context)  # a token sent must verify
        if not request.game:
            raise errors.invalid("game", "required")
        if request.limit < 0 or request.offset < 0:
            raise errors.invalid("limit/offset", "must not be negative")
        limit = min(request.limit or LEADERBOARD_DEFAULT, LEADERBOARD_MAX)
        rows, total = await self.engine.leaderboard(request.game, request.offset, limit)
        return pb.LeaderboardResponse(
            game=request.game,
            entries=[
                pb.LeaderboardEntry(rank=request.offset + i + 1, rating=rating_to_proto(r))
                for i, r in enumerate(rows)
            ],
            total=total,
        )

    @unary("matchmaking")
    async def GetRatings(
        self, request: pb.GetRatingsRequest, context: grpc.aio.ServicerContext
    ) -> pb.GetRatingsResponse:
        await self.callers.verifier.caller(context)  # a token sent must verify
        if not request.game:
            raise errors.invalid("game", "required")
        if len(request.player_ids) > LEADERBOARD_MAX:
            raise errors.invalid("player_ids", f"at most {LEADERBOARD_MAX}")
        ratings = await self.engine.get_ratings(request.game, list(request.player_ids))
        return pb.GetRatingsResponse(ratings=[rating_to_proto(r) for r in ratings])

    @unary("matchmaking")
    async def ListGames(
        self, request: pb.ListGamesRequest, context: grpc.aio.ServicerContext
    ) -> pb.ListGamesResponse:
        return await list_games(self.archive, request)

    @unary("matchmaking")
    async def IssueGuestToken(
        self, request: pb.IssueGuestTokenRequest, context: grpc.aio.ServicerContext
    ) -> pb.IssueGuestTokenResponse:
        verifier = self.callers.verifier
        if verifier.guest_key is None:
            raise id_errors.guests_disabled()
        identity: Identity | None = await verifier.caller(context)
        renew = identity.subject if identity is not None and identity.guest else None
        if renew is None:
            await self.guest_tokens.hit(peer_host(context))
        token, subject, expires_ms = issue_guest_token(
            verifier.guest_key, verifier.settings.guest_ttl_seconds, renew
        )
        return pb.IssueGuestTokenResponse(token=token, player_id=subject, expires_ms=expires_ms)


def add_to_server(servicer: Any, server: grpc.aio.Server) -> None:
    """Register ``servicer`` on ``server``."""
    pb_grpc.add_MatchmakerServicer_to_server(servicer, server)
