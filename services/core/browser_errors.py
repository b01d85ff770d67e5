"""Protocol-level errors of the browser port, written in each protocol's own way.

The browser port refuses some requests before any handler runs (a header that
is not UTF-8, a body over the size limit, gRPC over HTTP/1.1, an unknown
method...). Each refusal is a :class:`~services.core.errors.ServiceError` with
its ``ErrorInfo`` reason, as every other Roost error, and :func:`send_error`
writes it as the request's protocol expects:

- **Connect** unary (and GET): the HTTP status of the code and the Connect JSON
  error (``code``, ``message``, ``details`` with the ``google.rpc.ErrorInfo``);
- **Connect** streaming (``application/connect+*``): HTTP 200 and the error in
  the end-of-stream message;
- **gRPC** and **gRPC-Web** (binary and text): a trailers-only response, HTTP
  200 with ``grpc-status``, ``grpc-message`` and ``grpc-status-details-bin``
  (the ``google.rpc.Status`` with the same details) in its headers.

:func:`protocol_error` turns the ``ConnectError`` the Connect runtime raises for
a malformed request (it carries no details) into the same kind of error.
"""

from __future__ import annotations

import base64
import json
import urllib.parse
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import grpc
from connectrpc.code import Code
from connectrpc.errors import ConnectError, ErrorDetail
from google.rpc import status_pb2
from protobuf.wkt import Any as WireAny

from services.core.errors import ServiceError, message_too_large

Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

#: HTTP statuses of the Connect protocol's codes (connectrpc.com/docs/protocol).
CONNECT_HTTP_STATUS = {
    "CANCELLED": 499,
    "UNKNOWN": 500,
    "INVALID_ARGUMENT": 400,
    "DEADLINE_EXCEEDED": 504,
    "NOT_FOUND": 404,
    "ALREADY_EXISTS": 409,
    "PERMISSION_DENIED": 403,
    "RESOURCE_EXHAUSTED": 429,
    "FAILED_PRECONDITION": 400,
    "ABORTED": 409,
    "OUT_OF_RANGE": 400,
    "UNIMPLEMENTED": 501,
    "INTERNAL": 500,
    "UNAVAILABLE": 503,
    "DATA_LOSS": 500,
    "UNAUTHENTICATED": 401,
}


def invalid_header(name: str, why: str) -> ServiceError:
    """A request header that is not UTF-8 or not of its protocol's form."""
    return ServiceError(
        grpc.StatusCode.INVALID_ARGUMENT,
        "ERROR_REASON_INVALID_HEADER",
        f"request header {name!r} {why}",
        metadata={"header": name},
    )


def unsupported_protocol(content_type: str, why: str) -> ServiceError:
    """A protocol, content type or HTTP version this port does not serve."""
    return ServiceError(
        grpc.StatusCode.UNIMPLEMENTED,
        "ERROR_REASON_UNSUPPORTED_PROTOCOL",
        why,
        metadata={"content_type": content_type},
    )


def unknown_method(path: str) -> ServiceError:
    """No service or method at ``path``."""
    return ServiceError(
        grpc.StatusCode.UNIMPLEMENTED,
        "ERROR_REASON_UNKNOWN_METHOD",
        f"no method {path!r} on this port",
        metadata={"path": path},
    )


def request_timeout(seconds: float) -> ServiceError:
    """The body did not arrive within the body timeout."""
    return ServiceError(
        grpc.StatusCode.DEADLINE_EXCEEDED,
        "ERROR_REASON_REQUEST_TIMEOUT",
        f"the request body did not arrive within {seconds:g} s",
    )


def body_buffer_full() -> ServiceError:
    """The port holds as many request bytes as it may: retry with backoff."""
    return ServiceError(
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "ERROR_REASON_OVERLOADED",
        "too many request bytes in flight on this port; retry with backoff",
        metadata={"limit": "browser_body_buffer_bytes"},
    )


def _status_details(error: ServiceError) -> bytes:
    """The serialized ``google.rpc.Status`` of ``error`` (ErrorInfo included)."""
    for key, value in error.to_status().trailing_metadata:
        if key == "grpc-status-details-bin":
            return bytes(value)
    return status_pb2.Status(code=error.code.value[0], message=error.message).SerializeToString()


