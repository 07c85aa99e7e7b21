"""The database's schema, kept by Alembic migrations (`server/migrations/`): `upgrade` brings any
database to the newest revision, at the server's start-up and by `superchess db upgrade`. A database
made before migrations (an SQLite data folder without `alembic_version`) is upgraded in place by the
baseline revision, which creates only what it lacks."""
from __future__ import annotations

from importlib import resources

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text

# the key of the PostgreSQL advisory lock held while migrating: of several processes starting at
# once, one migrates and the others wait, then find nothing to do
MIGRATION_LOCK = 0x5C_0001


def config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files(__package__).joinpath("migrations")))
    return cfg


def head() -> str:
    """The newest revision."""
    return ScriptDirectory.from_config(config()).get_current_head()


def revision(engine: Engine) -> str | None:
    """The revision the database is at (None: made before migrations, or empty)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine) -> None:
    """Apply every migration the database lacks, in one transaction (on PostgreSQL under a lock
    that serialises processes starting together)."""
    cfg = config()
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
