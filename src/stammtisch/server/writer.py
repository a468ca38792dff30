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

It is opt-in: ``STAMMTISCH_GROUP_COMMIT=1`` in the server's environment (measured in
docs/performance.md, "Scale: one box").  While a table's record is being committed the
table broadcasts nothing (a socket that connects meanwhile gets the state after the
commit), and its version is raised only after the commit, so a ``sync`` answered
meanwhile carries the old version and is not taken for an acknowledgement.

The first save of a game inserts its row (and its players): that goes through
``Store.save_game`` in the same worker thread, as does any update whose row the batch
did not find.  The writer is used only with the plain :class:`Store` (a store that
checks each write itself — several workers' fenced store — keeps the direct path).
"""

from __future__ import annotations

import asyncio
import os
import threading
from typing import Any

from stammtisch.persistence.models import utcnow
from stammtisch.persistence.store import Store, _game_update

#: one save: (table id, game number, record, finished, result, players)
Save = tuple[str, int, dict[str, Any], bool, Any, list[Any]]


#: the environment variable that turns the writer on (``1``); off by default
ENV = "STAMMTISCH_GROUP_COMMIT"


class GameWriter:
    """Writes game records in batches on one worker thread; see the module docstring."""

    @staticmethod
    def wanted() -> bool:
        """Whether the server should use it: ``STAMMTISCH_GROUP_COMMIT=1``."""
        return os.environ.get(ENV, "").strip().lower() in ("1", "true", "yes", "on")

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
                   result: Any, players: list[Any]) -> None:
        """Queue one save and return once it is committed (raises what the write raised)."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._queue.append(((table_id, number, record, finished, result, players), fut))
        if not self._running:
            self._running = True
            self._task = loop.create_task(self._drain())
        await fut

    async def _drain(self) -> None:
        try:
            while self._queue:
                batch, self._queue = self._queue, []
                try:
                    await asyncio.to_thread(self._write, [s for s, _ in batch])
                except Exception as e:  # every save of the batch failed with it
                    for _, fut in batch:
                        if not fut.done():
                            fut.set_exception(e)
                else:
                    for _, fut in batch:
                        if not fut.done():
                            fut.set_result(None)
        finally:
            self._running = False

    def _write(self, saves: list[Save]) -> None:
        """Worker thread: the known rows in one ``UPDATE`` batch and one transaction,
        then the new ones (insert) one by one through the store."""
        with self._lock:
            self.batches += 1
            self.saves += len(saves)
            known = [s for s in saves if (s[0], s[1]) in self._known]
            new = [s for s in saves if (s[0], s[1]) not in self._known]
            if known:
                now = utcnow()
                groups: dict[bool, list[dict[str, Any]]] = {}
                for table_id, number, record, finished, result, _ in known:
                    groups.setdefault(finished, []).append(
                        {"b_table": table_id, "b_number": number, "b_record": record,
                         "b_finished": finished, "b_result": result, "b_now": now})
                with self.store.db.engine.begin() as conn:
                    # a driver that cannot count an executemany's rows: the rows are
                    # known to exist (inserted here, never deleted while played)
                    counts = conn.dialect.supports_sane_multi_rowcount
                    missing = 0
                    for finished, params in groups.items():
                        done = conn.execute(_game_update(finished, False), params)
                        if counts:
                            missing += len(params) - max(0, done.rowcount)
                if missing:  # a row went away (not expected): write each on its own
                    new.extend(known)
            for table_id, number, record, finished, result, players in new:
                self.store.save_game(table_id, number, record, finished, result, players)
                self._known.add((table_id, number))
            for table_id, number, _, finished, _, _ in saves:
                if finished:  # a later save of it (rare) takes the store's own path
                    self._known.discard((table_id, number))

    def forget(self, table_id: str) -> None:
        """Drop what the writer knows of a table (its rows are inserted anew if needed)."""
        with self._lock:
            self._known = {k for k in self._known if k[0] != table_id}
