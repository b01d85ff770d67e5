"""Expiry exactly once across replicas and crashes (issue 27), as deployed: two
``python -m services.undertheleaves`` processes over one Redis with AOF.

Games nobody plays run on the house bot (TIMEOUT_POLICY_HOUSE_BOT, 0.25 s per
move), so every version after creation is one fired expiry. Replica A is
SIGKILLed and Redis is SIGKILLed and restarted from its AOF mid-games; replica
B alone must carry every game on. Exactly once: each house-bot decision is
written a full move limit after the write that asked for it (a doubled expiry
would land sooner) and the clocks count exactly one timeout per such event;
none lost: every game keeps moving after the faults.
"""

from __future__ import annotations

import itertools
import time
from pathlib import Path

import grpc
import pytest
from roost.common.v1 import common_pb2
from roost.undertheleaves.v1 import service_pb2, service_pb2_grpc

from bench.processes import durable_redis, service_process
from services.undertheleaves.service import SPEC

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

MODULE = "services.undertheleaves"
MOVE_MS = 250
GAMES = 12


def _versions(stub: service_pb2_grpc.UnderTheLeavesStub, ids: list[str]) -> list[int]:
    versions = []
    for game_id in ids:
        try:
            versions.append(stub.GetState(service_pb2.GetStateRequest(game_id=game_id)).version)
        except grpc.RpcError:
            versions.append(0)  # Redis is restarting: ask again later
    return versions


def _wait_all_at_least(stub, ids: list[str], version: int, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while min(_versions(stub, ids)) < version:
        assert time.monotonic() < end, f"games stalled: {_versions(stub, ids)}"
        time.sleep(0.05)


def test_expiries_fire_exactly_once_across_a_killed_replica_and_a_redis_restart(
    tmp_path: Path,
) -> None:
    env = {"CONNECT_PORT": "off", "EXPIRY_POLL_MS": "20"}
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
    with (
        durable_redis() as store,
        service_process(MODULE, SPEC.service_name, store.url, tmp_path / "a", **env) as a,
        service_process(MODULE, SPEC.service_name, store.url, tmp_path / "b", **env) as b,
    ):
        stub_a = service_pb2_grpc.UnderTheLeavesStub(grpc.insecure_channel(a.address))
        stub_b = service_pb2_grpc.UnderTheLeavesStub(grpc.insecure_channel(b.address))
        tc = common_pb2.TimeControl(
            move_seconds=MOVE_MS / 1000, on_timeout=common_pb2.TIMEOUT_POLICY_HOUSE_BOT
        )
        ids = [
            stub_a.NewGame(
                service_pb2.NewGameRequest(
                    common=common_pb2.CommonOptions(players=2, seed=i + 1, time_control=tc)
                )
            ).game_id
            for i in range(GAMES)
        ]
        _wait_all_at_least(stub_b, ids, 3)
        a.kill()
        store.kill()
        store.start()
        reached = max(_versions(stub_b, ids))
        _wait_all_at_least(stub_b, ids, reached + 3)
        for game_id in ids:
            entries = list(stub_b.GetLog(service_pb2.GetLogRequest(game_id=game_id)).entries)
            events = [e.event for e in entries]
            assert [e.version for e in events] == list(range(1, len(events) + 1))
            moves = events[1:]
            assert all("house bot" in e.label for e in moves)
            for before, after in itertools.pairwise(events):
                assert after.time_ms - before.time_ms >= MOVE_MS, (game_id, before, after)
            last = events[-1]
            assert sum(s.timeouts for s in last.clock.seats) == len(moves)
        assert "Traceback" not in b.output()
