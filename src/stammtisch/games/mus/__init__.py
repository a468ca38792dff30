"""Mus, the Basque-Spanish game of four in two pairs (seed 004, the contract
../specs/mus.md; readings: docs/rules/mus.md).

Implemented: the Spanish 40-card deck with 8 reyes (3 = king, 2 = ace) or 4; the Mus
rounds (``mus`` / ``no mus``, ``descarte`` of 1–4 cards, draws from the stock, reshuffles
of earlier discards as a chance node); the lances Grande, Chica, Pares, Juego (Punto when
nobody has Juego) with ``paso``, ``envido N``, ``quiero``, ``no quiero`` and ``ordago``;
the automatic Pares/Juego declarations; the showdown with stakes and bonuses, the set
ending at ``target``; records (``stammtisch replay``); a match of sets
(:mod:`stammtisch.games.mus.match`: sets to ``target``, ``sets`` won); señas, the signs
between partners, as a table option (:mod:`stammtisch.games.mus.senas`); the sitting of
an online table (:mod:`stammtisch.games.mus.online`, the registry's ``new_match``: sets,
stones, the showdown lance by lance); the terminal session
(:mod:`stammtisch.games.mus.terminal`, ``stammtisch play --game mus``).

The game's own bots, the judge of ``simulate``/``arena`` and the research adapters are
named in :mod:`stammtisch.games.mus.ai`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stammtisch.engine.core import GameState, Rng, resolve_chance
from stammtisch.games.base import GameDescription
from stammtisch.games.mus.online import new_match as new_sitting
from stammtisch.games.mus.record import load, record_of, replay, replay_record
from stammtisch.games.mus.rules import PRESETS, MusRules
from stammtisch.games.mus.state import MusState


def new_state(rules: MusRules, dealer: int = 0, rng: Rng | None = None) -> MusState:
    """A fresh hand at 0:0; with ``rng`` the shuffle is drawn at once."""
    state = MusState(rules, dealer)
    if rng is not None:
        resolve_chance(state, rng)
    return state


def _record_of(state: GameState) -> dict[str, Any]:
    if not isinstance(state, MusState):
        raise TypeError(f"not a Mus state: {type(state).__name__}")
    return record_of(state)


def result_line(out: Mapping[str, Any]) -> str:
    """One line of text for a :func:`replay_record` result."""
    winner = "-" if out["set_winner"] is None else f"pair {out['set_winner']}"
    status = " ".join(f"{k}:{v}" for k, v in out["status"].items())
    return f"score {out['score'][0]}:{out['score'][1]}; set won by {winner}; {status}"


def describe() -> GameDescription:
    """Mus's entry in the game registry."""
    from stammtisch.games.mus import ai

    return GameDescription(
        name="mus",
        title={"de": "Mus", "en": "Mus"},
        seats=(4, 4),
        rules_class=MusRules,
        presets=PRESETS,
        default_preset="duples",
        make_rules=MusRules.preset,
        new_state=new_state,
        load_record=load,
        replay_state=replay,
        replay_record=replay_record,
        record_of=_record_of,
        describe_result=result_line,
        new_match=new_sitting,
        ui_module="table_mus.js",
        terminal="stammtisch.games.mus.terminal",
        load_bots=ai.load_bots,
        default_bot=ai.DEFAULT_BOT,
        judge=ai.JUDGE,
        research=ai.RESEARCH,
    )


__all__ = ["MusRules", "MusState", "describe", "new_state"]
