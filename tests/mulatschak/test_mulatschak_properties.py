"""Properties over random hands (hypothesis): play-outs never raise, views hide hands, the
stock and discards, apply on a copy leaves the original, legal actions are exactly what
apply accepts, records round-trip."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stammtisch.cards import DOPPELDEUTSCH_DECK, Card
from stammtisch.engine.core import CHANCE, TERMINAL, Say
from stammtisch.errors import IllegalActionError
from stammtisch.games.mulatschak.record import record_of, replay, replay_record
from stammtisch.games.mulatschak.rules import MulatschakRules
from stammtisch.games.mulatschak.state import MulatschakState, new_state

SCORES = st.integers(min_value=1, max_value=25)
WORDS = ["weiter", "muli", "bei mir", "mit", "daheim", "behalte", "sau", "sechs", "bruecke",
         "nimm", "weg", "klopfen", "1", "4", "trumpf H", "abheben 3", "weiss nicht"]

hand_setups = st.tuples(
    st.integers(min_value=2, max_value=6).flatmap(
        lambda n: st.lists(SCORES, min_size=n, max_size=n)),
    st.integers(min_value=0, max_value=2 ** 32 - 1),
    st.booleans(), st.booleans(), st.sampled_from(["all", "breaker"]),
    st.integers(min_value=0, max_value=2))


def _state(setup: tuple[list[int], int, bool, bool, str, int]) -> MulatschakState:
    scores, seed, zwang, weiss, broken, doubled = setup
    rules = MulatschakRules(stichzwang=zwang, weiss_nicht=weiss, muli_broken=broken)
    return new_state(rules, seed % len(scores), random.Random(seed), scores, doubled)


def _snapshot(s: MulatschakState) -> str:
    return json.dumps([s.phase, s.current_player, [str(a) for a in s.legal_actions()],
                       [s.view(x) for x in [*range(s.num_seats), None]], s.result()],
                      default=str)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand_setups)
def test_random_playouts_views_copies_and_records(setup: tuple) -> None:  # type: ignore[type-arg]
    state = _state(setup)
    rng = random.Random(setup[1])
    while state.current_player != TERMINAL:
        assert state.current_player != CHANCE
        legal = state.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        seat = state.current_player
        # the cut card and the cards shown face up in the exchange were seen by all
        public = set(state.public_cards())
        for other in range(state.num_seats):  # views hide the other hands
            seen = json.dumps(state.view(other))
            for s2, hand in enumerate(state.hands):
                if s2 != other:
                    assert not any(f'"{c}"' in seen for c in hand if c not in public)
        spectator = json.dumps(state.view(None))
        assert not any(f'"{c}"' in spectator for h in state.hands for c in h
                       if c not in public)
        # the stock is hidden; the cut card was shown to all
        assert not any(f'"{c}"' in spectator for c in state.stock if c != state.revealed)
        before = _snapshot(state)
        legal_set = set(legal)
        for action in [*DOPPELDEUTSCH_DECK, *(Say(w) for w in WORDS)]:
            if action in legal_set:
                continue
            copy = state.clone()
            try:
                copy.apply(action)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"{action} accepted but not legal")
        action = legal[rng.randrange(len(legal))]
        copy = state.clone()
        copy.apply(action)
        assert _snapshot(state) == before
        assert state.parse_action(str(action)) == action
        state.apply(action)
        assert seat >= 0
    result = state.result()
    assert result is not None
    assert json.loads(json.dumps(result)) == result
    if not result["folded"] and result["bidder"] is not None and result["trick_winners"]:
        assert sum(result["tricks"]) == 5
    rec = record_of(state)
    again = replay(json.dumps(rec))
    assert again.result() == result and record_of(again) == rec
    assert replay_record(rec) == result
    assert [a + d for a, d in zip(setup[0], result["delta"], strict=True)] == result["scores"]


def test_the_weli_is_in_the_deck_once() -> None:
    assert DOPPELDEUTSCH_DECK.count(Card.parse("S6")) == 1
