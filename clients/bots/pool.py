"""Many bots, many seats, many games, one process.

:func:`play_seats` runs a :class:`~clients.bots.player.SeatBot` per seat
concurrently, sharing one asyncio channel per service address and one policy
object per (game, bot kind) (so the greedy fallback learns across games).
"""

from __future__ import annotations

import asyncio
import gc
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import grpc

from clients import registry
from clients.bots import policies
from clients.bots.player import SeatBot, SeatResult
from clients.games import supports_preview
from clients.rpc import aio_channel
from clients.stats import RpcStats

#: Allocations between young-generation collections in a process of bots.
YOUNG_COLLECTION_ALLOCATIONS = 20_000


def tune_gc_for_bots() -> None:
    """Set the garbage collector up for a process that runs many bots.

    Every decision allocates hundreds of short-lived objects (messages and their
    wrappers, coroutines, futures), nearly all freed by reference counting, so
    collecting the young generation every 700 allocations (CPython's default)
    costs a busy tournament client about a sixth of its CPU for almost nothing
    found; every 20,000 keeps cyclic garbage small. What exists when it is called
    (modules, generated classes) is frozen out of later collections."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_ALLOCATIONS, *gc.get_threshold()[1:])


@dataclass(frozen=True, slots=True)
class BotSeat:
    """A seat a bot should play."""

    game: str
    address: str
    game_id: str
    seat: int
    token: str
    kind: str = "random"


class BotPool:
    """Channels, stubs and policies shared by the bots of one process."""

    def __init__(
        self,
        stats: RpcStats | None = None,
        seed: int | None = None,
        idle_seconds: float | None = None,
    ) -> None:
        self.stats = stats or RpcStats()
        self.idle_seconds = idle_seconds
        self.rng = random.Random(seed)
        self._channels: dict[str, grpc.aio.Channel] = {}
        self._stubs: dict[tuple[str, str], Any] = {}
        self._policies: dict[tuple[str, str], policies.Policy] = {}

    def stub(self, game: str, address: str) -> Any:
        """The asyncio stub of ``game`` at ``address``."""
        key = (game, address)
        if key not in self._stubs:
            if address not in self._channels:
                self._channels[address] = aio_channel(address)
            self._stubs[key] = registry.game(game).stub(self._channels[address])
        return self._stubs[key]

    def policy(self, game: str, kind: str) -> policies.Policy:
        """The shared policy of a bot kind in a game."""
        key = (game, kind)
        if key not in self._policies:
            messages = registry.game(game).messages()
            self._policies[key] = policies.make(
                kind, supports_preview(messages), random.Random(self.rng.random()), game
            )
        return self._policies[key]

    def bot(self, seat: BotSeat) -> SeatBot:
        """A bot for one seat."""
        return SeatBot(
            self.stub(seat.game, seat.address),
            registry.game(seat.game).messages(),
            seat.game_id,
            seat.seat,
            seat.token,
            self.policy(seat.game, seat.kind),
            self.stats,
            idle_seconds=self.idle_seconds,
        )

    async def play(self, seats: Sequence[BotSeat]) -> list[SeatResult | BaseException]:
        """Play every seat to the end of its game; one result (or error) per seat."""
        return await asyncio.gather(*(self.bot(s).run() for s in seats), return_exceptions=True)

    async def close(self) -> None:
        """Close the channels."""
        for ch in self._channels.values():
            await ch.close()
        self._channels.clear()
        self._stubs.clear()
