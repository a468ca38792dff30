"""The store port of a live table: the one way a table reads and writes the database.

A runtime holds one :class:`TablePort` and nothing else of the database, so whatever
wraps the port covers every read and write of the table by construction.  One process
uses :class:`StorePort` (the store, and the group-committing writer where there is one,
``server/writer.py``).  Several workers wrap it in their fence
(``server/workers/fencing.py``): a port whose table another worker has taken is *dead* —
it refuses everything with :class:`~.errors.TableMoved`, and the broadcaster shows
nothing more of the table (its memory may hold an action the database refused).
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

from stammtisch.persistence.models import ChatMessage, GameRow
from stammtisch.persistence.store import Store
from stammtisch.server.writer import GameWriter


class GameSave(NamedTuple):
    """One save of a table's current game (``Store.save_game``'s arguments)."""

    number: int
    record: dict[str, Any]
    finished: bool
    result: Any
    players: list[Any]


class TablePort(Protocol):
    """How one live table reaches the database."""

    @property
    def alive(self) -> bool:
        """Whether the table is still this process's (else nothing may be shown)."""
        ...

    def check(self) -> None:
        """Raise :class:`~.errors.TableMoved` when the table is not alive."""
        ...

    def save_table(self, seats: list[dict[str, Any]], status: str) -> None:
        """Store the seats and the status of the table."""
        ...

    async def save_game(self, save: GameSave) -> None:
        """Store the current game's record; returns once it is committed, so that what
        is sent after it is durable."""
        ...

    def add_chat(self, user_id: int | None, name: str, text: str) -> ChatMessage: ...

    def chat(self) -> list[ChatMessage]:
        """The table's last chat messages."""
        ...

    def games(self) -> list[GameRow]:
        """The table's stored games, by number."""
        ...


class StorePort:
    """The port of one process: the store, with the writer's group commit where there is
    one.  ``gen``: the lease generation every write names (several workers; ``None``:
    unfenced)."""

    alive = True

    def __init__(self, store: Store, writer: GameWriter | None, table_id: str,
                 gen: int | None = None) -> None:
        self.store = store
        self.writer = writer
        self.table_id = table_id
        self.gen = gen

    def check(self) -> None:
        pass

    def save_table(self, seats: list[dict[str, Any]], status: str) -> None:
        self.store.update_table(self.table_id, gen=self.gen, seats=seats, status=status)

    async def save_game(self, save: GameSave) -> None:
        if self.writer is None:
            self.store.save_game(self.table_id, *save, self.gen)
        else:
            await self.writer.save(self.table_id, *save, self.gen)

    def add_chat(self, user_id: int | None, name: str, text: str) -> ChatMessage:
        return self.store.add_chat(self.table_id, user_id, name, text, self.gen)

    def chat(self) -> list[ChatMessage]:
        return self.store.chat(self.table_id)

    def games(self) -> list[GameRow]:
        return self.store.games_of_table(self.table_id)
