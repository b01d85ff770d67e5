"""``make run``: the whole local stack with one command.

Starts Redis (a local ``redis-server``/valkey binary unless ``REDIS_URL`` is
set), then every implemented service on its default port (gRPC; metrics on
port + 1000; Connect and gRPC-Web for browsers on port + 2000), prints where each
listens, and on Ctrl-C (or SIGTERM) stops everything cleanly: services first
(they drain), then Redis.

When the web app is built (``web/dist``; ``make run`` builds it first when
Node.js is there), it is served on port 8080 (``PORT_WEB``; ``off`` for none)
with a ``config.js`` pointing the page at every service's browser port: the
launcher prints its address (``web  http://localhost:8080/``). See
:mod:`services.webapp`.

The services' JSON log lines go to one file per service in ``.roost/logs/``
(``ROOST_LOG_DIR`` to choose another directory), so a terminal where
``roost play`` draws stays readable; ``--log-to-terminal`` (or
``ROOST_LOG_TO_TERMINAL=1``) sends them to this terminal instead.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType
from typing import IO

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.core.config import CONNECT_PORT_OFFSET
from services.core.redis_server import LocalRedis, port_is_free, start_local_redis
from services.registry import SERVICES, ServiceEntry
from services.webapp import DEFAULT_WEB_PORT, WEB_DIST, WebServer, missing_build

REDIS_DEFAULT_PORT = 6379
DEFAULT_LOG_DIR = ".roost/logs"
#: The guest signing key of a local run (services/core/identity/guest.py).
GUEST_KEY_FILE = ".roost/guest_key.pem"


def log_dir(argv: list[str]) -> Path | None:
    """Where the services log (None: to this terminal)."""
    to_terminal = os.environ.get("ROOST_LOG_TO_TERMINAL", "").strip().lower()
    if "--log-to-terminal" in argv or to_terminal in ("1", "true", "yes"):
        return None
    return Path(os.environ.get("ROOST_LOG_DIR") or DEFAULT_LOG_DIR)


def wait_healthy(entry: ServiceEntry, port: int, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            try:
                reply = stub.Check(
                    health_pb2.HealthCheckRequest(service=entry.service_name), timeout=1
                )
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return True
            except grpc.RpcError:
                time.sleep(0.2)
    return False


def _start_redis() -> tuple[str, LocalRedis | None]:
    url = os.environ.get("REDIS_URL")
    if url:
        print(f"redis           using REDIS_URL={url}")
        return url, None
    port = REDIS_DEFAULT_PORT if port_is_free(REDIS_DEFAULT_PORT) else None
    local = start_local_redis(port)
    print(f"redis           127.0.0.1:{local.port}  (embedded, pid {local.process.pid})")
    return local.url, local


def _say(text: str) -> None:
    """Print a status line; a closed stdout must not stop the shutdown."""
    with contextlib.suppress(BrokenPipeError, OSError):
        print(text, flush=True)


def _port(entry: ServiceEntry) -> int:
    """The entry's port: ``PORT_<NAME>`` if set, else its default."""
    return int(os.environ.get(f"PORT_{entry.name.upper()}", entry.default_port))


def _browser_port(port: int) -> int | None:
    """The service's browser port (Connect, gRPC-Web): ``port`` + 2000, or None
    (not served) when that is taken or no port number."""
    browser = port + CONNECT_PORT_OFFSET
    return browser if browser <= 65535 and port_is_free(browser) else None


def _start_web(browsers: dict[str, int | None]) -> WebServer | None:
    """Serve the built web app (see :mod:`services.webapp`) and print its
    address, or print in one line why it is not served."""
    raw = os.environ.get("PORT_WEB", str(DEFAULT_WEB_PORT)).strip().lower()
    if raw == "off":
        return None
    if not raw.isdigit():
        print(f"web             skipped: PORT_WEB={raw!r} is not a port number", flush=True)
        return None
    why = missing_build(WEB_DIST)
    ports = {name: port for name, port in browsers.items() if port is not None}
    if why is None and not ports:
        why = "no service has a browser port"
    if why is None and not port_is_free(int(raw)):
        why = f"port {raw} is in use (PORT_WEB to choose another)"
    if why is not None:
        print(f"web             skipped: {why}", flush=True)
        return None
    host = os.environ.get("HOST", "[::]")
    try:
        server = WebServer(WEB_DIST, ports, host, int(raw))
    except OSError as exc:
        if host != "[::]":
            print(f"web             skipped: cannot listen on {host}:{raw}: {exc}", flush=True)
            return None
        try:  # a machine without IPv6: every IPv4 address instead
            server = WebServer(WEB_DIST, ports, "0.0.0.0", int(raw))
        except OSError as exc4:
            print(f"web             skipped: cannot listen on port {raw}: {exc4}", flush=True)
            return None
    print(f"web             {server.url()}  (the web app)", flush=True)
    return server


