"""Persistence: SQLAlchemy 2 models, Alembic migrations and the store.

SQLite (an embedded file in the user's data directory) by default; PostgreSQL by URL.
Layering: persistence may use games and tournament; the engine never imports it.
"""

from stammtisch.persistence.db import Database, default_database_url
from stammtisch.persistence.store import Store

__all__ = ["Database", "Store", "default_database_url"]
