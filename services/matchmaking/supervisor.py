"""Supervision of the games the matchmaker created.

For every running game it created, exactly one matchmaker process holds a
lease (``roost:mm:{g}:lease:<match>``, renewed every third of ``lease_ms``) and

* follows the game's Watch stream as a spectator,
* plays the seats filled with house bots when they are asked to decide
  (Legal, then Apply with ``expected_version`` and a deterministic request id,
  so a retry or a takeover never applies a decision twice),
* rates the game once it has finished (see :mod:`.ratings`; a record marked
  ``"rated": false``, a private table of bots only, is not; an aborted game is
  not either) and forgets it.

Leavers are the game service's business, not the supervisor's: a timed game's
seat whose client vanished is detected by its clock, and the game service's
own expiry (services/core/lifecycle/) forfeits it or has the house bot play
it, exactly once whichever process notices. The score board then ranks a seat
that left below every other, so the rating counts a forfeit or a resignation
as a loss for the leaver only, and the others are rated by their own results.

A matched game whose seats have not all made their first decision
``no_show_ms`` after it was made (players who never came) is aborted with the
game's Abort (unrated, as every abort) and so leaves the supervised set; a
game past its first decisions refuses the abort (NOT_ABORTABLE) and plays on.

Every process periodically adopts live games whose lease has lapsed (their
supervisor died), so a crash delays a game's bots by at most a lease period.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from typing import Any

import grpc
from redis.exceptions import RedisError
from roost.common.v1 import common_pb2

from services.core.logging import get_logger
from services.matchmaking import bots
from services.matchmaking.games import GameDirectory, GameEndpoint
from services.matchmaking.metrics import GAMES_RATED
from services.matchmaking.ratings import RatingBook
from services.matchmaking.tickets import TicketStore

FINISHED = common_pb2.GAME_STATUS_FINISHED
#: Statuses of a game that takes no more decisions.
OVER = (FINISHED, common_pb2.GAME_STATUS_ABORTED)
RETRYABLE = {
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.INTERNAL,
    grpc.StatusCode.UNKNOWN,
    grpc.StatusCode.CANCELLED,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
}
IGNORED_ON_APPLY = {
    grpc.StatusCode.ABORTED,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.ALREADY_EXISTS,
}

log = get_logger("roost.matchmaking.supervisor")


class Supervisor:
    """The games this process supervises, keyed by (game, match id)."""

    def __init__(
        self,
        store: TicketStore,
        ratings: RatingBook,
        games: GameDirectory,
        owner: str,
        lease_ms: int,
        no_show_ms: int = 0,
    ) -> None:
        self.no_show_ms = no_show_ms
        self.store = store
        self.ratings = ratings
        self.games = games
        self.owner = owner
        self.lease_ms = lease_ms
        self.tasks: dict[tuple[str, str], asyncio.Task[None]] = {}
        self.rng = random.Random()
        self.finished = 0

    # ------------------------------------------------------------ leases

    def start(self, game: str, match_id: str, record: dict[str, Any]) -> None:
        """Supervise a match whose lease this process holds."""
        key = (game, match_id)
        if key in self.tasks:
            return
        task = asyncio.create_task(self._run(game, match_id, record), name=f"mm-match-{match_id}")
        self.tasks[key] = task
        task.add_done_callback(lambda _t: self.tasks.pop(key, None))

    async def claim_and_start(self, game: str, match_id: str, record: dict[str, Any]) -> None:
        """Take the lease of a new match and supervise it."""
        if await self.store.take_lease(game, match_id, self.owner, self.lease_ms):
            self.start(game, match_id, record)

    async def adopt_orphans(self) -> int:
        """Take over live games whose supervisor's lease lapsed."""
        adopted = 0
        for game in self.games.names():
            for match_id in await self.store.live_matches(game):
                if (game, match_id) in self.tasks:
                    continue
                if not await self.store.take_lease(game, match_id, self.owner, self.lease_ms):
                    continue
                record = await self.store.match_record(game, match_id)
                if record is None:
                    await self.store.finish_match(game, match_id, self.owner)
                    continue
                log.info("match_adopted", game=game, match_id=match_id)
                self.start(game, match_id, record)
                adopted += 1
        return adopted

    async def renew(self) -> None:
        """Extend the leases of supervised games; stop those whose lease was lost."""
        for (game, match_id), task in list(self.tasks.items()):
            if not await self.store.renew_lease(game, match_id, self.owner, self.lease_ms):
                log.warning("lease_lost", game=game, match_id=match_id)
                task.cancel()

    async def stop(self) -> None:
        """Stop supervising; hand the leases back so another process adopts at once."""
        tasks = list(self.tasks.items())
        for _key, task in tasks:
            task.cancel()
        for (game, match_id), task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
            with contextlib.suppress(Exception):
                await self.store.renew_lease(game, match_id, self.owner, 1)

    # ------------------------------------------------------------- games

    async def _run(self, game: str, match_id: str, record: dict[str, Any]) -> None:
        endpoint = self.games.get(game)
        if endpoint is None:
            return
        game_id = record["game_id"]
        bot_seats = {s["seat"]: s for s in record["seats"] if s.get("bot")}
        no_show = asyncio.create_task(self._abort_no_show(endpoint, game_id, record))
        try:
            await self._supervise(endpoint, game, match_id, record, bot_seats)
        finally:
            no_show.cancel()

    async def _abort_no_show(
        self, endpoint: GameEndpoint, game_id: str, record: dict[str, Any]
    ) -> None:
        """Abort the game once ``no_show_ms`` have passed since it was made,
        unless every seat has decided by then (the game refuses the abort)."""
        token, created_ms = record.get("abort_token"), record.get("created_ms")
        if not self.no_show_ms or not token or not created_ms:
            return
        wait_ms = created_ms + self.no_show_ms - time.time() * 1000
        await asyncio.sleep(max(wait_ms, 0) / 1000)
        for _attempt in range(5):
            try:
                await endpoint.abort(game_id, token)
                log.info("match_no_show_aborted", game_id=game_id)
                return
            except grpc.aio.AioRpcError as error:
                if error.code() not in RETRYABLE:
                    return  # NOT_ABORTABLE (everyone played), already over, gone
            await asyncio.sleep(1.0)

    async def _supervise(
        self,
        endpoint: GameEndpoint,
        game: str,
        match_id: str,
        record: dict[str, Any],
        bot_seats: dict[int, dict[str, Any]],
    ) -> None:
        game_id = record["game_id"]
        delay = 0.2
        while True:
            try:
                if await self._follow(endpoint, game_id, bot_seats):
                    await self._rate(endpoint, game, game_id, record)
                    await self.store.finish_match(game, match_id, self.owner)
                    self.finished += 1
                    return
            except grpc.aio.AioRpcError as error:
                if error.code() == grpc.StatusCode.NOT_FOUND:
                    log.info("match_gone", game=game, match_id=match_id, game_id=game_id)
                    await self.store.finish_match(game, match_id, self.owner)
                    return
                if error.code() not in RETRYABLE:
                    log.warning("match_error", game_id=game_id, code=error.code().name)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as error:  # Redis away: one line, no traceback
                log.warning("match_failed", game_id=game_id, error=repr(error))
            except Exception:
                log.exception("match_failed", game_id=game_id)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)

    async def _follow(
        self, endpoint: GameEndpoint, game_id: str, bot_seats: dict[int, dict[str, Any]]
    ) -> bool:
        """Play bot seats until the game ends; True once it has finished."""
        state = await endpoint.state(game_id)
        if state.status in OVER:
            return True
        await self._bots_act(endpoint, game_id, bot_seats, state.to_act)
        stream = endpoint.watch(game_id, state.version)
        try:
            async for item in stream:
                event = item.event
                if event.status in OVER:
                    return True
                await self._bots_act(endpoint, game_id, bot_seats, event.to_act)
        finally:
            stream.cancel()
        return (await endpoint.state(game_id)).status in OVER

    async def _bots_act(
        self,
        endpoint: GameEndpoint,
        game_id: str,
        bot_seats: dict[int, dict[str, Any]],
        to_act: Any,
    ) -> None:
        for seat in list(to_act):
            bot = bot_seats.get(seat)
            if bot is None:
                continue
            kind = bot.get("kind", bots.RANDOM)
            preview = kind == bots.GREEDY and endpoint.supports_preview()
            legal = await endpoint.legal(game_id, bot["token"], preview=preview)
            if not legal.actions:
                continue
            choice = bots.choose(kind if preview else bots.RANDOM, list(legal.actions), self.rng)
            try:
                await endpoint.apply(
                    game_id,
                    bot["token"],
                    legal.version,
                    choice,
                    request_id=f"mm-{game_id}-{seat}-{legal.version}",
                )
            except grpc.aio.AioRpcError as error:
                if error.code() not in IGNORED_ON_APPLY:
                    raise

    async def _rate(
        self, endpoint: GameEndpoint, game: str, game_id: str, record: dict[str, Any]
    ) -> None:
        if not record.get("rated", True):
            return
        board = (await endpoint.score(game_id)).scoreboard
        if board.ending == common_pb2.GAME_ENDING_ABORTED:
            return  # aborted before every seat's first decision: unrated
        player_of = {s["seat"]: s["player_id"] for s in record["seats"]}
        seats = [(player_of[s.seat], s.rank or 1) for s in board.seats if s.seat in player_of]
        if len(seats) < 2:
            return  # a solo game says nothing about skill
        if await self.ratings.record(game, game_id, seats):
            GAMES_RATED.labels(game).inc()
            log.info("game_rated", game=game, game_id=game_id)
