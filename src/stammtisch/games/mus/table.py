"""Mus at a live table: what the server's table needs from the game
(:class:`~stammtisch.games.base.table.TableHooks`, ``PLUGIN.table``)."""

from __future__ import annotations

from typing import Any

from stammtisch.engine.core import Action, GameState
from stammtisch.games.base.table import TableHooks, base_mark, preset_rules_name, seat_actions
from stammtisch.games.mus.rules import PRESETS
from stammtisch.games.mus.state import MusState


def stand_in_mark(state: GameState, seat: int, action: Action) -> dict[str, Any]:
    """Where a stand-in's action is in the record: ``index`` in its ``actions``."""
    if not isinstance(state, MusState):
        raise TypeError(f"not a Mus state: {type(state).__name__}")
    return {**base_mark(state, seat, action), "index": seat_actions(state.history)}


#: Mus's table: its bots think quickly; a hint (the equity bot's word) in every phase in
#: which a seat decides — the Mus round, the discard, the lances
TABLE = TableHooks(stand_in_mark=stand_in_mark, rules_name=preset_rules_name(PRESETS),
                   hint_phases=frozenset({"mus", "discard", "lances"}))
