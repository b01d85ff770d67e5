"""Structured JSON logs (structlog) with game id, request id and seat.

Handlers bind those fields with :func:`bind`, so every line logged while
serving a call carries them. The fields of a call live in one context variable
holding one dict: binding is a single ``ContextVar.set`` (every Apply binds,
few log), and :func:`merge_call_fields` copies them into each line.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import MutableMapping
from contextvars import ContextVar
from typing import Any

import structlog

_LEVELS = {"debug": 10, "info": 20, "warning": 30, "error": 40}

#: The fields bound to the current call (each gRPC call runs in its own task,
#: so in its own copy of the context).
_call_fields: ContextVar[dict[str, object] | None] = ContextVar("roost_call_fields", default=None)


def merge_call_fields(
    _logger: Any, _method: str, event_dict: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    """structlog processor: the call's bound fields, under the line's own."""
    fields = _call_fields.get()
    if fields:
        for name, value in fields.items():
            event_dict.setdefault(name, value)
    return event_dict


def configure(level: str = "info") -> None:
    """JSON lines on stdout at ``level``."""
    structlog.configure(
        processors=[
            merge_call_fields,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(_LEVELS.get(level, 20)),
        logger_factory=structlog.PrintLoggerFactory(sys.stdout),
        cache_logger_on_first_use=True,
    )
    logging.basicConfig(level=_LEVELS.get(level, 20), stream=sys.stderr)


def bind(**fields: object) -> None:
    """Attach fields to every log line of the current call (replacing what an
    earlier ``bind`` of the same call attached)."""
    _call_fields.set(fields)


def get_logger(name: str) -> structlog.stdlib.BoundLogger:
    """A logger for ``name``."""
    return structlog.get_logger(name)
