"""Random Schafkopf positions in play for the solver and bot tests."""

from __future__ import annotations

import random

from stammtisch.cards import Card
from stammtisch.engine.core import Say
from stammtisch.games.schafkopf import SchafkopfRules, SchafkopfState
from stammtisch.games.schafkopf.state import PLAY


def random_contract_state(rng: random.Random, preset: str = "anleitung",
                          kinds: tuple[str, ...] = ()) -> SchafkopfState:
    """A random deal played through a random bidding until the first card (a game with a
    declarer; ``kinds``: only these game kinds)."""
    rules = SchafkopfRules.preset(preset)
    while True:
        s = SchafkopfState(rules, rng.randrange(4))
        s.apply(s.sample_chance(rng))
        while not s.is_terminal() and s.phase != PLAY:
            legal = list(s.legal_actions())
            if s.phase == "bidding":
                bids = [a for a in legal if a != Say("weiter") and str(a) != "sie"
                        and (not kinds or str(a).split("-")[0] in kinds)]
                a = rng.choice(bids) if bids and rng.random() < 0.5 else legal[0]
            elif s.phase in ("legen", "stossen"):
                a = legal[-1] if rng.random() < 0.8 else rng.choice(legal)
            else:
                a = rng.choice(legal)
            s.apply(a)
        if s.phase != PLAY or s.game is None:
            continue
        if kinds and s.game.kind not in kinds:
            continue
        return s


def play_random(s: SchafkopfState, rng: random.Random, cards: int) -> SchafkopfState:
    """``cards`` random legal cards played (fewer if the game ends)."""
    for _ in range(cards):
        if s.is_terminal():
            break
        legal = list(s.legal_actions())
        c = rng.choice(legal)
        assert isinstance(c, Card)
        s.apply(c)
    return s
