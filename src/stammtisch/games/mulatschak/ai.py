"""Mulatschak's bots, analysis and hint as the game registry names them.

:func:`~stammtisch.games.mulatschak.description.describe` fills ``load_bots``,
``default_bot``, ``judge``, ``analysis``, ``hint`` and ``research`` from here; the bot
modules are imported only when called.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache

from stammtisch.bots.base import BotFactory
from stammtisch.engine.core import GameState

__all__ = ["ANALYSIS", "DEFAULT_BOT", "JUDGE", "RESEARCH", "hint", "load_bots"]

#: the bot a table uses when none is named (answers in a few milliseconds per decision;
#: the search bot is stronger but slower, see docs/bots.md)
DEFAULT_BOT = "heuristic"
ANALYSIS = "stammtisch.games.mulatschak.analysis"
JUDGE = "stammtisch.games.mulatschak.judge"
RESEARCH = {
    "encoding": "stammtisch.games.mulatschak.research.encoding",
    "pettingzoo": "stammtisch.games.mulatschak.research.pettingzoo_env",
    "openspiel": "stammtisch.games.mulatschak.research.openspiel_game",
}


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
