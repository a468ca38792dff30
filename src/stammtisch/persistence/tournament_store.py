"""The tournament store: tournaments as versioned JSON documents with an audit log.

``apply(tournament_id, who, command, payload, fn)`` is the only way a tournament changes:

1. load the document and its row ``version``,
2. run ``fn(tournament)`` (a :class:`TournamentError` from it: nothing is written),
3. ``UPDATE tournaments SET document=…, version=version+1 WHERE id=… AND version=<read>``
   and insert the audit row (who, when, command, payload, the new version) in the same
   transaction,
4. if the ``UPDATE`` found no row at that version, another writer got in between: go back
   to 1 with the newer document (a few times), so concurrent commands on different
   entities all land and none overwrites another.

The optimistic check alone is correct on SQLite and PostgreSQL.  To avoid redoing work
under contention, writers also queue up (``lock=True``, the default): PostgreSQL locks
the row (``SELECT … FOR UPDATE``); SQLite takes the write lock first (``BEGIN
IMMEDIATE``), and threads of one process wait on a lock per tournament rather than in
SQLite's busy loop.  The version check stays as the guard either way.

A version's document never changes, so the process keeps the last documents it read or
wrote by (database, tournament, version): a command or a read then fetches only the row's
version and decodes the document only when another process wrote it.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Table, insert, select, update
from sqlalchemy.exc import IntegrityError

from stammtisch.persistence.db import Database
from stammtisch.persistence.models import utcnow
from stammtisch.persistence.tournament_models import TournamentAudit, TournamentRow
from stammtisch.tournament.model import Tournament
from stammtisch.tournament.service import (
    Applied,
    AuditEntry,
    ConflictError,
    NotFoundError,
    NoWrite,
    TournamentInfo,
)

_T = cast(Table, TournamentRow.__table__)
_A = cast(Table, TournamentAudit.__table__)
_INFO_COLUMNS = (_T.c.id, _T.c.name, _T.c.owner_user_id, _T.c.version, _T.c.table_token,
                 _T.c.created_at, _T.c.updated_at)

_process_locks: dict[tuple[str, str], threading.Lock] = {}
_process_locks_guard = threading.Lock()


class _Documents:
    """The last documents read or written, by (database URL, tournament id); an entry
    is used only for the very version it was stored with.  Documents are never changed
    once stored here (``Tournament.from_json`` builds new objects from them)."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self._data: OrderedDict[tuple[str, str], tuple[int, dict[str, Any]]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str], version: int) -> dict[str, Any] | None:
        with self._lock:
            found = self._data.get(key)
            if found is None or found[0] != version:
                return None
            self._data.move_to_end(key)
            return found[1]

    def put(self, key: tuple[str, str], version: int, document: dict[str, Any]) -> None:
        with self._lock:
            found = self._data.get(key)
            if found is not None and found[0] > version:
                return  # a newer one is known already
            self._data[key] = (version, document)
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)


_documents = _Documents()


def _aware(dt: datetime) -> datetime:
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)


def _info(row: Any) -> TournamentInfo:
    return TournamentInfo(row.id, row.name, row.owner_user_id, row.version, row.table_token,
                          _aware(row.created_at), _aware(row.updated_at))


