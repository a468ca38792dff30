"""The store: every read and write of the server goes through here.

Methods take and return plain values (dicts, rows detached from their session);
each call is one short transaction.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from sqlalchemy import Table, Update, bindparam, delete, func, select, update
from sqlalchemy.exc import IntegrityError

from stammtisch.errors import StammtischError
from stammtisch.persistence.db import Database
from stammtisch.persistence.models import (
    ChatMessage,
    GamePlayer,
    GameRow,
    GameTable,
    LoginSession,
    User,
    utcnow,
)
from stammtisch.persistence.names import name_key


class NameTakenError(StammtischError):
    code = "name_taken"


class StaleLeaseError(RuntimeError):
    """A fenced write (``gen=``) of a table whose lease generation has moved on: another
    worker took the table over (``Store.fence_table``).  Nothing of the write was made."""

    def __init__(self, table_id: str, gen: int) -> None:
        super().__init__(f"table {table_id}: lease generation {gen} is no longer current; "
                         "another worker serves the table now")
        self.table_id = table_id
        self.gen = gen


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _aware(dt: datetime) -> datetime:
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)


@functools.cache
def _game_update(finished: bool, returning: bool) -> Update:
    """``UPDATE games SET record, finished, result[, finished_at] WHERE table_id, number``,
    built once (bound parameters ``b_*``) so each save skips statement construction."""
    t = cast(Table, GameRow.__table__)
    values: dict[str, Any] = {
        "record": bindparam("b_record", type_=t.c.record.type),
        "finished": bindparam("b_finished", type_=t.c.finished.type),
        "result": bindparam("b_result", type_=t.c.result.type),
    }
    if finished:
        values["finished_at"] = func.coalesce(
            t.c.finished_at, bindparam("b_now", type_=t.c.finished_at.type))
    stmt = (update(t).where(t.c.table_id == bindparam("b_table"),
                            t.c.number == bindparam("b_number")).values(values))
    return stmt.returning(t.c.id) if returning else stmt


@functools.cache
def _lease_check() -> Update:
    """``UPDATE game_tables SET lease_gen = lease_gen WHERE id AND lease_gen``: a write
    that changes nothing but locks the table's row (PostgreSQL) or takes the database's
    write lock (SQLite) until the transaction ends, so a takeover's ``fence_table``
    waits for a fenced write in flight, and the write sees a takeover that came first."""
    t = cast(Table, GameTable.__table__)
    return (update(t).where(t.c.id == bindparam("l_table"),
                            t.c.lease_gen == bindparam("l_gen"))
            .values(lease_gen=t.c.lease_gen))


def check_lease(conn: Any, table_id: str, gen: int | None) -> None:
    """Inside a write's transaction: :class:`StaleLeaseError` unless the table's lease
    generation is still ``gen`` (``None``: an unfenced write, one process alone)."""
    if gen is None:
        return
    if conn.execute(_lease_check(), {"l_table": table_id, "l_gen": gen}).rowcount != 1:
        raise StaleLeaseError(table_id, gen)


def locked_generations(conn: Any, table_ids: list[str]) -> dict[str, int]:
    """Inside a batch's transaction: the lease generation of each table, its row locked
    until the transaction ends (PostgreSQL: ``FOR UPDATE`` in id order, so two batches
    never deadlock; SQLite: a no-op ``UPDATE`` first takes the write lock)."""
    if not table_ids:
        return {}
    t = cast(Table, GameTable.__table__)
    ids = sorted(set(table_ids))
    if conn.dialect.name == "sqlite":
        conn.execute(update(t).where(t.c.id.in_(ids)).values(lease_gen=t.c.lease_gen))
        query = select(t.c.id, t.c.lease_gen).where(t.c.id.in_(ids))
    else:
        query = (select(t.c.id, t.c.lease_gen).where(t.c.id.in_(ids)).order_by(t.c.id)
                 .with_for_update())
    return {str(r[0]): int(r[1]) for r in conn.execute(query)}


class Store:
    def __init__(self, db: Database) -> None:
        self.db = db

    # -- users and sessions ---------------------------------------------------------
    def create_user(self, name: str, password_hash: str | None, guest: bool) -> User:
        user = User(name=name, name_key=None if guest else name_key(name),
                    password_hash=password_hash, is_guest=guest)
        try:
            with self.db.session() as s:
                s.add(user)
        except IntegrityError:
            raise NameTakenError(f"name {name!r} is already registered") from None
        return user

    def user_by_name(self, name: str) -> User | None:
        with self.db.session() as s:
            # the key is the NFKC case fold; rows written before it was (plain case fold)
            # differ only for names outside ASCII, and are found by the old key
            keys = {name_key(name), name.casefold()}
            found = s.scalars(select(User).where(User.name_key.in_(keys))).all()
            return min(found, key=lambda u: u.name_key != name_key(name), default=None)

    def user(self, user_id: int) -> User | None:
        with self.db.session() as s:
            return s.get(User, user_id)

    def set_language(self, user_id: int, language: str) -> None:
        with self.db.session() as s:
            s.execute(update(User).where(User.id == user_id).values(language=language))

    def create_session(self, user_id: int, days: int = 30) -> tuple[str, str]:
        token = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(24)
        with self.db.session() as s:
            s.add(LoginSession(token_hash=_hash_token(token), user_id=user_id, csrf_token=csrf,
                               expires_at=utcnow() + timedelta(days=days)))
        return token, csrf

    def session_user(self, token: str) -> tuple[User, str] | None:
        with self.db.session() as s:
            row = s.get(LoginSession, _hash_token(token))
            if row is None or _aware(row.expires_at) < utcnow():
                return None
            user = s.get(User, row.user_id)
            return (user, row.csrf_token) if user is not None else None

    def delete_session(self, token: str) -> None:
        with self.db.session() as s:
            s.execute(delete(LoginSession).where(LoginSession.token_hash == _hash_token(token)))

    # -- tables ----------------------------------------------------------------------
    def create_table(self, **fields: Any) -> GameTable:
        row = GameTable(**fields)
        with self.db.session() as s:
            s.add(row)
        return row

    def update_table(self, table_id: str, *, gen: int | None = None, **fields: Any) -> None:
        """Update a table's row; with ``gen`` only while its lease generation is ``gen``
        (else :class:`StaleLeaseError`, nothing written)."""
        fields["updated_at"] = utcnow()
        stmt = update(GameTable).where(GameTable.id == table_id)
        if gen is not None:
            stmt = stmt.where(GameTable.lease_gen == gen)
        with self.db.session() as s:
            done = s.execute(stmt.values(**fields))
            if gen is not None and cast(Any, done).rowcount != 1:
                raise StaleLeaseError(table_id, gen)

    def fence_table(self, table_id: str) -> int | None:
        """Raise the table's lease generation by one and return it (``None``: no such
        table): the first thing a worker does after taking a table over, before it reads
        the records — from then on the former owner's fenced writes fail.  Waits for a
        fenced write of the former owner that is in flight (its row lock)."""
        t = cast(Table, GameTable.__table__)
        with self.db.engine.begin() as conn:
            done = conn.execute(update(t).where(t.c.id == table_id)
                                .values(lease_gen=t.c.lease_gen + 1))
            if done.rowcount != 1:
                return None
            return int(conn.execute(select(t.c.lease_gen).where(t.c.id == table_id))
                       .scalar_one())

    def table(self, table_id: str) -> GameTable | None:
        with self.db.session() as s:
            return s.get(GameTable, table_id)

    def tables(self, statuses: tuple[str, ...] = ("open", "playing")) -> list[GameTable]:
        with self.db.session() as s:
            return list(s.scalars(select(GameTable).where(GameTable.status.in_(statuses))
                                  .order_by(GameTable.created_at)))

    # -- games -----------------------------------------------------------------------
    def save_game(self, table_id: str, number: int, record: dict[str, Any], finished: bool,
                  result: dict[str, Any] | None, players: list[Any],
                  gen: int | None = None) -> int:
        """Insert or update game ``number`` of a table (its record grows per action);
        with ``gen`` only while the table's lease generation is ``gen`` (else
        :class:`StaleLeaseError`, nothing written).

        The update — once per action of a live table — is a single Core ``UPDATE``
        (with ``RETURNING`` where the database has it) instead of an ORM load and flush,
        which costs about a third as much."""
        params = {"b_table": table_id, "b_number": number, "b_record": record,
                  "b_finished": finished, "b_result": result, "b_now": utcnow()}
        with self.db.engine.begin() as conn:
            check_lease(conn, table_id, gen)
            returning = conn.dialect.update_returning
            done = conn.execute(_game_update(finished, returning), params)
            if returning:
                found = done.scalar()
            else:
                found = (conn.execute(select(GameRow.id).where(
                    GameRow.table_id == table_id, GameRow.number == number)).scalar()
                    if done.rowcount else None)
        if found is not None:
            return int(found)
        with self.db.session() as s:
            check_lease(s, table_id, gen)
            row = s.scalar(select(GameRow).where(GameRow.table_id == table_id,
                                                 GameRow.number == number))
            if row is None:
                row = GameRow(table_id=table_id, number=number, record=record,
                              finished=finished, result=result, players=players)
                s.add(row)
                s.flush()
                for seat, p in enumerate(players):
                    if isinstance(p, dict) and p.get("user_id") is not None:
                        s.add(GamePlayer(game_id=row.id, seat=seat, user_id=p["user_id"]))
            else:
                row.record = record
                row.finished = finished
                row.result = result
            if finished and row.finished_at is None:
                row.finished_at = utcnow()
            return row.id

    def games_of_table(self, table_id: str) -> list[GameRow]:
        with self.db.session() as s:
            return list(s.scalars(select(GameRow).where(GameRow.table_id == table_id)
                                  .order_by(GameRow.number)))

    def game(self, game_id: int) -> GameRow | None:
        """A game by its internal key (never taken from a URL: see :meth:`game_by_public_id`)."""
        with self.db.session() as s:
            return s.get(GameRow, game_id)

    def game_by_public_id(self, public_id: str) -> GameRow | None:
        """A game by the opaque id of its URLs (``GameRow.public_id``)."""
        if not public_id or len(public_id) > 32:
            return None
        with self.db.session() as s:
            return s.scalar(select(GameRow).where(GameRow.public_id == public_id))

    def played_at_table(self, table_id: str, user_id: int) -> bool:
        """Whether the user was seated (as a registered user or guest) in any game of the
        table: one half of "member of a private table" (the other: seated there now)."""
        with self.db.session() as s:
            return s.scalar(
                select(GamePlayer.game_id).join(GameRow, GamePlayer.game_id == GameRow.id)
                .where(GameRow.table_id == table_id, GamePlayer.user_id == user_id)
                .limit(1)) is not None

    def history(self, user_id: int, limit: int = 100) -> list[tuple[GameRow, int]]:
        """Finished games of a user, newest first, with the seat the user had."""
        with self.db.session() as s:
            rows = s.execute(
                select(GameRow, GamePlayer.seat)
                .join(GamePlayer, GamePlayer.game_id == GameRow.id)
                .where(GamePlayer.user_id == user_id, GameRow.finished.is_(True))
                .order_by(GameRow.finished_at.desc(), GameRow.id.desc())
                .limit(limit))
            return [(r[0], r[1]) for r in rows]

    # -- chat ------------------------------------------------------------------------
    def add_chat(self, table_id: str, user_id: int | None, name: str, text: str,
                 gen: int | None = None) -> ChatMessage:
        row = ChatMessage(table_id=table_id, user_id=user_id, name=name, text=text)
        with self.db.session() as s:
            check_lease(s, table_id, gen)
            s.add(row)
        return row

    def chat(self, table_id: str, limit: int = 50) -> list[ChatMessage]:
        with self.db.session() as s:
            rows = list(s.scalars(select(ChatMessage).where(ChatMessage.table_id == table_id)
                                  .order_by(ChatMessage.id.desc()).limit(limit)))
        return rows[::-1]
