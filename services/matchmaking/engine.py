"""The matchmaker process: the API operations and the background loops.

Per served game, every process runs a matching loop (every ``tick_ms``, or at
once when the game's notify stream shows a newly queued ticket):

1. expire tickets past their heartbeat deadline, put back the tickets of
   matches claimed by a process that died before assigning them;
2. read the oldest queued tickets and let :func:`.matching.propose` group them;
3. claim each proposal atomically (:meth:`.tickets.TicketStore.claim`): only
   one process can win a ticket, a loser simply re-reads the queue next pass;
4. create the game on the game service, then assign every ticket its seats in
   one script; the new game is supervised (bots, ratings) by this process.

A private table (see :mod:`.tables`) is queued like any ticket, then claimed
and created at once by the Enqueue call itself; when that does not succeed
(another process claimed it first, the game service was away) the matching
loop seats it as a match of its own.

Several processes may run against one Redis; nothing is kept in process
memory that another process needs.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
import uuid
from collections import defaultdict
from collections.abc import AsyncIterator, Sequence
from typing import Any

import grpc
from redis.exceptions import RedisError

from services.core import errors as core_errors
from services.core.logging import get_logger
from services.matchmaking import bots, errors, keys
from services.matchmaking.config import MatchmakerSettings
from services.matchmaking.enqueue import TICKET_ID, EnqueueInput, validate_enqueue
from services.matchmaking.games import GameDirectory
from services.matchmaking.matching import (
    Proposal,
    QueuedTicket,
    WindowPolicy,
    failed_tickets,
    propose,
)
from services.matchmaking.metrics import BOT_SEATS, MATCHES, QUEUE_WAIT, TICKETS
from services.matchmaking.notifier import Notifier
from services.matchmaking.ratings import PlayerRating, RatingBook
from services.matchmaking.seating import drawn_seats, match_record
from services.matchmaking.supervisor import Supervisor
from services.matchmaking.tables import bot_count, seat_people
from services.matchmaking.tickets import (
    QUEUED,
    TERMINAL,
    TicketData,
    TicketRecord,
    TicketStore,
    ticket_ref,
)

WATCH_RECHECK_SECONDS = 5.0
SWEEP_EVERY_MS = 250
CREATE_CONCURRENCY = 64

log = get_logger("roost.matchmaking")


def now_ms() -> int:
    """Wall-clock milliseconds (shared by every process through Redis data)."""
    return int(time.time() * 1000)


class Matchmaker:
    """The matchmaker's operations and loops over one Redis."""

    def __init__(self, client: Any, settings: MatchmakerSettings, games: GameDirectory) -> None:
        self.client = client
        self.settings = settings
        self.games = games
        self.store = TicketStore(client, settings.retention_seconds)
        self.ratings = RatingBook(client)
        self.owner = uuid.uuid4().hex
        #: Set when the server drains: ticket watches end.
        self.draining = False
        self.supervisor = Supervisor(
            self.store, self.ratings, games, self.owner, settings.lease_ms, settings.no_show_ms
        )
        self.notifier = Notifier(client)
        self.policy = WindowPolicy(
            settings.window_base, settings.window_per_second, settings.window_max
        )
        self.index_ttl = max(settings.retention_seconds, 24 * 3600)
        self._cache: dict[str, dict[str, TicketData]] = defaultdict(dict)
        self._next_sweep: dict[str, int] = defaultdict(int)
        self._backoff_until: dict[str, int] = defaultdict(int)
        self._create_slots = asyncio.Semaphore(CREATE_CONCURRENCY)
        self._tasks: list[asyncio.Task[None]] = []
        self._creating: set[asyncio.Task[None]] = set()
        self.rng = random.Random()

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Start the background loops."""
        for game in self.games.names():
            self._tasks.append(asyncio.create_task(self.notifier.run(game)))
            self._tasks.append(asyncio.create_task(self._match_loop(game)))
        self._tasks.append(asyncio.create_task(self._lease_loop()))
        log.info("matchmaker_started", owner=self.owner, games=self.games.names())

    async def end_watches(self) -> None:
        """A drain begins: every WatchTicket stream ends at once (UNAVAILABLE,
        ``ERROR_REASON_DRAINING``) so its client resumes on another replica."""
        self.draining = True
        for events in list(self.notifier.waiters.values()):
            for event in events:
                event.set()

    async def stop(self) -> None:
        """Stop the loops and hand supervised games over."""
        for task in [*self._tasks, *self._creating]:
            task.cancel()
        for task in [*self._tasks, *self._creating]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.supervisor.stop()
        await self.games.close()

    # ----------------------------------------------------------------- API

    def _endpoint(self, game: str) -> Any:
        endpoint = self.games.get(game)
        if endpoint is None:
            why = self.games.unavailable.get(game, "")
            raise errors.unknown_game(game, self.games.names(), why)
        return endpoint

    async def enqueue(self, req: EnqueueInput) -> tuple[TicketRecord, bool]:
        """Queue a ticket, or return the existing ticket of that id."""
        ticket_id, options, counts = validate_enqueue(req, self._endpoint(req.game))
        bound = await self.store.reserve_id(ticket_id, req.game, self.index_ttl)
        if bound is not None:
            for _ in range(5):  # a concurrent Enqueue of the same id may be mid-create
                existing = await self.store.get(bound, ticket_id)
                if existing is not None:
                    return existing, False
                await asyncio.sleep(0.02)
            # The ticket it named was forgotten: the id is free again.
            await self.client.set(keys.ticket_index(ticket_id), req.game, ex=self.index_ttl)
        ratings = await self.ratings.get(req.game, [p for p, _ in req.party])
        table = req.table or ()
        now = now_ms()
        data = TicketData(
            ticket_id=ticket_id,
            game=req.game,
            counts=counts,
            options=options,
            party=tuple((p, n or p) for p, n in req.party),
            # A table's bots are in its seats: its bot fill stays as asked (off).
            bots=req.bots,
            bot_after_ms=req.bot_after_ms or self.settings.bot_fill_after_ms,
            bot_kind=req.bot_kind if req.bot_kind in bots.KINDS else bots.RANDOM,
            enqueued_ms=now,
            rating=sum(r.mu for r in ratings) / len(ratings) if ratings else 0.0,
            table=table,
        )
        created = await self.store.create(data, now + self.settings.heartbeat_timeout_ms)
        record = await self.store.get(req.game, ticket_id)
        if record is None:  # pragma: no cover - only if Redis lost the key at once
            raise errors.ticket_not_found(ticket_id)
        if created:
            TICKETS.labels(req.game, "QUEUED").inc()
            self.notifier.queued[req.game].set()
            log.info(
                "ticket_queued",
                ticket_ref=ticket_ref(ticket_id),
                game=req.game,
                counts=list(counts),
                private=data.private,
            )
            if data.private:
                record = await self._seat_table(data) or record
        return record, created

    async def _seat_table(self, data: TicketData) -> TicketRecord | None:
        """Claim a private table's ticket and create its game now; the ticket after.

        Losing the claim is fine (another process's matching pass took it);
        a failed creation puts the ticket back in the queue, where a matching
        pass seats it (see :data:`.matching.PRIVATE_HANDOFF_MS`).
        """
        game = data.game
        self._cache[game][data.ticket_id] = data
        now = now_ms()
        queued = QueuedTicket(
            ticket_id=data.ticket_id,
            seq=0,
            enqueued_ms=data.enqueued_ms,
            counts=data.counts,
            options=data.options,
            size=len(data.party),
            rating=data.rating,
            bots=data.bots,
            private=True,
            table_bots=bot_count(data.table),
        )
        match_id = uuid.uuid4().hex[:20]
        position = await self.store.claim(
            game, match_id, [data.ticket_id], now, now + self.settings.match_deadline_ms
        )
        if position == 0:
            proposal = Proposal((queued,), len(data.table), bots=queued.table_bots)
            # Its own task, shielded: a caller who hangs up does not leave a
            # created game unassigned.
            task = asyncio.create_task(self._create(game, match_id, proposal))
            self._creating.add(task)
            task.add_done_callback(self._creating.discard)
            try:
                await asyncio.shield(task)
            except (RedisError, OSError) as error:  # the deadline hands it back to the loop
                log.warning("table_create_failed", game=game, error=repr(error))
        return await self.store.get(game, data.ticket_id)

    async def locate(self, ticket_id: str) -> tuple[str, TicketRecord]:
        """The game and current record of a ticket."""
        if not ticket_id:
            raise errors.invalid("ticket_id", "required")
        if not TICKET_ID.match(ticket_id):  # no ticket has such an id
            raise errors.invalid("ticket_id", "8-64 letters, digits, '-' or '_'")
        game = await self.store.game_of(ticket_id)
        record = await self.store.get(game, ticket_id) if game else None
        if game is None or record is None:
            raise errors.ticket_not_found(ticket_id)
        return game, record

    async def heartbeat(self, ticket_id: str) -> tuple[str, int]:
        """Extend a queued ticket; returns (status, expiry ms)."""
        game, _record = await self.locate(ticket_id)
        now = now_ms()
        status, expires = await self.store.heartbeat(
            game, ticket_id, now, now + self.settings.heartbeat_timeout_ms
        )
        if status == "NOT_FOUND":
            raise errors.ticket_not_found(ticket_id)
        if status == QUEUED:
            await self.store.touch_index(ticket_id, self.index_ttl)
        return status, expires

    async def cancel(self, ticket_id: str) -> TicketRecord:
        """Cancel a queued ticket (idempotent)."""
        game, _record = await self.locate(ticket_id)
        status = await self.store.cancel(game, ticket_id)
        if status == "NOT_FOUND":
            raise errors.ticket_not_found(ticket_id)
        if status != "CANCELLED":
            raise errors.ticket_closed(ticket_id, status)
        TICKETS.labels(game, "CANCELLED").inc()
        _game, record = await self.locate(ticket_id)
        return record

    async def watch(self, ticket_id: str) -> AsyncIterator[TicketRecord]:
        """The ticket now and after every change, until it is final."""
        game, _record = await self.locate(ticket_id)
        event = self.notifier.subscribe(ticket_id)
        try:
            last: tuple[str, bool] | None = None
            while True:
                event.clear()
                record = await self.store.get(game, ticket_id)
                if record is None:
                    if last is None:
                        raise errors.ticket_not_found(ticket_id)
                    return
                marker = (record.status, record.assignment is not None)
                if marker != last:
                    last = marker
                    yield record
                if record.status in TERMINAL:
                    return
                if self.draining:
                    raise core_errors.draining()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), WATCH_RECHECK_SECONDS)
                if self.draining:
                    raise core_errors.draining()
        finally:
            self.notifier.unsubscribe(ticket_id, event)

    async def leaderboard(
        self, game: str, offset: int, limit: int
    ) -> tuple[list[PlayerRating], int]:
        """Ratings of one game, best first."""
        self._endpoint(game)
        return await self.ratings.leaderboard(game, offset, limit)

    async def get_ratings(self, game: str, player_ids: Sequence[str]) -> list[PlayerRating]:
        """Ratings of players in one game."""
        self._endpoint(game)
        return await self.ratings.get(game, list(player_ids))

    # ------------------------------------------------------------- loops

    async def _match_loop(self, game: str) -> None:
        wake = self.notifier.queued[game]
        tick = self.settings.tick_ms / 1000.0
        while True:
            wake.clear()
            try:
                await self.match_once(game)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as error:  # Redis away: one line, no traceback
                log.warning("match_pass_failed", game=game, error=repr(error))
                await asyncio.sleep(1.0)
            except Exception:
                log.exception("match_pass_failed", game=game)
                await asyncio.sleep(1.0)  # Redis or a game service is down: do not spin
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), tick * (0.8 + 0.4 * self.rng.random()))

    async def _lease_loop(self) -> None:
        interval = max(self.settings.lease_ms / 3000.0, 0.05)
        while True:
            try:
                await self.supervisor.renew()
                await self.supervisor.adopt_orphans()
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as error:  # Redis away: one line, no traceback
                log.warning("lease_pass_failed", error=repr(error))
            except Exception:
                log.exception("lease_pass_failed")
            await asyncio.sleep(interval)

    async def match_once(self, game: str) -> int:
        """One matching pass over ``game``; returns the number of matches claimed."""
        now = now_ms()
        if now >= self._next_sweep[game]:
            self._next_sweep[game] = now + SWEEP_EVERY_MS
            expired = await self.store.expire_due(game, now)
            if expired:
                TICKETS.labels(game, "EXPIRED").inc(expired)
            for match_id, ticket_ids in await self.store.overdue_matches(game, now):
                released = await self.store.release(
                    game, match_id, ticket_ids, now + self.settings.heartbeat_timeout_ms
                )
                log.warning("match_abandoned", game=game, match_id=match_id, released=released)
        if now < self._backoff_until[game]:
            return 0
        rows = await self.store.queued(game, self.settings.scan_limit)
        cache = self._cache[game]
        if not rows:
            cache.clear()
            return 0
        missing = [t for t, _ in rows if t not in cache]
        cache.update(await self.store.data_of(game, missing))
        present = {t for t, _ in rows}
        for stale in [t for t in cache if t not in present]:
            del cache[stale]
        queue = [
            QueuedTicket(
                ticket_id=t,
                seq=seq,
                enqueued_ms=cache[t].enqueued_ms,
                counts=cache[t].counts,
                options=cache[t].options,
                size=len(cache[t].party),
                rating=cache[t].rating,
                bots=cache[t].bots,
                bot_after_ms=cache[t].bot_after_ms,
                private=cache[t].private,
                table_bots=bot_count(cache[t].table),
                players=frozenset(p for p, _ in cache[t].party),
            )
            for t, seq in rows
            if t in cache
        ]
        refused = await self.store.refused(game)
        if refused:
            doomed = failed_tickets(queue, refused)
            if doomed:
                reasons = {refused[k] for t in doomed for k in refused if k[1] == t.options}
                failed = await self.store.fail(
                    game, [t.ticket_id for t in doomed], "; ".join(sorted(reasons))[:500]
                )
                TICKETS.labels(game, "FAILED").inc(failed)
                gone = {t.ticket_id for t in doomed}
                queue = [t for t in queue if t.ticket_id not in gone]
        claimed = 0
        for proposal in propose(queue, now, self.policy, refused):
            match_id = uuid.uuid4().hex[:20]
            ids = [t.ticket_id for t in proposal.tickets]
            position = await self.store.claim(
                game, match_id, ids, now, now + self.settings.match_deadline_ms
            )
            if position:
                continue  # another process won (or it expired): next pass sees the truth
            claimed += 1
            task = asyncio.create_task(self._create(game, match_id, proposal))
            self._creating.add(task)
            task.add_done_callback(self._creating.discard)
        return claimed

    async def _create(self, game: str, match_id: str, proposal: Proposal) -> None:
        async with self._create_slots:
            await self._create_game(game, match_id, proposal)

    async def _create_game(self, game: str, match_id: str, proposal: Proposal) -> None:
        endpoint = self._endpoint(game)
        tickets = {t.ticket_id: self._cache[game].get(t.ticket_id) for t in proposal.tickets}
        if any(d is None for d in tickets.values()):
            fetched = await self.store.data_of(game, list(tickets))
            tickets = {t: fetched.get(t) for t in tickets}
        ids = list(tickets)
        if any(d is None for d in tickets.values()):
            await self.store.release(game, match_id, ids, now_ms() + 1000)
            return
        datas = [d for d in tickets.values() if d is not None]
        anchor = datas[0]
        if anchor.private:
            people = seat_people(anchor.table, anchor.party, anchor.ticket_id)
        else:
            people = drawn_seats(match_id, datas, proposal.bots)
        try:
            created = await endpoint.new_game(
                proposal.players, [p["name"][:64] for p in people], anchor.options
            )
        except grpc.aio.AioRpcError as error:
            now = now_ms()
            if error.code() == grpc.StatusCode.INVALID_ARGUMENT:
                reason = error.details() or "the game service refused the options"
                await self.store.refuse(game, proposal.players, anchor.options, reason)
                log.warning("game_refused", game=game, players=proposal.players, reason=reason)
            else:
                self._backoff_until[game] = now + 1000
                log.warning("game_create_failed", game=game, code=error.code().name)
            await self.store.release(game, match_id, ids, now + self.settings.heartbeat_timeout_ms)
            return
        record, assignments = match_record(
            game, match_id, endpoint, created, proposal.players, people, ids
        )
        if not await self.store.assign(game, match_id, record, assignments):
            log.warning("match_lost", game=game, match_id=match_id, game_id=created.game_id)
            return
        MATCHES.labels(game, str(proposal.players)).inc()
        BOT_SEATS.labels(game).inc(proposal.bots)
        TICKETS.labels(game, "ASSIGNED").inc(len(ids))
        assigned_at = now_ms()
        for data in datas:
            QUEUE_WAIT.labels(game).observe(max(assigned_at - data.enqueued_ms, 0) / 1000.0)
        log.info(
            "match_assigned",
            game=game,
            match_id=match_id,
            game_id=created.game_id,
            players=proposal.players,
            bots=proposal.bots,
            ticket_refs=[ticket_ref(ticket_id) for ticket_id in ids],
        )
        await self.supervisor.claim_and_start(game, match_id, record)
