"""Mus's bots as the game registry names them (``load_bots``, ``DEFAULT_BOT``); the bot
modules are imported only when called."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from stammtisch.bots.base import BotFactory

__all__ = ["DEFAULT_BOT", "JUDGE", "RESEARCH", "load_bots"]

#: a table's default: the equity bot (a few ms a decision)
DEFAULT_BOT = "heuristic"
#: the module that judges Mus bots in ``simulate`` and ``arena``
JUDGE = "stammtisch.games.mus.judge"
#: the research adapters by kind
RESEARCH: Mapping[str, str] = {
    "encoding": "stammtisch.games.mus.research.encoding",
    "pettingzoo": "stammtisch.games.mus.research.pettingzoo_env",
    "openspiel": "stammtisch.games.mus.research.openspiel_game",
}


@cache
def load_bots() -> Mapping[str, BotFactory]:
    """Mus's own bots: ``heuristic`` (equity, no bluffs) and ``bluff``."""
    from stammtisch.games.mus.bots.heuristic import BluffBot, HeuristicBot

    return {"heuristic": HeuristicBot, "bluff": BluffBot}
