"""Mucken, the Franconian pair game (seeds 000 and 001)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stammtisch.games.mucken.rules import PRESETS, Bid, MuckenRules
from stammtisch.games.mucken.state import MuckenState, game_from_hands, new_game

if TYPE_CHECKING:
    from stammtisch.games.base import GameDescription

__all__ = ["PRESETS", "Bid", "MuckenRules", "MuckenState", "describe", "game_from_hands",
           "new_game"]


def describe() -> GameDescription:
    """Mucken's :class:`~stammtisch.games.base.GameDescription` (for the registry)."""
    from stammtisch.games.mucken.description import describe as _describe

    return _describe()
