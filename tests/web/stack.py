"""The whole local stack for the browser's end-to-end tests, as ``make run`` runs it.

Every implemented service (the games and the matchmaker) runs as its own
process (``python -m services.<name>``, the launcher's command) on free ports:
gRPC, metrics and the browser port (Connect, gRPC-Web), all against the test
session's real Redis. The built web app is served by :class:`~services.webapp.WebServer`
with the ``config.js`` that points the page at those browser ports.
:meth:`Stack.restart` stops a service (SIGTERM: it drains) and starts it again
on the same ports, so a test can check that open pages resume by themselves.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from services.core.redis_server import free_port
from services.launcher import wait_healthy
from services.registry import SERVICES, ServiceEntry
from services.webapp import WEB_DIST, WebServer

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class ServiceProcess:
    """One service's process and the ports it was given."""

    entry: ServiceEntry
    port: int
    metrics_port: int
    browser_port: int
    env: dict[str, str]
    log: Path
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start it and wait until its health check says SERVING."""
        self.launch()
        self.wait_ready()

    def launch(self) -> None:
        """Start the process (not waiting for it)."""
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                [sys.executable, "-m", self.entry.module],
                env=self.env,
                cwd=ROOT,
                stdout=output,
                stderr=subprocess.STDOUT,
            )

    def wait_ready(self) -> None:
        """Wait until its health check says SERVING."""
        if not wait_healthy(self.entry, self.port, timeout=60):
            tail = "\n".join(self.log.read_text(errors="replace").splitlines()[-20:])
            raise RuntimeError(
                f"{self.entry.name} did not become healthy; the end of {self.log}:\n{tail}"
            )

    def stop(self) -> None:
        """SIGTERM (the service drains), then kill after 15 s."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@dataclass
class Stack:
    """Running services and the web app; :attr:`url` is the page's address."""

    services: dict[str, ServiceProcess]
    web: WebServer
    logs: Path
    restarts: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return self.web.url("127.0.0.1")

    def restart(self, name: str) -> None:
        """Stop service ``name`` and start it again on the same ports."""
        service = self.services[name]
        service.stop()
        service.start()
        self.restarts.append(name)


#: Launches of the whole stack before giving up, when a service exits while starting.
LAUNCH_ATTEMPTS = 2


class ServiceExited(RuntimeError):
    """A service process ended before its health check said SERVING."""


def _services(
    redis_url: str, logs: Path, extra_env: Mapping[str, str] | None
) -> dict[str, ServiceProcess]:
    """Every implemented service on fresh free ports (not started)."""
    entries = [e for e in SERVICES if e.implemented()]
    ports = {e.name: (free_port(), free_port(), free_port()) for e in entries}
    addresses = {f"GAME_ADDR_{name.upper()}": f"127.0.0.1:{p[0]}" for name, p in ports.items()}
    services: dict[str, ServiceProcess] = {}
    for entry in entries:
        port, metrics, browser = ports[entry.name]
        env = {
            **os.environ,
            **addresses,
            "REDIS_URL": redis_url,
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "METRICS_PORT": str(metrics),
            "CONNECT_PORT": str(browser),
            "GRACE_SECONDS": "1",
            "LOG_LEVEL": "warning",
            **(extra_env or {}),
        }
        services[entry.name] = ServiceProcess(
            entry, port, metrics, browser, env, logs / f"{entry.name}.log"
        )
    return services


def _launch_all(services: dict[str, ServiceProcess]) -> None:
    """Start every service and wait until all are healthy; :class:`ServiceExited`
    when one ended while starting (the others are left running for the caller)."""
    for service in services.values():
        service.launch()
    for service in services.values():
        try:
            service.wait_ready()
        except RuntimeError as error:
            if service.process is not None and service.process.poll() is not None:
                raise ServiceExited(str(error)) from error
            raise


@contextmanager
def running_stack(
    redis_url: str, logs: Path, extra_env: Mapping[str, str] | None = None
) -> Iterator[Stack]:
    """Every implemented service and the web app (``web/dist`` must be built).

    A service that exits while starting (a port taken between choosing it and
    binding it, say) gets the whole stack launched again on new ports, up to
    :data:`LAUNCH_ATTEMPTS` times: the services name each other's ports, so one
    cannot move alone."""
    logs.mkdir(parents=True, exist_ok=True)
    web: WebServer | None = None
    services: dict[str, ServiceProcess] = {}
    try:
        for attempt in range(1, LAUNCH_ATTEMPTS + 1):
            services = _services(redis_url, logs, extra_env)
            try:
                _launch_all(services)
                break
            except ServiceExited:
                for service in services.values():
                    service.stop()
                if attempt == LAUNCH_ATTEMPTS:
                    raise
        web = WebServer(WEB_DIST, {n: s.browser_port for n, s in services.items()}, "127.0.0.1", 0)
        yield Stack(services, web, logs)
    finally:
        if web is not None:
            web.stop()
        for service in services.values():
            service.stop()
