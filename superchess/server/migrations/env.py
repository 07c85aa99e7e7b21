"""Alembic's environment: migrations run on the connection `schema.upgrade` hands over (in its
transaction, under its lock), never on a URL of their own."""
from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, transaction_per_migration=False)
with context.begin_transaction():
    context.run_migrations()
