"""A live table: its state with its duties attached, and its connections and chat.

:class:`TableRuntime` is a :class:`~.table.LiveTable` that owns one table's parts — the
store port (from the server that holds it, :meth:`~.table.TableHost.port_for`), the
referee with the seats' timers and bots, the records, the broadcaster — and is what the
sockets, the REST routes and the online tournaments talk to.  It adds what belongs to
no single duty: connections coming and going (a person who disconnects is *away*: the table's away
rule says whether it waits or a bot stands in; the seat is the person's again on
return) and the chat.
"""

from __future__ import annotations

import contextlib
from typing import Any

from stammtisch.engine.core import GameState
from stammtisch.server.live import hints
from stammtisch.server.live.errors import ActionRejected, TableMoved
from stammtisch.server.live.records import TableRecords
from stammtisch.server.live.referee import Referee
from stammtisch.server.live.table import Connection, LiveTable, TableHost
from stammtisch.server.live.views import Broadcaster


class TableRuntime(LiveTable):
    """One live table (see the module docstring)."""

    def __init__(self, manager: TableHost, row: Any) -> None:
        super().__init__(manager, row)
        self.port = manager.port_for(self.id)
        self.records = TableRecords(self)
        self.views = Broadcaster(self, self.port)
        self.referee = Referee(self, self.port, self.views, self.records)
        self.timers = self.referee.timers

    # -- the parts' entry points ---------------------------------------------------------
    async def handle_action(self, conn: Connection, text: Any, version: Any,
                            ack: Any = None) -> None:
        await self.referee.handle_action(conn, text, version, ack)

    async def hint(self, conn: Connection, version: Any) -> dict[str, Any]:
        return await hints.hint(self, self.port, conn, version)

    def message_for(self, conn: Connection) -> dict[str, Any]:
        return self.views.message_for(conn)

    async def broadcast(self) -> None:
        await self.views.broadcast()

    def table_info(self, seat: int | None, user_id: int | None = None) -> dict[str, Any]:
        return self.views.table_info(seat, user_id)

    def view_for(self, seat: int | None) -> dict[str, Any] | None:
        return self.views.view_for(seat)

    def out_of_turn_for(self, seat: int | None) -> list[str]:
        return self.views.out_of_turn_for(seat)

    def live_record(self, state: GameState) -> dict[str, Any]:
        return self.records.live_record(state)

    def restore(self) -> None:
        """Rebuild the match from the stored game records (after a restart)."""
        self.records.restore(self.port)

    def save_table(self) -> None:
        self.referee.save_seats()

    async def save_game_committed(self) -> None:
        await self.referee.save_game()

    async def seats_changed(self) -> None:
        await self.referee.seats_changed()

    def schedule(self) -> None:
        self.timers.schedule()

    def arm_away_timer(self, seat: int) -> None:
        self.timers.arm_away(seat)

    async def start_game(self) -> None:
        await self.referee.start_game()

    async def stop(self, reason: str) -> None:
        await self.referee.stop(reason)

    def close(self) -> None:
        self.timers.close()

    # -- connections -----------------------------------------------------------------
    async def connect(self, key: int, conn: Connection) -> None:
        self.port.check()
        conn.tokens = float(self.manager.settings.action_burst)
        self.connections[key] = conn
        seat = self.seat_of(conn.user_id)
        if seat is not None:
            s = self.seats[seat]
            self.timers.cancel_away(seat)
            changed = s.away or s.timed_out
            s.come_back()  # (also the time away a restart counts from)
            if changed:
                self.save_table()
                self.version += 1
                await self.manager.lobby_changed()
        for m in self.port.chat():
            await conn.send({"type": "chat", "name": m.name, "text": m.text,
                             "at": m.created_at.isoformat()})
        self.schedule()
        await self.broadcast()

    async def disconnect(self, key: int) -> None:
        conn = self.connections.pop(key, None)
        if conn is None:
            return
        seat = self.seat_of(conn.user_id)
        if seat is not None and not self.is_connected(conn.user_id):
            self.seats[seat].go_away()
            self.arm_away_timer(seat)
            with contextlib.suppress(TableMoved):  # another worker serves the table now
                await self.seats_changed()
                await self.manager.lobby_changed()

    # -- chat ---------------------------------------------------------------------------
    async def chat(self, conn: Connection, text: Any) -> None:
        self.port.check()
        if not isinstance(text, str):
            raise ActionRejected("invalid_chat", "a chat message needs text")
        # cleaned first, then checked: a text of only unprintable characters (zero-width
        # spaces, control characters) is as empty as one of only blanks
        clean = "".join(ch for ch in text if ch.isprintable()).strip()
        if not clean:
            raise ActionRejected("invalid_chat", "a chat message needs text")
        limit = self.manager.settings.chat_max_length
        if len(clean) > limit:
            raise ActionRejected("chat_too_long", f"at most {limit} characters")
        conn.charge(self.manager.settings, "messages")
        m = self.port.add_chat(conn.user_id, conn.name, clean)
        await self.views.send_all({"type": "chat", "name": m.name, "text": m.text,
                                   "at": m.created_at.isoformat()})
