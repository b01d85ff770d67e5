"""Fixed-window counters in Redis, so a limit holds across every replica.

A counter ``roost:limit:{<name>}:<who>`` counts events in a window of
``window_ms`` that starts with its first event; it expires with the window.
:meth:`Limiter.hit` counts one event and refuses it over the limit;
:meth:`Limiter.check` only refuses (for limits counted elsewhere, e.g. failed
token checks, counted by :meth:`Limiter.count` after the failure).
"""

from __future__ import annotations

from typing import Any

from services.core.identity.errors import limited

#: Count one event; reply {count, ms left in the window}.
HIT_SCRIPT = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}
"""
#: Read without counting: {count, ms left}.
_PEEK = """
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
return {n, redis.call('PTTL', KEYS[1])}
"""


def limit_key(name: str, who: str) -> str:
    """The Redis key of one counter (its own hash slot in a cluster)."""
    return f"roost:limit:{{{name}:{who}}}"


class Limiter:
    """One named limit: at most ``limit`` events per ``window_ms`` per ``who``."""

    def __init__(self, client: Any, name: str, reason: str, limit: int, window_ms: int) -> None:
        self.client = client
        self.name = name
        self.reason = reason
        self.limit = limit
        self.window_ms = max(int(window_ms), 1)
        self._hit = client.register_script(HIT_SCRIPT)
        self._peek = client.register_script(_PEEK)

    def _refuse(self, ttl_ms: int) -> None:
        raise limited(
            self.reason,
            self.name,
            ttl_ms if ttl_ms > 0 else self.window_ms,
            f"at most {self.limit} per {self.window_ms} ms",
        )

    async def hit(self, who: str) -> None:
        """Count an event of ``who``; RESOURCE_EXHAUSTED (with the wait) over the limit.
        A limit of 0 or less is off."""
        if self.limit <= 0:
            return
        count, ttl = await self._hit(keys=[limit_key(self.name, who)], args=[self.window_ms])
        if int(count) > self.limit:
            self._refuse(int(ttl))

    async def check(self, who: str) -> None:
        """RESOURCE_EXHAUSTED if ``who`` has reached the limit; counts nothing."""
        if self.limit <= 0:
            return
        count, ttl = await self._peek(keys=[limit_key(self.name, who)], args=[])
        if int(count) >= self.limit:
            self._refuse(int(ttl))

    async def count(self, who: str) -> None:
        """Count an event of ``who`` without refusing it."""
        if self.limit > 0:
            await self._hit(keys=[limit_key(self.name, who)], args=[self.window_ms])