def main(argv: list[str] | None = None) -> int:
    """Run the stack until interrupted; exit status 0 on a clean stop."""
    args = sys.argv[1:] if argv is None else argv
    logs = log_dir(args)
    if logs is not None:
        try:
            logs.mkdir(parents=True, exist_ok=True)
            if not os.environ.get("ROOST_LOG_DIR"):
                ignore = Path(DEFAULT_LOG_DIR).parent / ".gitignore"
                if not ignore.exists():
                    ignore.write_text("# Local logs of `make run`; never committed.\n*\n")
        except OSError as exc:
            print(f"error: cannot create the log directory {logs}: {exc}", file=sys.stderr)
            return 2
    entries = [e for e in SERVICES if e.implemented()]
    busy = [
        e
        for e in entries
        if not port_is_free(int(os.environ.get(f"PORT_{e.name.upper()}", e.default_port)))
    ]
    if busy:
        for e in busy:
            print(f"error: port {_port(e)} for {e.name} is in use", file=sys.stderr)
        return 2
    url, local = _start_redis()
    children: list[tuple[ServiceEntry, subprocess.Popen[bytes]]] = []
    browsers: dict[str, int | None] = {}
    log_files: list[IO[bytes]] = []
    web: WebServer | None = None
    stopping = False

    def request_stop(_signum: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    addresses = {f"GAME_ADDR_{e.name.upper()}": f"127.0.0.1:{_port(e)}" for e in entries}
    try:
        for entry in entries:
            port = _port(entry)
            browsers[entry.name] = browser = _browser_port(port)
            env = {
                **os.environ,
                **addresses,
                "REDIS_URL": url,
                "PORT": str(port),
                "METRICS_PORT": str(port + 1000),
                "CONNECT_PORT": str(browser) if browser else "off",
                "GRACE_SECONDS": os.environ.get("GRACE_SECONDS", "2"),
                # Guests: every service signs/verifies with one key, made on first start.
                "GUEST_KEY_FILE": os.environ.get("GUEST_KEY_FILE", GUEST_KEY_FILE),
            }
            output: IO[bytes] | None = None
            if logs is not None:
                output = open(logs / f"{entry.name}.log", "ab")  # noqa: SIM115 (closed below)
                log_files.append(output)
            process = subprocess.Popen(
                [sys.executable, "-m", entry.module],
                env=env,
                stdout=output,
                stderr=subprocess.STDOUT if output is not None else None,
            )
            children.append((entry, process))
        for entry, process in children:
            port = _port(entry)
            healthy = wait_healthy(entry, port)
            state = "ready" if healthy else f"NOT READY (exit {process.poll()})"
            browser = browsers[entry.name]
            print(
                f"{entry.name:<15} 127.0.0.1:{port}  {entry.service_name}  "
                f"metrics :{port + 1000}  browser {f':{browser}' if browser else 'off'}  {state}",
                flush=True,
            )
        web = _start_web(browsers)
        if logs is not None:
            print(
                f"logs            {logs}/<service>.log  (--log-to-terminal or "
                "ROOST_LOG_TO_TERMINAL=1 to see them here)",
                flush=True,
            )
        print("Roost is running. Press Ctrl-C to stop.", flush=True)
        while not stopping:
            for entry, process in children:
                if process.poll() is not None:
                    print(f"{entry.name} exited with status {process.returncode}", file=sys.stderr)
                    stopping = True
            time.sleep(0.2)
    finally:
        if web is not None:
            web.stop()
        for _entry, process in children:  # first, even if stdout is gone
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        _say("stopping...")
        for _entry, process in children:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
        if local is not None:
            local.stop()
        for handle in log_files:
            handle.close()
        _say("stopped.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
