"""Raw HTTP/1.1 and HTTP/2 clients for the browser-port abuse tests.

No Connect or gRPC library: requests are written byte by byte (HTTP/1.1 on a
plain socket, HTTP/2 with the ``h2`` state machine), so a test can send what a
well-behaved client never would (bad header bytes, a body that trickles in,
thousands of reset streams) and read exactly what came back (statuses,
trailers, RST_STREAM and GOAWAY frames).
"""

from __future__ import annotations

import base64
import contextlib
import json
import socket
import time
import urllib.parse
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import h2.config
import h2.connection
import h2.events
from google.rpc import error_details_pb2, status_pb2

Headers = list[tuple[bytes, bytes]]


def envelope(message: bytes, flags: int = 0) -> bytes:
    """One length-prefixed message (gRPC, gRPC-Web, Connect streams)."""
    return bytes([flags]) + len(message).to_bytes(4, "big") + message


def reason_of_details(encoded: str | bytes) -> str:
    """The ErrorInfo reason in a ``grpc-status-details-bin`` value."""
    raw = encoded if isinstance(encoded, bytes) else encoded.encode()
    status = status_pb2.Status.FromString(base64.b64decode(raw + b"=" * (-len(raw) % 4)))
    for detail in status.details:
        if detail.type_url.endswith("google.rpc.ErrorInfo"):
            return error_details_pb2.ErrorInfo.FromString(detail.value).reason
    return ""


def reason_of_connect_json(body: bytes) -> tuple[str, str]:
    """(code, ErrorInfo reason) of a Connect JSON error body."""
    error = json.loads(body)
    for detail in error.get("details", []):
        if detail["type"] == "google.rpc.ErrorInfo":
            value = detail["value"]
            info = error_details_pb2.ErrorInfo.FromString(
                base64.b64decode(value + "=" * (-len(value) % 4))
            )
            return error["code"], info.reason
    return error["code"], ""


def _fields(lines: list[str]) -> dict[str, str]:
    """``name: value`` lines as a dict (names lower-cased)."""
    pairs = (line.partition(":") for line in lines)
    return {k.strip().lower(): v.strip() for k, _, v in pairs if k}


def grpc_web_trailers(body: bytes) -> dict[str, str]:
    """The trailers frame (flag 0x80) of a binary gRPC-Web response body."""
    at = 0
    while at + 5 <= len(body):
        flags, size = body[at], int.from_bytes(body[at + 1 : at + 5], "big")
        frame = body[at + 5 : at + 5 + size]
        at += 5 + size
        if flags & 0x80:
            lines = frame.decode().split("\r\n")
            return {
                k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines) if k
            }
    return {}


@dataclass
class H1Reply:
    status: int
    headers: dict[str, str]
    body: bytes
    #: True when the server closed the connection after this reply.
    closed: bool = False


class H1:
    """One HTTP/1.1 connection on a plain socket."""

    def __init__(self, port: int, timeout: float = 20.0) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buffer = b""

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()

    def send_head(self, path: str, headers: Headers, method: str = "POST") -> None:
        head = f"{method} {path} HTTP/1.1\r\nhost: localhost\r\n".encode()
        head += b"".join(k + b": " + v + b"\r\n" for k, v in headers) + b"\r\n"
        self.sock.sendall(head)

    def request(self, path: str, headers: Headers, body: bytes = b"") -> H1Reply:
        self.send_head(path, [*headers, (b"content-length", str(len(body)).encode())])
        self.sock.sendall(body)
        return self.read_reply()

    def _fill(self) -> bool:
        data = self.sock.recv(65536)
        self.buffer += data
        return bool(data)

    def read_reply(self) -> H1Reply:
        while b"\r\n\r\n" not in self.buffer:
            if not self._fill():
                raise ConnectionError("closed before a reply")
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {
            k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])
        }
        if "content-length" in headers:
            size = int(headers["content-length"])
            while len(self.buffer) < size:
                if not self._fill():
                    break
            body, self.buffer = self.buffer[:size], self.buffer[size:]
        elif headers.get("transfer-encoding") == "chunked":
            body = self._chunked()
        else:
            while self._fill():
                pass
            body, self.buffer = self.buffer, b""
        closed = headers.get("connection", "").lower() == "close"
        return H1Reply(status, headers, body, closed)

    def _chunked(self) -> bytes:
        body = b""
        while True:
            while b"\r\n" not in self.buffer:
                if not self._fill():
                    return body
            line, self.buffer = self.buffer.split(b"\r\n", 1)
            size = int(line.split(b";")[0], 16)
            while len(self.buffer) < size + 2:
                if not self._fill():
                    return body
            body += self.buffer[:size]
            self.buffer = self.buffer[size + 2 :]
            if size == 0:
                return body

    def at_eof(self, wait: float) -> bool:
        """True when the server has closed its side (a FIN) within ``wait`` seconds."""
        self.sock.settimeout(wait)
        try:
            return self.sock.recv(1) == b""
        except TimeoutError:
            return False
        except ConnectionResetError:
            return False  # a reset is not a clean close


@dataclass
class H2Stream:
    headers: dict[str, str] = field(default_factory=dict)
    data: bytes = b""
    trailers: dict[str, str] = field(default_factory=dict)
    ended: bool = False
    reset: int | None = None


