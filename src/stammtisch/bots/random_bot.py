"""The random bot: a uniformly random legal action."""

from __future__ import annotations

from stammtisch.bots.base import register
from stammtisch.engine.core import Action, GameState, Rng


class RandomBot:
    name = "random"

    def choose(self, state: GameState, rng: Rng) -> Action:
        actions = state.legal_actions()
        return actions[rng.randrange(len(actions))]


register("random", RandomBot)
