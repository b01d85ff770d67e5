"""TLS on the gRPC port from a mounted certificate (TLS_CERT_FILE / TLS_KEY_FILE,
docs/DEPLOY.md "Identity and limits"): a self-signed pair made per run."""

from __future__ import annotations

import datetime
import ipaddress
import os
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from grpc_health.v1 import health_pb2, health_pb2_grpc
from roost.matchmaking.v1 import matchmaking_pb2 as pb
from roost.matchmaking.v1 import matchmaking_pb2_grpc as pb_grpc

from services.core.redis_server import free_port
from services.registry import by_name
from tests.matchmaking.stack import FAST_MM, start, with_db

pytestmark = pytest.mark.service
ROOT = Path(__file__).resolve().parents[2]


def self_signed(directory: Path) -> tuple[Path, Path]:
    """A certificate for localhost/127.0.0.1 and its key."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = directory / "tls.crt", directory / "tls.key"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_file, key_file


def test_the_grpc_port_speaks_tls_from_the_mounted_certificate_and_the_matchmaker_uses_it(
    redis_server_url: str, tmp_path: Path
) -> None:
    cert_file, key_file = self_signed(tmp_path)
    port = free_port()
    entry = by_name("undertheleaves")
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "METRICS_PORT": "0",
           "CONNECT_PORT": "off", "LOG_LEVEL": "warning", "REDIS_URL": redis_server_url,
           "TLS_CERT_FILE": str(cert_file), "TLS_KEY_FILE": str(key_file)}  # fmt: skip
    process = subprocess.Popen([sys.executable, "-m", entry.module], env=env, cwd=ROOT)
    credentials = grpc.ssl_channel_credentials(root_certificates=cert_file.read_bytes())
    try:
        with grpc.secure_channel(f"localhost:{port}", credentials) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            deadline = time.monotonic() + 30
            while True:
                try:
                    reply = health.Check(health_pb2.HealthCheckRequest(), timeout=2)
                    break
                except grpc.RpcError:
                    if time.monotonic() > deadline or process.poll() is not None:
                        raise
                    time.sleep(0.1)  # waiting for the process to listen
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
        mm = start(by_name("matchmaking"), {
            **FAST_MM, "REDIS_URL": with_db(redis_server_url, 7),
            "GAME_ADDR_UNDERTHELEAVES": f"127.0.0.1:{port}", "GAME_TLS_CA_FILE": str(cert_file),
        })  # fmt: skip
        try:
            with grpc.insecure_channel(mm.address) as mm_channel:
                stub = pb_grpc.MatchmakerStub(mm_channel)
                seats = [pb.TableSeat(player_id="tls-player"), pb.TableSeat(bot=pb.BOT_KIND_RANDOM)]
                reply = stub.Enqueue(pb.EnqueueRequest(
                    ticket_id=f"tls-{port}", game="undertheleaves",
                    party=[pb.Player(player_id="tls-player")], table=pb.Table(seats=seats),
                ), timeout=20)  # fmt: skip
                assert reply.ticket.status == pb.TICKET_STATUS_ASSIGNED  # made over TLS
        finally:
            mm.stop()
        with grpc.insecure_channel(f"127.0.0.1:{port}") as plain:
            with pytest.raises(grpc.RpcError) as caught:
                health_pb2_grpc.HealthStub(plain).Check(health_pb2.HealthCheckRequest(), timeout=3)
            assert caught.value.code() in {
                grpc.StatusCode.UNAVAILABLE,
                grpc.StatusCode.DEADLINE_EXCEEDED,
            }
    finally:
        process.terminate()
        process.wait(timeout=20)
