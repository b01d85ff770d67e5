"""The matchmaker and a game service on a real 3-master Redis Cluster (REDIS_CLUSTER=1):
every multi-key script stays inside one hash slot."""

from __future__ import annotations

import asyncio
import time
import uuid
from contextlib import ExitStack

import pytest
from roost.matchmaking.v1 import matchmaking_pb2 as pb

from clients.bots.pool import BotPool, BotSeat
from services.registry import by_name
from tests.matchmaking.mmclient import MmClient
from tests.matchmaking.stack import FAST_MM, implemented_games, redis_cluster, start

# A Redis cluster, matchmakers and game services as processes: left out of make test-fast.
pytestmark = pytest.mark.slow


async def _play(seat: BotSeat) -> list:
    pool = BotPool()
    try:
        return await pool.play([seat])
    finally:
        await pool.close()


def test_matchmaking_on_redis_cluster() -> None:
    games = [g.name for g in implemented_games()]
    if not games:
        pytest.skip("no game service is implemented")
    game = "undertheleaves" if "undertheleaves" in games else games[0]
    with ExitStack() as stack:
        try:
            url = stack.enter_context(redis_cluster())
        except LookupError as exc:
            pytest.skip(str(exc))
        service = start(by_name(game), {"REDIS_URL": url, "REDIS_CLUSTER": "1"})
        stack.callback(service.stop)
        env = {**FAST_MM, "REDIS_URL": url, "REDIS_CLUSTER": "1",
               f"GAME_ADDR_{game.upper()}": service.address}  # fmt: skip
        matchmakers = [start(by_name("matchmaking"), env) for _ in range(2)]
        for proc in matchmakers:
            stack.callback(proc.stop)
        mm = MmClient([m.address for m in matchmakers])
        stack.callback(mm.cleanup)

        tickets = [mm.enqueue(game=game, via=i) for i in range(6)]
        finals = [mm.final(t.ticket_id, via=i + 1) for i, t in enumerate(tickets)]
        assert all(f.status == pb.TICKET_STATUS_ASSIGNED for f in finals)
        assert len({f.assignment.game_id for f in finals}) == 3

        human = f"cluster-{uuid.uuid4().hex[:6]}"
        solo = mm.final(mm.enqueue(players=[human], game=game, bots_after_ms=1).ticket_id)
        assert solo.status == pb.TICKET_STATUS_ASSIGNED
        (seat,) = solo.assignment.seats
        a = solo.assignment
        (result,) = asyncio.run(_play(BotSeat(game, a.address, a.game_id, seat.seat, seat.token)))
        assert not isinstance(result, BaseException) and result.finished
        deadline = time.monotonic() + 10
        rated = 0
        while time.monotonic() < deadline and not rated:
            request = pb.GetRatingsRequest(game=game, player_ids=[human])
            rated = mm.stub().GetRatings(request).ratings[0].games
            time.sleep(0.1)
        assert rated == 1
