"""Bots: players that choose actions through the same legal_actions/apply API as everyone."""

from stammtisch.bots.base import BOTS, Bot, make_bot
from stammtisch.bots.random_bot import RandomBot

__all__ = ["BOTS", "Bot", "RandomBot", "make_bot"]
