"""One bot playing one seat of one game, as a remote client.

The bot follows the game's Watch stream with ``include_legal`` and
``skip_own_events`` (its own decisions' outcomes come in its Apply replies, so
the stream carries only the other seats' events and the final one): an event after
which its seat must decide carries the seat's legal actions (with score
previews for the greedy policy), so the bot chooses and Applies at once, with
that event's version as ``expected_version`` and a request id derived from
seat and version (a retry after a lost reply returns the first result). While
the Apply reply says the seat must decide again, the bot chains on the reply's
``next_actions``: one Apply per decision and no Legal call. Legal is called
only to recover: when an event that asks the seat came without its actions
(the game had already moved on when the service read it) or after a stale
version. In a simultaneous phase a decision on an older version is still
accepted while the seat's own pending decision is unchanged, so bots do not
collide there. A broken stream (a closed connection, a restarted or draining
service, a store outage) is resumed from the last version seen, with backoff,
for up to ``ROOST_BOT_RETRY_SECONDS`` (default 600) without an answer; unary
calls are retried the same way (Apply with the same request id). A bot whose
game is finished, gone (NOT_FOUND: expired or abandoned) or whose stream ended
stops by itself. A policy that reads the view (``wants_view``, the search bot)
gets it by GetState when a decision starts and from each Apply reply after.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc
from roost.common.v1 import common_pb2

from clients.bots.clock import TIME_LEFT_MS, SeatClock
from clients.bots.policies import Policy
from clients.rpc import metadata, retryable
from clients.stats import RpcStats

FINISHED = common_pb2.GAME_STATUS_FINISHED
#: Statuses of a game that takes no more decisions (an aborted game is over too).
OVER = (FINISHED, common_pb2.GAME_STATUS_ABORTED)
CALL_TIMEOUT = 30.0
DEFAULT_RETRY_SECONDS = 600.0
MAX_STALE_RETRIES = 50


@dataclass
class SeatResult:
    """What one seat's bot did."""

    seat: int
    decisions: int = 0
    finished: bool = False
    errors: list[str] = field(default_factory=list)
    #: The game was gone (expired or abandoned) when the bot looked.
    gone: bool = False


def bot_retry_seconds() -> float:
    """How long a bot retries an unavailable service: ``$ROOST_BOT_RETRY_SECONDS``."""
    try:
        return max(float(os.environ.get("ROOST_BOT_RETRY_SECONDS", "")), 0.0)
    except ValueError:
        return DEFAULT_RETRY_SECONDS


class _Backoff:
    """Exponential, jittered delays over a window of failures that a success resets."""

    def __init__(self, budget: float) -> None:
        self.budget = budget
        self.started: float | None = None
        self.attempt = 0

    def reset(self) -> None:
        self.started = None
        self.attempt = 0

    async def wait(self, error: BaseException) -> None:
        """Sleep before the next attempt; re-raise ``error`` once the window is over."""
        now = time.monotonic()
        if self.started is None:
            self.started = now
        if now - self.started >= self.budget:
            raise error
        self.attempt += 1
        delay = min(0.05 * 2**self.attempt, 5.0) * (0.5 + random.random())
        await asyncio.sleep(delay)


