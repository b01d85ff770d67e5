"""Helpers of the browser-port tests: Connect clients over real HTTP, raw HTTP
requests, error details and metric readings."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request
from collections.abc import Coroutine, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from connectrpc.errors import ConnectError
from google.rpc import error_details_pb2
from prometheus_client import REGISTRY
from pyqwest import Client, HTTPTransport, HTTPVersion

T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run one client coroutine to its end (each test its own event loop)."""
    return asyncio.run(coroutine)


def http_client(version: str) -> Client:
    """A pyqwest client speaking HTTP/1.1 (``"1.1"``) or cleartext HTTP/2 with
    prior knowledge (``"2"``)."""
    http_version = HTTPVersion.HTTP2 if version == "2" else HTTPVersion.HTTP1
    return Client(HTTPTransport(http_version=http_version))


def error_info(error: ConnectError) -> error_details_pb2.ErrorInfo:
    """The google.rpc.ErrorInfo among a Connect error's details."""
    for detail in error.details:
        if detail.type_name == "google.rpc.ErrorInfo":
            return error_details_pb2.ErrorInfo.FromString(detail.message_bytes)
    raise AssertionError(f"no ErrorInfo in {[d.type_name for d in error.details]}")


@dataclass
class RawReply:
    """An HTTP reply read whole."""

    status: int
    headers: Mapping[str, str]
    body: bytes


def raw(
    url: str, *, method: str = "POST", body: bytes | None = None, headers: Mapping[str, str]
) -> RawReply:
    """One HTTP/1.1 request with the standard library (no Connect code at all)."""
    request = urllib.request.Request(url, data=body, method=method, headers=dict(headers))
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return RawReply(reply.status, {k.lower(): v for k, v in reply.headers.items()},
                            reply.read())  # fmt: skip
    except urllib.error.HTTPError as error:
        return RawReply(error.code, {k.lower(): v for k, v in error.headers.items()},
                        error.read())  # fmt: skip


def browser_count(**labels: str) -> float:
    """``roost_browser_rpcs_total`` for ``labels`` (0 if never counted)."""
    return REGISTRY.get_sample_value("roost_browser_rpcs_total", labels) or 0.0


def rpc_count(service: str, method: str, code: str) -> float:
    """``roost_rpcs_total``: every call, whichever port it came in on."""
    labels = {"service": service, "method": method, "code": code}
    return REGISTRY.get_sample_value("roost_rpcs_total", labels) or 0.0
