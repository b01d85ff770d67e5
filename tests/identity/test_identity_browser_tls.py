"""TLS on the browser port from the gRPC port's mounted certificate (TLS_CERT_FILE /
TLS_KEY_FILE, docs/DEPLOY.md "Transport security"): with the pair set, the Connect
port serves HTTPS only, offering ALPN h2 and http/1.1, and a plaintext HTTP request
is never answered; a renewed pair is served without a restart. The self-signed
pair is the one the gRPC TLS test makes."""

from __future__ import annotations

import json
import os
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from services.core.redis_server import free_port
from services.registry import by_name
from tests.identity.test_identity_tls import self_signed

pytestmark = pytest.mark.service
ROOT = Path(__file__).resolve().parents[2]
HEALTH_CHECK = "/grpc.health.v1.Health/Check"


def _connect_check(port: int, context: ssl.SSLContext) -> dict[str, object]:
    """A Connect unary call (JSON) of the health Check over HTTPS."""
    request = urllib.request.Request(
        f"https://localhost:{port}{HEALTH_CHECK}",
        data=b"{}",
        method="POST",
        headers={"content-type": "application/json", "connect-protocol-version": "1"},
    )
    with urllib.request.urlopen(request, timeout=5, context=context) as reply:
        assert reply.status == 200
        return json.loads(reply.read())


def _served_certificate(port: int) -> bytes:
    """The certificate (DER) the port presents to a new connection."""
    probe = ssl.create_default_context()
    probe.check_hostname = False
    probe.verify_mode = ssl.CERT_NONE
    with (
        socket.create_connection(("127.0.0.1", port), timeout=5) as raw,
        probe.wrap_socket(raw, server_hostname="localhost") as tls,
    ):
        der = tls.getpeercert(binary_form=True)
    assert der is not None
    return der


def test_the_browser_port_serves_connect_over_https_only_from_the_mounted_certificate(
    redis_server_url: str, tmp_path: Path
) -> None:
    cert_file, key_file = self_signed(tmp_path)
    port, connect_port = free_port(), free_port()
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "METRICS_PORT": "0",
           "CONNECT_PORT": str(connect_port), "LOG_LEVEL": "warning",
           "REDIS_URL": redis_server_url,
           "TLS_CERT_FILE": str(cert_file), "TLS_KEY_FILE": str(key_file)}  # fmt: skip
    entry = by_name("undertheleaves")
    process = subprocess.Popen([sys.executable, "-m", entry.module], env=env, cwd=ROOT)
    context = ssl.create_default_context(cafile=str(cert_file))
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                reply = _connect_check(connect_port, context)
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.1)  # waiting for the process to listen
        assert reply == {"status": "SERVING"}

        # ALPN: HTTP/2 for a client that offers it, HTTP/1.1 for one that does not.
        for offered, chosen in ((["h2", "http/1.1"], "h2"), (["http/1.1"], "http/1.1")):
            alpn = ssl.create_default_context(cafile=str(cert_file))
            alpn.set_alpn_protocols(offered)
            with (
                socket.create_connection(("127.0.0.1", connect_port), timeout=5) as raw,
                alpn.wrap_socket(raw, server_hostname="localhost") as tls,
            ):
                assert tls.selected_alpn_protocol() == chosen

        # A renewed pair (cert-manager rewrites the Secret's files in place) is served to
        # the next connection without a restart.
        old = _served_certificate(connect_port)
        renewed_cert, _ = self_signed(tmp_path)  # a new key and certificate, same paths
        later = time.time_ns() + 2_000_000_000
        for path in (renewed_cert, key_file):
            os.utime(path, ns=(later, later))
        new = _served_certificate(connect_port)
        assert new != old
        assert new == ssl.PEM_cert_to_DER_cert(renewed_cert.read_text())
        assert _connect_check(connect_port, ssl.create_default_context(cafile=str(renewed_cert)))

        # Plain HTTP on the same port: the TLS handshake fails, nothing is served.
        with socket.create_connection(("127.0.0.1", connect_port), timeout=5) as plain:
            plain.sendall(
                f"POST {HEALTH_CHECK} HTTP/1.1\r\nHost: localhost\r\n"
                "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}".encode()
            )
            answer = b""
            try:
                while chunk := plain.recv(4096):
                    answer += chunk
            except (ConnectionResetError, TimeoutError):
                pass
        assert not answer.startswith(b"HTTP/")
        assert b"SERVING" not in answer
    finally:
        process.terminate()
        process.wait(timeout=20)