class SeatBot:
    """Plays ``seat`` of ``game_id`` with ``policy`` through an asyncio stub."""

    def __init__(
        self,
        stub: Any,
        messages: Any,
        game_id: str,
        seat: int,
        token: str,
        policy: Policy,
        stats: RpcStats | None = None,
        retry_seconds: float | None = None,
        idle_seconds: float | None = None,
    ) -> None:
        self.stub = stub
        self.m = messages
        self.game_id = game_id
        self.seat = seat
        self.md = metadata(token)
        self.policy = policy
        self.stats = stats or RpcStats()
        self.known_version = 0
        self.result = SeatResult(seat)
        self.retry_seconds = bot_retry_seconds() if retry_seconds is None else retry_seconds
        #: Stop after this long without any event of the game (None: never).
        self.idle_seconds = idle_seconds
        #: The seat's clock as the latest event showed it (timed games).
        self.clock = SeatClock()

    async def _call(self, method: str, request: Any) -> Any:
        """A unary call retried with backoff (Apply keeps its request id, so it is safe)."""
        rpc = getattr(self.stub, method)
        backoff = _Backoff(self.retry_seconds)
        while True:
            try:
                return await self.stats.timed(
                    method, lambda: rpc(request, metadata=self.md, timeout=CALL_TIMEOUT)
                )
            except grpc.aio.AioRpcError as error:
                if not retryable(error):
                    raise
                await backoff.wait(error)

    async def _own_score(self) -> int:
        reply = await self._call("Score", self.m.ScoreRequest(game_id=self.game_id))
        return next((s.total for s in reply.scoreboard.seats if s.seat == self.seat), 0)

    async def play_turns(self, offered: tuple[int, Sequence[Any]] | None = None) -> bool:
        """Decide while asked, starting from ``offered`` (a version and the seat's
        legal actions there) when given; False once the game is over."""
        for _ in range(MAX_STALE_RETRIES):
            outcome = await self._play_turns_once(offered)
            if outcome is not None:
                return outcome
            offered = None  # stale: recover with a fresh Legal
        return True

    async def _legal(self) -> tuple[int, Sequence[Any]]:
        """The seat's legal actions now, by a Legal call (recovery only)."""
        reply = await self._call(
            "Legal",
            self.m.LegalRequest(game_id=self.game_id, with_score_preview=self.policy.wants_preview),
        )
        return reply.version, reply.actions

    async def _play_turns_once(self, offered: tuple[int, Sequence[Any]] | None) -> bool | None:
        """Decide while asked; None when a stale version calls for a fresh look."""
        version, actions = offered if offered is not None else await self._legal()
        self.known_version = max(self.known_version, version)
        view = None
        if actions and self.policy.wants_view:
            # In a simultaneous phase the game may have moved on by other seats'
            # decisions: the view is then newer than the actions, which is fine
            # for the seat's own pending decision (a policy checks what it builds
            # from the view against the actions).
            state = await self._call("GetState", self.m.GetStateRequest(game_id=self.game_id))
            view = state.view
        while actions:
            before = await self._own_score() if self.policy.wants_feedback else 0
            TIME_LEFT_MS.set(self.clock.left())
            choice = self.policy.choose(actions, view)
            request = self.m.ApplyRequest(
                game_id=self.game_id,
                expected_version=version,
                request_id=f"bot-{self.seat}-{version}",
                action_id=choice,
                omit_view=not self.policy.wants_view,
                with_score_preview=self.policy.wants_preview,
            )
            try:
                reply = await self._call("Apply", request)
            except grpc.aio.AioRpcError as error:
                if error.code() == grpc.StatusCode.ABORTED:
                    return None  # the seat's decision changed meanwhile: look again
                if error.code() == grpc.StatusCode.FAILED_PRECONDITION:
                    return True  # not (or no longer) asked; wait for the next event
                raise
            self.result.decisions += 1
            self.stats.applied += 1
            if self.policy.wants_feedback:
                self.policy.learn(actions[choice], await self._own_score() - before)
            self.known_version = max(self.known_version, reply.version)
            if reply.status in OVER:
                return False
            self.clock.update(
                reply.event.clock if reply.event.HasField("clock") else None, self.seat
            )
            version, actions = reply.version, reply.next_actions
            view = reply.view if self.policy.wants_view else None
        return True

    async def run(self) -> SeatResult:
        """Play until the game has finished."""
        last = 0
        backoff = _Backoff(self.retry_seconds)
        while True:
            stream = self.stub.Watch(
                self.m.WatchRequest(
                    game_id=self.game_id,
                    from_version=last,
                    include_legal=True,
                    with_score_preview=self.policy.wants_preview,
                    skip_own_events=True,
                ),
                metadata=self.md,
            )
            try:
                while True:
                    try:
                        item = await asyncio.wait_for(stream.read(), self.idle_seconds)
                    except TimeoutError:
                        self.result.gone = True  # nothing happened for too long: abandoned
                        return self.result
                    if item is grpc.aio.EOF:
                        break
                    event = item.event
                    last = max(last, event.version)
                    backoff.reset()
                    if event.status in OVER:
                        self.result.finished = True
                        return self.result
                    self.clock.update(event.clock, self.seat)
                    if event.version < self.known_version or self.seat not in event.to_act:
                        continue
                    offered = (event.version, item.legal) if item.legal else None
                    if not await self.play_turns(offered):
                        self.result.finished = True
                        return self.result
                # The stream ended without the final event: the game expired.
                self.result.gone = True
                return self.result
            except grpc.aio.AioRpcError as error:
                if error.code() == grpc.StatusCode.NOT_FOUND:
                    self.result.gone = True  # expired or abandoned: nothing left to play
                    return self.result
                if not retryable(error, stream=True):
                    self.result.errors.append(error.code().name)
                    raise
                try:
                    await backoff.wait(error)
                except grpc.aio.AioRpcError:
                    self.result.errors.append(error.code().name)
                    raise
            finally:
                stream.cancel()
