"""The generic game engine: states, actions, chance, seat views.

Nothing here knows a particular game; trick-taking lives in :mod:`stammtisch.engine.tricks`.
"""

from stammtisch.engine.core import (
    CHANCE,
    TERMINAL,
    Action,
    Cut,
    Deal,
    GameState,
    Rng,
    Say,
    Shuffle,
    action_log,
    parse_chance,
    play_random,
    replay_actions,
    resolve_chance,
)

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "Cut",
    "Deal",
    "GameState",
    "Rng",
    "Say",
    "Shuffle",
    "action_log",
    "parse_chance",
    "play_random",
    "replay_actions",
    "resolve_chance",
]
