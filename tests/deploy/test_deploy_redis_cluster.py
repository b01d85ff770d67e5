"""tests/deploy/redis_cluster.py starts a real 3-master Redis Cluster that redis-py can use.

The design keeps every key of one game under one hash tag (``roost:{<id>}:...``)
so that its atomic Lua compare-and-set runs unchanged on Redis Cluster. This
checks that premise on a real cluster.
"""

from __future__ import annotations

import itertools
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from redis.cluster import RedisCluster as ClusterClient

from tests.deploy.redis_cluster import (
    SLOTS,
    RedisCluster,
    find_server_binary,
    running_redis_cluster,
    start_redis_cluster,
    stop_redis_cluster,
)

# A Redis cluster of processes: left out of make test-fast.
pytestmark = [
    pytest.mark.skipif(find_server_binary() is None, reason="no redis-server/valkey-server binary"),
    pytest.mark.slow,
]

# The shape of the store's compare-and-set: check the version, write the
# state, append the event; all keys of one game, so one slot.
CAS = """
local current = redis.call('GET', KEYS[1])
if (current or '0') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[3])
redis.call('XADD', KEYS[3], '*', 'version', ARGV[2])
return 1
"""


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisCluster]:
    with running_redis_cluster(tmp_path_factory.mktemp("cluster")) as running:
        yield running


@pytest.fixture
def client(cluster: RedisCluster) -> Iterator[ClusterClient]:
    connection = cluster.client(decode_responses=True)
    yield connection
    connection.close()


def keys(game_id: str) -> list[str]:
    return [f"roost:{{{game_id}}}:{part}" for part in ("version", "state", "events")]


def test_three_masters_serve_all_slots(cluster: RedisCluster, client: ClusterClient) -> None:
    assert len(cluster.nodes) == 3
    assert len({port for _, port in cluster.nodes}) == 3
    primaries = client.get_primaries()
    assert sorted((n.host, n.port) for n in primaries) == sorted(cluster.nodes)
    slots = client.execute_command("CLUSTER SLOTS", target_nodes=ClusterClient.RANDOM)
    covered = sorted((int(entry[0]), int(entry[1])) for entry in slots)
    assert covered[0][0] == 0 and covered[-1][1] == SLOTS - 1
    assert all(a[1] + 1 == b[0] for a, b in itertools.pairwise(covered))


def test_hash_tag_keys_share_a_slot_and_games_spread(client: ClusterClient) -> None:
    for game_id in ("g1", "a-much-longer-game-id"):
        assert len({client.keyslot(key) for key in keys(game_id)}) == 1
    nodes = {client.get_node_from_key(keys(f"game-{n}")[0]).port for n in range(60)}
    assert len(nodes) == 3, "games must spread over all masters"


def test_set_get_with_a_shared_hash_tag(client: ClusterClient) -> None:
    version, state, _ = keys("set-get")
    client.set(state, "board")
    client.set(version, "7")
    assert client.get(state) == "board" and client.get(version) == "7"
    assert client.mget([version, state]) == ["7", "board"], "multi-key command in one slot"


def test_lua_compare_and_set_on_one_hash_tag(client: ClusterClient) -> None:
    game = keys("lua")
    script = client.register_script(CAS)
    assert script(keys=game, args=["0", "1", "state-1"]) == 1
    assert script(keys=game, args=["0", "2", "stale"]) == 0, "a stale version loses"
    assert script(keys=game, args=["1", "2", "state-2"]) == 1
    assert client.get(game[0]) == "2" and client.get(game[1]) == "state-2"
    assert client.xlen(game[2]) == 2


def test_keys_of_different_games_cannot_share_a_script(client: ClusterClient) -> None:
    mixed = [keys("one")[0], keys("two")[1], keys("one")[2]]
    if len({client.keyslot(k) for k in mixed}) == 1:
        pytest.skip("the two games happen to share a slot")
    with pytest.raises(redis.exceptions.RedisClusterException, match="same key slot"):
        client.register_script(CAS)(keys=mixed, args=["0", "1", "x"])


def test_start_and_stop_without_a_with_block(tmp_path: Path) -> None:
    cluster = start_redis_cluster(tmp_path, masters=3)
    try:
        with cluster.client() as connection:
            connection.set("roost:{x}:state", b"1")
            assert connection.get("roost:{x}:state") == b"1"
    finally:
        stop_redis_cluster(cluster)
    stop_redis_cluster(cluster)  # idempotent
    for host, port in cluster.nodes:
        with socket.socket() as sock:
            assert sock.connect_ex((host, port)) != 0, "stopped nodes must not listen"
    assert (cluster.directory / f"node-{cluster.nodes[0][1]}" / "nodes.conf").is_file()
