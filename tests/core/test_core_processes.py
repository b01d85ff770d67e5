"""Service processes as they run in production and under ``make run``.

Real subprocesses: ``python -m services.undertheleaves`` and the launcher.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator

import grpc
import pytest
import redis
from grpc_health.v1 import health_pb2, health_pb2_grpc
from roost.common.v1 import common_pb2
from roost.undertheleaves.v1 import service_pb2, service_pb2_grpc

from services.core.redis_server import free_port
from services.core.store import game_key
from services.registry import SERVICES

# Service and launcher processes: left out of make test-fast.
pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _wait_serving(address: str, service: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    with grpc.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            try:
                reply = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=1)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError:
                pass
            time.sleep(0.1)
    raise AssertionError(f"{service} at {address} never became SERVING")


@pytest.fixture
def utl_process(redis_server_url: str) -> Iterator[tuple[subprocess.Popen[str], int, int]]:
    port, metrics = free_port(), free_port()
    env = {**os.environ, "REDIS_URL": redis_server_url, "PORT": str(port),
           "METRICS_PORT": str(metrics), "CONNECT_PORT": "off", "LOG_LEVEL": "info",
           "GRACE_SECONDS": "3"}  # fmt: skip
    process = subprocess.Popen(
        [sys.executable, "-m", "services.undertheleaves"],
        env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        _wait_serving(f"127.0.0.1:{port}", "roost.undertheleaves.v1.UnderTheLeaves")
        yield process, port, metrics
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_service_process_logs_metrics_tokens_and_drains(
    utl_process: tuple[subprocess.Popen[str], int, int], redis_server_url: str
) -> None:
    """Bootstrap: JSON logs with game id, Prometheus metrics, hashed tokens, SIGTERM drain."""
    process, port, metrics_port = utl_process
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = service_pb2_grpc.UnderTheLeavesStub(channel)
        created = stub.NewGame(
            service_pb2.NewGameRequest(common=common_pb2.CommonOptions(players=2, seed=1))
        )
        with pytest.raises(grpc.RpcError):
            stub.GetState(service_pb2.GetStateRequest(game_id="f" * 24))
    stored = redis.Redis.from_url(redis_server_url).hgetall(game_key(created.game_id))
    blob = b"".join(stored.values())
    for credential in created.credentials:
        assert credential.token.encode() not in blob, "tokens are stored only as hashes"
    text = urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics").read().decode()
    assert 'roost_rpcs_total{code="OK",method="NewGame",service="game"}' in text
    assert 'roost_rpcs_total{code="NOT_FOUND",method="GetState",service="game"}' in text
    assert 'roost_games_created_total{game="undertheleaves"}' in text
    assert "roost_rpc_latency_seconds_bucket" in text
    process.send_signal(signal.SIGTERM)
    output, _ = process.communicate(timeout=15)
    assert process.returncode == 0
    lines = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    created_lines = [line for line in lines if line.get("event") == "game_created"]
    assert created_lines and created_lines[0]["game_id"] == created.game_id
    assert any(line.get("event") == "draining" for line in lines)
    assert lines[-1]["event"] == "stopped"


def test_launcher_starts_everything_and_stops_on_ctrl_c(tmp_path) -> None:
    """`make run`: an embedded Redis plus every implemented service; Ctrl-C stops all."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    implemented = [s for s in SERVICES if s.implemented()]
    ports = {s.name: free_port() for s in implemented}
    for name, port in ports.items():
        env[f"PORT_{name.upper()}"] = str(port)
    process = subprocess.Popen(
        [sys.executable, "-m", "services.launcher"],
        env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    seen: list[str] = []
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            seen.append(line)
            if "Roost is running" in line:
                break
        text = "".join(seen)
        assert "Roost is running" in text, text
        assert "redis" in text and "embedded" in text
        for entry in implemented:
            assert f"127.0.0.1:{ports[entry.name]}" in text
            _wait_serving(f"127.0.0.1:{ports[entry.name]}", entry.service_name)
        process.send_signal(signal.SIGINT)
        rest, _ = process.communicate(timeout=40)
        assert process.returncode == 0, rest
        assert "stopped." in rest
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
