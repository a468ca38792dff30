"""The game registry: one :class:`GameDescription` per game, registered in one place.

The server, the CLI, the research facade and persistence reach a game only through this
module; no module outside ``stammtisch.games.<game>`` imports a concrete game (an
``import-linter`` contract in ``pyproject.toml`` checks it, run by the test command).
Each game package exports one :class:`~stammtisch.games.base.GamePlugin` as
``games/<game>/plugin.py``'s ``PLUGIN``; :func:`_load_builtin` below is the one place that
lists them.

>>> from stammtisch.games import registry
>>> registry.names()
['mucken', 'mulatschak', 'mus', 'schafkopf']
>>> mucken = registry.get("mucken")
>>> mucken.title["de"], mucken.seats, mucken.default_preset
('Mucken', (4, 4), 'seefest')
>>> registry.get("skat")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
stammtisch.games.base.plugin.UnknownGameError: unknown game 'skat' (known: mucken, ...)
"""

from __future__ import annotations

from stammtisch.bots.base import BOTS, Bot, BotFactory
from stammtisch.errors import StammtischError
from stammtisch.games.base import GameDescription, UnknownGameError

__all__ = [
    "DEFAULT_GAME",
    "GameDescription",
    "UnknownGameError",
    "bot_factories",
    "bot_names",
    "descriptions",
    "get",
    "make_bot",
    "names",
    "register",
]

#: the game every command and table uses when none is named
DEFAULT_GAME = "mucken"


_GAMES: dict[str, GameDescription] = {}
_LOADED = False


def register(desc: GameDescription) -> None:
    """Add a game (a name can be registered once; tests may register a stub and remove it)."""
    if desc.name in _GAMES and _GAMES[desc.name] is not desc:
        raise StammtischError(f"game {desc.name!r} is registered already")
    _GAMES[desc.name] = desc


def unregister(name: str) -> None:
    """Remove a game (for tests that register a stub)."""
    _GAMES.pop(name, None)


def _load_builtin() -> None:
    """The one place that lists the games of stammtisch."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    from stammtisch.games.mucken.plugin import PLUGIN as MUCKEN
    from stammtisch.games.mulatschak.plugin import PLUGIN as MULATSCHAK
    from stammtisch.games.mus.plugin import PLUGIN as MUS
    from stammtisch.games.schafkopf.plugin import PLUGIN as SCHAFKOPF

    for plugin in (MUCKEN, MULATSCHAK, MUS, SCHAFKOPF):
        register(plugin)


def names() -> list[str]:
    """The registered games, sorted."""
    _load_builtin()
    return sorted(_GAMES)


def descriptions() -> list[GameDescription]:
    """Every registered game's description, by name."""
    return [get(n) for n in names()]


def get(name: str) -> GameDescription:
    """The description of game ``name``; :class:`UnknownGameError` listing the known ones."""
    _load_builtin()
    try:
        return _GAMES[name]
    except (KeyError, TypeError):
        raise UnknownGameError(
            f"unknown game {name!r} (known: {', '.join(sorted(_GAMES))})") from None


def bot_factories(game: str) -> dict[str, BotFactory]:
    """Every bot that can play ``game``: the generic ones and the game's own."""
    return {**BOTS, **get(game).load_bots()}


def bot_names(game: str) -> list[str]:
    """The bots of ``game`` by name, sorted."""
    return sorted(bot_factories(game))


def make_bot(game: str, name: str) -> Bot:
    """A new bot ``name`` for ``game``; ``StammtischError`` listing the known bots."""
    factories = bot_factories(game)
    try:
        factory = factories[name]
    except KeyError:
        raise StammtischError(
            f"unknown bot {name!r} (known: {', '.join(sorted(factories))})") from None
    return factory()
