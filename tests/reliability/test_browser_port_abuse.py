"""The browser port under abuse, through real sockets (docs/RELIABILITY.md,
"The browser port"; docs/CLIENTS.md, "The browser port").

One service process as deployed, its limits set small so that every case is
cheap (``MAX_MESSAGE_BYTES`` 1 MiB, body timeout 5 s, idle timeout 2 s, 300
connections). Each case is written byte by byte (HTTP/1.1 on a socket, HTTP/2
with ``h2``), and afterwards the stored state is what it was and the log holds
no trace of an unhandled failure. The process is then stopped with SIGTERM and
must exit within its grace (after 3,000 reset streams among other things).
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from roost.undertheleaves.v1 import service_pb2 as pb

from services.core.redis_server import free_port
from tests.reliability.browser_service import SERVICE, BrowserService, start_service
from tests.reliability.browser_wire import (
    H1,
    H2,
    H1Reply,
    connect_headers,
    envelope,
    grpc_web_headers,
    h1_status,
    reason_of_connect_json,
)

pytestmark = [pytest.mark.service, pytest.mark.reliability]

LIMIT = 1024 * 1024
METRICS_PORT = free_port()
DB = 12
ENV = {
    "MAX_MESSAGE_BYTES": str(LIMIT),
    "BROWSER_BODY_TIMEOUT_SECONDS": "5",
    "BROWSER_IDLE_TIMEOUT_SECONDS": "2",
    "BROWSER_MAX_CONNECTIONS": "300",
    "BROWSER_BACKLOG": "2048",
    "METRICS_PORT": str(METRICS_PORT),
}
GET_STATE = f"/{SERVICE}/GetState"
WATCH = f"/{SERVICE}/Watch"


@pytest.fixture(scope="module")
def service(
    redis_server_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[BrowserService]:
    log = tmp_path_factory.mktemp("browser") / "service.log"
    running = start_service(redis_server_url, DB, log, ENV)
    try:
        yield running
    finally:
        code = running.stop(timeout=running.grace + 15)
        assert code == 0, f"SIGTERM: exit {code}; log tail: {running.log_text()[-2000:]}"
        assert '"stopped"' in running.log_text()
        assert not running.crashes(), running.crashes()[:5]


@pytest.fixture
def unchanged(service: BrowserService) -> Iterator[BrowserService]:
    """The case leaves the stored state and the log clean."""
    before = service.snapshot()
    yield service
    assert service.snapshot() == before, "the stored state changed"
    assert not service.crashes(), service.crashes()[:5]


def get_state(service: BrowserService) -> bytes:
    return pb.GetStateRequest(game_id=service.game.game_id).SerializeToString()


def seat(service: BrowserService) -> tuple[bytes, bytes]:
    return (b"x-seat-token", service.game.tokens[0].encode())


def good(service: BrowserService) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The headers and body of a valid gRPC-Web GetState as a seat."""
    return grpc_web_headers([seat(service)]), envelope(get_state(service))


def connect_reason(reply: H1Reply) -> tuple[int, str]:
    return reply.status, reason_of_connect_json(reply.body)[1]


def test_a_header_that_is_not_utf8_is_invalid_argument(unchanged: BrowserService) -> None:
    """Any header, any protocol: INVALID_ARGUMENT (HTTP 400 over Connect), no traceback."""
    port = unchanged.http_port
    body = json.dumps({"gameId": unchanged.game.game_id}).encode()
    h1 = H1(port)
    reply = h1.request(GET_STATE, connect_headers([(b"x-note", b"caf\xe9\xff")]), body)
    assert reply.status == 400
    assert reason_of_connect_json(reply.body) == ("invalid_argument", "ERROR_REASON_INVALID_HEADER")
    reply = h1.request(GET_STATE, grpc_web_headers([(b"x-seat-token", b"\xc3\x28")]),
                       envelope(get_state(unchanged)))  # fmt: skip
    assert h1_status(reply) == ("3", "ERROR_REASON_INVALID_HEADER")
    # The connection was kept: a good request on it is answered.
    reply = h1.request(GET_STATE, connect_headers(), body)
    assert reply.status == 200, reply.body
    h1.close()
    h2 = H2(port)
    sid = h2.request(GET_STATE, [*connect_headers(), (b"x-note", b"\xfe\xfe")], body)
    stream = h2.wait(sid)
    assert stream.headers[":status"] == "400"
    assert reason_of_connect_json(stream.data)[1] == "ERROR_REASON_INVALID_HEADER"
    h2.close()


