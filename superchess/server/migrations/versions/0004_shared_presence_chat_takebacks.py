"""What several processes over one PostgreSQL share besides the games (cluster.py): `presence`
(which process has which player on the site, until when), `chat_lines` (the game pages' chat,
kept across restarts) and `games.takeback_offer` (the side asking to take a move back).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("takeback_offer", sa.Integer, nullable=True))
    op.create_table("presence",
                    sa.Column("player_id", sa.Integer, primary_key=True),
                    sa.Column("owner", sa.String(64), primary_key=True, index=True),
                    sa.Column("expires_at", sa.BigInteger, nullable=False))
    op.create_table("chat_lines",
                    sa.Column("id", sa.Integer, primary_key=True),
                    sa.Column("game_id", sa.String(24), sa.ForeignKey("games.id"), nullable=False),
                    sa.Column("room", sa.String(8), nullable=False),
                    sa.Column("author", sa.String(40), nullable=False),
                    sa.Column("side", sa.Integer, nullable=True),
                    sa.Column("text", sa.Text, nullable=False),
                    sa.Column("at", sa.BigInteger, nullable=False))
    op.create_index("ix_chat_lines_room", "chat_lines", ["game_id", "room", "id"])


def downgrade() -> None:
    op.drop_table("chat_lines")
    op.drop_table("presence")
    # plain ALTER TABLE, as in 0003 (a batch copy of `games` would break the foreign keys to it)
    op.drop_column("games", "takeback_offer")
