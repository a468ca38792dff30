"""Hypothesis properties of the Mus engine: random play-outs never raise, views hide what
they must, ``apply`` on a copy leaves the original, legal actions are exactly what
``apply`` accepts, records round-trip."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from stammtisch.cards import SPANISH_DECK
from stammtisch.engine.core import CHANCE, TERMINAL, Action, Say
from stammtisch.errors import IllegalActionError
from stammtisch.games.mus import new_state
from stammtisch.games.mus.record import record_of, replay, replay_record
from stammtisch.games.mus.rules import MusRules
from stammtisch.games.mus.state import MusState

RULES = [MusRules.preset("duples"), MusRules.preset("duples", reyes=4, target=10)]
#: words that are sometimes legal, to check refusals with
WORDS = ["mus", "no mus", "paso", "quiero", "no quiero", "ordago", "envido 2", "envido 1",
         "envido 100", "descarte OR"]


def _play(seed: int, rules: MusRules, mus_bias: float) -> list[MusState]:
    """A random hand; every state on the way.  ``mus_bias``: how often ``mus`` is said
    (many discard rounds and reshuffles when high)."""
    rng = random.Random(seed)
    state = new_state(rules, seed % 4, rng)
    states = [state.clone()]
    while not state.is_terminal():
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            action: Action
            if Say("mus") in legal and rng.random() < mus_bias:
                action = Say("mus")
            elif Say("paso") in legal and rng.random() < 0.5:
                action = Say("paso")
            else:
                action = legal[rng.randrange(len(legal))]
            state.apply(action)
        states.append(state.clone())
    return states


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(RULES), st.floats(0, 0.97))
def test_playouts_views_copies_and_records(seed: int, rules: MusRules, bias: float) -> None:
    states = _play(seed, rules, bias)
    final = states[-1]
    result = final.result()
    assert result is not None and json.loads(json.dumps(result)) == result
    assert sorted(c for h in result["final_hands"] for c in h) == sorted(
        c for s in range(4) for c in [str(x) for x in final.hands[s]])
    for state in states[::3]:
        if state.current_player == TERMINAL:
            continue
        held = [{str(c) for c in h} for h in state.hands]
        for seat in [0, 1, 2, 3, None]:
            text = json.dumps(state.view(seat))
            for other in range(4):
                if other != seat:
                    assert not any(f'"{c}"' in text for c in held[other]), (seat, other)
            if state.discards and seat is None:
                assert not any(f'"{c}"' in text for d in state.discards for c in d)
        before = json.dumps([state.view(s) for s in range(4)])
        copy = state.clone()
        if state.current_player == CHANCE:
            copy.apply(copy.sample_chance(random.Random(seed)))
        else:
            legal = copy.legal_actions()
            copy.apply(legal[0])
            for word in WORDS:
                probe = state.clone()
                if Say(word) in legal:
                    probe.apply(Say(word))
                else:
                    try:
                        probe.apply(Say(word))
                    except IllegalActionError:
                        pass
                    else:
                        raise AssertionError(f"{word} accepted though not legal")
        assert json.dumps([state.view(s) for s in range(4)]) == before
    record = record_of(final)
    again = replay(json.dumps(record))
    assert again.result() == result
    assert record_of(again) == record
    assert replay_record(record) == result


def test_a_deal_is_the_whole_deck() -> None:
    state = new_state(RULES[0], 1, random.Random(3))
    cards = [c for h in state.hands for c in h] + state.stock
    assert sorted(cards) == sorted(SPANISH_DECK)
    assert state.current_player == (1 - 1) % 4  # Mano = dealer - 1


def test_long_mus_phases_reshuffle_the_earlier_discards() -> None:
    with_reshuffle = [s for s in range(20) if _play(s, RULES[0], 0.95)[-1].reshuffles]
    assert with_reshuffle
    final = _play(with_reshuffle[0], RULES[0], 0.95)[-1]
    record = record_of(final)
    assert record["reshuffles"] and replay_record(record) == final.result()
