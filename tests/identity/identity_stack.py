"""Services of the identity tests: Under the Leaves and matchmakers that trust
the test identity provider and a guest key, with short limit windows; and
small clients over gRPC and over the Connect port."""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import grpc
from google.rpc import error_details_pb2, status_pb2

from services.core.redis_server import free_port
from services.registry import by_name
from tests.identity.idp import IdentityProvider
from tests.matchmaking.stack import FAST_MM, Proc, start, with_db

#: The window of every limit in these tests (seconds).
WINDOW = "3"


@dataclass
class IdentityStack:
    idp: IdentityProvider
    game: Proc
    mm: Proc
    mm_connect_port: int
    strict: Proc
    redis_url: str


@contextmanager
def identity_stack(redis_url: str, guest_key: str) -> Iterator[IdentityStack]:
    """The game service, a permissive matchmaker (identity optional, limits
    per identity) and a strict one (identity required, rated games for
    verified non-guests only, 3 failed tokens per peer per window)."""
    idp = IdentityProvider()
    common = {**idp.env(), "GUEST_KEY_FILE": guest_key, "LIMIT_WINDOW_SECONDS": WINDOW}
    procs: list[Proc] = []
    try:
        game = start(by_name("undertheleaves"), {
            "REDIS_URL": redis_url, **common, "LIMIT_NEW_GAMES": "3",
            "LIMIT_FAILED_TOKENS": "1000", "LIMIT_FAILED_SEAT_TOKENS": "3",
        })  # fmt: skip
        procs.append(game)
        mm_env = {**FAST_MM, "GAME_ADDR_UNDERTHELEAVES": game.address, **common}
        connect_port = free_port()
        mm = start(by_name("matchmaking"), {
            **mm_env, "REDIS_URL": with_db(redis_url, 5), "CONNECT_PORT": str(connect_port),
            "MM_MAX_OPEN_TICKETS": "2", "MM_MAX_PRIVATE_TABLES": "2",
            "LIMIT_FAILED_TOKENS": "1000", "MM_NO_SHOW_MS": "1500",
        })  # fmt: skip
        procs.append(mm)
        strict = start(by_name("matchmaking"), {
            **mm_env, "REDIS_URL": with_db(redis_url, 6), "IDENTITY_REQUIRED": "1",
            "MM_RATED_REQUIRES_VERIFIED": "1", "LIMIT_FAILED_TOKENS": "3",
        })  # fmt: skip
        procs.append(strict)
        yield IdentityStack(idp, game, mm, connect_port, strict, redis_url)
    finally:
        for proc in procs:
            proc.stop()
        idp.close()


def bearer(token: str | None) -> tuple[tuple[str, str], ...]:
    """Call metadata carrying ``token``."""
    return () if token is None else (("authorization", f"Bearer {token}"),)


def rich(error: grpc.RpcError) -> tuple[str, int | None]:
    """(ErrorInfo reason, RetryInfo delay in ms or None) of a failed gRPC call."""
    reason, retry = "", None
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            for detail in status_pb2.Status.FromString(value).details:
                if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                    info = error_details_pb2.ErrorInfo()
                    detail.Unpack(info)
                    reason = info.reason
                elif detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
                    delay = error_details_pb2.RetryInfo()
                    detail.Unpack(delay)
                    retry = delay.retry_delay.ToMilliseconds()
    return reason, retry


def connect_call(
    port: int, method: str, body: Mapping[str, Any], token: str | None
) -> tuple[int, dict[str, Any]]:
    """One Connect unary call (JSON) to the matchmaker: (HTTP status, body)."""
    headers = {"Content-Type": "application/json", "Connect-Protocol-Version": "1"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    url = f"http://127.0.0.1:{port}/roost.matchmaking.v1.Matchmaker/{method}"
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def connect_reason(body: Mapping[str, Any]) -> str:
    """The ErrorInfo reason of a Connect error body."""
    for detail in body.get("details", ()):
        if detail.get("type") == "google.rpc.ErrorInfo":
            raw = detail["value"]
            info = error_details_pb2.ErrorInfo.FromString(
                base64.b64decode(raw + "=" * (-len(raw) % 4))
            )
            return info.reason
    return ""
