"""The expiry poller: every replica of a game service fires the deadlines of its game.

Design (docs/ARCHITECTURE.md, "Clocks and expiry"):

* The next deadline of every timed game is an entry of one Redis sorted set
  per game type (``roost:deadlines:<game>``: game id -> ms), written by the
  same script as the version it belongs to. No timer lives in a process's
  memory: a replica that dies loses nothing, and one that starts picks up
  every deadline at once.
* Every replica polls the set: it sleeps until the earliest deadline (at most
  ``EXPIRY_POLL_MS``), takes the due ids, reads those games in one pipeline
  (``EXPIRY_BATCH_READS``) and fires each
  (:meth:`~services.core.lifecycle.writes.Lifecycle.fire`), a few at a time.
* Firing reads the game and writes its next version with the Apply's
  compare-and-set; the house bot's choice is a function of the game, the
  version and the seat, so every replica would write the same. Of two
  replicas firing one expiry, or an expiry and the seat's own decision,
  exactly one write lands; the other finds a new version whose deadline is
  not due and only puts the set's entry right (a script that checks the
  version first).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from services.core.lifecycle.writes import UNREAD, now_ms
from services.core.logging import get_logger
from services.core.tasks import cancel_until_done

if TYPE_CHECKING:
    from services.core.lifecycle.writes import Lifecycle

log = get_logger("roost.expiry")

#: Due games taken per poll.
BATCH = 256
#: Expiries fired at once by one process.
CONCURRENCY = 64


class ExpiryPoller:
    """One process's poller of its game's deadline set."""

    def __init__(self, lifecycle: Lifecycle, poll_ms: int, *, batch_reads: bool = True) -> None:
        self.lifecycle = lifecycle
        #: Read a poll's due games in one pipeline (else each as it fires).
        self.batch_reads = batch_reads
        self.poll_ms = max(poll_ms, 5)
        self.task: asyncio.Task[None] | None = None
        self._in_flight: set[str] = set()
        self._slots = asyncio.Semaphore(CONCURRENCY)
        #: What this process fired, by kind ("bot", "forfeit", "abort"): for tests
        #: and benchmarks.
        self.fired: dict[str, int] = {}
        #: Lateness (ms after the deadline) of each expiry this process fired last.
        self.lateness_ms: list[int] = []

    def start(self) -> None:
        """Start polling on the running loop (once)."""
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run(), name="expiry-poller")

    async def stop(self) -> None:
        """Stop polling (a drain hook), cancelling until the loop has ended."""
        await cancel_until_done(self.task)
        self.task = None

    async def _run(self) -> None:
        store, game = self.lifecycle.store, self.lifecycle.game
        while True:
            try:
                now = now_ms()
                due = [
                    d
                    for d in await store.due_games(game, now, BATCH)
                    if d[0] not in self._in_flight
                ]
                read = (
                    await store.load_many([g for g, _ in due])
                    if self.batch_reads and due
                    else [UNREAD] * len(due)
                )
                for (game_id, deadline), stored in zip(due, read, strict=True):
                    self._in_flight.add(game_id)
                    await self._slots.acquire()
                    asyncio.get_running_loop().create_task(self._fire(game_id, deadline, stored))
                nearest = await store.next_deadline(game)
                wait_ms = self.poll_ms if nearest is None else nearest - now_ms()
                await asyncio.sleep(min(max(wait_ms, 1), self.poll_ms) / 1000)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the store is down or closed: try again later
                log.warning("expiry_poll_failed", error=str(exc))
                await asyncio.sleep(self.poll_ms / 1000)

    async def _fire(self, game_id: str, deadline: int, stored: Any) -> None:
        try:
            started = now_ms()
            kind = await self.lifecycle.fire(game_id, stored)
            if kind:
                self.fired[kind] = self.fired.get(kind, 0) + 1
                self.lateness_ms.append(started - deadline)
                del self.lateness_ms[:-100_000]
        except Exception as exc:
            log.warning("expiry_failed", game_id=game_id, error=str(exc))
        finally:
            self._in_flight.discard(game_id)
            self._slots.release()
