"""The matchmaker's client-facing errors (reasons of ``roost.matchmaking.v1.ErrorReason``)."""

from __future__ import annotations

import grpc

from services.core.errors import ServiceError, invalid_argument

#: A malformed request, naming the field: the platform's own error, same reason.
invalid = invalid_argument


def unknown_game(game: str, known: list[str], why: str = "") -> ServiceError:
    """The game is not served by this matchmaker."""
    detail = f" ({why})" if why else ""
    return ServiceError(
        grpc.StatusCode.INVALID_ARGUMENT,
        "ERROR_REASON_UNKNOWN_GAME",
        f"game {game!r} is not available{detail}; available: {', '.join(known) or 'none'}",
        metadata={"game": game},
        field_violations={"game": "unknown or unavailable game"},
    )


def invalid_options(description: str) -> ServiceError:
    """options_json does not fit the game's Options message."""
    return ServiceError(
        grpc.StatusCode.INVALID_ARGUMENT,
        "ERROR_REASON_INVALID_OPTIONS",
        f"options_json: {description}",
        field_violations={"options_json": description},
    )


def ticket_not_found(ticket_id: str) -> ServiceError:
    """No such ticket."""
    return ServiceError(
        grpc.StatusCode.NOT_FOUND,
        "ERROR_REASON_TICKET_NOT_FOUND",
        f"no ticket {ticket_id!r}",
        metadata={"ticket_id": ticket_id},
    )


def ticket_closed(ticket_id: str, status: str) -> ServiceError:
    """The ticket can no longer be cancelled."""
    return ServiceError(
        grpc.StatusCode.FAILED_PRECONDITION,
        "ERROR_REASON_TICKET_CLOSED",
        f"ticket {ticket_id!r} is {status.lower()} and can no longer be cancelled",
        metadata={"ticket_id": ticket_id, "status": status},
    )
