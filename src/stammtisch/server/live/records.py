"""A live table's games as records, and the match rebuilt from them after a restart.

Each game is stored as its record (issue-2 format, plus what the game's table hooks add —
Mucken's Bobbl ``factor`` — and ``log``, the full action list with the shuffle) after
every action, so a restarted server (or another worker) rebuilds every table exactly
where it was.  The record's free-form ``meta`` keeps the actions a bot took for a
person's seat (``stand_in``) and the out-of-turn actions with the seeds of their chance
(``out_of_turn``).
"""

from __future__ import annotations

import random
import time
from typing import Any

from stammtisch.engine.core import GameState, action_log
from stammtisch.server.live.port import GameSave, TablePort
from stammtisch.server.live.table import LiveTable


def live_record(table: LiveTable, state: GameState) -> dict[str, Any]:
    """The game's record (issue-2 format) plus the game's extras and ``log`` (every
    action, the shuffle included) from which the exact state is rebuilt after a restart."""
    rec = table.desc.record_of(state)
    rec.update(table.hooks.record_extras(state))
    rec["log"] = action_log(state)
    meta: dict[str, Any] = {}
    if state is table.game and table.stand_in:
        # the actions a bot took for a person's seat, in the record's free-form
        # ``meta``: [{"seat", "action", "phase", and where it is in the record (the
        # game's stand-in mark)}]
        meta["stand_in"] = list(table.stand_in)
    if state is table.game and table.out_of_turn:
        # out-of-turn actions (Muli, señas): where they come in ``log`` and the seed of
        # any chance they drew, so that a restart replays them exactly
        meta["out_of_turn"] = [dict(e) for e in table.out_of_turn]
    if meta:
        rec["meta"] = meta
    return rec


class TableRecords:
    """The records of one live table: what is saved of the current game, and the
    restore from the stored games."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table

    def live_record(self, state: GameState) -> dict[str, Any]:
        return live_record(self.table, state)

    def current_save(self) -> GameSave | None:
        """The save of the current game (``None``: no game)."""
        t = self.table
        g = t.game
        if g is None:
            return None
        players = [{"seat": i, "name": s.name, "kind": s.kind, "user_id": s.user_id,
                    "bot": s.bot if s.kind != "empty" and t.bot_plays(i) else None}
                   for i, s in enumerate(t.seats)]
        return GameSave(t.game_number, self.live_record(g), g.is_terminal(), g.result(),
                        players)

    def restore(self, port: TablePort) -> None:
        """Rebuild the match from the stored game records (after a restart)."""
        t = self.table
        for row in port.games():
            state = t.match.start_game()
            meta = row.record.get("meta")
            events = meta.get("out_of_turn", []) if isinstance(meta, dict) else []
            replay_log(state, row.record.get("log", []), events)
            t.game = state
            t.game_number = row.number
            t.stand_in = list(meta.get("stand_in", [])) if isinstance(meta, dict) else []
            if t.stand_in and state.is_terminal():
                t.stand_in_by_game[row.number] = sorted(
                    {int(m["seat"]) for m in t.stand_in if isinstance(m, dict)})
            t.out_of_turn = [dict(e) for e in events]
            t.game_humans = {i: p.get("user_id") for i, p in enumerate(row.players or [])
                             if isinstance(p, dict) and p.get("kind") == "human"}
            if state.is_terminal():
                t.match.finish_game()
        t.version = 1
        now = time.monotonic()
        for s in t.seats:  # after a restart nobody is connected yet
            if s.kind == "human":
                s.away_since = now
                if s.away:
                    s.away_at = time.time()


def replay_log(state: GameState, log: list[str], events: list[dict[str, Any]]) -> GameState:
    """Rebuild a live game from its stored ``log`` (every action's text, chance included)
    and its out-of-turn ``events`` (``LiveTable.out_of_turn``): each event is applied
    with ``apply_out_of_turn`` and the rng of its seed where it came, and the log entries
    the game itself wrote for it (Mulatschak keeps a Muli in its history) are skipped."""
    pos = 0

    def upto(end: int) -> None:
        nonlocal pos
        for i in range(pos, end):
            try:
                state.apply(state.parse_action(log[i]))
            except ValueError as e:
                raise type(e)(f"action {i}: {e}") from None
        pos = max(pos, end)

    for e in events:
        upto(int(e["at"]))
        before = len(action_log(state))
        state.apply_out_of_turn(int(e["seat"]), state.parse_action(str(e["action"])),
                                random.Random(int(e["seed"])))
        pos += len(action_log(state)) - before
    upto(len(log))
    return state
