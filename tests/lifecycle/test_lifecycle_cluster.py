"""Timed games and leavers on Redis Cluster (issue 27; ARCHITECTURE "Clocks and
expiry", Redis Cluster).

A real 3-master cluster on loopback and two Under the Leaves replicas over it.
Game ids are drawn into the slots of the deadline buckets
(services/core/lifecycle/slots.py), so a version's script writes the game's
deadline entry in its own slot, and both replicas poll every bucket: a silent
seat is played by the house bot or forfeits at its deadline, exactly once, and
a resigned seat of a three-player game is played on.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis.crc import key_slot

from services.core.lifecycle import slots
from services.undertheleaves.service import SPEC
from tests.deploy.redis_cluster import running_redis_cluster
from tests.harness import game_server
from tests.lifecycle.lifeclient import FINISHED, IN_PROGRESS, LifeClient, time_control

# A Redis cluster: left out of make test-fast, like the store's own cluster test.
pytestmark = [pytest.mark.service, pytest.mark.slow]


@pytest.fixture(scope="module")
def replicas(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[LifeClient]]:
    """Two replicas on one cluster; a client of each."""
    with (
        running_redis_cluster(Path(tmp_path_factory.mktemp("cluster"))) as cluster,
        game_server(SPEC, cluster.url, redis_cluster=True, expiry_poll_ms=20) as a,
        game_server(SPEC, cluster.url, redis_cluster=True, expiry_poll_ms=20) as b,
    ):
        yield [LifeClient(a, SPEC), LifeClient(b, SPEC)]


def test_game_ids_fall_in_a_deadline_buckets_slot() -> None:
    """Every id drawn for a cluster shares its slot with one of the game's buckets;
    a derived (rematch) id is the same for every caller."""
    for _ in range(50):
        game_id = slots.new_game_id(cluster=True)
        assert len(game_id) == 24 and int(game_id, 16) >= 0
        bucket = slots.bucket_key("undertheleaves", game_id)
        assert bucket is not None and key_slot(bucket.encode()) == key_slot(game_id.encode())
    assert len(set(slots.bucket_keys("undertheleaves"))) == slots.BUCKETS
    derived = slots.derived_game_id("rematch:abc", cluster=True)
    assert derived == slots.derived_game_id("rematch:abc", cluster=True)
    assert slots.placed(derived, cluster=True)


def test_house_bot_plays_a_silent_seat_on_a_cluster(replicas: list[LifeClient]) -> None:
    """TIMEOUT_POLICY_HOUSE_BOT on a cluster: the house bot decides at each
    deadline, once (each decision a full move limit after the write before it)."""
    a, b = replicas
    created = a.new_timed(2, time_control(move_seconds=0.2, policy="bot"))
    state = b.wait_state(created.game_id, lambda s: s.version >= 4)
    assert state.status in (IN_PROGRESS, FINISHED)
    entries = [e.event for e in b.log(created.game_id).entries]
    assert all("house bot" in e.label for e in entries[1:4])
    assert all(y.time_ms - x.time_ms >= 200 for x, y in itertools.pairwise(entries[:4]))
    assert sum(seat.timeouts for seat in state.clock.seats) >= 3


def test_forfeit_on_a_cluster_ends_the_game_at_the_deadline(replicas: list[LifeClient]) -> None:
    """TIMEOUT_POLICY_FORFEIT on a cluster: once both seats decided, the silent
    seat forfeits at its deadline and the game is finished."""
    a, b = replicas
    created = b.new_timed(2, time_control(move_seconds=0.6, policy="forfeit"))
    a.play_until_all_decided(created, random.Random(3))
    final = a.wait_state(created.game_id, lambda s: s.status != IN_PROGRESS)
    assert final.status == FINISHED
    assert list(b.log(created.game_id).entries)[-1].event.kind == "timeout"


def test_a_resigned_seat_of_three_is_played_on_by_the_house_bot_on_a_cluster(
    replicas: list[LifeClient],
) -> None:
    """A leaver's seat (more than two players, an untimed game) is the house
    bot's on a cluster too: it decides whenever the seat is asked."""
    a, b = replicas
    rng = random.Random(8)
    created = a.new_timed(3, None)
    tokens = {c.seat: c.token for c in created.credentials}
    leaver = a.state(created.game_id).to_act[0]
    a.resign(created.game_id, tokens[leaver])
    state = b.wait_state(created.game_id, lambda s: leaver not in s.to_act)
    for _ in range(6):  # the others play on; the leaver's turns come and go
        if state.status != IN_PROGRESS:
            break
        seat = state.to_act[0]
        b.play_one(created.game_id, tokens, seat, rng)
        state = a.wait_state(created.game_id, lambda s: leaver not in s.to_act)
    bot = [e.event for e in a.log(created.game_id).entries if "house bot" in e.event.label]
    assert bot and all(e.seat == leaver for e in bot)
