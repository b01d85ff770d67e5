"""Identity and limit settings, read once from the environment.

Every setting is off (or permissive) when unset, so clients that send no
``authorization`` header keep working unless ``IDENTITY_REQUIRED`` says so.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

#: The issuer and audience of the guest tokens Roost signs itself.
GUEST_ISSUER = "roost-guest"
GUEST_AUDIENCE = "roost"
#: Algorithms accepted from an identity provider unless IDENTITY_ALGORITHMS says otherwise.
DEFAULT_ALGORITHMS = ("RS256", "ES256", "EdDSA")


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    return int(raw) if raw.strip() else default


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name, "")
    return float(raw) if raw.strip() else default


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


@dataclass(frozen=True, slots=True)
class IdentitySettings:
    """How callers are identified and limited (environment variable in brackets).

    * ``jwks_url`` [IDENTITY_JWKS_URL], ``issuer`` [IDENTITY_ISSUER],
      ``audience`` [IDENTITY_AUDIENCE]: the identity provider whose tokens are
      accepted (all three, or none: no provider);
    * ``algorithms`` [IDENTITY_ALGORITHMS]: comma-separated JWS algorithms
      accepted from it (``none`` is never accepted);
    * ``jwks_lifespan_seconds`` [IDENTITY_JWKS_LIFESPAN_SECONDS]: how long the
      fetched key set is cached; ``jwks_cooldown_seconds``
      [IDENTITY_JWKS_COOLDOWN_SECONDS]: the least time between two refetches
      forced by an unknown key id (a rotated key);
    * ``required`` [IDENTITY_REQUIRED]: calls that state a player id must
      carry a verified identity;
    * ``guest_key_file`` [GUEST_KEY_FILE]: Roost's guest signing key (PEM,
      Ed25519); created when missing. Unset: no guests;
    * ``guest_ttl_seconds`` [GUEST_TOKEN_TTL_SECONDS]: a guest token's lifetime;
    * ``limit_window_seconds`` [LIMIT_WINDOW_SECONDS]: the window of every
      per-window limit below;
    * ``failed_token_limit`` [LIMIT_FAILED_TOKENS]: refused bearer tokens per
      peer per window before the peer is refused outright;
    * ``failed_seat_token_limit`` [LIMIT_FAILED_SEAT_TOKENS]: wrong seat tokens
      per peer per window on a game service (:mod:`.seat_guard`);
    * ``new_game_limit`` [LIMIT_NEW_GAMES]: NewGame calls per identity per window;
    * ``guest_token_limit`` [LIMIT_GUEST_TOKENS]: new guests issued per peer per window.
    """

    jwks_url: str = ""
    issuer: str = ""
    audience: str = ""
    algorithms: tuple[str, ...] = DEFAULT_ALGORITHMS
    jwks_lifespan_seconds: float = 300.0
    jwks_cooldown_seconds: float = 30.0
    required: bool = False
    guest_key_file: str = ""
    guest_ttl_seconds: int = 30 * 86_400
    limit_window_seconds: float = 60.0
    failed_token_limit: int = 30
    failed_seat_token_limit: int = 600
    new_game_limit: int = 30
    guest_token_limit: int = 30

    @property
    def provider(self) -> bool:
        """Whether an identity provider is configured."""
        return bool(self.jwks_url and self.issuer and self.audience)

    @classmethod
    def from_env(cls) -> IdentitySettings:
        """Settings from the environment."""
        algorithms = tuple(
            a.strip()
            for a in os.environ.get("IDENTITY_ALGORITHMS", ",".join(DEFAULT_ALGORITHMS)).split(",")
            if a.strip() and a.strip().lower() != "none"
        )
        return cls(
            jwks_url=os.environ.get("IDENTITY_JWKS_URL", "").strip(),
            issuer=os.environ.get("IDENTITY_ISSUER", "").strip(),
            audience=os.environ.get("IDENTITY_AUDIENCE", "").strip(),
            algorithms=algorithms or DEFAULT_ALGORITHMS,
            jwks_lifespan_seconds=_float("IDENTITY_JWKS_LIFESPAN_SECONDS", 300.0),
            jwks_cooldown_seconds=_float("IDENTITY_JWKS_COOLDOWN_SECONDS", 30.0),
            required=_flag("IDENTITY_REQUIRED"),
            guest_key_file=os.environ.get("GUEST_KEY_FILE", "").strip(),
            guest_ttl_seconds=_int("GUEST_TOKEN_TTL_SECONDS", 30 * 86_400),
            limit_window_seconds=_float("LIMIT_WINDOW_SECONDS", 60.0),
            failed_token_limit=_int("LIMIT_FAILED_TOKENS", 30),
            failed_seat_token_limit=_int("LIMIT_FAILED_SEAT_TOKENS", 600),
            new_game_limit=_int("LIMIT_NEW_GAMES", 30),
            guest_token_limit=_int("LIMIT_GUEST_TOKENS", 30),
        )
