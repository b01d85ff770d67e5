"""One bot playing one seat of one game, as a remote client.

The bot follows the game's Watch stream; whenever an event asks its seat to
decide, it calls Legal (with a score preview for the greedy policy), chooses,
and Applies with ``expected_version`` and a request id derived from seat and
version (a retry after a lost reply returns the first result). While the
Apply reply says the seat must decide again, the bot chains on the reply's
``next_actions`` without another Legal: one round trip per decision. A stale
version (another seat decided at the same moment) is retried from a fresh
Legal. A broken stream is resumed from the last version seen.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Any

import grpc
from roost.common.v1 import common_pb2

from clients.bots.policies import Policy
from clients.rpc import metadata
from clients.stats import RpcStats

FINISHED = common_pb2.GAME_STATUS_FINISHED
TRANSIENT = {
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
}
MAX_TRANSIENT_RETRIES = 8
CALL_TIMEOUT = 30.0
MAX_STALE_RETRIES = 50


@dataclass
class SeatResult:
    """What one seat's bot did."""

    seat: int
    decisions: int = 0
    finished: bool = False
    errors: list[str] = field(default_factory=list)


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

    async def _call(self, method: str, request: Any) -> Any:
        rpc = getattr(self.stub, method)
        attempt = 0
        while True:
            try:
                return await self.stats.timed(
                    method, lambda: rpc(request, metadata=self.md, timeout=CALL_TIMEOUT)
                )
            except grpc.aio.AioRpcError as error:
                if error.code() not in TRANSIENT or attempt >= MAX_TRANSIENT_RETRIES:
                    raise
                attempt += 1
                await asyncio.sleep(min(0.05 * 2**attempt, 2.0) * (0.5 + random.random()))

    async def _own_score(self) -> int:
        reply = await self._call("Score", self.m.ScoreRequest(game_id=self.game_id))
        return next((s.total for s in reply.scoreboard.seats if s.seat == self.seat), 0)

    async def play_turns(self) -> bool:
        """Decide while asked; False once the game is over."""
        for _ in range(MAX_STALE_RETRIES):
            outcome = await self._play_turns_once()
            if outcome is not None:
                return outcome
        return True

    async def _play_turns_once(self) -> bool | None:
        """Decide while asked; None when a stale version calls for a fresh look."""
        legal = await self._call(
            "Legal",
            self.m.LegalRequest(game_id=self.game_id, with_score_preview=True)
            if self.policy.wants_preview
            else self.m.LegalRequest(game_id=self.game_id),
        )
        version, actions = legal.version, list(legal.actions)
        self.known_version = max(self.known_version, version)
        while actions:
            before = await self._own_score() if self.policy.wants_feedback else 0
            choice = self.policy.choose(actions)
            request = self.m.ApplyRequest(
                game_id=self.game_id,
                expected_version=version,
                request_id=f"bot-{self.seat}-{version}",
                action_id=choice,
            )
            try:
                reply = await self._call("Apply", request)
            except grpc.aio.AioRpcError as error:
                if error.code() == grpc.StatusCode.ABORTED:
                    return None  # someone decided first: look again
                if error.code() == grpc.StatusCode.FAILED_PRECONDITION:
                    return True  # not (or no longer) asked; wait for the next event
                raise
            self.result.decisions += 1
            self.stats.applied += 1
            if self.policy.wants_feedback:
                self.policy.learn(actions[choice], await self._own_score() - before)
            self.known_version = max(self.known_version, reply.version)
            if reply.status == FINISHED:
                return False
            version = reply.version
            if self.policy.wants_preview and reply.next_actions:
                legal = await self._call(
                    "Legal", self.m.LegalRequest(game_id=self.game_id, with_score_preview=True)
                )
                version, actions = legal.version, list(legal.actions)
            else:
                actions = list(reply.next_actions)
        return True

    async def run(self) -> SeatResult:
        """Play until the game has finished."""
        last = 0
        failures = 0
        while True:
            stream = self.stub.Watch(
                self.m.WatchRequest(game_id=self.game_id, from_version=last), metadata=self.md
            )
            try:
                async for item in stream:
                    event = item.event
                    last = event.version
                    failures = 0
                    if event.status == FINISHED:
                        self.result.finished = True
                        return self.result
                    if event.version < self.known_version or self.seat not in event.to_act:
                        continue
                    if not await self.play_turns():
                        self.result.finished = True
                        return self.result
                # The stream ended without the final event: the game expired.
                return self.result
            except grpc.aio.AioRpcError as error:
                if error.code() not in TRANSIENT or failures >= MAX_TRANSIENT_RETRIES:
                    self.result.errors.append(error.code().name)
                    raise
                failures += 1
                await asyncio.sleep(min(0.05 * 2**failures, 2.0))
            finally:
                stream.cancel()