class TournamentStore:
    """Tournaments in the database (see the module's docstring).  One store may be used
    by many threads; every call is one short transaction."""

    def __init__(self, db: Database, *, lock: bool = True, retries: int | None = None,
                 cache: bool = True) -> None:
        self.db = db
        self.lock = lock
        self.cache = cache
        #: reloads after another writer got in between (queued writers rarely need one)
        self.retries = retries if retries is not None else (5 if lock else 50)
        #: how often ``apply`` had to start over (for tests and monitoring)
        self.retried = 0

    # -- reading ----------------------------------------------------------------------------
    def info(self, tournament_id: str) -> TournamentInfo:
        with self.db.engine.connect() as conn:
            row = conn.execute(select(*_INFO_COLUMNS).where(_T.c.id == tournament_id)).first()
        if row is None:
            raise NotFoundError(f"no tournament {tournament_id!r}", "no_tournament")
        return _info(row)

    def load(self, tournament_id: str) -> tuple[Tournament, TournamentInfo]:
        where = _T.c.id == tournament_id
        with self.db.engine.connect() as conn:
            row: Any = conn.execute(select(*_INFO_COLUMNS).where(where)).first()
            document = None if row is None else self._cached(tournament_id, row.version)
            if document is None:  # read the row again, with its document
                row = conn.execute(select(*_INFO_COLUMNS, _T.c.document).where(where)).first()
                if row is not None:
                    document = self._remember(tournament_id, row.version, row.document)
        if row is None or document is None:
            raise NotFoundError(f"no tournament {tournament_id!r}", "no_tournament")
        return Tournament.from_json(document), _info(row)

    def _cached(self, tournament_id: str, version: int) -> dict[str, Any] | None:
        return _documents.get((self.db.url, tournament_id), version) if self.cache else None

    def _remember(self, tournament_id: str, version: int,
                  document: dict[str, Any]) -> dict[str, Any]:
        if self.cache:
            _documents.put((self.db.url, tournament_id), version, document)
        return document

    def tournaments(self, owner_user_id: int | None = None) -> list[TournamentInfo]:
        """All tournaments (of one owner), newest first."""
        stmt = select(*_INFO_COLUMNS).order_by(_T.c.created_at.desc(), _T.c.id)
        if owner_user_id is not None:
            stmt = stmt.where(_T.c.owner_user_id == owner_user_id)
        with self.db.engine.connect() as conn:
            return [_info(r) for r in conn.execute(stmt)]

    def audit(self, tournament_id: str, *, after: int = 0,
              limit: int = 1000) -> list[AuditEntry]:
        """The audit log, oldest first, from sequence number ``after + 1``."""
        stmt = (select(_A.c.seq, _A.c.at, _A.c.who, _A.c.command, _A.c.payload,
                       _A.c.result_version)
                .where(_A.c.tournament_id == tournament_id, _A.c.seq > after)
                .order_by(_A.c.seq).limit(limit))
        with self.db.engine.connect() as conn:
            return [AuditEntry(r.seq, _aware(r.at), r.who, r.command, r.payload,
                               r.result_version) for r in conn.execute(stmt)]

    # -- writing ----------------------------------------------------------------------------
    def create(self, tournament: Tournament, *, who: str, owner_user_id: int | None,
               command: str = "create", payload: dict[str, Any] | None = None,
               tournament_id: str | None = None) -> TournamentInfo:
        """Store a new tournament (version 1) with its first audit row."""
        document = tournament.to_json()
        for _ in range(5):
            tid = tournament_id or secrets.token_hex(5)
            now = utcnow()
            try:
                with self.db.engine.begin() as conn:
                    conn.execute(insert(_T).values(
                        id=tid, name=tournament.settings.name, owner_user_id=owner_user_id,
                        document=document, version=1, table_token=secrets.token_urlsafe(24),
                        created_at=now, updated_at=now))
                    conn.execute(insert(_A).values(
                        tournament_id=tid, seq=1, at=now, who=who[:80], command=command[:40],
                        payload=payload or {}, result_version=1))
            except IntegrityError:
                if tournament_id is not None:
                    raise ConflictError(f"tournament {tournament_id!r} exists already"
                                        ) from None
                continue  # a random id that is taken: draw another
            return self.info(tid)
        raise RuntimeError("could not find a free tournament id")  # pragma: no cover

    @contextmanager
    def _queue(self, tournament_id: str) -> Iterator[None]:
        if not (self.lock and self.db.is_sqlite):
            yield
            return
        key = (self.db.url, tournament_id)
        with _process_locks_guard:
            lock = _process_locks.setdefault(key, threading.Lock())
        with lock:
            yield

    def apply(self, tournament_id: str, who: str, command: str, payload: dict[str, Any],
              fn: Callable[[Tournament], Any]) -> Applied[Any]:
        """Run ``fn`` on the current tournament and save the result as the next version
        with its audit row; ``fn`` returning :class:`NoWrite` writes nothing."""
        for attempt in range(self.retries + 1):
            if attempt:
                self.retried += 1
                if not self.lock:  # let the winner finish before trying again
                    time.sleep(random.uniform(0, 0.002 * min(attempt, 10)))
            with self._queue(tournament_id), self.db.engine.connect() as conn:
                if self.lock and self.db.is_sqlite:
                    conn.exec_driver_sql("BEGIN IMMEDIATE")
                stmt = select(_T.c.version).where(_T.c.id == tournament_id)
                if self.lock and not self.db.is_sqlite:
                    stmt = stmt.with_for_update()
                version = conn.execute(stmt).scalar()
                if version is None:
                    raise NotFoundError(f"no tournament {tournament_id!r}", "no_tournament")
                document = self._cached(tournament_id, version)
                if document is None:  # the version and its document in one read
                    row = conn.execute(select(_T.c.version, _T.c.document)
                                       .where(_T.c.id == tournament_id)).one()
                    version = row.version
                    document = self._remember(tournament_id, version, row.document)
                tournament = Tournament.from_json(document)
                value = fn(tournament)  # raises: the connection rolls back, nothing written
                if isinstance(value, NoWrite):
                    conn.rollback()
                    return Applied(value.value, version, False)
                new_version = version + 1
                now = utcnow()
                new_document = tournament.to_json()
                done = conn.execute(
                    update(_T).where(_T.c.id == tournament_id, _T.c.version == version)
                    .values(document=new_document, version=new_version,
                            name=tournament.settings.name, updated_at=now))
                if done.rowcount != 1:
                    conn.rollback()
                    continue
                try:
                    conn.execute(insert(_A).values(
                        tournament_id=tournament_id, seq=new_version, at=now, who=who[:80],
                        command=command[:40], payload=payload, result_version=new_version))
                    conn.commit()
                except IntegrityError:
                    conn.rollback()
                    continue
                self._remember(tournament_id, new_version, new_document)
                return Applied(value, new_version, True)
        raise ConflictError(f"tournament {tournament_id}: too many changes at the same time "
                            f"({self.retries + 1} attempts); try again")
