"""``make run``'s launcher serves the web app: it prints the app's address, which
answers ``index.html`` and a ``config.js`` naming every service's browser port;
when it cannot serve it, it says why in one line and runs the services anyway.

Real processes: the launcher, its embedded Redis and every service.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from services.core.config import CONNECT_PORT_OFFSET
from services.core.redis_server import free_port
from services.registry import SERVICES
from services.webapp import WEB_DIST, missing_build
from tests.web.node import node_ok

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def launch(env_overrides: dict[str, str]) -> tuple[subprocess.Popen[str], str, dict[str, int]]:
    """Start the launcher on free ports; return it, what it printed until it was
    running, and each service's browser port."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    browsers: dict[str, int] = {}
    for service in (s for s in SERVICES if s.implemented()):
        while True:  # a port whose browser port (+2000) and metrics port (+1000) are free too
            port = free_port()
            if port + CONNECT_PORT_OFFSET <= 65535:
                break
        env[f"PORT_{service.name.upper()}"] = str(port)
        browsers[service.name] = port + CONNECT_PORT_OFFSET
    env.update(env_overrides)
    process = subprocess.Popen(
        [sys.executable, "-m", "services.launcher"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group: stop() can end all it started
    )
    assert process.stdout is not None
    seen: list[str] = []
    for line in process.stdout:
        seen.append(line)
        if "Roost is running" in line:
            break
    return process, "".join(seen), browsers


def stop(process: subprocess.Popen[str]) -> None:
    """Ctrl-C, as a person stops ``make run``; if it has not stopped in a minute, end its
    whole process group (its Redis and services too) so that nothing outlives the test."""
    process.send_signal(signal.SIGINT)
    try:
        assert process.wait(timeout=60) == 0
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        raise AssertionError("the launcher did not stop within a minute of Ctrl-C") from None


@pytest.fixture(scope="module")
def built_app() -> None:
    """``make web`` where Node.js can build it; skipped when there is no build."""
    if node_ok():
        result = subprocess.run(["make", "web"], cwd=ROOT, capture_output=True, text=True)
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    why = missing_build()
    if why is not None:
        pytest.skip(why)


def test_the_launcher_serves_the_built_app_and_prints_its_address(built_app: None) -> None:
    web_port = free_port()
    process, printed, browsers = launch({"PORT_WEB": str(web_port)})
    try:
        assert f"web             http://localhost:{web_port}/" in printed, printed
        base = f"http://127.0.0.1:{web_port}"
        with urllib.request.urlopen(f"{base}/", timeout=5) as reply:
            assert reply.headers["Content-Type"] == "text/html; charset=utf-8"
            assert reply.read() == (WEB_DIST / "index.html").read_bytes()
        with urllib.request.urlopen(f"{base}/config.js", timeout=5) as reply:
            script = reply.read().decode()
        shown = {name: int(port) for name, port in re.findall(r'"(\w+)": (\d+)', script)}
        served = {name: port for name, port in browsers.items() if f" browser :{port} " in printed}
        assert served and shown == served, (shown, printed)
    finally:
        stop(process)


def test_the_launcher_says_when_the_app_is_not_served() -> None:
    process, printed, _browsers = launch({"PORT_WEB": "not-a-port"})
    try:
        assert "web             skipped: PORT_WEB='not-a-port' is not a port number" in printed
    finally:
        stop(process)
