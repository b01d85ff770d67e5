"""OpenSkill ratings: the update itself and exactly-once recording in Redis."""

from __future__ import annotations

import asyncio
import uuid

import redis.asyncio as aioredis

from services.matchmaking.ratings import PlayerRating, RatingBook, rate_result
from tests.matchmaking.stack import with_db


def test_the_winner_gains_and_the_loser_drops() -> None:
    current = {"a": PlayerRating("a"), "b": PlayerRating("b")}
    new = rate_result(current, [("a", 1), ("b", 2)])
    assert new["a"].mu > 25.0 > new["b"].mu
    assert new["a"].wins == 1 and new["b"].wins == 0
    assert new["a"].games == new["b"].games == 1
    assert new["a"].sigma < current["a"].sigma


def test_one_player_in_two_seats_gets_the_mean() -> None:
    current = {"bot": PlayerRating("bot"), "h": PlayerRating("h")}
    new = rate_result(current, [("bot", 1), ("h", 2), ("bot", 3)])
    assert new["bot"].games == 1 and new["bot"].wins == 1
    assert set(new) == {"bot", "h"}


def test_a_game_is_rated_once_even_when_recorded_concurrently(redis_server_url: str) -> None:
    async def scenario() -> None:
        client = aioredis.Redis.from_url(with_db(redis_server_url, 5), protocol=2)
        book = RatingBook(client)
        game = f"g{uuid.uuid4().hex[:6]}"
        outcomes = await asyncio.gather(
            *(book.record(game, "game1", [("x", 1), ("y", 2)]) for _ in range(8))
        )
        assert outcomes.count(True) == 1
        # Concurrent different games never lose an update.
        await asyncio.gather(
            *(book.record(game, f"other{i}", [("x", 1), ("z", 2)]) for i in range(10))
        )
        x, y, z = await book.get(game, ["x", "y", "z"])
        assert (x.games, y.games, z.games) == (11, 1, 10)
        assert x.wins == 11
        rows, total = await book.leaderboard(game, 0, 10)
        assert total == 3 and rows[0].player_id == "x"
        await client.aclose()

    asyncio.run(scenario())
