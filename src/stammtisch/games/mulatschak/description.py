"""Mulatschak's entry in the game registry (:mod:`stammtisch.games.registry`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stammtisch.engine.core import GameState, Rng
from stammtisch.games.base import GameDescription
from stammtisch.games.mulatschak import ai
from stammtisch.games.mulatschak.online import new_match as _new_match
from stammtisch.games.mulatschak.record import (
    describe_result,
    load,
    record_of,
    replay,
    replay_record,
)
from stammtisch.games.mulatschak.rules import PRESETS, MulatschakRules
from stammtisch.games.mulatschak.state import MulatschakState
from stammtisch.games.mulatschak.state import new_state as _new_state


def new_state(rules: MulatschakRules, dealer: int = 0, rng: Rng | None = None) -> MulatschakState:
    """A fresh hand for four at 21 points; with ``rng`` the shuffle is drawn at once."""
    return _new_state(rules, dealer, rng)


def make_rules(preset: str = "salzburg", **options: Any) -> MulatschakRules:
    return MulatschakRules.preset(preset, **options)


def _record_of(state: GameState) -> dict[str, Any]:
    if not isinstance(state, MulatschakState):
        raise TypeError(f"not a Mulatschak state: {type(state).__name__}")
    return record_of(state)


def _describe_result(summary: Mapping[str, Any]) -> str:
    return describe_result(dict(summary))


def describe() -> GameDescription:
    """Mulatschak's :class:`GameDescription` (no match sheet, bots or table UI yet)."""
    return GameDescription(
        name="mulatschak",
        title={"de": "Mulatschak", "en": "Mulatschak"},
        seats=(2, 6),
        rules_class=MulatschakRules,
        presets={name: MulatschakRules.preset(name) for name in PRESETS},
        default_preset="salzburg",
        make_rules=make_rules,
        new_state=new_state,
        load_record=load,
        replay_state=replay,
        replay_record=replay_record,
        record_of=_record_of,
        describe_result=_describe_result,
        load_bots=ai.load_bots,
        default_bot=ai.DEFAULT_BOT,
        judge=ai.JUDGE,
        analysis=ai.ANALYSIS,
        hint=ai.hint,
        research=ai.RESEARCH,
        new_match=_new_match,
        terminal="stammtisch.games.mulatschak.terminal",
        ui_module="table_mulatschak.js",
    )


__all__ = ["describe", "make_rules", "new_state"]
