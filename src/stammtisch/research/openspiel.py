"""The OpenSpiel games of stammtisch: importing this module registers ``python_<game>`` with
``pyspiel`` for every registered game with a research encoding (``python_mucken``,
``python_schafkopf``, ``python_mulatschak``, ``python_mus``).  The game and state, written
once over any plug-in, are :mod:`stammtisch.research.spiel`'s; see docs/research.md.

>>> game = load_game("mucken")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes()), game.num_distinct_actions()
(True, 24, 58)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stammtisch.games import registry
from stammtisch.research import spiel
from stammtisch.research.spiel import GAME_TYPES, Observer, SpielGame, SpielState

__all__ = ["GAME_TYPES", "Observer", "SpielGame", "SpielState", "load_game"]


def load_game(game: str, params: Mapping[str, Any] | None = None) -> SpielGame:
    """``pyspiel.load_game("python_<game>", params)``."""
    return spiel.load_game(registry.get(game), params)


for _plugin in registry.descriptions():
    if _plugin.encoding is not None:
        spiel.register(_plugin)
