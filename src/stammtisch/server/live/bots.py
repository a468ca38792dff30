"""The bots of a live table's seats: one bot per seat, made on first use.

A seat's bot is the one the seat names if the game has it, else the game's default bot.
A bot that thinks long (the game's table hooks say which: ``slow_bot``) chooses off the
event loop, on a copy of the game.
"""

from __future__ import annotations

import asyncio

from stammtisch.bots.base import Bot
from stammtisch.engine.core import Action, GameState
from stammtisch.games import registry
from stammtisch.server.live.table import LiveTable


def default_bot(game: str) -> str:
    """The game's default bot if it can be made here, else ``random``."""
    name = registry.get(game).default_bot
    return name if name in registry.bot_names(game) else "random"


class SeatBots:
    """The bots of one table, by seat."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.bots: dict[int, Bot] = {}

    def bot_for(self, seat: int) -> Bot:
        game = self.table.game_name
        st = self.table.seats[seat]
        bot = self.bots.get(seat)
        name = st.bot if st.bot in registry.bot_names(game) else default_bot(game)
        if bot is None or bot.name != name:
            bot = self.bots[seat] = registry.make_bot(game, name)
        return bot

    async def choose(self, g: GameState, seat: int) -> Action:
        """The action of ``seat``'s bot in ``g``."""
        bot = self.bot_for(seat)
        rng = self.table.manager.rng
        if self.table.hooks.slow_bot(bot.name):
            # a bot that thinks for a while: off the event loop, on a copy of the game
            return await asyncio.to_thread(bot.choose, g.clone(), rng)
        return bot.choose(g, rng)
