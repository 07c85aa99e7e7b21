"""Baseline: the schema as it stood when migrations began (players, sessions, games, moves, saved
rosters, the lobby's seeks, ratings and rating changes).

A database made before migrations (no `alembic_version` table: an SQLite data folder of an earlier
version) is brought to this schema in place: the tables it lacks are created, the columns its tables
lack are added (each with its default), and session tokens stored in plain text are replaced by
their digests. Nothing it holds is dropped or rewritten otherwise.

Revision ID: 0001
Revises:
Create Date: 2026-11-26
"""
import hashlib

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# The tables as of this revision, frozen here: later revisions change them with their own
# operations, never by editing this.
meta = sa.MetaData()
Int, Big, Txt, Flt = sa.Integer, sa.BigInteger, sa.Text, sa.Float


sa.Table("players", meta,
         sa.Column("id", Int, primary_key=True),
         sa.Column("name", sa.String(40), nullable=False, unique=True),
         sa.Column("password_hash", sa.String(200)),
         sa.Column("colour", sa.String(7)),
         sa.Column("created_at", Big, nullable=False),
         sa.Column("bot_level", Int))
sa.Table("sessions", meta,
         sa.Column("token", sa.String(64), primary_key=True),
         sa.Column("player_id", Int, sa.ForeignKey("players.id"), nullable=False),
         sa.Column("created_at", Big, nullable=False),
         sa.Column("last_seen", Big))
sa.Table("games", meta,
         sa.Column("id", sa.String(24), primary_key=True),
         sa.Column("variant", sa.String(20), nullable=False),
         sa.Column("start_fen", Txt),
         sa.Column("time_control", sa.String(30), nullable=False),
         sa.Column("status", sa.String(12), nullable=False, index=True),
         sa.Column("creator_id", Int, sa.ForeignKey("players.id"), nullable=False, index=True),
         sa.Column("creator_side", Int, nullable=False),
         sa.Column("player0_id", Int, sa.ForeignKey("players.id"), index=True),
         sa.Column("player1_id", Int, sa.ForeignKey("players.id"), index=True),
         sa.Column("invited_id", Int, sa.ForeignKey("players.id"), index=True),
         sa.Column("invite_token", sa.String(64), nullable=False, unique=True),
         sa.Column("result", sa.String(8), nullable=False, server_default="*"),
         sa.Column("termination", sa.String(30)),
         sa.Column("winner", Int),
         sa.Column("claimed", Int, nullable=False, server_default="0"),
         sa.Column("draw_offer", Int),
         sa.Column("remaining0", Big, nullable=False, server_default="0"),
         sa.Column("remaining1", Big, nullable=False, server_default="0"),
         sa.Column("turn_started_at", Big),
         sa.Column("version", Int, nullable=False, server_default="0"),
         sa.Column("created_at", Big, nullable=False),
         sa.Column("updated_at", Big, nullable=False),
         sa.Column("mode", sa.String(10), nullable=False, server_default="default"),
         sa.Column("roster0", Txt),
         sa.Column("roster1", Txt),
         sa.Column("submitted0", Int, nullable=False, server_default="0"),
         sa.Column("submitted1", Int, nullable=False, server_default="0"),
         sa.Column("setup_deadline", Big),
         sa.Column("prelude", Txt),
         sa.Column("rated", Int, nullable=False, server_default="0"),
         sa.Column("rematch_offer", Int),
         sa.Column("rematch_id", sa.String(24)))
sa.Table("moves", meta,
         sa.Column("game_id", sa.String(24), sa.ForeignKey("games.id"), primary_key=True),
         sa.Column("ply", Int, primary_key=True),
         sa.Column("text", sa.String(16), nullable=False),
         sa.Column("at", Big, nullable=False))
