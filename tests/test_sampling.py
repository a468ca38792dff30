"""Sampling hidden worlds for search bots: consistent with one seat's knowledge only."""

from __future__ import annotations

import random

from stammtisch.engine.core import CHANCE, TERMINAL
from stammtisch.games.mucken.bots.heuristic import HeuristicBot
from stammtisch.games.mucken.bots.sampling import (
    known_voids,
    played_cards,
    sample_worlds,
    unseen_cards,
    with_hands,
)
from stammtisch.games.mucken.rules import MuckenRules
from stammtisch.games.mucken.state import MuckenState


def _positions(seed: int, rules: MuckenRules) -> list[MuckenState]:
    """Every decision point of one heuristic game (copies)."""
    state = MuckenState(rules, seed % 4)
    chance, rng = random.Random(seed), random.Random(seed + 1)
    h = HeuristicBot()
    out = []
    while state.current_player != TERMINAL:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(chance))
            continue
        if state.phase in ("bidding", "doubling", "play"):
            out.append(state.clone())
        state.apply(h.choose(state, rng))
    return out


def test_worlds_respect_what_the_seat_knows() -> None:
    rules = MuckenRules.preset("seefest")
    checked = 0
    for seed in range(6):
        for state in _positions(seed, rules):
            seat = state.current_player
            voids = known_voids(state)
            gone = played_cards(state)
            for world in sample_worlds(state, seat, random.Random(seed), 3):
                assert world[seat] == state.hands[seat]  # its own cards, as they are
                assert [len(h) for h in world] == [len(h) for h in state.hands]
                dealt = [c for h in world for c in h]
                assert len(set(dealt)) == len(dealt) and not set(dealt) & gone
                assert set(dealt) | gone == set(state.deck)
                for s, hand in enumerate(world):
                    assert not any(state.order.klass(c) in voids[s] for c in hand)
                twin = with_hands(state, world)
                assert twin.legal_actions() == state.legal_actions()
                checked += 1
    assert checked > 300


def test_sampling_is_deterministic_and_ignores_hidden_hands() -> None:
    rules = MuckenRules.preset("seefest")
    for state in _positions(3, rules)[::5]:
        seat = state.current_player
        twin = state.clone()
        others = [s for s in range(4) if s != seat]
        a, b = others[0], others[1]
        if len(twin.hands[a]) == len(twin.hands[b]):
            twin.hands[a], twin.hands[b] = twin.hands[b], twin.hands[a]
        one = sample_worlds(state, seat, random.Random(9), 4)
        assert sample_worlds(state, seat, random.Random(9), 4) == one
        assert sample_worlds(twin, seat, random.Random(9), 4) == one
        assert sorted(unseen_cards(state, seat)) == sorted(unseen_cards(twin, seat))
