"""Faults survived with no acknowledged Apply lost (issue 'Reliability at the
edges'): Redis SIGKILLed and restarted from its AOF mid-games, a game service
SIGKILLed and restarted mid-games, a server drained while Watch streams are
open. Real processes, real sockets, real Redis."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2
from roost.undertheleaves.v1 import service_pb2, service_pb2_grpc

from bench.players import Player, lost_acknowledged, play_through
from bench.processes import (
    durable_redis,
    health_status,
    service_process,
    wait_health,
)
from services.core.redis_server import free_port
from services.undertheleaves.service import SPEC
from tests.service_contract import error_reason

# Random games, floods and faults: left out of make test-fast.
pytestmark = [pytest.mark.reliability, pytest.mark.slow]

MODULE = "services.undertheleaves"
SERVICE = SPEC.service_name
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
SERVING = health_pb2.HealthCheckResponse.SERVING
#: What a client may see while a fault lasts; never INTERNAL or UNKNOWN.
ALLOWED = {"OK", "UNAVAILABLE", "ABORTED", "DEADLINE_EXCEEDED"}


def _codes(players: list[Player]) -> Counter[str]:
    total: Counter[str] = Counter()
    for player in players:
        total.update(player.codes)
    return total


def test_redis_killed_and_restarted_from_its_aof_mid_games(tmp_path: Path) -> None:
    """Redis SIGKILLed mid-games: calls answer UNAVAILABLE (never INTERNAL), health
    turns NOT_SERVING and back to SERVING by itself once Redis is restarted from
    its AOF, the games go on to the end, and no acknowledged Apply is lost."""
    with durable_redis() as store, service_process(MODULE, SERVICE, store.url, tmp_path) as svc:
        timings: dict[str, float] = {}

        def outage() -> None:
            store.kill()
            timings["not_serving"] = wait_health(svc.address, SERVICE, NOT_SERVING)
            assert health_status(svc.address, "") == NOT_SERVING
            time.sleep(1.0)
            store.start()
            timings["serving"] = wait_health(svc.address, SERVICE, SERVING)

        players = play_through(SPEC, svc.address, 6, outage)
        codes = _codes(players)
        assert codes["UNAVAILABLE"] > 0, "the outage was seen by the clients"
        assert set(codes) <= ALLOWED, codes
        assert timings["not_serving"] < 5 and timings["serving"] < 5
        assert lost_acknowledged(store.url, players) == []
        assert all(p.finished for p in players)
        output = svc.output()
        assert "Traceback" not in output
        assert '"event": "store_unreachable"' in output and '"event": "store_reachable"' in output


def test_a_game_service_killed_and_restarted_mid_games(tmp_path: Path) -> None:
    """A service SIGKILLed mid-games and started again on its port: clients see
    UNAVAILABLE, retry, and finish; no acknowledged Apply is lost."""
    with durable_redis() as store, service_process(MODULE, SERVICE, store.url, tmp_path) as svc:

        def crash() -> None:
            svc.kill()
            time.sleep(0.5)
            svc.start()

        players = play_through(SPEC, svc.address, 6, crash)
        codes = _codes(players)
        assert codes["UNAVAILABLE"] > 0
        assert set(codes) <= ALLOWED, codes
        assert lost_acknowledged(store.url, players) == []
        assert all(p.finished for p in players)


#: The drain tests' grace period: long, so that "within the grace" is told by a
#: deadline of half of it on a loaded machine, never by timing.
GRACE = 120


def test_a_draining_server_ends_its_watch_streams_at_once(tmp_path: Path) -> None:
    """SIGTERM: every Watch ends at once with UNAVAILABLE (ERROR_REASON_DRAINING)
    so clients resume elsewhere; the process exits well within its grace period,
    without a traceback."""
    with (
        durable_redis() as store,
        service_process(MODULE, SERVICE, store.url, tmp_path, GRACE_SECONDS=str(GRACE)) as svc,
    ):
        channel = grpc.insecure_channel(svc.address)
        stub = service_pb2_grpc.UnderTheLeavesStub(channel)
        streams = []
        for seed in range(10):
            created = stub.NewGame(
                service_pb2.NewGameRequest(common={"players": 2, "seed": seed + 1})
            )
            for _ in range(5):
                # A stream that the drain did not end would run to this deadline and
                # end DEADLINE_EXCEEDED: half the grace, so "at once" is a bound, not a clock.
                request = service_pb2.WatchRequest(game_id=created.game_id)
                streams.append(stub.Watch(request, timeout=GRACE / 2))
        for stream in streams:
            assert next(stream).event.version == 1
        assert svc.process is not None
        svc.process.send_signal(15)
        for stream in streams:
            with pytest.raises(grpc.RpcError) as caught:
                next(stream)
            assert caught.value.code() == grpc.StatusCode.UNAVAILABLE
            assert error_reason(caught.value) == "ERROR_REASON_DRAINING"
        # Exits long before its grace is out (wait raises TimeoutExpired otherwise).
        assert svc.process.wait(GRACE / 2) == 0
        channel.close()
        assert "Traceback" not in svc.output()


def test_every_rpc_answers_unavailable_while_redis_is_unreachable(tmp_path: Path) -> None:
    """No Redis at all: every RPC is UNAVAILABLE with ERROR_REASON_STORE_UNAVAILABLE
    and one log line each, no traceback; health reads NOT_SERVING."""
    nowhere = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    with service_process(MODULE, SERVICE, nowhere, tmp_path, expect=NOT_SERVING) as svc:
        with grpc.insecure_channel(svc.address) as channel:
            stub = service_pb2_grpc.UnderTheLeavesStub(channel)
            md = [("x-seat-token", "t" * 20)]
            calls = [
                lambda: stub.NewGame(service_pb2.NewGameRequest(common={"players": 2})),
                lambda: stub.GetState(service_pb2.GetStateRequest(game_id="abc")),
                lambda: stub.Legal(service_pb2.LegalRequest(game_id="abc"), metadata=md),
                lambda: stub.Apply(
                    service_pb2.ApplyRequest(game_id="abc", expected_version=1, action_id=0),
                    metadata=md,
                ),
                lambda: stub.Score(service_pb2.ScoreRequest(game_id="abc")),
                lambda: stub.GetLog(service_pb2.GetLogRequest(game_id="abc")),
                lambda: next(iter(stub.Watch(service_pb2.WatchRequest(game_id="abc")))),
            ]
            for call in calls:
                with pytest.raises(grpc.RpcError) as caught:
                    call()
                assert caught.value.code() == grpc.StatusCode.UNAVAILABLE
                assert error_reason(caught.value) == "ERROR_REASON_STORE_UNAVAILABLE"
        assert svc.terminate() == 0
        output = svc.output()
    assert "Traceback" not in output
    assert output.count('"event": "rpc_unavailable"') == len(calls)
