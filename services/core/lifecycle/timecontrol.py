"""A game's time control: what NewGame accepts and how long a decision may take.

The message is ``roost.common.v1.TimeControl``. An unset or all-zero message
means an untimed game. Rules checked at NewGame (INVALID_OPTIONS otherwise):
every number is finite and not negative; ``increment_seconds`` needs
``bank_seconds``; ``days_per_move`` is not combined with ``move_seconds``; a
limit is at least :data:`MIN_LIMIT_MS` and at most :data:`MAX_LIMIT_MS`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from roost.common.v1 import common_pb2

HOUSE_BOT = "HOUSE_BOT"
FORFEIT = "FORFEIT"
#: A deadline shorter than this is refused (the expiry poller's resolution).
MIN_LIMIT_MS = 50
#: Nothing longer than a year.
MAX_LIMIT_MS = 366 * 24 * 3600 * 1000
DAY_SECONDS = 86_400


class TimeControlError(ValueError):
    """An invalid time control: ``field_name`` (under ``common.time_control``) and why."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(f"{field_name}: {message}")
        self.field_name = field_name
        self.message = message


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A checked time control, in milliseconds. ``move_ms`` already includes a
    correspondence limit (``days_per_move`` times the server's day)."""

    move_ms: int = 0
    bank_ms: int = 0
    increment_ms: int = 0
    days_per_move: int = 0
    #: ``HOUSE_BOT`` or ``FORFEIT``.
    on_timeout: str = FORFEIT

    @property
    def timed(self) -> bool:
        """True when some decision has a deadline."""
        return bool(self.move_ms or self.bank_ms)

    def to_json(self) -> dict[str, Any]:
        """The stored form."""
        return {
            "m": self.move_ms,
            "b": self.bank_ms,
            "i": self.increment_ms,
            "d": self.days_per_move,
            "o": self.on_timeout,
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> TimeControl:
        """Inverse of :meth:`to_json`."""
        return cls(raw["m"], raw["b"], raw["i"], raw["d"], raw["o"])

    def to_proto(self) -> common_pb2.TimeControl:
        """The message, seconds again (a correspondence limit shows as days only)."""
        policy = (
            common_pb2.TIMEOUT_POLICY_HOUSE_BOT
            if self.on_timeout == HOUSE_BOT
            else common_pb2.TIMEOUT_POLICY_FORFEIT
        )
        return common_pb2.TimeControl(
            move_seconds=0.0 if self.days_per_move else self.move_ms / 1000,
            bank_seconds=self.bank_ms / 1000,
            increment_seconds=self.increment_ms / 1000,
            days_per_move=self.days_per_move,
            on_timeout=policy,
        )


def _ms(field_name: str, seconds: float) -> int:
    if not math.isfinite(seconds) or seconds < 0:
        raise TimeControlError(field_name, "must be a finite number of seconds, not negative")
    ms = round(seconds * 1000)
    if seconds and not MIN_LIMIT_MS <= ms <= MAX_LIMIT_MS:
        raise TimeControlError(
            field_name, f"must be between {MIN_LIMIT_MS / 1000} s and a year (or 0 for none)"
        )
    return ms


def from_proto(message: common_pb2.TimeControl, day_seconds: float = DAY_SECONDS) -> TimeControl:
    """The checked time control of ``message`` (raises :class:`TimeControlError`).

    ``day_seconds`` is the length of a correspondence day (the server's
    ``DAY_SECONDS`` setting; tests compress it)."""
    move_ms = _ms("move_seconds", message.move_seconds)
    bank_ms = _ms("bank_seconds", message.bank_seconds)
    increment_ms = round(message.increment_seconds * 1000)
    if not math.isfinite(message.increment_seconds) or message.increment_seconds < 0:
        raise TimeControlError("increment_seconds", "must be finite and not negative")
    if increment_ms and not bank_ms:
        raise TimeControlError("increment_seconds", "needs bank_seconds (a Fischer clock)")
    days = message.days_per_move
    if days < 0 or days > 366:
        raise TimeControlError("days_per_move", "must be between 0 and 366")
    if days and move_ms:
        raise TimeControlError("days_per_move", "set move_seconds or days_per_move, not both")
    if days:
        move_ms = _ms("days_per_move", days * day_seconds)
    policy = message.on_timeout
    if policy not in (
        common_pb2.TIMEOUT_POLICY_UNSPECIFIED,
        common_pb2.TIMEOUT_POLICY_HOUSE_BOT,
        common_pb2.TIMEOUT_POLICY_FORFEIT,
    ):
        raise TimeControlError("on_timeout", f"unknown policy {policy}")
    on_timeout = HOUSE_BOT if policy == common_pb2.TIMEOUT_POLICY_HOUSE_BOT else FORFEIT
    return TimeControl(move_ms, bank_ms, increment_ms, days, on_timeout)
