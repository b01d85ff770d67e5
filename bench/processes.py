"""Real processes for fault tests: a Redis that can be killed and restarted with
its AOF, and game service processes that can be SIGKILLed and started again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.core.redis_server import find_redis_binary, free_port, port_is_free

ROOT = Path(__file__).resolve().parents[1]
SERVING = health_pb2.HealthCheckResponse.SERVING


@dataclass
class DurableRedis:
    """A Redis with AOF (fsync always) on a fixed port and directory, so a
    killed server restarts with every acknowledged write."""

    port: int
    workdir: Path
    process: subprocess.Popen[bytes] | None = None
    extra: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = find_redis_binary()
        assert binary is not None, "no redis-server for the fault tests"
        args = [
            binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.workdir),
            "--appendonly", "yes", "--appendfsync", "always", "--save", "",
            "--daemonize", "no", *self.extra,
        ]  # fmt: skip
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while port_is_free(self.port):
            assert self.process.poll() is None, "redis-server exited"
            assert time.monotonic() < deadline, "redis-server did not listen"
            time.sleep(0.02)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no final save; only the AOF survives."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.process = None


@contextmanager
def durable_redis() -> Iterator[DurableRedis]:
    server = DurableRedis(free_port(), Path(tempfile.mkdtemp(prefix="roost-aof-")))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@dataclass
class ServiceProcess:
    """``python -m services.<game>`` on a fixed port, its output in a file."""

    module: str
    service_name: str
    port: int
    env: dict[str, str]
    log_path: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self, expect: int = SERVING) -> None:
        """Start the process and wait until its health reads ``expect``."""
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", self.module], env=self.env, cwd=ROOT,
                stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
        wait_health(self.address, self.service_name, expect, timeout=30)

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def terminate(self, timeout: float = 20) -> int:
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout)

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")


@contextmanager
def service_process(
    module: str, service_name: str, redis_url: str, tmp: Path, expect: int = SERVING, **env: str
) -> Iterator[ServiceProcess]:
    """A started service process (health ``expect``), killed on the way out."""
    port = free_port()
    environment = {
        **os.environ, "REDIS_URL": redis_url, "PORT": str(port), "METRICS_PORT": "0",
        "LOG_LEVEL": "info", "GRACE_SECONDS": "5", **env,
    }  # fmt: skip
    service = ServiceProcess(module, service_name, port, environment, tmp / f"{module}.log")
    service.start(expect)
    try:
        yield service
    finally:
        if service.process is not None and service.process.poll() is None:
            service.process.kill()
            service.process.wait()


def health_status(address: str, service: str = "") -> int | None:
    """The health status of ``service``, None when the server does not answer."""
    with grpc.insecure_channel(address) as channel:
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=service), timeout=1
            )
        except grpc.RpcError:
            return None
    return reply.status


def wait_health(address: str, service: str, status: int, timeout: float = 15) -> float:
    """Wait until ``service`` reports ``status``; returns the seconds it took."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if health_status(address, service) == status:
            return time.monotonic() - started
        time.sleep(0.05)
    raise AssertionError(f"{service or 'the server'} at {address} never reported {status}")
