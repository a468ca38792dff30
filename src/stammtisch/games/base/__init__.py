"""The games' side of the game contract: what one game gives the rest of stammtisch.

A game package builds one :class:`GamePlugin` in ``games/<game>/plugin.py`` from the typed
parts defined here (its rules and their option schema, its records, its match, and the
optional parts: bots, solver, research encoding, terminal presenter, table hooks);
:mod:`stammtisch.games.registry` holds them.  The games import only this package of the
registry side, so they stay below the registry in the layering.
"""

from __future__ import annotations

from stammtisch.games.base.options import OptionSpec, RulesSchema
from stammtisch.games.base.plugin import GameDescription, GamePlugin, UnknownGameError

__all__ = ["GameDescription", "GamePlugin", "OptionSpec", "RulesSchema", "UnknownGameError"]
