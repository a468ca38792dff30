"""Bots: players that choose actions through the same legal_actions/apply API as everyone.

This package holds the bot interface and the bots that play any game from its
``legal_actions()`` (``random``).  A game's own bots (Mucken's heuristic, PIMC and IS-MCTS
bots live in :mod:`stammtisch.games.mucken.bots`) are offered by its game description;
:func:`stammtisch.games.registry.make_bot` builds either kind for a game.
"""

from stammtisch.bots.base import BOTS, Bot, make_bot
from stammtisch.bots.random_bot import RandomBot

__all__ = ["BOTS", "Bot", "RandomBot", "make_bot"]
