"""``python -m clients.bots``: play seats described as JSON on standard input.

Input: a JSON list of ``{"game", "address", "game_id", "seat", "token", "kind"}``
objects (tokens travel on stdin, never on the command line). The process
plays every seat to the end of its game and exits 0 when all finished. This is
what ``roost new --bot SEAT=KIND`` starts in the background.
"""

from __future__ import annotations

import asyncio
import json
import sys

from clients.bots.pool import BotPool, BotSeat


async def _main(seats: list[BotSeat]) -> int:
    pool = BotPool()
    try:
        results = await pool.play(seats)
    finally:
        await pool.close()
    failed = [r for r in results if isinstance(r, BaseException)]
    for error in failed:
        print(f"bot error: {error!r}", file=sys.stderr)
    return 1 if failed else 0


def main() -> int:
    """Read the seats from stdin and play them."""
    raw = json.load(sys.stdin)
    seats = [BotSeat(**entry) for entry in raw]
    return asyncio.run(_main(seats))


if __name__ == "__main__":
    sys.exit(main())
