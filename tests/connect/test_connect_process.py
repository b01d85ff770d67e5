"""A game service process as it runs in production (``python -m
services.undertheleaves``): its browser port answers next to gRPC, and SIGTERM
stops both cleanly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from services.core.redis_server import free_port
from tests.connect.connect_support import raw
from tests.matchmaking.stack import wait_healthy

ROOT = Path(__file__).resolve().parents[2]
SERVICE = "roost.undertheleaves.v1.UnderTheLeaves"


def test_the_process_serves_its_browser_port_and_drains_it(redis_server_url: str) -> None:
    port, http = free_port(), free_port()
    env = {**os.environ, "REDIS_URL": redis_server_url, "HOST": "127.0.0.1", "PORT": str(port),
           "METRICS_PORT": "0", "CONNECT_PORT": str(http), "LOG_LEVEL": "info",
           "GRACE_SECONDS": "1"}  # fmt: skip
    process = subprocess.Popen(
        [sys.executable, "-m", "services.undertheleaves"],
        env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        wait_healthy(f"127.0.0.1:{port}", SERVICE, process)
        reply = raw(
            f"http://127.0.0.1:{http}/{SERVICE}/GetCatalogue",
            body=b"{}",
            headers={"content-type": "application/json", "origin": "http://localhost:5173"},
        )
        assert reply.status == 200
        assert json.loads(reply.body)["version"]
        # The default CORS origins: pages served from this machine.
        assert reply.headers["access-control-allow-origin"] == "http://localhost:5173"
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, output  # stopped within communicate()'s deadline
    events = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    listening = next(e for e in events if e["event"] == "listening")
    assert listening["connect_port"] == http
    assert events[-1]["event"] == "stopped"
