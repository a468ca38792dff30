"""Random Schafkopf states at every phase, for the research tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from stammtisch.engine.core import CHANCE, TERMINAL
from stammtisch.games.schafkopf.rules import SchafkopfRules
from stammtisch.games.schafkopf.state import SchafkopfState

#: rule variants that reach every phase and contract between them
SK_VARIANTS: tuple[SchafkopfRules, ...] = (
    SchafkopfRules.preset("standard"),
    SchafkopfRules.preset("anleitung"),
    SchafkopfRules.preset("standard", all_pass="muss", games=["sauspiel", "hochzeit"]),
    SchafkopfRules.preset("anleitung", games=["sauspiel", "hochzeit", "bettel"],
                          stoss_words=[]),
)


class Cautious(random.Random):
    """Favours the first option ("weiter", "gut", "lege"), so that Ramsch, Muss-Spiel and
    Hochzeit come up often."""

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        assert stop is None and step == 1
        if self.random() < 0.6:
            return 0
        return super().randrange(start)


def random_states(rules: SchafkopfRules, games: int, seed: int) -> Iterator[SchafkopfState]:
    """Every state (after chance) of ``games`` random hands, in order."""
    rng = Cautious(seed)
    for g in range(games):
        state = SchafkopfState(rules, dealer=g % 4)
        while True:
            player = state.current_player
            if player == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            yield state.clone()
            if player == TERMINAL:
                break
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
