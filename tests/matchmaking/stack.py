"""Real processes for the matchmaking and client tests.

Game services and matchmakers run as subprocesses (``python -m services.<name>``)
on free loopback ports against a real Redis, exactly as deployed. The
matchmakers get their own Redis database so their keys never meet those of
other test folders.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import redis
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.core.redis_server import free_port
from services.registry import GAMES, ServiceEntry, by_name

ROOT = Path(__file__).resolve().parents[2]

# Fast matchmaker settings for tests: short ticks, short heartbeat timeout, a
# rating window wide enough that fresh and rated players always match.
FAST_MM = {
    "MM_TICK_MS": "50",
    "MM_HEARTBEAT_TIMEOUT_MS": "2000",
    "MM_BOT_FILL_AFTER_MS": "1500",
    "MM_WINDOW_BASE": "1000",
    "MM_LEASE_MS": "1500",
    "MM_MATCH_DEADLINE_MS": "10000",
}


def implemented_games() -> list[ServiceEntry]:
    """Games whose service exists (``services/<game>/__main__.py``) and whose stubs import."""
    out = []
    for entry in GAMES:
        if not (ROOT / "services" / entry.name / "__main__.py").exists():
            continue
        package = entry.service_name.rsplit(".", 1)[0]
        try:
            __import__(f"{package}.service_pb2")
        except ImportError:
            continue
        out.append(entry)
    return out


def with_db(url: str, db: int) -> str:
    """``url`` with its database number replaced."""
    base = url.rsplit("/", 1)[0] if url.count("/") >= 3 else url
    return f"{base}/{db}"


def wait_healthy(address: str, service: str, process: subprocess.Popen[bytes], timeout: float = 20):
    """Wait until ``service`` at ``address`` answers SERVING (or the process dies)."""
    deadline = time.monotonic() + timeout
    with grpc.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"{service} exited with {process.returncode}")
            try:
                reply = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=1)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError:
                time.sleep(0.05)
    raise RuntimeError(f"{service} at {address} did not become healthy")


@dataclass
class Proc:
    """One running service process."""

    name: str
    address: str
    process: subprocess.Popen[bytes]
    env: dict[str, str]

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """Stop it (SIGKILL simulates a crash)."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start(entry: ServiceEntry, env: Mapping[str, str], port: int | None = None) -> Proc:
    """Start ``python -m <module>`` on a free port and wait until it is healthy."""
    port = port or free_port()
    full_env = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "METRICS_PORT": "0",
        "CONNECT_PORT": "off",
        "LOG_LEVEL": "warning",
        "GRACE_SECONDS": "1",
        **env,
    }
    process = subprocess.Popen(
        [sys.executable, "-m", entry.module], env=full_env, cwd=ROOT, stdout=subprocess.DEVNULL
    )
    address = f"127.0.0.1:{port}"
    try:
        wait_healthy(address, entry.service_name, process)
    except Exception:
        process.kill()
        process.wait()
        raise
    return Proc(entry.name, address, process, full_env)


@dataclass
class Stack:
    """Game services and matchmakers over one Redis."""

    redis_url: str
    mm_redis_url: str
    games: dict[str, Proc] = field(default_factory=dict)
    matchmakers: list[Proc] = field(default_factory=list)

    def game_env(self) -> dict[str, str]:
        """GAME_ADDR_<NAME> of every running game service."""
        return {f"GAME_ADDR_{name.upper()}": p.address for name, p in self.games.items()}

    def start_matchmaker(self, **overrides: str) -> Proc:
        """One more matchmaker process on this stack."""
        env = {**FAST_MM, **self.game_env(), "REDIS_URL": self.mm_redis_url, **overrides}
        proc = start(by_name("matchmaking"), env)
        self.matchmakers.append(proc)
        return proc

    def client_env(self) -> dict[str, str]:
        """Environment for a client process talking to this stack."""
        env = self.game_env()
        if self.matchmakers:
            env["MATCHMAKER_ADDR"] = self.matchmakers[0].address
        return env

    def stop(self) -> None:
        """Stop everything."""
        for proc in [*self.matchmakers, *self.games.values()]:
            proc.stop()


@contextmanager
def stack(
    redis_url: str, games: list[str], matchmakers: int, mm_db: int, **mm_overrides: str
) -> Iterator[Stack]:
    """Start the game services named and ``matchmakers`` matchmakers (Redis db ``mm_db``)."""
    mm_url = with_db(redis_url, mm_db)
    redis.Redis.from_url(mm_url).flushdb()
    running = Stack(redis_url, mm_url)
    try:
        for name in games:
            running.games[name] = start(by_name(name), {"REDIS_URL": redis_url})
        for _ in range(matchmakers):
            running.start_matchmaker(**mm_overrides)
        yield running
    finally:
        running.stop()


@contextmanager
def redis_cluster(masters: int = 3) -> Iterator[str]:
    """A throwaway Redis Cluster on free loopback ports; yields a URL of one node.

    Raises ``LookupError`` when no server or cli binary is installed.
    """
    import shutil
    import tempfile

    from services.core.redis_server import find_redis_binary

    server = find_redis_binary()
    cli = shutil.which("redis-cli") or shutil.which("valkey-cli")
    if server is None or cli is None:
        raise LookupError("redis-server and redis-cli are needed for a cluster")
    workdir = Path(tempfile.mkdtemp(prefix="roost-cluster-"))
    ports: list[int] = []
    while len(ports) < masters:  # the cluster bus listens on port + 10000
        port = free_port()
        if port < 55000 and port not in ports:
            ports.append(port)
    nodes = []
    try:
        for port in ports:
            node_dir = workdir / str(port)
            node_dir.mkdir()
            nodes.append(
                subprocess.Popen(
                    [
                        server, "--port", str(port), "--bind", "127.0.0.1",
                        "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                        "--save", "", "--appendonly", "no", "--dir", str(node_dir),
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )  # fmt: skip
        for port in ports:
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                try:
                    if redis.Redis(port=port).ping():
                        break
                except redis.ConnectionError:
                    time.sleep(0.05)
        subprocess.run(
            [cli, "--cluster", "create", *[f"127.0.0.1:{p}" for p in ports],
             "--cluster-replicas", "0", "--cluster-yes"],
            check=True, capture_output=True, timeout=30,
        )  # fmt: skip
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            info = redis.Redis(port=ports[0], decode_responses=True).execute_command("CLUSTER INFO")
            state = info.get("cluster_state") if isinstance(info, dict) else str(info)
            if state == "ok" or "cluster_state:ok" in str(state):
                break
            time.sleep(0.1)
        yield f"redis://127.0.0.1:{ports[0]}/0"
    finally:
        for node in nodes:
            node.terminate()
        for node in nodes:
            try:
                node.wait(timeout=10)
            except subprocess.TimeoutExpired:
                node.kill()
        shutil.rmtree(workdir, ignore_errors=True)
