"""Pure parts of the browser port's guard (services/core/browser_guard.py,
browser_errors.py): gRPC-Web text decoding and encoding, and the ErrorInfo
given to the Connect runtime's protocol errors."""

from __future__ import annotations

import base64

import pytest
from connectrpc.code import Code
from connectrpc.errors import ConnectError

from services.core.browser_errors import protocol_error, protocol_kind
from services.core.browser_guard import _TextEncoder, decode_grpc_web_text


def test_grpc_web_text_bodies_decode_in_padded_pieces() -> None:
    one, two = b"\x00\x00\x00\x00\x02ab", b"\x80\x00\x00\x00\x01z"
    text = base64.b64encode(one) + base64.b64encode(two)
    assert decode_grpc_web_text(text) == one + two
    with pytest.raises(ValueError):
        decode_grpc_web_text(b"not*base64")


def test_the_text_encoder_carries_partial_groups_to_the_next_chunk() -> None:
    encoder, data = _TextEncoder(), bytes(range(50))
    chunks = [data[:7], data[7:20], data[20:]]
    text = b"".join(encoder.encode(c, i == len(chunks) - 1) for i, c in enumerate(chunks))
    assert base64.b64decode(text) == data


@pytest.mark.parametrize(
    ("message", "code", "reason"),
    [
        ("message is larger than configured max 4", Code.RESOURCE_EXHAUSTED,
         "ERROR_REASON_MESSAGE_TOO_LARGE"),
        ("unknown compression: 'br': supported encodings are gzip", Code.UNIMPLEMENTED,
         "ERROR_REASON_UNSUPPORTED_ENCODING"),
        ("protocol error: incomplete envelope: unexpected EOF", Code.INVALID_ARGUMENT,
         "ERROR_REASON_MALFORMED_FRAME"),
    ],
)  # fmt: skip
def test_runtime_protocol_errors_get_their_reason(message: str, code: Code, reason: str) -> None:
    error = protocol_error(ConnectError(code, message), limit=4)
    assert error is not None and error.reason == reason
    assert error.code.name != "RESOURCE_EXHAUSTED"  # never presented as retryable


def test_protocols_by_content_type() -> None:
    assert protocol_kind("application/grpc-web-text+proto") == "grpc-web-text"
    assert protocol_kind("application/grpc-web+proto") == "grpc-web"
    assert protocol_kind("application/grpc") == "grpc"
    assert protocol_kind("application/connect+json") == "connect-stream"
    assert protocol_kind("application/json") == "connect"
