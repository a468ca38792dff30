"""The fence of a table of one worker among several: a wrapper of its store port.

Every read and write of a live table goes through its store port
(:class:`~stammtisch.server.live.port.TablePort`), so wrapping the port fences all of
them by construction.  Each write names the lease generation the worker took the table
with; the database refuses it once another worker has taken the table
(:class:`~stammtisch.persistence.store.StaleLeaseError`, nothing written).  A refused
write makes the port *dead* at once — before any other coroutine runs: the broadcaster
then shows nothing more (the table's memory may hold the refused action), and every
further read or write, and so every message of a client, is refused with
:class:`~.common.LeaseLost` (a ``TableMoved``: the socket is closed with 1012 and
reconnects, to the new owner) — and the worker drops the table.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from stammtisch.persistence.models import ChatMessage, GameRow
from stammtisch.persistence.store import StaleLeaseError
from stammtisch.server.live.port import GameSave, StorePort
from stammtisch.server.workers.common import LeaseLost


class FencedPort:
    """A table's store port with every read and write fenced (see the module
    docstring).  ``refused(table_id, gen)``: a write was refused; ``finished(table_id)``:
    the table's status became ``finished`` (it leaves the shared lists)."""

    def __init__(self, inner: StorePort, refused: Callable[[str, int | None], None],
                 finished: Callable[[str], None]) -> None:
        self.inner = inner
        self.table_id = inner.table_id
        self._refused = refused
        self._finished = finished
        #: a runtime made without a lease generation cannot prove it owns the table
        self.dead = inner.gen is None

    @property
    def alive(self) -> bool:
        return not self.dead

    def check(self) -> None:
        if self.dead:
            raise LeaseLost(self.table_id)

    def lose(self) -> None:
        """The worker stopped serving the table: nothing more is read, written or shown."""
        self.dead = True

    @contextlib.contextmanager
    def _fenced(self) -> Iterator[None]:
        self.check()
        try:
            yield
        except StaleLeaseError:
            self.dead = True  # now: before any other coroutine may show the memory
            self._refused(self.table_id, self.inner.gen)
            raise LeaseLost(self.table_id) from None

    def save_table(self, seats: list[dict[str, Any]], status: str) -> None:
        with self._fenced():
            self.inner.save_table(seats, status)
        if status == "finished":
            self._finished(self.table_id)

    async def save_game(self, save: GameSave) -> None:
        # (the group-committing writer refuses a stale save with StaleLeaseError too)
        with self._fenced():
            await self.inner.save_game(save)

    def add_chat(self, user_id: int | None, name: str, text: str) -> ChatMessage:
        with self._fenced():
            return self.inner.add_chat(user_id, name, text)

    def chat(self) -> list[ChatMessage]:
        self.check()
        return self.inner.chat()

    def games(self) -> list[GameRow]:
        self.check()
        return self.inner.games()
