"""The bot interface and the registry of bots by name.

A bot is asked for an action when its seat is to act.  It receives the game
state but must decide only on what its seat may know: its own hand and the
public information, i.e. ``state.view(seat)``.  (Search bots that need a
world sample build one from the view; they never read other hands.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from stammtisch.engine.core import Action, GameState, Rng
from stammtisch.errors import StammtischError


class Bot(Protocol):
    name: str

    def choose(self, state: GameState, rng: Rng) -> Action:
        """An action for ``state.current_player`` (must be one of ``legal_actions()``)."""
        ...


BotFactory = Callable[[], Bot]
BOTS: dict[str, BotFactory] = {}


def register(name: str, factory: BotFactory) -> None:
    BOTS[name] = factory


def make_bot(name: str) -> Bot:
    try:
        return BOTS[name]()
    except KeyError:
        raise StammtischError(f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})") from None
