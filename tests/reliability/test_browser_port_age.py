"""The browser port's maximum connection age, as on the gRPC port
(docs/CLIENTS.md, "Watch, and resuming it"): past MAX_CONNECTION_AGE_SECONDS
(±10 %) an HTTP/2 connection gets a GOAWAY (NO_ERROR) while its Watch keeps
running, and is closed after MAX_CONNECTION_AGE_GRACE_SECONDS; an HTTP/1.1
connection streaming a Watch is closed at age + grace. Ages are set to 2 s and
the grace to 1 s here (300 s and 60 s by default)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from roost.undertheleaves.v1 import service_pb2 as pb

from tests.reliability.browser_service import SERVICE, BrowserService, start_service
from tests.reliability.browser_wire import H1, H2, envelope, grpc_web_headers

pytestmark = [pytest.mark.service, pytest.mark.reliability]

DB = 13
WATCH = f"/{SERVICE}/Watch"


@pytest.fixture(scope="module")
def service(
    redis_server_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[BrowserService]:
    log = tmp_path_factory.mktemp("browser-age") / "service.log"
    env = {"MAX_CONNECTION_AGE_SECONDS": "2", "MAX_CONNECTION_AGE_GRACE_SECONDS": "1",
           "BROWSER_IDLE_TIMEOUT_SECONDS": "30"}  # fmt: skip
    running = start_service(redis_server_url, DB, log, env)
    try:
        yield running
    finally:
        assert running.stop(timeout=running.grace + 15) == 0
        assert not running.crashes(), running.crashes()[:5]


def watch_body(service: BrowserService) -> bytes:
    return envelope(pb.WatchRequest(game_id=service.game.game_id).SerializeToString())


def test_an_aged_http2_connection_gets_goaway_then_closes(service: BrowserService) -> None:
    h2 = H2(service.http_port)
    seat = (b"x-seat-token", service.game.tokens[0].encode())
    sid = h2.open(WATCH, grpc_web_headers([seat]))
    h2.send(sid, watch_body(service))
    deadline = time.monotonic() + 30
    while h2.goaway is None and not h2.eof and time.monotonic() < deadline:
        h2.pump(0.2)
    assert h2.goaway is not None and h2.goaway.error_code == 0  # NO_ERROR
    assert h2.goaway.last_stream_id >= sid
    assert h2.streams[sid].reset is None, "the Watch was cut at the GOAWAY, not after the grace"
    while not h2.eof and time.monotonic() < deadline:
        h2.pump(0.2)
    assert h2.eof, "the aged connection was not closed after its grace"
    h2.close()


def test_an_aged_http1_watch_is_closed_after_the_grace(service: BrowserService) -> None:
    h1 = H1(service.http_port, timeout=30)
    seat = (b"x-seat-token", service.game.tokens[0].encode())
    body = watch_body(service)
    h1.send_head(WATCH, [*grpc_web_headers([seat]), (b"content-length", str(len(body)).encode())])
    h1.sock.sendall(body)
    received, deadline = b"", time.monotonic() + 30
    while time.monotonic() < deadline:
        chunk = h1.sock.recv(65536)
        if not chunk:
            break  # closed by the server: the connection outlived age + grace
        received += chunk
    else:
        raise AssertionError("the aged HTTP/1.1 connection was not closed")
    assert received.startswith(b"HTTP/1.1 200"), received[:80]
    assert len(received) > 200, "the Watch sent no event before the close"
    h1.close()
