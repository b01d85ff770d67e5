"""Failed seat-token checks per peer, on the game services.

A wrong seat token (``ERROR_REASON_TOKEN_INVALID``) is counted per peer (the
client's address) in Redis: at most ``LIMIT_FAILED_SEAT_TOKENS`` per
``LIMIT_WINDOW_SECONDS`` (default 600 a minute: a client with a stale token
never meets it, a guesser is slowed from thousands a second to ten). A peer
whose count passes the limit is refused every call with a seat token,
RESOURCE_EXHAUSTED with ``ERROR_REASON_LIMIT_FAILED_TOKENS`` and a
``google.rpc.RetryInfo``, until the window ends: a guessed right token is
refused too, so guessing stops at the limit.

The check on the hot path is a local lookup: a replica learns that a peer is
over the limit from the Redis count of that peer's next failure there, so a
peer over the limit gets at most one more answer from each replica.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from services.core.identity.errors import limited
from services.core.identity.limits import HIT_SCRIPT, limit_key
from services.core.identity.settings import IdentitySettings
from services.core.identity.verifier import peer_host

NAME = "failed_seat_tokens"
REASON = "ERROR_REASON_LIMIT_FAILED_TOKENS"


class SeatTokenGuard:
    """Counts wrong seat tokens per peer and refuses peers over the limit."""

    def __init__(self, settings: IdentitySettings, client: Any) -> None:
        self.limit = settings.failed_seat_token_limit
        self.window_ms = max(int(settings.limit_window_seconds * 1000), 1)
        self._hit = client.register_script(HIT_SCRIPT)
        #: Peers over the limit: peer -> monotonic time their window ends.
        self.blocked: dict[str, float] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def check(self, context: Any) -> None:
        """RESOURCE_EXHAUSTED for a peer known to be over the limit."""
        if not self.blocked or self.limit <= 0:
            return
        peer = peer_host(context)
        until = self.blocked.get(peer)
        if until is None:
            return
        left_ms = int((until - time.monotonic()) * 1000)
        if left_ms <= 0:
            del self.blocked[peer]
            return
        raise limited(REASON, NAME, left_ms, f"at most {self.limit} refused tokens per window")

    def failed(self, context: Any) -> None:
        """Count a wrong token of the call's peer (in the background)."""
        if self.limit <= 0:
            return
        peer = peer_host(context)
        task = asyncio.get_running_loop().create_task(self._count(peer))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _count(self, peer: str) -> None:
        try:
            count, ttl = await self._hit(keys=[limit_key(NAME, peer)], args=[self.window_ms])
        except Exception:  # the store away: the limit waits for it, the call is answered
            return
        if int(count) > self.limit:
            self.blocked[peer] = time.monotonic() + max(int(ttl), 1) / 1000
