"""Random Mucken states at every phase, for the research tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from stammtisch.engine.core import CHANCE, TERMINAL
from stammtisch.games.mucken.rules import MuckenRules
from stammtisch.games.mucken.state import MuckenState

#: rule variants that reach every phase and contract between them
VARIANTS: tuple[MuckenRules, ...] = (
    MuckenRules.preset("seefest"),
    MuckenRules.preset("wikipedia"),
    MuckenRules.preset("seefest", no_game="muss", doublings=4),
    MuckenRules.preset("seefest", no_game="ramsch", ramsch_stichzwang=True,
                       ramsch_last_man=True, cut_max_times=0, cut_min_times=0),
    MuckenRules.preset("seefest", deck="long", games=("muck", "wenz", "geier", "farbsolo"),
                       klopfen=True),
)


def random_states(rules: MuckenRules, games: int, seed: int) -> Iterator[MuckenState]:
    """Every state (after chance) of ``games`` random games, in order."""
    rng = random.Random(seed)
    for g in range(games):
        state = MuckenState(rules, dealer=g % 4)
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
