"""The archive's first schema: games and game_seats (services/core/records/archive.py)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("ending", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("ended_ms", sa.BigInteger, nullable=False),
        sa.Column("meta", sa.Text, nullable=False),
        sa.Column("state", sa.LargeBinary, nullable=False),
        sa.Column("pending", sa.LargeBinary, nullable=False),
        sa.Column("life", sa.LargeBinary, nullable=False),
        sa.Column("events", sa.LargeBinary, nullable=False),
        sa.Column("record_json", sa.Text, nullable=False),
    )
    # Exports and ListGames read in (ended_ms, game_id) order: the indexes give
    # that order, so no sort ever carries the records.
    op.create_index("games_by_game_and_end", "games", ["game", "ended_ms", "game_id"])
    op.create_index("games_by_end", "games", ["ended_ms", "game_id"])
    op.create_table(
        "game_seats",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("identity", sa.String(128), nullable=False),
        sa.Column("ended_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("seats_by_identity", "game_seats", ["identity", "ended_ms"])


def downgrade() -> None:
    op.drop_table("game_seats")
    op.drop_table("games")