def test_grpc_over_http1_is_unimplemented_with_a_status(unchanged: BrowserService) -> None:
    h1 = H1(unchanged.http_port)
    headers = [(b"content-type", b"application/grpc"), (b"te", b"trailers")]
    reply = h1.request(GET_STATE, headers, envelope(get_state(unchanged)))
    assert reply.status == 200
    assert h1_status(reply) == ("12", "ERROR_REASON_UNSUPPORTED_PROTOCOL")
    h1.close()


def test_protocol_errors_carry_error_info(unchanged: BrowserService) -> None:
    """Bad timeout headers, an unknown compression, a broken envelope, an
    unknown method, an unknown content type: each with its reason."""
    port, body = unchanged.http_port, envelope(get_state(unchanged))
    json_body = json.dumps({"gameId": unchanged.game.game_id}).encode()
    h1 = H1(port)
    reply = h1.request(GET_STATE, connect_headers([(b"connect-timeout-ms", b"-5")]), json_body)
    assert (reply.status, reason_of_connect_json(reply.body)[1]) == (
        400,
        "ERROR_REASON_INVALID_HEADER",
    )
    reply = h1.request(GET_STATE, grpc_web_headers([(b"grpc-timeout", b"1x")]), body)
    assert h1_status(reply) == ("3", "ERROR_REASON_INVALID_HEADER")
    reply = h1.request(GET_STATE, connect_headers([(b"content-encoding", b"br")]), json_body)
    assert reason_of_connect_json(reply.body) == (
        "unimplemented",
        "ERROR_REASON_UNSUPPORTED_ENCODING",
    )
    reply = h1.request(GET_STATE, grpc_web_headers([(b"grpc-encoding", b"br")]), body)
    assert h1_status(reply) == ("12", "ERROR_REASON_UNSUPPORTED_ENCODING")
    broken = b"\x00\x00\x00\x10\x00" + b"\x01\x02"  # promises 4,096 bytes, sends 2
    reply = h1.request(GET_STATE, grpc_web_headers(), broken)
    assert h1_status(reply) == ("3", "ERROR_REASON_MALFORMED_FRAME")
    reply = h1.request(f"/{SERVICE}/NoSuchMethod", grpc_web_headers(), body)
    assert h1_status(reply) == ("12", "ERROR_REASON_UNKNOWN_METHOD")
    reply = h1.request("/no.such.v1.Service/Call", grpc_web_headers(), body)
    assert h1_status(reply) == ("12", "ERROR_REASON_UNKNOWN_METHOD")
    reply = h1.request(f"/{SERVICE}/NoSuchMethod", connect_headers(), json_body)
    assert (reply.status, reason_of_connect_json(reply.body)[1]) == (
        404,
        "ERROR_REASON_UNKNOWN_METHOD",
    )
    reply = h1.request(GET_STATE, [(b"content-type", b"text/plain")], json_body)
    assert connect_reason(reply) == (415, "ERROR_REASON_UNSUPPORTED_PROTOCOL")
    h1.close()


def test_grpc_web_text_is_served(unchanged: BrowserService) -> None:
    """Google grpc-web's default mode: base64 in, base64 out, status in its trailer frame."""
    import base64

    h1 = H1(unchanged.http_port)
    text = b"application/grpc-web-text"
    headers = [(b"content-type", text), (b"accept", text), seat(unchanged)]
    reply = h1.request(GET_STATE, headers, base64.b64encode(envelope(get_state(unchanged))))
    assert reply.status == 200
    assert reply.headers["content-type"].startswith("application/grpc-web-text")
    decoded = base64.b64decode(reply.body)
    assert decoded[0] == 0  # a message frame first
    size = int.from_bytes(decoded[1:5], "big")
    state = pb.GetStateResponse.FromString(decoded[5 : 5 + size])
    assert state.version == unchanged.game.version
    assert b"grpc-status:0" in decoded[5 + size :].replace(b" ", b"")
    reply = h1.request(GET_STATE, headers, b"!!not base64!!")
    assert h1_status(reply) == ("3", "ERROR_REASON_MALFORMED_FRAME")
    h1.close()


