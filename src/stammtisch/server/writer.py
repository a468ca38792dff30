"""Group commit of the live game records: many tables' saves in one transaction, off the
event loop, each acknowledged only after its commit.

Every action of a live table stores the game's record (``Store.save_game``): one
``UPDATE`` and one commit each, on the event loop's thread.  With :class:`GameWriter` a
table hands the save over and *waits* for it (``await writer.save(...)``) while holding
its own lock; a worker thread writes everything that is queued — from all tables — as
one ``executemany`` ``UPDATE`` in one transaction, then wakes the waiting tables, which
only then send their ``state`` messages.  So the action's acknowledgement (the new
state) still comes after the commit: ``kill -9`` loses nothing that was acknowledged.
While the thread writes, the next saves queue up: the busier the server, the larger the
batch (one commit for all of them), and the disk's waits (a WAL checkpoint's ``fsync``)
no longer stop the event loop.

While a table's record is being committed the
table broadcasts nothing (a socket that connects meanwhile gets the state after the
commit), and its version is raised only after the commit, so a ``sync`` answered
meanwhile carries the old version and is not taken for an acknowledgement.

The first save of a game inserts its row (and its players): that goes through
``Store.save_game`` in the same worker thread, as does any update whose row the batch
did not find.

Several workers (server/cluster.py) pass each save's lease generation: the batch locks
the rows of those tables (``locked_generations``) and writes only the saves whose
generation is still current; the others fail with ``StaleLeaseError`` (the table moved
to another worker) and are neither written nor acknowledged.

Default: on for PostgreSQL, where every commit waits for the disk over the network and
the event loop must not (docs/performance.md, "On PostgreSQL"); off for SQLite, whose
commits take a fraction of a millisecond — handing them to a thread costs more than it
saves.  ``STAMMTISCH_GROUP_COMMIT=1`` or ``0`` decides it either way.
"""

from __future__ import annotations

import asyncio
import os
import threading
from typing import Any

from stammtisch.persistence.models import utcnow
from stammtisch.persistence.store import (
    StaleLeaseError,
    Store,
    _game_update,
    locked_generations,
)

#: one save: (table id, game number, record, finished, result, players, lease generation
#: or ``None``)
Save = tuple[str, int, dict[str, Any], bool, Any, list[Any], int | None]


#: the environment variable that turns the writer on (``1``) or off (``0``); unset: on
#: for PostgreSQL, off for SQLite
ENV = "STAMMTISCH_GROUP_COMMIT"


class GameWriter:
    """Writes game records in batches on one worker thread; see the module docstring."""

    @staticmethod
    def wanted(store: Store) -> bool:
        """Whether the server should use it for ``store``: ``STAMMTISCH_GROUP_COMMIT``
        when set, else whether the database is not SQLite."""
        value = os.environ.get(ENV, "").strip().lower()
        if value in ("1", "true", "yes", "on"):
            return True
        if value in ("0", "false", "no", "off"):
            return False
        return not store.db.is_sqlite

    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: list[tuple[Save, asyncio.Future[None]]] = []
        self._running = False
        self._task: asyncio.Task[None] | None = None
        #: games whose row exists (inserted or updated by this writer)
        self._known: set[tuple[str, int]] = set()
        self._lock = threading.Lock()
        #: batches written and saves in them (for docs/performance.md)
        self.batches = 0
        self.saves = 0

    async def save(self, table_id: str, number: int, record: dict[str, Any], finished: bool,
                   result: Any, players: list[Any], gen: int | None = None) -> None:
        """Queue one save and return once it is committed (raises what the write raised;
        with ``gen``: :class:`~stammtisch.persistence.store.StaleLeaseError` when the
        table's lease generation is no longer ``gen`` — several workers, see
        ``Store.fence_table`` — and then nothing of it was written)."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._queue.append(((table_id, number, record, finished, result, players, gen), fut))
        if not self._running:
            self._running = True
            self._task = loop.create_task(self._drain())
        await fut

    async def _drain(self) -> None:
        try:
            while self._queue:
                batch, self._queue = self._queue, []
                try:
                    refused = await asyncio.to_thread(self._write, [s for s, _ in batch])
                except Exception as e:  # every save of the batch failed with it
                    for _, fut in batch:
                        if not fut.done():
                            fut.set_exception(e)
                else:
                    for i, (_, fut) in enumerate(batch):
                        if not fut.done():
                            if i in refused:
                                fut.set_exception(refused[i])
                            else:
                                fut.set_result(None)
        finally:
            self._running = False

    def _write(self, saves: list[Save]) -> dict[int, Exception]:
        """Worker thread: the known rows in one ``UPDATE`` batch and one transaction,
        then the new ones (insert) one by one through the store.  Saves with a lease
        generation are checked in the batch's transaction (their tables' rows locked,
        ``locked_generations``); the refused ones are returned by their index, with
        their :class:`StaleLeaseError` (or the error of a new row's own insert), and
        nothing of them is written."""
        refused: dict[int, Exception] = {}
        with self._lock:
            self.batches += 1
            self.saves += len(saves)
            known = [i for i, s in enumerate(saves) if (s[0], s[1]) in self._known]
            new = [i for i, s in enumerate(saves) if (s[0], s[1]) not in self._known]
            if known:
                now = utcnow()
                with self.store.db.engine.begin() as conn:
                    fenced = [saves[i][0] for i in known if saves[i][6] is not None]
                    gens = locked_generations(conn, fenced)
                    groups: dict[bool, list[dict[str, Any]]] = {}
                    for i in known:
                        table_id, number, record, finished, result, _, gen = saves[i]
                        if gen is not None and gens.get(table_id) != gen:
                            refused[i] = StaleLeaseError(table_id, gen)
                            continue
                        groups.setdefault(finished, []).append(
                            {"b_table": table_id, "b_number": number, "b_record": record,
                             "b_finished": finished, "b_result": result, "b_now": now})
                    # a driver that cannot count an executemany's rows: the rows are
                    # known to exist (inserted here, never deleted while played)
                    counts = conn.dialect.supports_sane_multi_rowcount
                    missing = 0
                    for finished, params in groups.items():
                        done = conn.execute(_game_update(finished, False), params)
                        if counts:
                            missing += len(params) - max(0, done.rowcount)
                if missing:  # a row went away (not expected): write each on its own
                    new.extend(i for i in known if i not in refused)
            for i in new:
                table_id, number, record, finished, result, players, gen = saves[i]
                try:
                    self.store.save_game(table_id, number, record, finished, result, players,
                                         gen)
                except Exception as e:  # this save alone (a stale lease, its row)
                    refused[i] = e
                    continue
                self._known.add((table_id, number))
            for i, (table_id, number, _, finished, _, _, _) in enumerate(saves):
                if finished or i in refused:  # a later save takes the store's own path
                    self._known.discard((table_id, number))
        return refused

    def forget(self, table_id: str) -> None:
        """Drop what the writer knows of a table (its rows are inserted anew if needed)."""
        with self._lock:
            self._known = {k for k in self._known if k[0] != table_id}
