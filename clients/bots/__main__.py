"""``python -m clients.bots``: play seats described as JSON on standard input.

Input: a JSON list of ``{"game", "address", "game_id", "seat", "token", "kind"}``
objects (tokens travel on stdin, never on the command line). The process
plays every seat to the end of its game and exits 0 when all finished, or
when the game is gone (expired or abandoned: no event for
``ROOST_BOT_IDLE_SECONDS``, default 3600). A service that is unavailable for a
while is retried (see :mod:`clients.bots.player`). This is what
``roost new --bot SEAT=KIND`` and ``roost bots start`` run in the background.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

from clients.bots.pool import BotPool, BotSeat, tune_gc_for_bots


async def _main(seats: list[BotSeat]) -> int:
    try:
        idle = float(os.environ.get("ROOST_BOT_IDLE_SECONDS", "") or 3600)
    except ValueError:
        idle = 3600.0
    pool = BotPool(idle_seconds=idle if idle > 0 else None)
    try:
        results = await pool.play(seats)
    finally:
        await pool.close()
    for result in results:
        if isinstance(result, BaseException):
            print(f"bot error: {result!r}", file=sys.stderr)
        else:
            state = "finished" if result.finished else "gone (expired or abandoned)"
            print(f"seat {result.seat}: {result.decisions} decisions; the game is {state}")
    return 1 if any(isinstance(r, BaseException) for r in results) else 0


def main() -> int:
    """Read the seats from stdin and play them."""
    raw = json.load(sys.stdin)
    seats = [BotSeat(**entry) for entry in raw]
    tune_gc_for_bots()
    return asyncio.run(_main(seats))


if __name__ == "__main__":
    sys.exit(main())
