"""games.colour0 / colour1: each player's piece colour for the game, seen by both players and
watchers (null: the default of that side).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("colour0", sa.String(7), nullable=True))
    op.add_column("games", sa.Column("colour1", sa.String(7), nullable=True))


def downgrade() -> None:
    # plain ALTER TABLE (SQLite 3.35+ drops a column in place; a batch copy of `games` would break
    # the foreign keys that point at it)
    op.drop_column("games", "colour1")
    op.drop_column("games", "colour0")
