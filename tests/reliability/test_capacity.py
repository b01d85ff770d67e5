"""Capacity at the edges (issue 'Reliability at the edges'): a full Redis
refuses writes and the game stays intact; calls over the process's caps are
refused at once instead of queueing behind a stalled Redis."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator

import grpc
import pytest
import redis
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.core.metrics import LIMITS
from services.core.redis_server import LocalRedis, start_local_redis
from services.core.store import events_key, game_key
from services.undertheleaves.service import SPEC
from tests.harness import game_server
from tests.service_contract import Client, error_reason

# Random games, floods and faults: left out of make test-fast.
pytestmark = [pytest.mark.reliability, pytest.mark.slow]


def _stored(raw: redis.Redis, game_id: str) -> tuple[object, ...]:
    """Everything stored for a game."""
    return raw.hgetall(game_key(game_id)), raw.xrange(events_key(game_id))


@pytest.fixture
def own_redis() -> Iterator[LocalRedis]:
    """A Redis of this test's own (its memory limit and pauses touch no other test)."""
    server = start_local_redis()
    yield server
    server.stop()


def test_a_full_redis_refuses_the_write_and_the_game_is_intact(own_redis: LocalRedis) -> None:
    """Redis at maxmemory (noeviction): Apply and NewGame answer RESOURCE_EXHAUSTED
    (ERROR_REASON_STORE_FULL), the stored game is unchanged, and play goes on
    once there is room again."""
    raw = redis.Redis.from_url(own_redis.url)
    with game_server(SPEC, own_redis.url) as server:
        client = Client(server, SPEC)
        created = client.new_game(2, seed=5)
        token = created.credentials[created.to_act[0]].token
        before = _stored(raw, created.game_id)
        raw.config_set("maxmemory-policy", "noeviction")
        raw.config_set("maxmemory", "1")
        try:
            with pytest.raises(grpc.RpcError) as caught:
                client.apply(created.game_id, token, 1, action_id=0)
            assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert error_reason(caught.value) == "ERROR_REASON_STORE_FULL"
            with pytest.raises(grpc.RpcError) as caught:
                client.new_game(2, seed=6)
            assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert client.state(created.game_id).version == 1, "reads still work"
        finally:
            raw.config_set("maxmemory", "0")
        assert _stored(raw, created.game_id) == before
        assert client.apply(created.game_id, token, 1, action_id=0).version == 2
    raw.close()


def test_calls_over_the_in_flight_cap_are_refused_at_once(own_redis: LocalRedis) -> None:
    """Backpressure: with Redis stalled and the cap at 4 calls in flight, the
    calls beyond it are refused within a fraction of a second with
    RESOURCE_EXHAUSTED (ERROR_REASON_OVERLOADED); the process recovers."""
    raw = redis.Redis.from_url(own_redis.url)
    saved = LIMITS.max_calls
    try:
        with game_server(SPEC, own_redis.url, max_calls_in_flight=4) as server:
            client = Client(server, SPEC)
            created = client.new_game(2, seed=7)
            raw.execute_command("CLIENT", "PAUSE", "1500", "ALL")
            outcomes: Counter[str] = Counter()
            refused_after: list[float] = []
            started = time.monotonic()

            def read() -> None:
                try:
                    client.stub.GetState(
                        client.m.GetStateRequest(game_id=created.game_id), timeout=10
                    )
                    outcomes["OK"] += 1
                except grpc.RpcError as error:
                    outcomes[error.code().name] += 1
                    if error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED:
                        assert error_reason(error) == "ERROR_REASON_OVERLOADED"
                        refused_after.append(time.monotonic() - started)

            threads = [threading.Thread(target=read) for _ in range(24)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(15)
            assert outcomes["RESOURCE_EXHAUSTED"] >= 16, outcomes
            assert outcomes["RESOURCE_EXHAUSTED"] + outcomes["OK"] == 24, outcomes
            assert max(refused_after) < 1.0, "refused at once, not after the stall"
            assert client.state(created.game_id).version == 1
    finally:
        LIMITS.max_calls = saved
        raw.close()


def test_health_watches_do_not_starve_health_checks(redis_server_url: str) -> None:
    """Many open health Watch streams (anyone may open them) leave health Check
    answering at once, so readiness probes keep working."""
    with game_server(SPEC, redis_server_url) as server, server.channel() as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        watches = [
            stub.Watch(health_pb2.HealthCheckRequest(service=SPEC.service_name)) for _ in range(32)
        ]
        for watch in watches:
            assert next(watch).status == health_pb2.HealthCheckResponse.SERVING
        reply = stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=2)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
        for watch in watches:
            watch.cancel()
