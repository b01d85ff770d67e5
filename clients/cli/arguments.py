"""The argument types of the ``roost`` command line (argparse ``type=`` callables)."""

from __future__ import annotations

import argparse

from clients.bots.policies import KINDS, is_kind


def players_arg(text: str) -> list[int]:
    """'2', '2,3' or '2-4'."""
    try:
        if "-" in text:
            low, high = text.split("-", 1)
            values = list(range(int(low), int(high) + 1))
        else:
            values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected N, N,M or N-M, got {text!r}") from exc
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError(f"player counts must be positive, got {text!r}")
    return values


def positive_arg(text: str) -> int:
    try:
        value = int(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from exc
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def bot_spec(text: str) -> tuple[int, str]:
    """SEAT=KIND."""
    seat, sep, kind = text.partition("=")
    if not sep or not seat.strip().isdigit() or not is_kind(kind):
        raise argparse.ArgumentTypeError(
            f"expected SEAT=KIND with KIND one of {', '.join(KINDS)}, search@<N>ms, "
            f"search@<N>p or package.module:ClassName, got {text!r}"
        )
    return int(seat), kind


def kinds_arg(text: str) -> tuple[str, ...]:
    kinds = tuple(k.strip() for k in text.split(",") if k.strip())
    unknown = [k for k in kinds if not is_kind(k)]
    if not kinds or unknown:
        raise argparse.ArgumentTypeError(
            f"bot kinds are {', '.join(KINDS)}, search@<N>ms, search@<N>p or "
            f"package.module:ClassName; got {text!r}"
        )
    return kinds


def kind_arg(text: str) -> str:
    """One bot kind or policy import path."""
    if not is_kind(text):
        raise argparse.ArgumentTypeError(
            f"expected one of {', '.join(KINDS)}, search@<N>ms, search@<N>p or "
            f"package.module:ClassName; got {text!r}"
        )
    return text
