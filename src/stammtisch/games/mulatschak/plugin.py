"""Mulatschak's entry in the game registry (:mod:`stammtisch.games.registry`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from stammtisch.bots.base import BotFactory
from stammtisch.engine.core import GameState, Rng
from stammtisch.games.base import GamePlugin
from stammtisch.games.base.analysis import AnalysisHooks
from stammtisch.games.mulatschak.online import new_match as _new_match
from stammtisch.games.mulatschak.options import OPTIONS
from stammtisch.games.mulatschak.record import (
    describe_result,
    load,
    record_of,
    replay,
    replay_record,
)
from stammtisch.games.mulatschak.rules import MulatschakRules
from stammtisch.games.mulatschak.state import MulatschakState
from stammtisch.games.mulatschak.state import new_state as _new_state
from stammtisch.games.mulatschak.statistics import STATISTICS
from stammtisch.games.mulatschak.table import TABLE

if TYPE_CHECKING:
    from stammtisch.games.mulatschak.presenter import MulatschakPresenter
    from stammtisch.games.mulatschak.research.encoding import MulatschakEncoding


def new_state(rules: MulatschakRules, dealer: int = 0, rng: Rng | None = None) -> MulatschakState:
    """A fresh hand for four at 21 points; with ``rng`` the shuffle is drawn at once."""
    return _new_state(rules, dealer, rng)


def make_rules(preset: str = "salzburg", **options: Any) -> MulatschakRules:
    """Rules of ``preset`` with JSON ``options``, checked by the option schema."""
    return OPTIONS.parse_json(preset, options)


def _record_of(state: GameState) -> dict[str, Any]:
    if not isinstance(state, MulatschakState):
        raise TypeError(f"not a Mulatschak state: {type(state).__name__}")
    return record_of(state)


def _describe_result(summary: Mapping[str, Any]) -> str:
    return describe_result(dict(summary))


#: the bot a table uses when none is named (answers in a few milliseconds per decision;
#: the search bot is stronger but slower, see docs/bots.md)
DEFAULT_BOT = "heuristic"


def presenter() -> MulatschakPresenter:
    """A new terminal presenter (``stammtisch play``), imported on first use."""
    from stammtisch.games.mulatschak.presenter import MulatschakPresenter

    return MulatschakPresenter()


@cache
def load_bots() -> Mapping[str, BotFactory]:
    """Mulatschak's own bots: ``heuristic`` and ``search``."""
    from stammtisch.games.mulatschak.bots.heuristic import HeuristicBot
    from stammtisch.games.mulatschak.bots.search import SearchBot

    return {"heuristic": HeuristicBot, "search": SearchBot}


def hint(state: GameState, seat: int, seed: int) -> tuple[str, dict[str, float]]:
    """The search bot's card for ``seat`` from its own view only, with each legal card's
    mean value (what the seat is paid, in multiples of the multiplier); outside the card
    play (or when ``seat`` is not to act) the heuristic's word and no values."""
    from stammtisch.games.mulatschak.bots.heuristic import HeuristicBot
    from stammtisch.games.mulatschak.bots.search import card_values
    from stammtisch.games.mulatschak.state import MulatschakState

    if not isinstance(state, MulatschakState):
        raise TypeError(f"not a Mulatschak state: {type(state).__name__}")
    rng = random.Random(seed)
    if state.phase != "play" or state.current_player != seat:
        if state.current_player != seat:
            return "", {}
        return str(HeuristicBot().choose(state, rng)), {}
    values = card_values(state, seat, rng)
    if not values:
        return str(HeuristicBot().choose(state, rng)), {}
    best = max(values, key=lambda c: values[c])
    return str(best), {str(c): round(v, 2) for c, v in values.items()}


def analysis() -> AnalysisHooks[Any, Any]:
    """The double-dummy analysis of a finished game (imports the solver)."""
    from stammtisch.games.mulatschak import analysis as a

    return AnalysisHooks(analyze=a.analyze, reference_pair=a.reference_pair,
                         headline=a.headline, summary=a.summary)


def research_encoding(rules: MulatschakRules, **params: Any) -> MulatschakEncoding:
    """The research encoding of ``rules`` (ids, tensors: :mod:`stammtisch.research`);
    imported on first use, it needs the research extra."""
    from stammtisch.games.mulatschak.research.encoding import MulatschakEncoding

    return MulatschakEncoding(rules, **params)


#: Mulatschak as the registry knows it
PLUGIN = GamePlugin(
    name="mulatschak",
    table=TABLE,
    title={"de": "Mulatschak", "en": "Mulatschak"},
    seats=(2, 6),
    zero_sum=False,
    rules_class=MulatschakRules,
    options=OPTIONS,
    new_state=new_state,
    load_record=load,
    replay_state=replay,
    replay_record=replay_record,
    record_of=_record_of,
    describe_result=_describe_result,
    load_bots=load_bots,
    default_bot=DEFAULT_BOT,
    analysis=analysis,
    hint=hint,
    encoding=research_encoding,
    new_match=_new_match,
    statistics=STATISTICS,
    presenter=presenter,
    ui_module="table_mulatschak.js",
)


__all__ = ["PLUGIN", "make_rules", "new_state"]
