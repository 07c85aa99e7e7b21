"""game_leases: which server process runs each game's timers and computer player (several
processes over one PostgreSQL), until when (ms since the epoch) unless renewed.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("game_leases",
                    sa.Column("game_id", sa.String(24), sa.ForeignKey("games.id"), primary_key=True),
                    sa.Column("owner", sa.String(64), nullable=False, index=True),
                    sa.Column("expires_at", sa.BigInteger, nullable=False))


def downgrade() -> None:
    op.drop_table("game_leases")
