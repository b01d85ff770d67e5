"""``roost login``: who the CLI plays as, kept between sessions.

Without arguments it asks the matchmaker for a guest identity
(``IssueGuestToken``; a stored guest token is renewed, keeping its player id).
``--token JWT`` stores a token from the deployment's identity provider
instead. The token is kept in ``identity.json`` in the client's state
directory (:mod:`clients.sessions`, mode 0600); ``roost queue`` then sends it
as ``authorization: Bearer <token>`` and plays as its subject. ``--logout``
forgets it.
"""

from __future__ import annotations

import json
import os
import time
from argparse import Namespace
from typing import Any

import grpc
import jwt
from rich.console import Console

from clients import registry, sessions
from clients.rpc import channel

#: Renew a guest token this long before it expires.
RENEW_BEFORE_MS = 86_400_000


def _path() -> Any:
    return sessions.home() / "identity.json"


def stored() -> dict[str, Any] | None:
    """The stored identity ({token, player_id, expires_ms, guest}), None when absent or expired."""
    try:
        data = json.loads(_path().read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("expires_ms", 0) <= time.time() * 1000:
        return None
    return data


def stored_player() -> str:
    """The player id of the stored identity ('' when not logged in)."""
    data = stored()
    return str(data["player_id"]) if data else ""


def _save(data: dict[str, Any]) -> None:
    path = _path()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        json.dump(data, out)


class _Bearer(grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor):
    """Adds ``authorization: Bearer <token>`` to every call."""

    def __init__(self, token: str) -> None:
        self.token = token

    def _with_token(self, details: Any) -> Any:
        metadata = [*(details.metadata or ()), ("authorization", f"Bearer {self.token}")]
        return details._replace(metadata=metadata)

    def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        return continuation(self._with_token(details), request)

    def intercept_unary_stream(self, continuation: Any, details: Any, request: Any) -> Any:
        return continuation(self._with_token(details), request)


def identity_channel(address: str) -> grpc.Channel:
    """A channel to ``address`` that sends the stored identity's token (if any)."""
    ch = channel(address)
    data = stored()
    return grpc.intercept_channel(ch, _Bearer(data["token"])) if data else ch


def cmd_login(args: Namespace, console: Console) -> int:
    """Store a guest identity (or the given provider token), or forget it."""
    if args.logout:
        _path().unlink(missing_ok=True)
        console.print("logged out")
        return 0
    if args.token:
        claims = jwt.decode(args.token, options={"verify_signature": False})
        data = {"token": args.token, "player_id": claims.get("sub", ""),
                "expires_ms": int(claims.get("exp", 0)) * 1000, "guest": False}  # fmt: skip
    else:
        mm = registry.MATCHMAKER
        pb = mm.messages()
        previous = stored()
        metadata = ()
        if previous and previous.get("guest"):
            metadata = (("authorization", f"Bearer {previous['token']}"),)
        with channel(mm.address(args.matchmaker)) as ch:
            reply = mm.stub(ch).IssueGuestToken(
                pb.IssueGuestTokenRequest(), metadata=metadata, timeout=10
            )
        data = {"token": reply.token, "player_id": reply.player_id,
                "expires_ms": reply.expires_ms, "guest": True}  # fmt: skip
    _save(data)
    kind = "guest" if data["guest"] else "identity"
    console.print(f"logged in as {kind} {data['player_id']}")
    return 0
