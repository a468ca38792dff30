"""Mucken, the Franconian pair game (seeds 000 and 001)."""

from __future__ import annotations

from stammtisch.games.mucken.rules import PRESETS, Bid, MuckenRules
from stammtisch.games.mucken.state import MuckenState, game_from_hands, new_game

__all__ = ["PRESETS", "Bid", "MuckenRules", "MuckenState", "game_from_hands", "new_game"]
