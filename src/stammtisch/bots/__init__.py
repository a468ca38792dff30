"""Bots: players that choose actions through the same legal_actions/apply API as everyone."""

from stammtisch.bots.base import BOTS, Bot, make_bot
from stammtisch.bots.heuristic import HeuristicBot
from stammtisch.bots.pimc import PimcBot, PimcSettings
from stammtisch.bots.random_bot import RandomBot

__all__ = ["BOTS", "Bot", "HeuristicBot", "PimcBot", "PimcSettings", "RandomBot", "make_bot"]
