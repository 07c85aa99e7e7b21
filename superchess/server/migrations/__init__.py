"""Alembic migrations of the server's database (`server/schema.py` applies them)."""