sa.Table("rosters", meta,
         sa.Column("id", Int, primary_key=True),
         sa.Column("player_id", Int, sa.ForeignKey("players.id"), nullable=False, index=True),
         sa.Column("name", sa.String(40), nullable=False),
         sa.Column("variant", sa.String(20), nullable=False),
         sa.Column("roster", Txt, nullable=False),
         sa.Column("updated_at", Big, nullable=False),
         sa.UniqueConstraint("player_id", "name"))
sa.Table("seeks", meta,
         sa.Column("id", sa.String(24), primary_key=True),
         sa.Column("creator_id", Int, sa.ForeignKey("players.id"), nullable=False, index=True),
         sa.Column("variant", sa.String(20), nullable=False),
         sa.Column("time_control", sa.String(30), nullable=False),
         sa.Column("mode", sa.String(10), nullable=False),
         sa.Column("creator_side", Int, nullable=False),
         sa.Column("start_fen", Txt),
         sa.Column("roster", Txt),
         sa.Column("rated", Int, nullable=False),
         sa.Column("rating_min", Int),
         sa.Column("rating_max", Int),
         sa.Column("rating_variant", sa.String(30), nullable=False),
         sa.Column("speed", sa.String(12), nullable=False),
         sa.Column("pool", sa.String(40), index=True),
         sa.Column("created_at", Big, nullable=False),
         sa.Column("expires_at", Big))
sa.Table("ratings", meta,
         sa.Column("player_id", Int, sa.ForeignKey("players.id"), primary_key=True),
         sa.Column("variant", sa.String(30), primary_key=True),
         sa.Column("speed", sa.String(12), primary_key=True),
         sa.Column("rating", Flt, nullable=False),
         sa.Column("deviation", Flt, nullable=False),
         sa.Column("volatility", Flt, nullable=False),
         sa.Column("games", Int, nullable=False),
         sa.Column("updated_at", Big, nullable=False),
         sa.Index("ix_ratings_pool", "variant", "speed", "rating"))
sa.Table("rating_changes", meta,
         sa.Column("game_id", sa.String(24), sa.ForeignKey("games.id"), primary_key=True),
         sa.Column("player_id", Int, sa.ForeignKey("players.id"), primary_key=True),
         sa.Column("variant", sa.String(30), nullable=False),
         sa.Column("speed", sa.String(12), nullable=False),
         sa.Column("before", Flt, nullable=False),
         sa.Column("after", Flt, nullable=False),
         sa.Column("deviation", Flt, nullable=False),
         sa.Column("at", Big, nullable=False),
         sa.Index("ix_rating_changes_player", "player_id", "at"))


def upgrade() -> None:
    bind = op.get_bind()
    meta.create_all(bind, checkfirst=True)  # an empty database: everything; an older one: what it lacks
    _add_missing_columns(bind)
    _hash_plaintext_tokens(bind)


def _add_missing_columns(bind) -> None:
    """The columns an older database's tables lack, each added with its default (SQLite adds a
    NOT NULL column only with one)."""
    inspector = sa.inspect(bind)
    for table in meta.sorted_tables:
        have = {c["name"] for c in inspector.get_columns(table.name)}
        for column in table.columns:
            if column.name not in have:
                default = column.server_default.arg if column.server_default is not None else None
                op.add_column(table.name, sa.Column(column.name, column.type, server_default=default,
                                                    nullable=column.nullable or default is None))


def _hash_plaintext_tokens(bind) -> None:
    """Sessions from before tokens were hashed keep working: each plain token (32 characters) is
    replaced by its digest (64 hex digits), which is what the sessions table keeps."""
    sessions = meta.tables["sessions"]
    plain = bind.execute(sa.select(sessions.c.token).where(sa.func.length(sessions.c.token) != 64)).scalars().all()
    if plain:
        bind.execute(sessions.update().where(sessions.c.token == sa.bindparam("plain"))
                     .values(token=sa.bindparam("digest")),
                     [{"plain": t, "digest": hashlib.sha256(t.encode()).hexdigest()} for t in plain])


def downgrade() -> None:
    meta.drop_all(op.get_bind())
