"""Guest identities: tokens Roost signs itself, for players without an identity provider.

The guest key is an Ed25519 private key in PEM (``GUEST_KEY_FILE``): a mounted
secret in a deployment, a file under ``.roost/`` for ``make run``. Every
service of one deployment reads the same file; it is created on first use
when missing (atomically, so services starting together agree on one key).

A guest token is a JWT (EdDSA) with issuer :data:`GUEST_ISSUER`, audience
:data:`GUEST_AUDIENCE`, subject ``guest-<random>`` and an expiry; a guest is
a verified identity (nobody else can play as it) but not a vouched-for
person: rated queues may be closed to guests (``MM_RATED_REQUIRES_VERIFIED``).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
import time
from pathlib import Path

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from services.core.identity.settings import GUEST_AUDIENCE, GUEST_ISSUER

#: Guest subjects start with this (verified ids of a provider never should).
GUEST_PREFIX = "guest-"


def load_or_create_key(path: str | Path) -> Ed25519PrivateKey:
    """The guest key at ``path``, generated first if the file does not exist."""
    path = Path(path)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        pem = Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".guest-key-")
        try:
            os.write(fd, pem)
            os.close(fd)
            os.chmod(temp, 0o600)
            with contextlib.suppress(FileExistsError):  # another process won the race
                os.link(temp, path)
        finally:
            os.unlink(temp)
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path}: the guest key must be an Ed25519 private key")
    return key


def issue_guest_token(
    key: Ed25519PrivateKey, ttl_seconds: int, subject: str | None = None
) -> tuple[str, str, int]:
    """A new guest token: (token, subject, expiry in Unix ms). ``subject``
    renews an existing guest's token (the caller proved it holds one)."""
    subject = subject or GUEST_PREFIX + secrets.token_hex(8)
    now = int(time.time())
    expires = now + ttl_seconds
    token = jwt.encode(
        {"iss": GUEST_ISSUER, "aud": GUEST_AUDIENCE, "sub": subject, "iat": now, "exp": expires},
        key,
        algorithm="EdDSA",
    )
    return token, subject, expires * 1000
