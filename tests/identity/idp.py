"""A test identity provider: a local HTTP server publishing a JWKS, with
ES256 keys generated per run, that mints tokens (good and deliberately bad)."""

from __future__ import annotations

import json
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import ec

ISSUER = "https://idp.test.roost"
AUDIENCE = "roost-test-frontend"


class IdentityProvider:
    """Serves ``/jwks.json`` with its current public keys; :meth:`rotate` adds a
    new signing key and drops the old ones."""

    def __init__(self) -> None:
        self.keys: dict[str, ec.EllipticCurvePrivateKey] = {}
        self.fetches = 0
        self.rotate()
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                provider.fetches += 1
                body = json.dumps(provider.jwks()).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def jwks_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/jwks.json"

    def env(self) -> dict[str, str]:
        """The settings of a service trusting this provider."""
        return {
            "IDENTITY_JWKS_URL": self.jwks_url,
            "IDENTITY_ISSUER": ISSUER,
            "IDENTITY_AUDIENCE": AUDIENCE,
            "IDENTITY_JWKS_COOLDOWN_SECONDS": "0",
        }

    def rotate(self) -> str:
        """A new signing key replaces the published ones; its key id."""
        kid = uuid.uuid4().hex[:12]
        self.keys = {kid: ec.generate_private_key(ec.SECP256R1())}
        self.kid = kid
        return kid

    def jwks(self) -> dict[str, Any]:
        keys = []
        for kid, key in self.keys.items():
            jwk = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(key.public_key()))
            keys.append({**jwk, "kid": kid, "use": "sig", "alg": "ES256"})
        return {"keys": keys}

    def token(
        self,
        subject: str,
        *,
        issuer: str = ISSUER,
        audience: str = AUDIENCE,
        expires_in: float = 300,
        key: Any = None,
        kid: str | None = None,
    ) -> str:
        """A token for ``subject`` signed by the current key (or ``key``)."""
        now = int(time.time())
        claims = {"iss": issuer, "aud": audience, "sub": subject, "iat": now,
                  "exp": now + int(expires_in)}  # fmt: skip
        signer = key if key is not None else self.keys[self.kid]
        return jwt.encode(claims, signer, algorithm="ES256", headers={"kid": kid or self.kid})

    def unsigned(self, subject: str) -> str:
        """A token with ``alg: none`` (no signature at all)."""
        now = int(time.time())
        claims = {"iss": ISSUER, "aud": AUDIENCE, "sub": subject, "exp": now + 300}
        return jwt.encode(claims, None, algorithm="none", headers={"kid": self.kid})

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
