"""Play K games with bots over gRPC, C at a time, and measure everything.

Direct mode: each game is created with NewGame on the target game service (with
several targets, replicas of one service, game ``i`` goes to target ``i mod n``,
as a per-connection load balancer would spread them); the
seats get bot kinds in rotation (game ``i`` seat ``s`` plays
``bots[(i + s) % len(bots)]``) so every kind sits in every seat equally often.

Matchmaker mode (``via_matchmaker``): every seat is a matchmaking ticket of
player ``bot:<kind>`` (kinds in rotation over tickets); the matchmaker groups
them into games, and each ticket's bot plays the seat it is assigned. At most
``concurrency x players`` tickets are in flight.

Either way every bot is a remote client (Watch, Legal, Apply with its seat
token) and every call is timed client-side.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import grpc
from openskill.models import PlackettLuce
from roost.common.v1 import common_pb2

from clients import registry
from clients.bots.pool import BotPool, BotSeat
from clients.games import new_game_request
from clients.rpc import CliError, Exit, aio_channel
from clients.stats import RpcStats, percentile
from clients.tournament.clock import parse_time_control


@dataclass
class TournamentConfig:
    """What to play."""

    game: str
    players: int
    games: int
    concurrency: int = 4
    bots: tuple[str, ...] = ("random",)
    via_matchmaker: bool = False
    target: str | None = None
    matchmaker: str | None = None
    seed: int = 0
    options_json: str = ""
    game_timeout: float = 300.0
    #: The games' clock (``--time-control``, see :mod:`clients.tournament.clock`); "" untimed.
    time_control: str = ""


@dataclass
class GameOutcome:
    """One finished game."""

    game_id: str
    kinds: dict[int, str]
    totals: dict[int, int]
    ranks: dict[int, int]
    winners: list[int]
    seconds: float
    #: Per seat: decisions the house bot made for it on a timeout.
    timeouts: dict[int, int] = field(default_factory=dict)
    #: Seats that forfeited on time (GAME_ENDING_TIMEOUT, or left under the forfeit policy).
    forfeits: list[int] = field(default_factory=list)

    @property
    def head_to_head(self) -> bool:
        """True when different bot kinds met (not one kind playing itself)."""
        return len(set(self.kinds.values())) > 1


@dataclass
class Results:
    """Everything measured in one run."""

    config: TournamentConfig
    stats: RpcStats = field(default_factory=RpcStats)
    outcomes: list[GameOutcome] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0
    queue_waits: list[float] = field(default_factory=list)
    leaderboard: list[dict[str, Any]] = field(default_factory=list)

    def bot_table(self) -> dict[str, dict[str, Any]]:
        """Per bot kind: seats, wins, win rate, mean score and an OpenSkill rating."""
        model = PlackettLuce()
        ratings = {k: model.rating(name=k) for k in self.config.bots}
        seats: dict[str, int] = defaultdict(int)
        timeouts: dict[str, int] = defaultdict(int)
        forfeits: dict[str, int] = defaultdict(int)
        wins: dict[str, int] = defaultdict(int)
        points: dict[str, int] = defaultdict(int)
        for outcome in self.outcomes:
            order = sorted(outcome.kinds)
            for seat in order:
                kind = outcome.kinds[seat]
                seats[kind] += 1
                points[kind] += outcome.totals.get(seat, 0)
                timeouts[kind] += outcome.timeouts.get(seat, 0)
                forfeits[kind] += seat in outcome.forfeits
                if seat in outcome.winners:
                    wins[kind] += 1
            if len(order) < 2:
                continue
            teams = [
                [
                    model.rating(
                        mu=ratings[outcome.kinds[s]].mu, sigma=ratings[outcome.kinds[s]].sigma
                    )
                ]
                for s in order
            ]
            rated = model.rate(teams, ranks=[float(outcome.ranks.get(s, 1)) for s in order])
            sums: dict[str, list[tuple[float, float]]] = defaultdict(list)
            for seat, team in zip(order, rated, strict=True):
                sums[outcome.kinds[seat]].append((team[0].mu, team[0].sigma))
            for kind, values in sums.items():
                ratings[kind] = model.rating(
                    mu=sum(v[0] for v in values) / len(values),
                    sigma=sum(v[1] for v in values) / len(values),
                    name=kind,
                )
        table: dict[str, dict[str, Any]] = {}
        for kind in self.config.bots:
            r = ratings[kind]
            table[kind] = {
                "seats": seats[kind],
                "wins": wins[kind],
                "win_rate": round(wins[kind] / seats[kind], 4) if seats[kind] else 0.0,
                "mean_score": round(points[kind] / seats[kind], 3) if seats[kind] else 0.0,
                "mu": round(r.mu, 3),
                "sigma": round(r.sigma, 3),
                "ordinal": round(r.mu - 3 * r.sigma, 3),
                "timeouts": timeouts[kind],
                "forfeits": forfeits[kind],
            }
        return table

    def to_dict(self) -> dict[str, Any]:
        """The JSON report."""
        c = self.config
        finished = len(self.outcomes)
        seconds = max(self.seconds, 1e-9)
        waits = sorted(self.queue_waits)
        report: dict[str, Any] = {
            "game": c.game,
            "players": c.players,
            "games_requested": c.games,
            "games_finished": finished,
            "concurrency": c.concurrency,
            "bots": list(c.bots),
            "time_control": c.time_control,
            "via_matchmaker": c.via_matchmaker,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(finished / seconds, 3),
            "decisions": self.stats.applied,
            "decisions_per_second": round(self.stats.applied / seconds, 1),
            "rpc_latency": self.stats.summary(),
            "errors_by_code": dict(sorted(self.stats.errors.items())),
            "errors_by_method": {
                f"{m}:{code}": n for (m, code), n in sorted(self.stats.errors_by_method.items())
            },
            "bots_summary": self.bot_table(),
            "head_to_head_games": sum(1 for o in self.outcomes if o.head_to_head),
            "games": [
                {
                    "game_id": o.game_id,
                    "kinds": {str(seat): kind for seat, kind in sorted(o.kinds.items())},
                    "head_to_head": o.head_to_head,
                    "winners": o.winners,
                }
                for o in self.outcomes
            ],
            "failures": self.failures[:20],
        }
        if c.via_matchmaker:
            report["matchmaking_wait_ms"] = {
                "p50": round(percentile(waits, 50) * 1000, 1),
                "p95": round(percentile(waits, 95) * 1000, 1),
                "max": round(waits[-1] * 1000, 1) if waits else 0.0,
            }
            report["matchmaker_leaderboard"] = self.leaderboard
        return report


async def _ready(address: str, what: str, timeout: float = 5.0) -> None:
    channel = aio_channel(address)
    try:
        await asyncio.wait_for(channel.channel_ready(), timeout)
    except TimeoutError as exc:
        raise CliError(
            f"cannot reach the {what} at {address}. Is it running? Start the local stack "
            "with `roost up`, or pass --target / --matchmaker.",
            Exit.UNAVAILABLE,
        ) from exc
    finally:
        await channel.close()


class Tournament:
    """One run; call :meth:`run`."""

    def __init__(
        self, config: TournamentConfig, on_game: Callable[[GameOutcome | None], None] | None = None
    ) -> None:
        self.c = config
        self.info = registry.game(config.game)
        self.messages = self.info.messages()
        #: The game service's replicas (``target`` may list several, comma-separated).
        self.addresses = [
            self.info.address(t.strip() or None) for t in (config.target or "").split(",")
        ]
        self.address = self.addresses[0]
        self.results = Results(config)
        self.pool = BotPool(self.results.stats, seed=config.seed or None)
        self.on_game = on_game or (lambda _o: None)
        try:
            self.time_control = parse_time_control(config.time_control)
        except ValueError as exc:
            raise CliError(str(exc), Exit.USAGE) from exc

    async def run(self) -> Results:
        """Play every game; returns the measurements."""
        for address in self.addresses:
            await _ready(address, f"{self.info.title} service")
        if self.c.via_matchmaker:
            await _ready(registry.MATCHMAKER.address(self.c.matchmaker), "matchmaker")
        started = time.perf_counter()
        try:
            if self.c.via_matchmaker:
                await self._run_matchmaker()
            else:
                await self._run_direct()
        finally:
            self.results.seconds = time.perf_counter() - started
            await self.pool.close()
        return self.results

    # ------------------------------------------------------------ direct

    async def _run_direct(self) -> None:
        slots = asyncio.Semaphore(self.c.concurrency)
        replicas = len(self.addresses)

        async def one(index: int) -> None:
            address = self.addresses[index % replicas]
            async with slots:
                await self._direct_game(self.pool.stub(self.c.game, address), address, index)

        await asyncio.gather(*(one(i) for i in range(self.c.games)))

    async def _direct_game(self, stub: Any, address: str, index: int) -> None:
        kinds = {s: self.c.bots[(index + s) % len(self.c.bots)] for s in range(self.c.players)}
        started = time.perf_counter()
        try:
            request = new_game_request(
                self.messages,
                self.c.players,
                seed=self.c.seed + index if self.c.seed else 0,
                names=[f"{kinds[s]}-{s}" for s in range(self.c.players)],
                options_json=self.c.options_json,
            )
            if self.time_control is not None:
                request.common.time_control.CopyFrom(self.time_control)
            created = await self.results.stats.timed(
                "NewGame", lambda: stub.NewGame(request, timeout=30)
            )
            seats = [
                BotSeat(self.c.game, address, created.game_id, c.seat, c.token, kinds[c.seat])
                for c in created.credentials
            ]
            await self._play_and_score(stub, created.game_id, seats, kinds, started)
        except Exception as error:  # one failed game must not stop the others
            self._failed(f"game {index}: {_describe(error)}")

    async def _play_and_score(
        self,
        stub: Any,
        game_id: str,
        seats: list[BotSeat],
        kinds: dict[int, str],
        started: float,
    ) -> None:
        results = await asyncio.wait_for(self.pool.play(seats), self.c.game_timeout)
        errors = [r for r in results if isinstance(r, BaseException)]
        if errors:
            raise errors[0]
        await self._score(stub, game_id, kinds, started)

    async def _score(self, stub: Any, game_id: str, kinds: dict[int, str], started: float) -> None:
        reply = await self.results.stats.timed(
            "Score", lambda: stub.Score(self.messages.ScoreRequest(game_id=game_id), timeout=30)
        )
        board = reply.scoreboard
        if not board.final:
            raise RuntimeError(f"game {game_id} did not finish")
        timeouts: dict[int, int] = {}
        if self.time_control is not None:
            state = await self.results.stats.timed(
                "GetState",
                lambda: stub.GetState(self.messages.GetStateRequest(game_id=game_id), timeout=30),
            )
            timeouts = {c.seat: c.timeouts for c in state.clock.seats}
        forfeited = (
            list(board.left_seats)
            if self.time_control is not None
            and self.time_control.on_timeout != common_pb2.TIMEOUT_POLICY_HOUSE_BOT
            else []
        )
        outcome = GameOutcome(
            game_id=game_id,
            kinds=kinds,
            totals={s.seat: s.total for s in board.seats},
            ranks={s.seat: s.rank for s in board.seats},
            winners=list(board.winners),
            seconds=time.perf_counter() - started,
            timeouts=timeouts,
            forfeits=forfeited,
        )
        self.results.outcomes.append(outcome)
        self.on_game(outcome)

    def _failed(self, message: str) -> None:
        self.results.failures.append(message)
        self.on_game(None)

    # -------------------------------------------------------- matchmaker

    async def _run_matchmaker(self) -> None:
        mm_info = registry.MATCHMAKER
        mm_address = mm_info.address(self.c.matchmaker)
        channel = aio_channel(mm_address)
        mm = mm_info.stub(channel)
        pb = mm_info.messages()
        run_id = uuid.uuid4().hex[:10]
        tickets = self.c.games * self.c.players
        slots = asyncio.Semaphore(self.c.concurrency * self.c.players)
        games: dict[str, dict[str, Any]] = {}
        game_stub = self.pool.stub(self.c.game, self.address)

        async def one(index: int) -> None:
            async with slots:
                await self._ticket(mm, pb, game_stub, f"t-{run_id}-{index}", index, games)

        try:
            await asyncio.gather(*(one(i) for i in range(tickets)))
            with contextlib.suppress(grpc.aio.AioRpcError):
                board = await mm.Leaderboard(
                    pb.LeaderboardRequest(game=self.c.game, limit=50), timeout=10
                )
                self.results.leaderboard = [
                    {
                        "rank": e.rank,
                        "player_id": e.rating.player_id,
                        "mu": round(e.rating.mu, 3),
                        "sigma": round(e.rating.sigma, 3),
                        "games": e.rating.games,
                        "wins": e.rating.wins,
                    }
                    for e in board.entries
                    if e.rating.player_id.startswith("bot:")
                ]
        finally:
            await channel.close()

    async def _ticket(
        self,
        mm: Any,
        pb: Any,
        game_stub: Any,
        ticket_id: str,
        index: int,
        games: dict[str, dict[str, Any]],
    ) -> None:
        kind = self.c.bots[index % len(self.c.bots)]
        stats = self.results.stats
        queued_at = time.perf_counter()
        try:
            reply = await stats.timed(
                "Enqueue",
                lambda: mm.Enqueue(
                    pb.EnqueueRequest(
                        ticket_id=ticket_id,
                        game=self.c.game,
                        player_counts=[self.c.players],
                        options_json=self.c.options_json,
                        party=[pb.Player(player_id=f"bot:{kind}", name=f"{kind} bot")],
                        time_control=self.time_control,
                    ),
                    timeout=30,
                ),
            )
            interval = max(reply.ticket.heartbeat_interval_ms, 200) / 1000.0
            beat = asyncio.create_task(self._heartbeat(mm, pb, ticket_id, interval))
            try:
                assignment = await self._await_assignment(mm, pb, ticket_id)
            finally:
                beat.cancel()
            self.results.queue_waits.append(time.perf_counter() - queued_at)
            entry = games.setdefault(
                assignment.game_id,
                {"kinds": {}, "done": 0, "started": time.perf_counter()},
            )
            seats = []
            for seat in assignment.seats:
                entry["kinds"][seat.seat] = kind
                seats.append(
                    BotSeat(
                        self.c.game,
                        self.address,
                        assignment.game_id,
                        seat.seat,
                        seat.token,
                        kind,
                    )
                )
            results = await asyncio.wait_for(self.pool.play(seats), self.c.game_timeout)
            errors = [r for r in results if isinstance(r, BaseException)]
            if errors:
                raise errors[0]
            entry["done"] += len(seats)
            if entry["done"] == assignment.players:
                await self._score(game_stub, assignment.game_id, entry["kinds"], entry["started"])
        except Exception as error:
            self._failed(f"ticket {ticket_id}: {_describe(error)}")

    async def _heartbeat(self, mm: Any, pb: Any, ticket_id: str, interval: float) -> None:
        while True:
            await asyncio.sleep(interval)
            with contextlib.suppress(grpc.aio.AioRpcError):
                await self.results.stats.timed(
                    "Heartbeat",
                    lambda: mm.Heartbeat(pb.HeartbeatRequest(ticket_id=ticket_id), timeout=10),
                )

    async def _await_assignment(self, mm: Any, pb: Any, ticket_id: str) -> Any:
        stream = mm.WatchTicket(pb.WatchTicketRequest(ticket_id=ticket_id))
        try:
            async for item in stream:
                ticket = item.ticket
                if ticket.status == pb.TICKET_STATUS_ASSIGNED:
                    return ticket.assignment
                if ticket.status in (
                    pb.TICKET_STATUS_CANCELLED,
                    pb.TICKET_STATUS_EXPIRED,
                    pb.TICKET_STATUS_FAILED,
                ):
                    raise RuntimeError(
                        f"ticket ended {pb.TicketStatus.Name(ticket.status)} {ticket.error}"
                    )
        finally:
            stream.cancel()
        raise RuntimeError("ticket stream ended without an assignment")


def _describe(error: BaseException) -> str:
    if isinstance(error, grpc.aio.AioRpcError):
        return f"{error.code().name}: {error.details()}"
    if isinstance(error, TimeoutError):
        return "timed out"
    return f"{type(error).__name__}: {error}"
