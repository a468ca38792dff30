"""Live tables: the server is the referee.

:class:`TableManager` holds every live table of the server and restores them from the
store at start; each is a :class:`~stammtisch.server.live.runtime.TableRuntime`, split
along its duties in :mod:`stammtisch.server.live` (the referee's fixed check order, the
seats and their timers, the store port, the records, the broadcaster).  Every client
action goes through the referee: who is it, is the game over, is it their turn, is the
client's state version current, is the action legal — then it is applied through the
engine, the game record persisted, and every connection sent its own view (spectators
see no hands).  Each game is stored as its record after every action, so a restarted
server rebuilds every table exactly where it was.

Several workers (``server/workers/``) keep this manager and its runtimes; they differ
in the store port each table gets (:meth:`TableManager.port_for`: fenced), which
tables are loaded, and the lobby.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from stammtisch.engine.core import CHANCE, GameState, Rng
from stammtisch.persistence.models import GameTable
from stammtisch.persistence.store import Store
from stammtisch.server.live.bots import default_bot
from stammtisch.server.live.errors import ActionRejected, TableMoved
from stammtisch.server.live.port import StorePort, TablePort
from stammtisch.server.live.records import replay_log
from stammtisch.server.live.runtime import TableRuntime
from stammtisch.server.live.seats import Seat
from stammtisch.server.live.table import Connection, LiveTable, Send, stored_settings
from stammtisch.server.settings import Settings
from stammtisch.server.writer import GameWriter

__all__ = [
    "ActionRejected",
    "Connection",
    "Seat",
    "TableManager",
    "TableMoved",
    "TableRuntime",
    "default_bot",
    "replay_log",
]


class TableManager:
    """All live tables of the server; restores them from the store at start."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.rng: Rng = (random.Random(settings.seed) if settings.seed is not None
                         else random.SystemRandom())
        self.tables: dict[str, TableRuntime] = {}
        self.lobby: dict[int, Send] = {}
        self.closing = False
        #: called when a game finishes a part of the match (what the match's
        #: ``finish_game`` returns; online tournaments): (table, the finished part)
        self.on_match_part: Callable[[LiveTable, object], Awaitable[None]] | None = None
        #: group commit of the game records (server/writer.py; default: PostgreSQL only)
        self.writer: GameWriter | None = GameWriter(store) if GameWriter.wanted(store) else None

    def port_for(self, table_id: str) -> TablePort:
        """The store port of a table's runtime (one process: the store, unfenced)."""
        return StorePort(self.store, self.writer, table_id)

    def resolve_chance(self, state: GameState, rng: Rng | None = None) -> None:
        while state.current_player == CHANCE:
            state.apply(state.sample_chance(rng or self.rng))

    def load(self) -> None:
        for row in self.store.tables(("open", "playing")):
            rt = TableRuntime(self, row)
            rt.restore()
            self.tables[rt.id] = rt

    async def start(self) -> None:
        for rt in self.tables.values():
            self.resume(rt)

    def adopt(self, row: GameTable) -> TableRuntime:
        """Serve a table from now on, rebuilt from its stored records (several workers:
        one this worker has just taken)."""
        rt = TableRuntime(self, row)
        rt.restore()
        self.tables[rt.id] = rt
        self.resume(rt)
        return rt

    def resume(self, rt: TableRuntime) -> None:
        """A restored table goes on: its timers, and those of the players away."""
        rt.schedule()
        for i, s in enumerate(rt.seats):
            if s.kind == "human" and s.away:
                rt.arm_away_timer(i)

    def close(self) -> None:
        self.closing = True
        for rt in self.tables.values():
            rt.close()

    def get(self, table_id: str) -> TableRuntime | None:
        return self.tables.get(table_id)

    def create(self, *, name: str, creator_id: int | None, creator_name: str, public: bool,
               rules: Any, settings: dict[str, Any], bot_seats: list[int],
               bot_name: str, creator_seat: int | None, game: str,
               seats: list[Seat] | None = None) -> TableRuntime:
        table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        if seats is None:
            seats = [Seat() for _ in range(int(settings.get("players") or 4))]
        seats = list(seats)
        for i in bot_seats:
            seats[i] = Seat(kind="bot", name=f"Bot {i + 1}", bot=bot_name)
        if creator_seat is not None and creator_id is not None:
            seats[creator_seat] = Seat(kind="human", user_id=creator_id, name=creator_name)
        row = self.insert_table(
            id=table_id, name=name, creator_id=creator_id, public=public,
            invite_code=secrets.token_urlsafe(12), rules=rules.to_json(),
            settings=stored_settings(game, settings),
            seats=[s.to_json() for s in seats], first_dealer=0, status="open")
        rt = TableRuntime(self, row)
        self.tables[rt.id] = rt
        return rt

    def insert_table(self, **fields: Any) -> GameTable:
        """Store a new table's row."""
        return self.store.create_table(**fields)

    def local_lobby(self) -> list[dict[str, Any]]:
        """The lobby entries of this process's public tables."""
        return [rt.views.lobby_entry() for rt in self.tables.values()
                if rt.public and rt.status != "finished"]

    def lobby_list(self) -> list[dict[str, Any]]:
        """The lobby as clients get it (several workers: every worker's tables)."""
        return self.local_lobby()

    async def lobby_changed(self) -> None:
        """Tell the lobby's watchers (several workers: every worker's)."""
        await self.send_lobby()

    async def send_lobby(self) -> None:
        """Send the lobby to this process's lobby sockets."""
        if not self.lobby:
            return  # nobody watches the lobby: do not build the list (O(tables) per call)
        msg = {"type": "lobby", "tables": self.lobby_list()}
        for key, send in list(self.lobby.items()):
            try:
                await send(msg)
            except Exception:
                self.lobby.pop(key, None)
