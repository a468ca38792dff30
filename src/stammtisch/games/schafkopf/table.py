"""Schafkopf at a live table: what the server's table needs from the game
(:class:`~stammtisch.games.base.table.TableHooks`, ``PLUGIN.table``)."""

from __future__ import annotations

from typing import Any

from stammtisch.engine.core import Action, GameState
from stammtisch.games.base.table import TableHooks, base_mark, seat_actions, slow_by_prefix
from stammtisch.games.schafkopf.rules import SchafkopfRules
from stammtisch.games.schafkopf.state import SchafkopfState


def stand_in_mark(state: GameState, seat: int, action: Action) -> dict[str, Any]:
    """Where a stand-in's action is in the record: ``play`` (its index in the card
    plays) during the play, and always ``index`` (in the record's ``actions``)."""
    if not isinstance(state, SchafkopfState):
        raise TypeError(f"not a Schafkopf state: {type(state).__name__}")
    mark = base_mark(state, seat, action)
    if state.phase == "play":
        t = state.tricks
        mark["play"] = sum(len(cards) for _, cards in t.tricks) + len(t.current)
    mark["index"] = seat_actions(state.history)
    return mark


def _rules_name(rules: SchafkopfRules) -> str:
    return rules.name


#: Schafkopf's table: PIMC thinks long; the sitting is counted in rounds of four hands
#: and may have Kreuzbock rounds
TABLE = TableHooks(
    slow_bot=slow_by_prefix("pimc"),
    stand_in_mark=stand_in_mark,
    rules_name=_rules_name,
    match_flags=frozenset({"kreuzbock"}),
)
