"""What every client command shares: channels, seat tokens, errors and exit codes.

The exit codes are :class:`Exit`; their meanings are listed in docs/CLI.md and
``roost --help``.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable
from enum import IntEnum
from typing import Any, TypeVar

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

TOKEN_KEY = "x-seat-token"
CHANNEL_OPTIONS = (
    ("grpc.max_receive_message_length", 8 * 1024 * 1024),
    ("grpc.keepalive_time_ms", 30_000),
    # Reconnect quickly after a restarted service (gRPC's default waits up to 120 s).
    ("grpc.initial_reconnect_backoff_ms", 250),
    ("grpc.min_reconnect_backoff_ms", 250),
    ("grpc.max_reconnect_backoff_ms", 3_000),
)
#: Seconds a command keeps retrying a service that is unavailable before it gives up.
RETRY_SECONDS_VAR = "ROOST_RETRY_SECONDS"
DEFAULT_RETRY_SECONDS = 120.0
#: ErrorInfo reasons of failures that pass: retry them with backoff.
TRANSIENT_REASONS = {
    "ERROR_REASON_STORE_UNAVAILABLE": "its store cannot be reached",
    "ERROR_REASON_DRAINING": "it is shutting down",
    "ERROR_REASON_WATCH_BEHIND": "the stream fell behind the game",
    "ERROR_REASON_OVERLOADED": "it is overloaded",
}
#: Codes of a stream cut by the network or a closed connection (not by the server's logic).
_STREAM_CUT = {
    grpc.StatusCode.INTERNAL,
    grpc.StatusCode.UNKNOWN,
    grpc.StatusCode.CANCELLED,
}
T = TypeVar("T")


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
    grpc.StatusCode.RESOURCE_EXHAUSTED: Exit.UNAVAILABLE,
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


def retry_seconds() -> float:
    """How long to keep retrying: ``$ROOST_RETRY_SECONDS``, else 120."""
    try:
        return max(float(os.environ.get(RETRY_SECONDS_VAR, "")), 0.0)
    except ValueError:
        return DEFAULT_RETRY_SECONDS


def retryable(error: BaseException, stream: bool = False) -> bool:
    """True when ``error`` passes: an unavailable, draining or overloaded service.

    With ``stream`` (a Watch that was following a game), a stream cut without a
    reason of the server's (a closed connection reads as INTERNAL, UNKNOWN or
    CANCELLED) is retryable too: the stream is resumed from the last version seen.
    """
    code = code_of(error)
    if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
        return True
    reason = reason_of(error) if isinstance(error, grpc.RpcError) else ""
    if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
        return reason in ("", "ERROR_REASON_OVERLOADED")
    return stream and code in _STREAM_CUT and not reason


def why_unavailable(error: BaseException) -> str:
    """A short reason for an unavailable service ('' when the reply gives none)."""
    reason = reason_of(error) if isinstance(error, grpc.RpcError) else ""
    return TRANSIENT_REASONS.get(reason, "")


class Retry:
    """Backoff over one bounded window of failures, reset by every success.

    ``wait(error)`` sleeps before the next attempt (exponential, jittered, at
    most 5 s) and prints one notice when a failure starts; once the window of
    :func:`retry_seconds` has passed it raises the :class:`CliError` of the
    last failure, saying how long it tried.
    """

    def __init__(
        self,
        what: str,
        address: str,
        budget: float | None = None,
        notify: Callable[[str], None] | None = None,
    ) -> None:
        self.what = what
        self.address = address
        self.budget = retry_seconds() if budget is None else budget
        self.notify = notify or _to_stderr
        self.started: float | None = None
        self.attempt = 0
        #: Whether a call has succeeded yet: until then a refused connection fails at
        #: once (nothing is running there), while a reason of the server's is retried.
        self.connected = False

    def reset(self) -> None:
        """A call succeeded: the next failure starts a new window."""
        self.connected = True
        if self.started is not None and self.attempt > 1:
            self.notify(f"the {self.what} answers again")
        self.started = None
        self.attempt = 0

    def wait(self, error: BaseException) -> None:
        """Sleep before retrying after ``error``; CliError once the window is over."""
        now = time.monotonic()
        if self.started is None:
            self.started = now
        elapsed = now - self.started
        if elapsed >= self.budget or not (self.connected or why_unavailable(error)):
            failure = explain(error, self.what, self.address)  # type: ignore[arg-type]
            if elapsed < 1.0:
                raise failure from error
            raise CliError(
                f"gave up after {elapsed:.0f} s of retrying ({RETRY_SECONDS_VAR}="
                f"{self.budget:g}): {failure.message}",
                failure.code,
            ) from error
        self.attempt += 1
        if self.attempt == 2:
            self.notify(f"{_unavailable_text(error, self.what, self.address)}; retrying…")
        delay = min(0.2 * 2 ** (self.attempt - 1), 5.0) * (0.5 + random.random() / 2)
        time.sleep(min(delay, max(self.budget - elapsed, 0.05)))

    def call(self, fn: Callable[[], T], stream: bool = False) -> T:
        """``fn()`` retried while its failures are retryable; CliError otherwise."""
        while True:
            try:
                result = fn()
            except grpc.RpcError as error:
                if not retryable(error, stream):
                    raise explain(error, self.what, self.address) from error
                self.wait(error)
                continue
            self.reset()
            return result


def _to_stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _unavailable_text(error: BaseException, what: str, address: str) -> str:
    why = why_unavailable(error)
    if why:
        return f"the {what} at {address} is unavailable ({why})"
    code = code_of(error)
    name = code.name.lower() if code is not None else "error"
    return f"lost the connection to the {what} at {address} ({name})"


def explain(error: grpc.RpcError, what: str, address: str) -> CliError:
    """A user-facing message (and exit code) for a failed call to ``what`` at ``address``."""
    code = code_of(error)
    details = details_of(error)
    reason = reason_of(error)
    why = TRANSIENT_REASONS.get(reason, "")
    if why:
        message = f"the {what} at {address} is unavailable ({why}); try again shortly"
    elif code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
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
    if reason and not why and code != grpc.StatusCode.UNAVAILABLE:
        message += f" [{reason}]"
    return CliError(message, exit_for(error))