def test_oversize_on_http2_keeps_the_connection_and_its_streams(unchanged: BrowserService) -> None:
    """The oversize stream is answered (INVALID_ARGUMENT, MESSAGE_TOO_LARGE) and
    reset with NO_ERROR; the calls before and after it on the connection, and a
    Watch open on it, carry on; no GOAWAY."""
    h2 = H2(unchanged.http_port)
    watch = h2.open(WATCH, grpc_web_headers([seat(unchanged)]))
    h2.send(watch, envelope(pb.WatchRequest(game_id=unchanged.game.game_id,
                                            from_version=0).SerializeToString()))  # fmt: skip
    deadline = time.monotonic() + 20
    while not h2.streams[watch].data and time.monotonic() < deadline:
        h2.pump(0.2)
    assert h2.streams[watch].data, "the Watch sent nothing"
    big = h2.request(GET_STATE, grpc_web_headers(), envelope(b"\x0a" + b"x" * (2 * LIMIT)))
    h2.wait(big)
    assert h2.status_of(big) == ("3", "ERROR_REASON_MESSAGE_TOO_LARGE")
    for _ in range(3):
        sid = h2.request(
            GET_STATE, grpc_web_headers([seat(unchanged)]), envelope(get_state(unchanged))
        )
        h2.wait(sid)
        assert h2.status_of(sid)[0] == "0"
    assert h2.goaway is None and not h2.eof
    assert h2.streams[watch].reset is None and not h2.streams[watch].ended
    h2.close()


def test_oversize_on_http1_is_read_and_the_connection_kept(unchanged: BrowserService) -> None:
    """The client writes its whole body (no EPIPE), gets its answer, and the
    connection serves the next request."""
    h1 = H1(unchanged.http_port)
    reply = h1.request(GET_STATE, grpc_web_headers(), envelope(b"\x0a" + b"y" * (2 * LIMIT)))
    assert h1_status(reply) == ("3", "ERROR_REASON_MESSAGE_TOO_LARGE")
    assert not reply.closed
    reply = h1.request(
        GET_STATE, grpc_web_headers([seat(unchanged)]), envelope(get_state(unchanged))
    )
    assert h1_status(reply)[0] == "0"
    # Far over the limit: answered at once with Connection: close, cleanly.
    h1.send_head(GET_STATE, [*grpc_web_headers(), (b"content-length", str(64 * LIMIT).encode())])
    reply = h1.read_reply()
    assert h1_status(reply) == ("3", "ERROR_REASON_MESSAGE_TOO_LARGE") and reply.closed
    h1.close()


