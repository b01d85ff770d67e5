"""The caller's verified identity, from the ``authorization: Bearer <JWT>`` metadata.

A token is accepted when it is signed by a trusted key for an accepted
algorithm (never ``none``), names the expected issuer and audience, and has a
subject and an unexpired ``exp``:

* tokens of the identity provider (``IDENTITY_ISSUER``) are checked against
  its JWKS (``IDENTITY_JWKS_URL``) through PyJWT's ``PyJWKClient``, which
  caches the key set and refetches it when a token names a key id it does
  not know (the provider rotated its keys);
* guest tokens (issuer :data:`~.settings.GUEST_ISSUER`) against Roost's own
  guest key (:mod:`.guest`).

Servicers call :meth:`Verifier.caller`; it returns None when no token was
sent (anonymous callers are still served unless ``IDENTITY_REQUIRED``), and
raises UNAUTHENTICATED for a token that fails. Refused tokens are counted per
peer (the client's address); a peer over ``LIMIT_FAILED_TOKENS`` in a window
is refused RESOURCE_EXHAUSTED before any new token is checked, until the
window ends. A verified token is remembered (until its expiry) so that the
calls after the first cost no signature check and no round trip.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import grpc
import jwt
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from services.core.errors import ServiceError
from services.core.identity import errors
from services.core.identity.guest import load_or_create_key
from services.core.identity.limits import Limiter
from services.core.identity.settings import GUEST_AUDIENCE, GUEST_ISSUER, IdentitySettings

#: Longest token accepted (bytes); longer ones are refused unparsed.
MAX_TOKEN_LENGTH = 8192
#: Verified tokens remembered per process (a client sends the same token on
#: every call: one signature check, not one per call), each until its expiry.
VERIFIED_CACHE_SIZE = 4096
REQUIRED_CLAIMS = ["exp", "sub", "iss", "aud"]


@dataclass(frozen=True, slots=True)
class Identity:
    """A verified caller: the subject is its player id."""

    subject: str
    issuer: str
    guest: bool
    #: The token's expiry (Unix seconds).
    expires: float = 0.0


def bearer_token(context: Any) -> str | None:
    """The bearer token of a call's ``authorization`` metadata (None when absent)."""
    for key, value in context.invocation_metadata() or ():
        if key.lower() == "authorization":
            text = value.decode() if isinstance(value, bytes) else value
            scheme, _, token = text.strip().partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                raise errors.identity_invalid("expected 'authorization: Bearer <token>'")
            return token.strip()
    return None


def peer_host(context: Any) -> str:
    """The caller's address without its port (``ipv4:1.2.3.4:5678`` -> ``ipv4:1.2.3.4``)."""
    try:
        peer = context.peer() or "unknown"
    except Exception:  # a context without a peer
        return "unknown"
    host, sep, port = peer.rpartition(":")
    return host if sep and port.isdigit() else peer


class Verifier:
    """Verifies bearer tokens for one service process (see the module docstring)."""

    def __init__(self, settings: IdentitySettings, client: Any) -> None:
        self.settings = settings
        self.jwks = (
            jwt.PyJWKClient(
                settings.jwks_url,
                lifespan=max(settings.jwks_lifespan_seconds, 0.001),
                cooldown_duration=settings.jwks_cooldown_seconds,
                timeout=5,
            )
            if settings.provider
            else None
        )
        self.guest_key: Ed25519PrivateKey | None = (
            load_or_create_key(settings.guest_key_file) if settings.guest_key_file else None
        )
        self.verified: OrderedDict[str, Identity] = OrderedDict()
        self.failures = Limiter(
            client,
            "failed_token_checks",
            "ERROR_REASON_LIMIT_FAILED_TOKENS",
            settings.failed_token_limit,
            int(settings.limit_window_seconds * 1000),
        )

    @property
    def enabled(self) -> bool:
        """Whether any token can be accepted (a provider or guests configured)."""
        return self.jwks is not None or self.guest_key is not None

    async def caller(self, context: Any) -> Identity | None:
        """The verified identity of the call, None without a token."""
        token = bearer_token(context)
        if token is None:
            return None
        known = self.verified.get(token)
        if known is not None and known.expires > time.time():
            return known  # verified before: no guess, no Redis round trip
        peer = peer_host(context)
        await self.failures.check(peer)
        try:
            identity = await self._verify(token)
        except ServiceError as error:
            if error.code is grpc.StatusCode.UNAUTHENTICATED:
                await self.failures.count(peer)
            raise
        self.verified[token] = identity
        if len(self.verified) > VERIFIED_CACHE_SIZE:
            self.verified.popitem(last=False)
        return identity

    async def require(self, context: Any) -> Identity | None:
        """:meth:`caller`, refusing anonymous calls when ``IDENTITY_REQUIRED``."""
        identity = await self.caller(context)
        if identity is None and self.settings.required:
            raise errors.identity_required()
        return identity

    async def _verify(self, token: str) -> Identity:
        if len(token) > MAX_TOKEN_LENGTH:
            raise errors.identity_invalid("too long")
        try:
            header = jwt.get_unverified_header(token)
            claims = jwt.decode(token, options={"verify_signature": False})
        except jwt.PyJWTError as exc:
            raise errors.identity_invalid(f"not a JWT ({exc})") from None
        issuer = claims.get("iss")
        if issuer == GUEST_ISSUER and self.guest_key is not None:
            key: Any = self.guest_key.public_key()
            algorithms, audience = ["EdDSA"], GUEST_AUDIENCE
        elif self.jwks is not None and issuer == self.settings.issuer:
            if header.get("alg") not in self.settings.algorithms:
                raise errors.identity_invalid(f"algorithm {header.get('alg')!r} not accepted")
            key = await self._provider_key(token)
            algorithms, audience = list(self.settings.algorithms), self.settings.audience
        else:
            raise errors.identity_invalid("unknown issuer")
        try:
            verified = jwt.decode(
                token,
                key,
                algorithms=algorithms,
                audience=audience,
                issuer=issuer,
                options={"require": REQUIRED_CLAIMS},
                leeway=5,
            )
        except jwt.ExpiredSignatureError:
            raise errors.identity_invalid("expired") from None
        except jwt.InvalidAudienceError:
            raise errors.identity_invalid("wrong audience") from None
        except jwt.PyJWTError as exc:
            raise errors.identity_invalid(str(exc) or type(exc).__name__) from None
        subject = verified.get("sub")
        if not isinstance(subject, str) or not subject:
            raise errors.identity_invalid("no subject")
        return Identity(
            subject=subject,
            issuer=issuer,
            guest=issuer == GUEST_ISSUER,
            expires=float(verified["exp"]),
        )

    async def _provider_key(self, token: str) -> Any:
        """The provider's key for the token's key id (fetched off the event loop)."""
        assert self.jwks is not None
        try:
            signing = await asyncio.to_thread(self.jwks.get_signing_key_from_jwt, token)
        except jwt.PyJWKClientConnectionError as exc:
            raise errors.provider_unavailable(str(exc)) from None
        except jwt.PyJWTError as exc:
            raise errors.identity_invalid(str(exc) or "no matching key") from None
        return signing.key
