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


# -- the dealing core (stammtisch.bots.sampling) ------------------------------------------
def test_constrained_deals_respect_eligibility_and_room() -> None:
    from stammtisch.bots.sampling import (
        deal_constrained,
        hall_feasible,
        pick_shuffled,
        pick_weighted,
    )
    from stammtisch.cards import SHORT_DECK

    rng = random.Random(5)
    stuck = 0
    for i in range(200):
        cards = list(SHORT_DECK[:12])
        # seat 1 may hold only the first six cards, seat 2 no Herz, seat 3 anything
        eligible = {c: tuple(s for s in (1, 2, 3)
                             if not (s == 1 and j >= 6) and not (s == 2 and c.suit.value == "H"))
                    for j, c in enumerate(cards)}
        room = {1: 4, 2: 4, 3: 4}
        if i % 2:
            dealt = deal_constrained(list(cards), eligible, dict(room), rng, pick=pick_shuffled,
                                     feasible=hall_feasible)
            assert dealt is not None  # Hall's check never gets stuck
        else:
            dealt = deal_constrained(list(cards), eligible, dict(room), rng, pick=pick_weighted)
            if dealt is None:
                stuck += 1
                continue
        assert {s: len(h) for s, h in dealt.items()} == room
        assert sorted(c for h in dealt.values() for c in h) == sorted(cards)
        assert all(s in eligible[c] for s, h in dealt.items() for c in h)
    assert stuck < 100


def test_deal_in_turn_and_redraw() -> None:
    from stammtisch.bots.sampling import deal_in_turn, dedupe, hands_key, redraw
    from stammtisch.cards import cards

    deck = cards("EO GO HO SO EU GU")
    unter = lambda s, cs: [c for c in cs if s != 2 or c.rank.value == "U"]  # noqa: E731
    got = deal_in_turn(deck, {2: 2, 0: 3}, unter)
    assert got == ({2: list(cards("EU GU")), 0: list(cards("EO GO HO"))}, list(cards("SO")))
    assert deal_in_turn(deck, {2: 3}, unter) is None
    # the first accepted draw; else the best scored (the first of equals); None: all failed
    assert redraw(lambda a: a, 5, lambda w, a: (w == 3, 0.0)) == 3
    assert redraw(lambda a: a, 4, lambda w, a: (False, w % 2)) == 1
    assert redraw(lambda a: None, 3, lambda w, a: (True, 0.0)) is None
    worlds = [[cards("EO GO")], [cards("GO EO")], [cards("HO SO")]]
    assert [n for _, n in dedupe(worlds, hands_key)] == [2, 1]
