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
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("colour0", sa.String(7), nullable=True))
        batch.add_column(sa.Column("colour1", sa.String(7), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("colour1")
        batch.drop_column("colour0")
