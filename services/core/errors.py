"""Client-facing errors: a gRPC status code plus google.rpc rich details.

Every error carries a ``google.rpc.ErrorInfo`` whose ``reason`` is a value
name of ``roost.common.v1.ErrorReason`` and, for malformed requests, a
``google.rpc.BadRequest`` listing the offending fields. A client mistake is
never ``INTERNAL``.
"""

from __future__ import annotations

from collections.abc import Mapping

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

DOMAIN = "roost.games"

#: The longest message, and the longest metadata value or field description, a
#: status carries. They may echo what a client sent (a ticket id, a game name,
#: an option value); a huge one is cut so the status stays far inside gRPC's
#: limit on trailing metadata (8 KiB by default: a client receiving more sees
#: RESOURCE_EXHAUSTED instead of the error).
MAX_MESSAGE = 300
MAX_DETAIL = 120


def clip(text: str, limit: int = MAX_DETAIL) -> str:
    """``text``, cut to ``limit`` characters (marked with an ellipsis)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ServiceError(Exception):
    """A rejected call: the status code, the ErrorReason name and details."""

    def __init__(
        self,
        code: grpc.StatusCode,
        reason: str,
        message: str,
        *,
        metadata: Mapping[str, str] | None = None,
        field_violations: Mapping[str, str] | None = None,
        retry_after_ms: int | None = None,
    ) -> None:
        message = clip(message, MAX_MESSAGE)
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.message = message
        self.metadata = {k: clip(v) for k, v in (metadata or {}).items()}
        self.field_violations = {
            clip(f): clip(d, MAX_MESSAGE) for f, d in (field_violations or {}).items()
        }
        #: How long the client should wait before retrying (a google.rpc.RetryInfo).
        self.retry_after_ms = retry_after_ms

    def to_status(self) -> grpc.Status:
        """The rich ``grpc.Status`` to abort a call with."""
        info = error_details_pb2.ErrorInfo(
            reason=self.reason, domain=DOMAIN, metadata=self.metadata
        )
        details = [info]
        if self.field_violations:
            details.append(
                error_details_pb2.BadRequest(
                    field_violations=[
                        error_details_pb2.BadRequest.FieldViolation(field=f, description=d)
                        for f, d in self.field_violations.items()
                    ]
                )
            )
        if self.retry_after_ms is not None:
            delay = duration_pb2.Duration()
            delay.FromMilliseconds(self.retry_after_ms)
            details.append(error_details_pb2.RetryInfo(retry_delay=delay))
        packed = []
        for detail in details:
            any_detail = any_pb2.Any()
            any_detail.Pack(detail)
            packed.append(any_detail)
        status = status_pb2.Status(
            code=getattr(code_pb2, self.code.name), message=self.message, details=packed
        )
        return rpc_status.to_status(status)


def invalid_argument(field: str, description: str) -> ServiceError:
    """A malformed request: INVALID_ARGUMENT with a BadRequest field violation."""
    return ServiceError(
        grpc.StatusCode.INVALID_ARGUMENT,
        "ERROR_REASON_INVALID_REQUEST",
        f"{field}: {description}",
        field_violations={field: description},
    )


def invalid_options(field: str, description: str) -> ServiceError:
    """Game options the engine refused."""
    return ServiceError(
        grpc.StatusCode.INVALID_ARGUMENT,
        "ERROR_REASON_INVALID_OPTIONS",
        f"{field}: {description}",
        field_violations={field: description},
    )


def not_found(game_id: str) -> ServiceError:
    """No such game."""
    return ServiceError(
        grpc.StatusCode.NOT_FOUND,
        "ERROR_REASON_GAME_NOT_FOUND",
        f"no game {game_id!r}",
        metadata={"game_id": game_id},
    )


def token_missing() -> ServiceError:
    """The call needs a seat token (metadata x-seat-token)."""
    return ServiceError(
        grpc.StatusCode.UNAUTHENTICATED,
        "ERROR_REASON_TOKEN_MISSING",
        "this call needs a seat token in metadata 'x-seat-token'",
    )


def token_invalid() -> ServiceError:
    """A token was sent but it belongs to no seat of this game."""
    return ServiceError(
        grpc.StatusCode.PERMISSION_DENIED,
        "ERROR_REASON_TOKEN_INVALID",
        "the seat token is not valid for this game",
    )


def stale_version(expected: int, current: int) -> ServiceError:
    """expected_version is behind (or ahead of) the game."""
    return ServiceError(
        grpc.StatusCode.ABORTED,
        "ERROR_REASON_STALE_VERSION",
        f"expected version {expected} but the game is at version {current}",
        metadata={"current_version": str(current)},
    )


def precondition(reason: str, message: str, rule: str = "") -> ServiceError:
    """A legal request the game state refuses (not your turn, game over, illegal)."""
    metadata = {"rule": rule} if rule else {}
    return ServiceError(grpc.StatusCode.FAILED_PRECONDITION, reason, message, metadata=metadata)


def request_id_reused(request_id: str) -> ServiceError:
    """The request id already named a different request."""
    return ServiceError(
        grpc.StatusCode.ALREADY_EXISTS,
        "ERROR_REASON_REQUEST_ID_REUSED",
        f"request_id {request_id!r} was already used for a different request",
        metadata={"request_id": request_id},
    )


def store_unavailable() -> ServiceError:
    """Redis cannot be reached or did not answer in time: retry with backoff."""
    return ServiceError(
        grpc.StatusCode.UNAVAILABLE,
        "ERROR_REASON_STORE_UNAVAILABLE",
        "the game store is unavailable; retry with backoff",
    )


def message_too_large(size: int, limit: int) -> ServiceError:
    """A request message over ``MAX_MESSAGE_BYTES`` (either port): INVALID_ARGUMENT,
    never retryable (the same request is refused again)."""
    return ServiceError(
        grpc.StatusCode.INVALID_ARGUMENT,
        "ERROR_REASON_MESSAGE_TOO_LARGE",
        f"the request is larger than the limit of {limit} bytes"
        + (f" ({size} bytes)" if size > 0 else ""),
        metadata={"limit_bytes": str(limit)},
    )


def store_full() -> ServiceError:
    """Redis refused a write (maxmemory reached): nothing was applied."""
    return ServiceError(
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "ERROR_REASON_STORE_FULL",
        "the game store is full; nothing was written",
    )


def overloaded(what: str) -> ServiceError:
    """The process is at one of its caps (calls in flight, commands waiting)."""
    return ServiceError(
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "ERROR_REASON_OVERLOADED",
        f"the service is overloaded ({what}); retry with backoff",
        metadata={"limit": what},
    )


def version_out_of_range(asked: int, current: int) -> ServiceError:
    """A version beyond the game's current one was asked for."""
    return ServiceError(
        grpc.StatusCode.OUT_OF_RANGE,
        "ERROR_REASON_VERSION_OUT_OF_RANGE",
        f"version {asked} is beyond the game's current version {current}",
        metadata={"current_version": str(current)},
    )


def draining() -> ServiceError:
    """The server is shutting down: resume the call on another replica."""
    return ServiceError(
        grpc.StatusCode.UNAVAILABLE,
        "ERROR_REASON_DRAINING",
        "the server is shutting down; resume on another replica",
    )


def watch_behind(last_version: int) -> ServiceError:
    """A Watch stream fell too far behind its game: resume from the last version received."""
    return ServiceError(
        grpc.StatusCode.UNAVAILABLE,
        "ERROR_REASON_WATCH_BEHIND",
        f"the stream fell too far behind the game (after version {last_version});"
        " watch again from the last version received",
        metadata={"last_version": str(last_version)},
    )