def test_concurrent_large_bodies_are_bounded(unchanged: BrowserService) -> None:
    """24 bodies of 4 times the limit at once, over HTTP/1.1: all answered
    MESSAGE_TOO_LARGE, and the process's memory returns near where it was."""
    rss_before = rss_kib(unchanged.process.pid)
    results: list[tuple[str, str]] = []

    def one() -> None:
        h1 = H1(unchanged.http_port)
        reply = h1.request(GET_STATE, grpc_web_headers(), b"\x00" * (4 * LIMIT))
        results.append(h1_status(reply))
        h1.close()

    threads = [threading.Thread(target=one) for _ in range(24)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert results == [("3", "ERROR_REASON_MESSAGE_TOO_LARGE")] * 24
    grown = rss_kib(unchanged.process.pid) - rss_before
    assert grown < 48 * 1024, f"RSS grew by {grown} KiB"


def test_rapid_reset_is_bounded(unchanged: BrowserService) -> None:
    """3,000 streams opened and reset at once: GOAWAY ENHANCE_YOUR_CALM after the
    burst, and the port serves new connections (shutdown is checked at the end)."""
    h2 = H2(unchanged.http_port)
    for _ in range(3000):
        if h2.conn_closed():
            break
        sid = h2.conn.get_next_available_stream_id()
        h2.conn.send_headers(sid, [(b":method", b"POST"), (b":scheme", b"http"),
                                   (b":authority", b"x"), (b":path", GET_STATE.encode()),
                                   *grpc_web_headers()])  # fmt: skip
        h2.conn.reset_stream(sid)
        try:
            h2.flush()
        except OSError:
            break
        h2.pump(0.0)
    deadline = time.monotonic() + 20
    while not h2.conn_closed() and time.monotonic() < deadline:
        h2.pump(0.2)
    assert h2.goaway is not None and h2.goaway.error_code == 11  # ENHANCE_YOUR_CALM
    h2.close()
    fresh = H2(unchanged.http_port)
    sid = fresh.request(
        GET_STATE, grpc_web_headers([seat(unchanged)]), envelope(get_state(unchanged))
    )
    fresh.wait(sid)
    assert fresh.status_of(sid)[0] == "0"
    fresh.close()


def test_a_trickling_body_is_timed_out(unchanged: BrowserService) -> None:
    """Bodies that never finish arriving are answered DEADLINE_EXCEEDED
    (REQUEST_TIMEOUT) and their connections closed, each after the body timeout."""
    conns = [H1(unchanged.http_port) for _ in range(20)]
    for h1 in conns:
        h1.send_head(GET_STATE, [*grpc_web_headers(), (b"content-length", b"100")])
        h1.sock.sendall(b"\x00")
    replies = []
    for h1 in conns:
        with_more = threading.Timer(0.3, lambda c=h1: _quietly(c.sock.sendall, b"\x00"))
        with_more.start()
        replies.append(h1.read_reply())
        with_more.cancel()
    assert {h1_status(r) for r in replies} == {("4", "ERROR_REASON_REQUEST_TIMEOUT")}
    assert all(r.closed for r in replies)
    for h1 in conns:
        h1.close()


def test_connections_are_capped_and_queued(unchanged: BrowserService) -> None:
    """The listen backlog is the setting's; connections past the cap (300) are
    closed at once without an answer, the others are served, and the port
    serves again once they are gone."""
    queue = listen_backlog(unchanged.http_port)
    if queue is not None:
        assert queue == 2048
    request = envelope(get_state(unchanged))
    headers = [
        *grpc_web_headers([seat(unchanged)]),
        (b"content-length", str(len(request)).encode()),
    ]
    conns = [H1(unchanged.http_port) for _ in range(340)]
    for h1 in conns:
        with contextlib.suppress(OSError):
            h1.send_head(GET_STATE, headers)
            h1.sock.sendall(request)
    served = refused = 0
    for h1 in conns:
        try:
            served += h1_status(h1.read_reply())[0] == "0"
        except OSError:
            refused += 1
    assert served >= 250 and refused >= 40 and served + refused == 340
    for h1 in conns:
        h1.close()
    deadline = time.monotonic() + 20
    while True:
        h1 = H1(unchanged.http_port)
        try:
            reply = h1.request(GET_STATE, grpc_web_headers([seat(unchanged)]), request)
            break
        except OSError:
            assert time.monotonic() < deadline, "the port did not serve again"
        finally:
            h1.close()
    assert h1_status(reply)[0] == "0"


def test_idle_keep_alive_connections_close_cleanly(unchanged: BrowserService) -> None:
    """The EPIPE case: every reply announces two thirds of the idle timeout
    (``Keep-Alive: timeout=1`` for 2 s), so an agent drops the connection first;
    one idle past the timeout is closed by the server with a FIN (never a
    reset), and one reused within it is served."""
    body = json.dumps({"gameId": unchanged.game.game_id}).encode()
    reused, idle = H1(unchanged.http_port), H1(unchanged.http_port)
    for h1 in (reused, idle):
        reply = h1.request(GET_STATE, connect_headers(), body)
        assert reply.headers.get("keep-alive") == "timeout=1"  # 2/3 of it, rounded down
    assert reused.request(GET_STATE, connect_headers(), body).status == 200
    assert idle.at_eof(20.0), "the idle connection was not closed cleanly"
    reused.close()
    idle.close()


def _quietly(function, *args) -> None:  # type: ignore[no-untyped-def]
    with contextlib.suppress(OSError):
        function(*args)


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def listen_backlog(port: int) -> int | None:
    """The listen queue size ``ss`` reports for ``port`` (None without ``ss``)."""
    try:
        out = subprocess.run(["ss", "-ltnH", f"sport = :{port}"], capture_output=True,
                             text=True, timeout=10).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    fields = out.split()
    return int(fields[2]) if len(fields) >= 3 else None


def test_the_grpc_port_has_the_same_size_limit(unchanged: BrowserService) -> None:
    """One MAX_MESSAGE_BYTES for both ports: the gRPC port refuses a message over
    it the same way (INVALID_ARGUMENT, ERROR_REASON_MESSAGE_TOO_LARGE)."""
    import grpc

    from tests.service_contract import error_reason

    request = pb.GetStateRequest(game_id="g" * (LIMIT + 10))
    refused = pytest.raises(grpc.RpcError)
    with grpc.insecure_channel(unchanged.address) as channel, refused as caught:
        unchanged.stub(channel).GetState(request, timeout=20)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_reason(caught.value) == "ERROR_REASON_MESSAGE_TOO_LARGE"


def test_the_metrics_port_binds_the_configured_host(unchanged: BrowserService) -> None:
    """HOST=127.0.0.1: the metrics endpoint listens there, not on every address."""
    try:
        out = subprocess.run(["ss", "-ltnH", f"sport = :{METRICS_PORT}"], capture_output=True,
                             text=True, timeout=10).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        pytest.skip("no ss on this machine")
    local = [fields[3] for fields in (line.split() for line in out.splitlines()) if len(fields) > 3]
    assert local == [f"127.0.0.1:{METRICS_PORT}"], out
