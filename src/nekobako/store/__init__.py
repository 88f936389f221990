"""Persistence: SQLAlchemy Core over a SQLite file (default) or PostgreSQL (by URL), same code."""

from .database import DatabaseError, normalize_url, open_database

__all__ = ["DatabaseError", "normalize_url", "open_database"]
