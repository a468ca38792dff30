"""Mus's plug-in: its entry in the game registry (:mod:`stammtisch.games.registry`); the
bot modules are imported only when called."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from stammtisch.bots.base import BotFactory
from stammtisch.engine.core import GameState
from stammtisch.games.base import GamePlugin
from stammtisch.games.mus.online import new_match as new_sitting
from stammtisch.games.mus.options import OPTIONS
from stammtisch.games.mus.record import load, record_of, replay, replay_record
from stammtisch.games.mus.rules import MusRules
from stammtisch.games.mus.state import MusState, new_state
from stammtisch.games.mus.statistics import STATISTICS
from stammtisch.games.mus.table import TABLE

if TYPE_CHECKING:
    from stammtisch.games.mus.presenter import MusPresenter
    from stammtisch.games.mus.research.encoding import MusEncoding


def _record_of(state: GameState) -> dict[str, Any]:
    if not isinstance(state, MusState):
        raise TypeError(f"not a Mus state: {type(state).__name__}")
    return record_of(state)


def result_line(out: Mapping[str, Any]) -> str:
    """One line of text for a :func:`replay_record` result."""
    winner = "-" if out["set_winner"] is None else f"pair {out['set_winner']}"
    status = " ".join(f"{k}:{v}" for k, v in out["status"].items())
    return f"score {out['score'][0]}:{out['score'][1]}; set won by {winner}; {status}"


#: a table's default: the equity bot (a few ms a decision)
DEFAULT_BOT = "heuristic"


def hint(state: GameState, seat: int, seed: int) -> tuple[str, dict[str, float]]:
    """The equity bot's word for ``seat`` (``mus``/``no mus``, the discard, a bet or an
    answer), decided from the seat's own view only; no values (Mus has no card play whose
    cards could be compared).  ``("", {})`` when ``seat`` is not to act."""
    import random

    from stammtisch.games.mus.bots.heuristic import HeuristicBot

    if not isinstance(state, MusState):
        raise TypeError(f"not a Mus state: {type(state).__name__}")
    if state.is_terminal() or state.current_player != seat:
        return "", {}
    legal = [str(a) for a in state.legal_actions()]
    if not legal:
        return "", {}
    word = HeuristicBot().decide(state.view(seat), state.rules, legal, random.Random(seed))
    return word, {}


def presenter() -> MusPresenter:
    """A new terminal presenter (``stammtisch play``), imported on first use."""
    from stammtisch.games.mus.presenter import MusPresenter

    return MusPresenter()


@cache
def load_bots() -> Mapping[str, BotFactory]:
    """Mus's own bots: ``heuristic`` (equity, no bluffs) and ``bluff``."""
    from stammtisch.games.mus.bots.heuristic import BluffBot, HeuristicBot

    return {"heuristic": HeuristicBot, "bluff": BluffBot}


def research_encoding(rules: MusRules, **params: Any) -> MusEncoding:
    """The research encoding of ``rules`` (ids, tensors: :mod:`stammtisch.research`);
    imported on first use, it needs the research extra."""
    from stammtisch.games.mus.research.encoding import MusEncoding

    return MusEncoding(rules, **params)


#: Mus as the registry knows it
PLUGIN = GamePlugin(
    name="mus",
    table=TABLE,
    title={"de": "Mus", "en": "Mus"},
    seats=(4, 4),
    zero_sum=False,
    rules_class=MusRules,
    options=OPTIONS,
    new_state=new_state,
    load_record=load,
    replay_state=replay,
    replay_record=replay_record,
    record_of=_record_of,
    describe_result=result_line,
    new_match=new_sitting,
    statistics=STATISTICS,
    ui_module="table_mus.js",
    presenter=presenter,
    load_bots=load_bots,
    default_bot=DEFAULT_BOT,
    hint=hint,
    encoding=research_encoding,
)
