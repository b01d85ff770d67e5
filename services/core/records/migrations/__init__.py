"""The archive's schema migrations (Alembic), applied when an archive opens.

``versions/`` holds one revision per schema change; :func:`upgrade` brings a
database to the newest. Add a revision with a new file there (``down_revision``
naming the previous one), never by editing an applied one.
"""

from __future__ import annotations

import time
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

HERE = Path(__file__).resolve().parent


def config(connection: sa.Connection | None = None) -> Config:
    """Alembic's configuration for this folder (no alembic.ini needed)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["connection"] = connection
    return cfg


def upgrade(engine: sa.Engine, revision: str = "head", attempts: int = 5) -> None:
    """Migrate the database of ``engine`` to ``revision`` (idempotent). Processes
    that start together (``make run``: every service on one SQLite file) may race
    on the first migration: the loser's transaction fails, and its retry finds
    the winner's schema in place."""
    for attempt in range(attempts):
        try:
            with engine.begin() as connection:
                command.upgrade(config(connection), revision)
            return
        except sa.exc.DBAPIError:
            if attempt == attempts - 1:
                raise
            time.sleep(0.2 * (attempt + 1))
