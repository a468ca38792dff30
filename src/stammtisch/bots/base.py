"""The bot interface and the registry of bots by name.

A bot is asked for an action when its seat is to act.  It receives the game
state but must decide only on what its seat may know: its own hand and the
public information, i.e. ``state.view(seat)``.  (Search bots that need a
world sample build one from the view; they never read other hands.)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from stammtisch.engine.core import Action, GameState, Rng
from stammtisch.errors import StammtischError


class Bot(Protocol):
    name: str

    def choose(self, state: GameState, rng: Rng) -> Action:
        """An action for ``state.current_player`` (must be one of ``legal_actions()``)."""
        ...


BotFactory = Callable[[], Bot]

#: a bot's frozen settings dataclass (with a ``name`` field)
S = TypeVar("S")


class ConfiguredBot(Generic[S]):
    """A bot whose strength is a frozen settings dataclass with a ``name``: the class's
    ``default_settings`` unless given, keyword overrides replace single fields
    (``PimcBot(worlds=8)``); the bot's name is the settings' name."""

    default_settings: ClassVar[Any]

    def __init__(self, settings: S | None = None, **overrides: Any) -> None:
        base: Any = settings if settings is not None else self.default_settings
        if overrides:
            base = dataclasses.replace(base, **overrides)
        self.settings: S = base
        self.name: str = base.name


def settled(state: GameState, rng: Rng, game: type[GameState],
            random_phases: Collection[str] = ("cut",)) -> Action | None:
    """The action when there is nothing to decide, else ``None`` (the bot decides).

    ``ValueError`` when nothing is legal (the bot is not to act); a uniformly random legal
    action (one ``rng.randrange``) in ``random_phases`` (Abheben) or in a state of a game
    other than ``game``; the one legal action when there is only one.
    """
    actions = state.legal_actions()
    if not actions:
        raise ValueError("no legal action: the bot is not to act")
    if not isinstance(state, game) or state.phase in random_phases:
        return actions[rng.randrange(len(actions))]
    if len(actions) == 1:
        return actions[0]
    return None
BOTS: dict[str, BotFactory] = {}


def register(name: str, factory: BotFactory) -> None:
    BOTS[name] = factory


def make_bot(name: str) -> Bot:
    try:
        return BOTS[name]()
    except KeyError:
        raise StammtischError(f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})") from None
