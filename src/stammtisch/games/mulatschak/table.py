"""Mulatschak at a live table: what the server's table needs from the game
(:class:`~stammtisch.games.base.table.TableHooks`, ``PLUGIN.table``)."""

from __future__ import annotations

from typing import Any

from stammtisch.engine.core import Action, GameState
from stammtisch.games.base.table import TableHooks, base_mark, preset_rules_name, seat_actions
from stammtisch.games.mulatschak.rules import PRESETS, MulatschakRules
from stammtisch.games.mulatschak.state import MulatschakState


def stand_in_mark(state: GameState, seat: int, action: Action) -> dict[str, Any]:
    """Where a stand-in's action is in the record: ``index`` in its ``actions``."""
    if not isinstance(state, MulatschakState):
        raise TypeError(f"not a Mulatschak state: {type(state).__name__}")
    return {**base_mark(state, seat, action), "index": seat_actions(state.history)}


#: Mulatschak's table: its bots think quickly
TABLE = TableHooks(
    stand_in_mark=stand_in_mark,
    rules_name=preset_rules_name({name: MulatschakRules.preset(name) for name in PRESETS}),
)
