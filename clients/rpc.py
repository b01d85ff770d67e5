"""What every client command shares: channels, seat tokens, errors and exit codes.

Exit codes of the ``roost`` commands (also in docs/CLI.md):

====  ==========================================================================
code  meaning
====  ==========================================================================
0     success
1     unexpected error (or a tournament with games that did not finish)
2     bad command line (unknown option, malformed value)
3     a service is unreachable (UNAVAILABLE, DEADLINE_EXCEEDED)
4     the seat token was refused or is missing (UNAUTHENTICATED, PERMISSION_DENIED)
5     the game or ticket does not exist (NOT_FOUND)
6     the service refused the request (INVALID_ARGUMENT, FAILED_PRECONDITION, ...)
7     the matchmaking ticket ended without a game (expired, cancelled, failed)
8     ``roost play``: standard input ended before the game did
130   interrupted (Ctrl-C)
====  ==========================================================================
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

TOKEN_KEY = "x-seat-token"
CHANNEL_OPTIONS = (
    ("grpc.max_receive_message_length", 8 * 1024 * 1024),
    ("grpc.keepalive_time_ms", 30_000),
)


class Exit(IntEnum):
    """Exit codes of the roost commands."""

    OK = 0
    ERROR = 1
    USAGE = 2
    UNAVAILABLE = 3
    AUTH = 4
    NOT_FOUND = 5
    REJECTED = 6
    TICKET_ENDED = 7
    INPUT_ENDED = 8
    INTERRUPTED = 130


_BY_CODE = {
    grpc.StatusCode.UNAVAILABLE: Exit.UNAVAILABLE,
    grpc.StatusCode.DEADLINE_EXCEEDED: Exit.UNAVAILABLE,
    grpc.StatusCode.UNAUTHENTICATED: Exit.AUTH,
    grpc.StatusCode.PERMISSION_DENIED: Exit.AUTH,
    grpc.StatusCode.NOT_FOUND: Exit.NOT_FOUND,
    grpc.StatusCode.INVALID_ARGUMENT: Exit.REJECTED,
    grpc.StatusCode.FAILED_PRECONDITION: Exit.REJECTED,
    grpc.StatusCode.ABORTED: Exit.REJECTED,
    grpc.StatusCode.ALREADY_EXISTS: Exit.REJECTED,
    grpc.StatusCode.OUT_OF_RANGE: Exit.REJECTED,
}


class CliError(Exception):
    """A failure to report to the user with an exit code."""

    def __init__(self, message: str, code: Exit = Exit.ERROR) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def metadata(token: str | None) -> tuple[tuple[str, str], ...]:
    """Call metadata carrying a seat token (none for a spectator)."""
    return ((TOKEN_KEY, token),) if token else ()


def channel(address: str) -> grpc.Channel:
    """A blocking channel."""
    return grpc.insecure_channel(address, options=CHANNEL_OPTIONS)


def aio_channel(address: str) -> grpc.aio.Channel:
    """An asyncio channel."""
    return grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS)


def wait_ready(ch: grpc.Channel, timeout: float) -> bool:
    """True once the channel connects within ``timeout`` seconds."""
    try:
        grpc.channel_ready_future(ch).result(timeout=timeout)
    except grpc.FutureTimeoutError:
        return False
    return True


def code_of(error: BaseException) -> grpc.StatusCode | None:
    """The status code of an RPC error."""
    if isinstance(error, grpc.RpcError) and hasattr(error, "code"):
        return error.code()
    return None


def reason_of(error: grpc.RpcError) -> str:
    """The ErrorInfo reason of a rich error ('' when absent)."""
    try:
        status = rpc_status.from_call(error)  # type: ignore[arg-type]
    except Exception:
        return ""
    if status is None:
        return ""
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return info.reason
    return ""


def exit_for(error: grpc.RpcError) -> Exit:
    """The exit code of a failed call."""
    code = code_of(error)
    return _BY_CODE.get(code, Exit.ERROR) if code is not None else Exit.ERROR


def details_of(error: Any) -> str:
    """The server's message of a failed call."""
    try:
        return str(error.details() or "")
    except Exception:
        return str(error)


def explain(error: grpc.RpcError, what: str, address: str) -> CliError:
    """A user-facing message (and exit code) for a failed call to ``what`` at ``address``."""
    code = code_of(error)
    details = details_of(error)
    reason = reason_of(error)
    if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
        message = (
            f"cannot reach the {what} at {address} ({code.name.lower()}). "
            "Is it running? Start the local stack with `roost up`, or pass --target / set the "
            "address variable."
        )
    elif code in (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED):
        message = f"the seat token was refused: {details}"
    elif code == grpc.StatusCode.NOT_FOUND:
        message = f"not found: {details}"
    else:
        name = code.name if code is not None else "error"
        message = f"{what} refused the request ({name}): {details}"
    if reason and code not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
        message += f" [{reason}]"
    return CliError(message, exit_for(error))
