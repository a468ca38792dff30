"""Mucken at a live table: what the server's table needs from the game
(:class:`~stammtisch.games.base.table.TableHooks`, ``PLUGIN.table``)."""

from __future__ import annotations

from typing import Any

from stammtisch.engine.core import Action, GameState
from stammtisch.games.base.table import TableHooks, base_mark, slow_by_prefix
from stammtisch.games.mucken.rules import MuckenRules
from stammtisch.games.mucken.state import MuckenState


def _state(state: GameState) -> MuckenState:
    if not isinstance(state, MuckenState):
        raise TypeError(f"not a Mucken state: {type(state).__name__}")
    return state


def record_extras(state: GameState) -> dict[str, Any]:
    """The live record keeps the deal's Bobbl factor (Einwerfen doubles it)."""
    return {"factor": _state(state).factor}


def stand_in_mark(state: GameState, seat: int, action: Action) -> dict[str, Any]:
    """Where a stand-in's action is in the record: ``call`` (its index in ``calls``),
    ``doubling`` (in the doublings) or ``play`` (in ``plays``)."""
    g = _state(state)
    mark = base_mark(g, seat, action)
    if g.phase == "play":
        mark["play"] = sum(len(cards) for _, cards in g.tricks.tricks) + len(g.tricks.current)
    elif g.phase in ("bidding", "muss"):
        mark["call"] = len(g.calls)
    elif g.phase == "doubling":
        mark["doubling"] = len(g.doubling_seats)
    return mark


def _rules_name(rules: MuckenRules) -> str:
    return rules.name


def _bobbl_target(rules: MuckenRules) -> int | None:
    return rules.bobbl_target


#: Mucken's table: PIMC and IS-MCTS think long; the match is counted in Bobbl
TABLE = TableHooks(
    slow_bot=slow_by_prefix("pimc", "ismcts"),
    record_extras=record_extras,
    stand_in_mark=stand_in_mark,
    rules_name=_rules_name,
    lobby_target=_bobbl_target,
    limit_field="bobbl_limit",
)
