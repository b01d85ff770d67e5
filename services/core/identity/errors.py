"""The identity and limit errors (reasons of ``roost.common.v1.ErrorReason``)."""

from __future__ import annotations

import grpc

from services.core.errors import ServiceError


def identity_required() -> ServiceError:
    """The call states a player id and this deployment requires a verified identity."""
    return ServiceError(
        grpc.StatusCode.UNAUTHENTICATED,
        "ERROR_REASON_IDENTITY_REQUIRED",
        "this call needs a bearer token in metadata 'authorization'",
    )


def identity_invalid(why: str) -> ServiceError:
    """The bearer token is malformed, expired, for another issuer or audience,
    or not signed by a trusted key."""
    return ServiceError(
        grpc.StatusCode.UNAUTHENTICATED,
        "ERROR_REASON_IDENTITY_INVALID",
        f"bearer token refused: {why}",
    )


def provider_unavailable(why: str) -> ServiceError:
    """The identity provider's keys cannot be fetched now; retry with backoff."""
    return ServiceError(
        grpc.StatusCode.UNAVAILABLE,
        "ERROR_REASON_IDENTITY_PROVIDER_UNAVAILABLE",
        f"the identity provider's keys cannot be fetched: {why}",
    )


def identity_mismatch(field: str, stated: str, verified: str) -> ServiceError:
    """The request speaks for a player other than the verified caller."""
    return ServiceError(
        grpc.StatusCode.PERMISSION_DENIED,
        "ERROR_REASON_IDENTITY_MISMATCH",
        f"{field} {stated!r} is not the caller's verified identity",
        metadata={"field": field, "player_id": stated, "verified": verified},
    )


def verified_required(what: str) -> ServiceError:
    """A guest (or anonymous) caller asked for what only verified identities may do."""
    return ServiceError(
        grpc.StatusCode.PERMISSION_DENIED,
        "ERROR_REASON_VERIFIED_IDENTITY_REQUIRED",
        f"{what} is open to verified (non-guest) identities only",
    )


def limited(reason: str, limit: str, retry_after_ms: int, detail: str) -> ServiceError:
    """RESOURCE_EXHAUSTED: ``limit`` was reached; try again after ``retry_after_ms``."""
    return ServiceError(
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        reason,
        f"limit {limit} reached: {detail}; retry in {max(retry_after_ms, 1)} ms",
        metadata={"limit": limit, "retry_after_ms": str(max(retry_after_ms, 1))},
        retry_after_ms=max(retry_after_ms, 1),
    )


def guests_disabled() -> ServiceError:
    """IssueGuestToken where no guest key is configured (GUEST_KEY_FILE)."""
    return ServiceError(
        grpc.StatusCode.FAILED_PRECONDITION,
        "ERROR_REASON_VERIFIED_IDENTITY_REQUIRED",
        "this deployment issues no guest identities: sign in with its identity provider",
    )