class H2:
    """One cleartext HTTP/2 connection (prior knowledge) driven by ``h2``."""

    def __init__(self, port: int, timeout: float = 20.0) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.conn = h2.connection.H2Connection(
            h2.config.H2Configuration(client_side=True, header_encoding=None)
        )
        self.conn.initiate_connection()
        self.conn.increment_flow_control_window(2**24)
        self.flush()
        self.streams: dict[int, H2Stream] = {}
        self.goaway: h2.events.ConnectionTerminated | None = None
        self.eof = False

    def flush(self) -> None:
        data = self.conn.data_to_send()
        if data:
            self.sock.sendall(data)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()

    def open(self, path: str, headers: Headers, end: bool = False) -> int:
        sid = self.conn.get_next_available_stream_id()
        base = [(b":method", b"POST"), (b":scheme", b"http"), (b":authority", b"localhost"),
                (b":path", path.encode())]  # fmt: skip
        self.conn.send_headers(sid, base + headers, end_stream=end)
        self.streams[sid] = H2Stream()
        self.flush()
        return sid

    def send(self, sid: int, data: bytes, end: bool = True) -> None:
        """Send ``data`` as the flow-control windows allow (reading meanwhile)."""
        view = memoryview(data)
        while view:
            if self.streams[sid].reset is not None or self.streams[sid].ended:
                return  # answered or reset: stop sending, as a client must
            window = min(
                self.conn.local_flow_control_window(sid), self.conn.max_outbound_frame_size
            )
            if window <= 0:
                self.pump(0.5)
                continue
            self.conn.send_data(sid, bytes(view[:window]))
            view = view[window:]
            self.flush()
            self.pump(0.0)
        if end and self.streams[sid].reset is None and not self.conn_closed():
            with contextlib.suppress(Exception):
                self.conn.end_stream(sid)
                self.flush()

    def conn_closed(self) -> bool:
        return self.goaway is not None or self.eof

    def request(self, path: str, headers: Headers, body: bytes) -> int:
        sid = self.open(path, headers)
        self.send(sid, body)
        return sid

    def pump(self, wait: float) -> None:
        """Read what arrives within ``wait`` seconds (at least one read if any)."""
        self.sock.settimeout(wait if wait > 0 else 0.001)
        try:
            data = self.sock.recv(65536)
        except (TimeoutError, BlockingIOError):
            return
        except ConnectionResetError:
            self.eof = True
            return
        if not data:
            self.eof = True
            return
        for event in self.conn.receive_data(data):
            self._on(event)
        with contextlib.suppress(Exception):
            self.flush()

    def _on(self, event: h2.events.Event) -> None:
        sid = getattr(event, "stream_id", 0)
        stream = self.streams.get(sid)
        if isinstance(event, h2.events.ResponseReceived) and stream:
            stream.headers = {k.decode(): v.decode() for k, v in event.headers}
        elif isinstance(event, h2.events.DataReceived) and stream:
            stream.data += event.data
            self.conn.acknowledge_received_data(event.flow_controlled_length, sid)
        elif isinstance(event, h2.events.TrailersReceived) and stream:
            stream.trailers = {k.decode(): v.decode() for k, v in event.headers}
        elif isinstance(event, h2.events.StreamEnded) and stream:
            stream.ended = True
        elif isinstance(event, h2.events.StreamReset) and stream:
            stream.reset = int(event.error_code)
        elif isinstance(event, h2.events.ConnectionTerminated):
            self.goaway = event

    def wait(self, sid: int, timeout: float = 20.0) -> H2Stream:
        """Until stream ``sid`` has ended (or was reset, or the connection went)."""
        deadline = time.monotonic() + timeout
        stream = self.streams[sid]
        while not (stream.ended or stream.reset is not None or self.eof):
            if time.monotonic() > deadline:
                raise TimeoutError(f"stream {sid} not answered")
            self.pump(0.2)
        return stream

    def status_of(self, sid: int) -> tuple[str, str]:
        """(grpc-status, ErrorInfo reason) of an ended gRPC-Web or gRPC stream."""
        stream = self.streams[sid]
        fields = {**stream.headers, **stream.trailers, **grpc_web_trailers(stream.data)}
        details = fields.get("grpc-status-details-bin", "")
        return fields.get("grpc-status", ""), (reason_of_details(details) if details else "")


def grpc_web_headers(extra: Iterable[tuple[bytes, bytes]] = ()) -> Headers:
    return [(b"content-type", b"application/grpc-web+proto"), (b"x-grpc-web", b"1"), *extra]


def connect_headers(extra: Iterable[tuple[bytes, bytes]] = ()) -> Headers:
    return [(b"content-type", b"application/json"), *extra]


def h1_status(reply: H1Reply) -> tuple[str, str]:
    """(grpc-status, reason) of a gRPC-Web reply read over HTTP/1.1."""
    fields = {**reply.headers, **grpc_web_trailers(reply.body)}
    details = fields.get("grpc-status-details-bin", "")
    return fields.get("grpc-status", ""), (reason_of_details(details) if details else "")


def quote(text: str) -> str:
    return urllib.parse.quote(text)


@contextlib.contextmanager
def closing_all(connections: list) -> Iterator[list]:
    try:
        yield connections
    finally:
        for connection in connections:
            connection.close()