def connect_error(error: ServiceError) -> ConnectError:
    """``error`` as the ConnectError the Connect runtime writes (details kept)."""
    status = status_pb2.Status.FromString(_status_details(error))
    details = [ErrorDetail(WireAny(type_url=d.type_url, value=d.value)) for d in status.details]
    code = Code.CANCELED if error.code is grpc.StatusCode.CANCELLED else Code[error.code.name]
    return ConnectError(code, error.message, details)


def connect_json(error: ServiceError) -> bytes:
    """The Connect protocol's JSON error object."""
    status = status_pb2.Status.FromString(_status_details(error))
    details = [
        {
            "type": d.type_url.rsplit("/", 1)[-1],
            "value": base64.b64encode(d.value).decode().rstrip("="),
        }
        for d in status.details
    ]
    code = "canceled" if error.code is grpc.StatusCode.CANCELLED else error.code.name.lower()
    return json.dumps({"code": code, "message": error.message, "details": details}).encode()


def protocol_kind(content_type: str) -> str:
    """``grpc``, ``grpc-web``, ``grpc-web-text``, ``connect-stream`` or ``connect``."""
    if content_type.startswith("application/grpc-web-text"):
        return "grpc-web-text"
    if content_type.startswith("application/grpc-web"):
        return "grpc-web"
    if content_type.startswith("application/grpc"):
        return "grpc"
    if content_type.startswith("application/connect+"):
        return "connect-stream"
    return "connect"


def grpc_status_headers(error: ServiceError) -> list[tuple[bytes, bytes]]:
    """``grpc-status``, ``grpc-message`` (percent-encoded) and the rich status."""
    details = base64.b64encode(_status_details(error)).rstrip(b"=")
    return [
        (b"grpc-status", str(error.code.value[0]).encode()),
        (b"grpc-message", urllib.parse.quote(error.message, safe=" ").encode()),
        (b"grpc-status-details-bin", details),
    ]


async def send_error(
    send: Send, content_type: str, error: ServiceError, *, close: bool = False
) -> None:
    """Answer the request with ``error`` in its protocol's form; ``close`` adds
    ``Connection: close`` (HTTP/1.1: the connection ends after this answer)."""
    kind = protocol_kind(content_type)
    extra = [(b"connection", b"close")] if close else []
    if kind in {"grpc", "grpc-web", "grpc-web-text"}:
        served = content_type.split(";", 1)[0].strip() or "application/grpc"
        headers = [(b"content-type", served.encode()), *grpc_status_headers(error), *extra]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": b""})
        return
    if kind == "connect-stream":
        end = json.dumps({"error": json.loads(connect_json(error))}).encode()
        body = b"\x02" + len(end).to_bytes(4, "big") + end
        headers = [(b"content-type", content_type.split(";", 1)[0].encode()), *extra]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})
        return
    body = connect_json(error)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *extra,
    ]
    status = CONNECT_HTTP_STATUS[error.code.name]
    if error.reason == "ERROR_REASON_UNKNOWN_METHOD":
        status = 404  # Connect: an unknown procedure is 404
    elif error.reason == "ERROR_REASON_UNSUPPORTED_PROTOCOL" and content_type:
        status = 415
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def protocol_error(exc: ConnectError, limit: int) -> ServiceError | None:
    """The Roost error for a ConnectError the runtime raised about the request's
    framing (it has no details); None for any other ConnectError."""
    if exc.details:
        return None
    text = exc.message
    if "larger than configured max" in text:
        return message_too_large(0, limit)
    if text.startswith("unknown compression"):
        name = text.split("'", 2)[1] if text.count("'") >= 2 else ""
        return ServiceError(
            grpc.StatusCode.UNIMPLEMENTED,
            "ERROR_REASON_UNSUPPORTED_ENCODING",
            text,
            metadata={"encoding": name},
        )
    if text.startswith(("protocol error", "unary request has", "decompress:")):
        return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, "ERROR_REASON_MALFORMED_FRAME", text)
    if exc.code in {Code.INVALID_ARGUMENT, Code.UNIMPLEMENTED}:
        return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, "ERROR_REASON_INVALID_REQUEST", text)
    return None
