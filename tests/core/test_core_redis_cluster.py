"""The store works unchanged on Redis Cluster (deploy issue).

A real 3-master Redis Cluster on loopback; two Under the Leaves service processes
with ``REDIS_CLUSTER=1``; games are played alternating between the two, so every
write and every Watch crosses processes and slots.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from roost.common.v1 import common_pb2
from roost.undertheleaves.v1 import service_pb2, service_pb2_grpc

from services.core.redis_server import free_port
from tests.core.test_core_processes import ROOT, _wait_serving
from tests.deploy.redis_cluster import running_redis_cluster

# A Redis cluster and service processes: left out of make test-fast.
pytestmark = pytest.mark.slow

SERVICE = "roost.undertheleaves.v1.UnderTheLeaves"


@pytest.fixture(scope="module")
def cluster_services(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    """Two service processes on one 3-master cluster; yields their addresses."""
    with running_redis_cluster(Path(tmp_path_factory.mktemp("cluster"))) as cluster:
        processes, addresses = [], []
        try:
            for _ in range(2):
                port = free_port()
                env = {**os.environ, "REDIS_URL": cluster.url, "REDIS_CLUSTER": "1",
                       "PORT": str(port), "METRICS_PORT": "0", "CONNECT_PORT": "off",
                       "LOG_LEVEL": "warning"}  # fmt: skip
                command = [sys.executable, "-m", "services.undertheleaves"]
                processes.append(subprocess.Popen(command, env=env, cwd=ROOT))
                addresses.append(f"127.0.0.1:{port}")
            for address in addresses:
                _wait_serving(address, SERVICE)
            yield addresses
        finally:
            for process in processes:
                process.terminate()
                process.wait(15)


def test_games_play_to_the_end_across_processes_on_a_cluster(cluster_services: list[str]) -> None:
    """Hash-tagged keys and the Lua CAS work on a cluster; both replicas serve every game."""
    channels = [grpc.insecure_channel(a) for a in cluster_services]
    stubs = [service_pb2_grpc.UnderTheLeavesStub(c) for c in channels]
    rng = random.Random(4)
    for game in range(3):
        created = stubs[game % 2].NewGame(
            service_pb2.NewGameRequest(common=common_pb2.CommonOptions(players=2, seed=game + 1))
        )
        tokens = {c.seat: c.token for c in created.credentials}
        version, to_act, calls = created.version, list(created.to_act), 0
        watch = stubs[1].Watch(service_pb2.WatchRequest(game_id=created.game_id), timeout=60)
        while to_act:
            stub = stubs[calls % 2]
            calls += 1
            metadata = [("x-seat-token", tokens[to_act[0]])]
            legal = stub.Legal(service_pb2.LegalRequest(game_id=created.game_id), metadata=metadata)
            reply = stub.Apply(
                service_pb2.ApplyRequest(
                    game_id=created.game_id,
                    expected_version=version,
                    action_id=rng.randrange(len(legal.actions)),
                ),
                metadata=metadata,
            )
            version, to_act = reply.version, list(reply.to_act)
        final = stubs[0].GetState(service_pb2.GetStateRequest(game_id=created.game_id))
        assert final.status == common_pb2.GAME_STATUS_FINISHED
        streamed = [message.event.version for message in watch]
        assert streamed == list(range(1, version + 1)), "Watch on the other replica saw every event"
        with pytest.raises(grpc.RpcError) as caught:
            stubs[0].Apply(
                service_pb2.ApplyRequest(
                    game_id=created.game_id, expected_version=version - 1, action_id=0
                ),
                metadata=[("x-seat-token", tokens[0])],
            )
        assert caught.value.code() in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION)
    for channel in channels:
        channel.close()
