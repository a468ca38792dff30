"""Fixtures of the tournament manager's tests.

``db_url`` runs a test on a fresh SQLite file and on PostgreSQL at 127.0.0.1:5432 (one
throw-away database per test session, migrated once and dropped at the end; every test
makes its own tournaments).  Without a reachable PostgreSQL those cases are skipped with
the reason, never passed silently.

``tournament(pairs, **settings)`` builds a pure model tournament with registered pairs
(``A1``/``B1`` …) and a seeded draw.
"""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from stammtisch.persistence.db import Database
from stammtisch.persistence.tournament_store import TournamentStore
from stammtisch.tournament.model import Tournament
from stammtisch.tournament.service import TournamentService
from stammtisch.tournament.settings import TournamentSettings

PG_HOST = "127.0.0.1:5432"
PG_ADMIN_URL = f"postgresql://root@{PG_HOST}/test"


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A fresh, migrated PostgreSQL database for this test session (dropped at its end)."""
    try:
        admin = psycopg.connect(PG_ADMIN_URL, autocommit=True, connect_timeout=3)
    except psycopg.Error as e:
        pytest.skip(f"PostgreSQL not reachable at {PG_HOST}: {e}")
    name = f"stammtisch_tournament_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = f"postgresql://root@{PG_HOST}/{name}"
    try:
        db = Database(url)
        db.migrate()
        db.dispose()
        yield url
    finally:
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'stammtisch.sqlite3'}"
        db = Database(url)
        db.migrate()
        db.dispose()
        return url
    pg: str = request.getfixturevalue("pg_url")
    return pg


@pytest.fixture
def databases() -> Iterator[Callable[[str], Database]]:
    """``databases(url)``: a new engine (as another server process would have one);
    all are disposed at the test's end."""
    made: list[Database] = []

    def make(url: str) -> Database:
        db = Database(url)
        made.append(db)
        return db

    yield make
    for db in made:
        db.dispose()


@pytest.fixture
def store(db_url: str, databases: Callable[[str], Database]) -> TournamentStore:
    return TournamentStore(databases(db_url))


@pytest.fixture
def service(store: TournamentStore) -> TournamentService:
    return TournamentService(store, seed=1)


def make_tournament(pairs: int = 0, seed: int = 1, **settings: Any) -> Tournament:
    t = Tournament(TournamentSettings(**settings))
    rng = random.Random(seed)
    per = 2 if t.settings.mode == "pairs" else 1
    for i in range(1, pairs + 1):
        t.register([f"A{i}", f"B{i}"][:per], rng)
    return t


@pytest.fixture
def tournament() -> Callable[..., Tournament]:
    return make_tournament
