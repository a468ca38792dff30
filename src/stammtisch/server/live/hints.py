"""A card suggestion for the player to act (tables created with ``allow_hints``).

The game's ``hint`` (its plug-in; Mucken, Schafkopf: the PIMC bot's card and each legal
card's expected result for the asker's side) — only in the phases the game's table hooks
name (the card play), only on the asker's turn, only for the current version.  It is
computed from the asker's own view, in a worker thread on a copy of the game, with a
seed of its own: the same question about the same position gets the same answer, and
the table's random stream stays untouched.
"""

from __future__ import annotations

import asyncio
import zlib
from typing import Any

from stammtisch.server.live.errors import ActionRejected
from stammtisch.server.live.port import TablePort
from stammtisch.server.live.table import Connection, LiveTable


async def hint(table: LiveTable, port: TablePort, conn: Connection,
               version: Any) -> dict[str, Any]:
    """The ``hint`` message for ``conn``'s seat (see the module docstring)."""
    port.check()
    advise = table.desc.hint
    if not table.settings.get("allow_hints") or advise is None:
        raise ActionRejected("hints_disabled", "hints are not allowed at this table")
    conn.charge(table.manager.settings, "requests")
    async with table.lock:
        seat = table.seat_required(conn, "only a player at the table gets hints")
        g = table.game
        if g is None or g.is_terminal():
            raise ActionRejected("game_over", "no game is running")
        if g.current_player != seat:
            raise ActionRejected("not_your_turn",
                                 f"it is seat {g.current_player}'s turn, not yours "
                                 f"(seat {seat})")
        if g.phase not in table.hooks.hint_phases:
            raise ActionRejected("no_hint", "hints are given for the card play only")
        current = table.version_for(seat)  # (a seña among the others is no change)
        if version != current:
            raise ActionRejected("stale_state",
                                 f"your view is version {version!r}, the table is at "
                                 f"{current}; the current view follows")
        seed = zlib.crc32(f"{table.id}:{current}:{seat}".encode())
        state = g.clone()
    card, values = await asyncio.to_thread(advise, state, seat, seed)
    return {"type": "hint", "version": version, "card": card, "values": values}
