"""The broadcaster of a live table: every connection gets its own ``state`` message.

A ``state`` message is ``{"type": "state", "version", "table", "view", "out_of_turn"}``:
the table's info (the same for everyone but for ``you``, ``invite_code`` and
``is_creator``), the seat's own view of the game (the engine's ``view(seat)``: nothing of
the other hands; spectators see no hands) and the out-of-turn actions the seat may take
now.  Nothing is shown of a table whose store port is not alive (several workers: the
table moved, and its memory may hold an action the database refused), nor while a
record is being committed (the broadcast after the commit sends it).
"""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

from stammtisch.server.live.port import TablePort
from stammtisch.server.live.table import Connection, LiveTable


def _dumps(obj: Any) -> str:
    """JSON exactly as the websocket sends it (compact, no ASCII escaping)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class Broadcaster:
    """The messages of one live table (see the module docstring)."""

    def __init__(self, table: LiveTable, port: TablePort) -> None:
        self.table = table
        self.port = port
        #: the rules (frozen) serialised once per table
        self._rules_text: str | None = None

    # -- the table info --------------------------------------------------------------
    def _info_head(self) -> dict[str, Any]:
        """``table_info`` up to the seats (the same for every seat)."""
        t = self.table
        return {"id": t.id, "name": t.name, "public": t.public, "status": t.status,
                "game": t.game_name, "rules": t.rules_name,
                "rules_options": t.rules.to_json(), "seats": self._seats_info()}

    def _seats_info(self) -> list[dict[str, Any]]:
        t = self.table
        return [{"name": s.name, "kind": s.kind,
                 "bot": (s.bot if t.bot_plays(i) and (s.kind != "empty"
                                                       or not t.between_games()) else None),
                 "away": s.away, "timed_out": s.timed_out,
                 "connected": s.user_id is not None and t.is_connected(s.user_id),
                 "away_since": (None if not s.away or s.away_at is None
                                else int(s.away_at * 1000))}
                for i, s in enumerate(t.seats)]

    def _info_head_text(self) -> str:
        """``_dumps(self._info_head())`` without its closing brace."""
        t = self.table
        if self._rules_text is None:
            self._rules_text = _dumps(t.rules.to_json())
        head = _dumps({"id": t.id, "name": t.name, "public": t.public, "status": t.status,
                       "game": t.game_name, "rules": t.rules_name})
        return (f'{head[:-1]},"rules_options":{self._rules_text},'
                f'"seats":{_dumps(self._seats_info())}')

    def _info_tail(self) -> dict[str, Any]:
        """``table_info`` between ``you`` and ``invite_code`` (the same for every seat)."""
        t = self.table
        return {
            "game_number": t.game_number,
            "turn_timer": t.settings.get("turn_timer", 0),
            "turn_deadline": (None if t.turn_deadline is None
                              else int((time.time() + t.turn_deadline - time.monotonic())
                                       * 1000)),
            "sheet": t.match.sheet.to_json(),
            "match_over": t.match.is_over(),
            "between_games": t.game is not None and t.game.is_terminal(),
            "spectators": t.spectators(),
            "note": t.note or None,
            "allow_hints": bool(t.settings.get("allow_hints")),
            "tournament": t.settings.get("tournament"),
            "bot_takeover": t.bot_takeover,
            "away_timeout": t.away_timeout,
            "away_rule": t.away_rule,
            "waiting_for": t.waiting_for(),
            "stand_in_games": t.stand_in_games(),
            "demo_games": t.demo_games or None,
            "closed": t.closed,
        }

    def _info_viewer(self, seat: int | None, user_id: int | None) -> dict[str, Any]:
        """``table_info`` after the shared tail: what depends on who looks."""
        return {"invite_code": self.table.invite_code if seat is not None else None,
                "is_creator": user_id is not None and user_id == self.table.creator_id}

    def table_info(self, seat: int | None, user_id: int | None = None) -> dict[str, Any]:
        return {**self._info_head(), "you": seat, **self._info_tail(),
                **self._info_viewer(seat, user_id)}

    def lobby_entry(self) -> dict[str, Any]:
        """The table as the lobby lists it."""
        t = self.table
        return {"id": t.id, "name": t.name, "game": t.game_name, "rules": t.rules_name,
                "status": t.status, "players": t.num_seats,
                "seats": [self._lobby_seat(i) for i in range(t.num_seats)],
                "free": [i for i, s in enumerate(t.seats) if s.kind == "empty"],
                "bobbl_target": t.hooks.lobby_target(t.rules),
                "turn_timer": t.settings.get("turn_timer", 0),
                "spectators": t.spectators()}

    def _lobby_seat(self, seat: int) -> dict[str, Any]:
        """A seat as the lobby shows it: a person who is away is not listed by name
        (``away``; ``kind`` ``bot`` while a bot plays the seat for them)."""
        t = self.table
        s = t.seats[seat]
        if s.kind == "human" and s.away:
            return {"name": "", "kind": "bot" if t.bot_plays(seat) else "human",
                    "away": True}
        return {"name": s.name, "kind": s.kind}

    # -- the game ----------------------------------------------------------------------
    def out_of_turn_for(self, seat: int | None) -> list[str]:
        """The texts of the out-of-turn actions ``seat`` may take now (Mulatschak's Muli,
        Mus's señas); empty for spectators, between games and for most games."""
        g = self.table.game
        if seat is None or g is None or g.is_terminal():
            return []
        return [str(a) for a in g.out_of_turn_actions(seat)]

    def view_for(self, seat: int | None) -> dict[str, Any] | None:
        """``seat``'s own view of the game (the engine's ``view(seat)``: nothing of the
        other hands); a view without ``legal`` gets the seat's legal actions added (its
        own, on its turn; else ``[]``)."""
        g = self.table.game
        if g is None:
            return None
        view: dict[str, Any] = g.view(seat)
        if "legal" not in view:
            view["legal"] = ([str(a) for a in g.legal_actions()]
                             if seat is not None and g.current_player == seat else [])
        return view

    def game_text(self, seat: int | None) -> str:
        """What of the game ``seat`` receives (its view and its out-of-turn actions), as
        text: equal before and after a change that tells the seat nothing."""
        return _dumps([self.view_for(seat), self.out_of_turn_for(seat)])

    # -- messages ----------------------------------------------------------------------
    def message_for(self, conn: Connection) -> dict[str, Any]:
        self.port.check()
        seat = self.table.seat_of(conn.user_id)
        return {"type": "state", "version": self.table.version_for(seat),
                "table": self.table_info(seat, conn.user_id),
                "view": self.view_for(seat), "out_of_turn": self.out_of_turn_for(seat)}

    async def broadcast(self) -> None:
        """Send every connection its ``state`` message.

        The text is the same as ``json.dumps(message_for(conn))`` (compact, key order
        kept), but the part of the table info that all seats share is built and
        serialised once per broadcast, and each seat's view once, not once per socket.
        Fields that depend on the viewer belong in :meth:`_info_viewer`, which both
        paths use (``tests/test_bench_server.py`` checks the two texts are equal)."""
        t = self.table
        if not self.port.alive or t.saving:
            return  # (saving: the broadcast after the commit sends it)
        dead = []
        head = self._info_head_text()  # '{"id":…,"seats":[…]'
        tail = _dumps(self._info_tail())[1:-1]  # '"game_number":…,"spectators":n'
        prefix = f'{{"type":"state","version":{_dumps(t.version)},"table":{head},"you":'
        views: dict[int | None, str] = {}
        texts: dict[tuple[int | None, str], str] = {}
        for key, conn in list(t.connections.items()):
            try:
                seat = t.seat_of(conn.user_id)
                if t.version_for(seat) != t.version:
                    continue  # a private change that left this seat's message as it was
                if conn.send_text is None:
                    await conn.send(self.message_for(conn))
                    continue
                viewer = _dumps(self._info_viewer(seat, conn.user_id))[1:-1]
                text = texts.get((seat, viewer))
                if text is None:
                    view = views.get(seat)
                    if view is None:
                        view = views[seat] = _dumps(self.view_for(seat))
                    text = texts[(seat, viewer)] = (
                        f'{prefix}{_dumps(seat)},{tail},{viewer}}},"view":{view},'
                        f'"out_of_turn":{_dumps(self.out_of_turn_for(seat))}}}')
                await conn.send_text(text)
            except Exception:  # a closed socket: drop it
                dead.append(key)
        for key in dead:
            t.connections.pop(key, None)

    async def send_all(self, msg: dict[str, Any]) -> None:
        """Send ``msg`` to every connection (a chat message); closed sockets are skipped."""
        for c in list(self.table.connections.values()):
            with contextlib.suppress(Exception):
                await c.send(msg)
