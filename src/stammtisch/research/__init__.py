"""Research interfaces: the games for reinforcement-learning and game-theory frameworks.

Each game names its adapters in its registry description (``GameDescription.research``:
kind -> module); :func:`adapter` imports one by game and kind.  Mucken has

- ``encoding`` — fixed integer action ids and observation tensors built from
  ``state.view(seat)`` (:mod:`stammtisch.games.mucken.research.encoding`);
- ``pettingzoo`` — a PettingZoo AEC environment ``MuckenEnv``;
- ``openspiel`` — the OpenSpiel game ``python_mucken`` (registered with ``pyspiel`` on
  import).

They need the ``research`` extra (``pip install -e ".[research]"``: numpy, pettingzoo,
open_spiel, rlcard) and are imported on demand.  See docs/research.md.

>>> kinds("mucken")
['encoding', 'openspiel', 'pettingzoo']
>>> adapter("mucken", "chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
stammtisch.errors.StammtischError: game 'mucken' has no research adapter 'chess' (known: ...)
"""

from __future__ import annotations

import importlib
from types import ModuleType

from stammtisch.errors import StammtischError
from stammtisch.games import registry

__all__ = ["adapter", "kinds"]


def kinds(game: str) -> list[str]:
    """The research adapters ``game`` offers, sorted."""
    return sorted(registry.get(game).research)


def adapter(game: str, kind: str) -> ModuleType:
    """The module of ``game``'s research adapter ``kind`` (imported now)."""
    modules = registry.get(game).research
    try:
        module = modules[kind]
    except KeyError:
        raise StammtischError(
            f"game {game!r} has no research adapter {kind!r} "
            f"(known: {', '.join(sorted(modules))})") from None
    return importlib.import_module(module)
