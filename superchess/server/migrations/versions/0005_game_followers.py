"""Which server processes hold a copy of which game and how many watch it through each
(`game_followers`), and which processes live (`server_processes`): a game's save notifies the other
processes only when one of them follows it; a game page's spectators are counted over all of them.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("game_followers",
                    sa.Column("game_id", sa.String(24), sa.ForeignKey("games.id"), primary_key=True),
                    sa.Column("process", sa.String(64), primary_key=True, index=True),
                    sa.Column("watchers", sa.Integer, nullable=False, server_default="0"))
    op.create_table("server_processes",
                    sa.Column("process", sa.String(64), primary_key=True),
                    sa.Column("expires_at", sa.BigInteger, nullable=False))


def downgrade() -> None:
    op.drop_table("server_processes")
    op.drop_table("game_followers")
