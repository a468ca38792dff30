"""Research interfaces: every game for reinforcement-learning and game-theory frameworks.

Written once for every registered game that has a research encoding
(``GamePlugin.encoding``, a :class:`~stammtisch.games.base.encoding.Encoding`):

- :mod:`stammtisch.research.pettingzoo` — a PettingZoo AEC environment ``env(game, …)``;
- :mod:`stammtisch.research.openspiel` — the OpenSpiel games ``python_<game>`` (registered
  with ``pyspiel`` on import; the game and state, written once, are
  :mod:`stammtisch.research.spiel`'s).

:func:`adapter` gives them by game and kind (``encoding``: the game's own encoding
module).  They need the ``research`` extra (``pip install -e ".[research]"``: numpy,
pettingzoo, open_spiel, rlcard) and are imported on demand; this module imports neither.
See docs/research.md.

>>> kinds("mucken")
['encoding', 'openspiel', 'pettingzoo']
>>> adapter("mucken", "chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
stammtisch.errors.StammtischError: game 'mucken' has no research adapter 'chess' (known: ...)
>>> rules_param("mucken", registry.get("mucken").make_rules("seefest", doublings=2))
'seefest;doublings:2'
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from stammtisch.errors import StammtischError
from stammtisch.games import registry
from stammtisch.games.base import encoding as base_encoding
from stammtisch.games.base.encoding import Encoding

__all__ = ["adapter", "encoding", "kinds", "parse_rules_param", "rules_param"]

KINDS = ("encoding", "openspiel", "pettingzoo")


def kinds(game: str) -> list[str]:
    """The research adapters ``game`` offers, sorted (none without an encoding)."""
    return list(KINDS) if registry.get(game).encoding is not None else []


def adapter(game: str, kind: str) -> ModuleType:
    """The module of ``game``'s research adapter ``kind`` (imported now)."""
    known = kinds(game)
    if kind not in known:
        raise StammtischError(f"game {game!r} has no research adapter {kind!r} "
                              f"(known: {', '.join(known)})")
    if kind == "pettingzoo":
        from stammtisch.research import pettingzoo

        return pettingzoo
    if kind == "openspiel":
        from stammtisch.research import openspiel

        return openspiel
    return sys.modules[type(encoding(game)).__module__]


def encoding(game: str, rules: Any = None, **params: Any) -> Encoding[Any]:
    """``game``'s encoding for ``rules`` (a rules object, a :func:`rules_param` text or
    ``None`` for the default preset) and the game's own ``params``."""
    return base_encoding.encoding_of(registry.get(game), rules, **params)


def parse_rules_param(game: str, text: str) -> Any:
    """``game``'s rules of a ``rules`` parameter (e.g. ``seefest;no_game:muss;doublings:2``,
    see :func:`stammtisch.games.base.encoding.parse_rules_param`)."""
    return base_encoding.parse_rules_param(registry.get(game), text)


def rules_param(game: str, rules: Any) -> str:
    """The ``rules`` parameter that gives ``game``'s ``rules`` (ValueError if none does)."""
    return base_encoding.rules_param(registry.get(game), rules)
