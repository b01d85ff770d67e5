"""Local waiters of ticket changes, woken by the games' notify streams."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any

from services.core.logging import get_logger
from services.core.store import BLOCKING_READ_MS
from services.matchmaking import keys

log = get_logger("roost.matchmaking")


class Notifier:
    """Follows the notify streams and wakes local waiters of tickets and matchers."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.waiters: dict[str, set[asyncio.Event]] = defaultdict(set)
        self.queued: dict[str, asyncio.Event] = defaultdict(asyncio.Event)

    def subscribe(self, ticket_id: str) -> asyncio.Event:
        """An event set whenever the ticket changes."""
        event = asyncio.Event()
        self.waiters[ticket_id].add(event)
        return event

    def unsubscribe(self, ticket_id: str, event: asyncio.Event) -> None:
        """Forget a waiter."""
        waiting = self.waiters.get(ticket_id)
        if waiting is not None:
            waiting.discard(event)
            if not waiting:
                del self.waiters[ticket_id]

    async def run(self, game: str) -> None:
        """Follow one game's notify stream forever."""
        stream = keys.notify(game)
        last: bytes | str | None = None
        while True:
            try:
                if last is None:
                    newest = await self.client.xrevrange(stream, count=1)
                    last = newest[0][0] if newest else b"0-0"
                reply = await self.client.xread({stream: last}, block=BLOCKING_READ_MS, count=500)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis away: one line, then try again
                log.warning("notify_read_failed", game=game, error=repr(error))
                await asyncio.sleep(1.0)
                continue
            if not reply:
                continue
            entries_by_stream = reply.items() if isinstance(reply, dict) else reply
            for _name, entries in entries_by_stream:
                for entry_id, fields in entries:
                    last = entry_id
                    ticket = fields.get(b"t", b"").decode()
                    for event in self.waiters.get(ticket, ()):
                        event.set()
                    if fields.get(b"s") == b"QUEUED":
                        self.queued[game].set()
