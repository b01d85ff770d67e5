"""Seat tokens: random secrets handed out once, stored only as hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_METADATA_KEY = "x-seat-token"


def new_token() -> str:
    """A fresh 192-bit URL-safe secret."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """SHA-256 hex digest of a token (tokens are random, so no salt is needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


def seat_for_token(token: str, seat_hashes: list[str]) -> int | None:
    """The seat whose stored hash matches ``token``, compared in constant time."""
    digest = hash_token(token)
    found: int | None = None
    for seat, stored in enumerate(seat_hashes):
        if hmac.compare_digest(digest, stored):
            found = seat
    return found
