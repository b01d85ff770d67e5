"""Structured JSON logs (structlog) with game id, request id and seat.

Handlers bind those fields with :func:`bind` (context variables), so every
line logged while serving a call carries them.
"""

from __future__ import annotations

import logging
import sys

import structlog

_LEVELS = {"debug": 10, "info": 20, "warning": 30, "error": 40}


def configure(level: str = "info") -> None:
    """JSON lines on stdout at ``level``."""
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
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
    """Attach fields to every log line of the current call."""
    structlog.contextvars.clear_contextvars()
    structlog.contextvars.bind_contextvars(**fields)


def get_logger(name: str) -> structlog.stdlib.BoundLogger:
    """A logger for ``name``."""
    return structlog.get_logger(name)
