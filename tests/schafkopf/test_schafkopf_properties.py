"""Properties over random hands (hypothesis): play-outs never raise, payments sum to 0,
Augen sum to 120 when played, views never show another seat's hand, apply on a copy leaves
the original alone, the legal actions are exactly those apply accepts, records round-trip."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stammtisch.cards import LONG_DECK
from stammtisch.engine.core import CHANCE, Action, Say
from stammtisch.errors import IllegalActionError
from stammtisch.games.schafkopf import SchafkopfRules, SchafkopfState
from stammtisch.games.schafkopf.games import BID_GAMES, MUSS_GAMES
from stammtisch.games.schafkopf.record import record_of, replay, replay_record

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

rules_st = st.builds(
    lambda preset, all_pass, legen, jungfrau, durchmarsch, lead, davon: SchafkopfRules.preset(
        preset, all_pass=all_pass, legen=legen, ramsch_jungfrau=jungfrau,
        ramsch_durchmarsch=durchmarsch, first_lead=lead, davonlaufen=davon),
    st.sampled_from(["standard", "anleitung"]), st.sampled_from(["redeal", "ramsch", "muss"]),
    st.booleans(), st.booleans(), st.booleans(), st.sampled_from(["vorhand", "declarer"]),
    st.booleans(),
)

WORDS = ["weiter", "gut", "lege", "annehmen", "kontra", "re", "sup", "re-sup", "hirsch",
         "bock", *BID_GAMES, *MUSS_GAMES]


def candidates(state: SchafkopfState) -> list[Action]:
    return [*LONG_DECK, *(Say(w) for w in WORDS)]


def biased_choice(state: SchafkopfState, rng: random.Random) -> Action:
    """A random legal action; games are named more often than 'weiter' so that every
    game type, Hochzeit and Stoßen come up."""
    actions = list(state.legal_actions())
    if state.phase == "bidding":
        if len(actions) == 1 or rng.random() < 0.7:
            return actions[0]  # weiter
        return actions[rng.randrange(1, min(len(actions), 12))]
    if state.phase in ("stossen", "legen", "hochzeit") and rng.random() < 0.4:
        return actions[0]
    return actions[rng.randrange(len(actions))]


def play(rules: SchafkopfRules, seed: int, dealer: int, check: Any = None) -> SchafkopfState:
    rng = random.Random(seed)
    s = SchafkopfState(rules, dealer)
    while not s.is_terminal():
        if s.current_player == CHANCE:
            s.apply(s.sample_chance(rng))
            continue
        if check is not None:
            check(s)
        s.apply(biased_choice(s, rng))
    return s


@SETTINGS
@given(rules_st, st.integers(0, 10**9), st.integers(0, 3))
def test_random_hands_payments_and_augen(rules: SchafkopfRules, seed: int, dealer: int) -> None:
    s = play(rules, seed, dealer)
    r = s.result()
    assert r is not None and sum(r["payments"]) == 0
    if r["contract"] is None:
        assert r["trick_winners"] == [] and r["augen"] == [0, 0, 0, 0]
        assert r["payments"] == [0, 0, 0, 0]
    else:
        assert len(r["trick_winners"]) == 8 and sum(r["augen"]) == 120
    assert r["multiplier"] == 2 ** (len(s.lege_seats) + len(s.stoss))


def _check_views(s: SchafkopfState) -> None:
    public_called = str(s.called) if s.called is not None else None
    for seat in (None, 0, 1, 2, 3):
        text = json.dumps(s.view(seat))
        for other in range(4):
            if other == seat:
                continue
            for c in s.hands[other]:
                if str(c) != public_called:
                    assert f'"{c!s}"' not in text, (seat, other, c, s.phase)
        if s.phase == "legen" and seat is not None:
            assert len(s.view(seat)["hand"]) == 4
        if s.called is not None and not s.called_played and seat != s.partner:
            assert s.view(seat)["partner"] is None


@SETTINGS
@given(rules_st, st.integers(0, 10**9), st.integers(0, 3))
def test_views_never_show_another_hand(rules: SchafkopfRules, seed: int, dealer: int) -> None:
    play(rules, seed, dealer, _check_views)


def _check_legal_and_copy(s: SchafkopfState) -> None:
    legal = list(s.legal_actions())
    assert len(set(legal)) == len(legal)
    before = (json.dumps(s.view(None)), [list(h) for h in s.hands], list(s.history))
    for a in candidates(s):
        copy = s.clone()
        try:
            copy.apply(a)
            accepted = True
        except IllegalActionError:
            accepted = False
        assert accepted == (a in legal), (s.phase, a, legal)
    assert before == (json.dumps(s.view(None)), [list(h) for h in s.hands], list(s.history))


@settings(max_examples=12, deadline=None)
@given(rules_st, st.integers(0, 10**9), st.integers(0, 3))
def test_legal_actions_are_exactly_what_apply_accepts(
    rules: SchafkopfRules, seed: int, dealer: int
) -> None:
    play(rules, seed, dealer, _check_legal_and_copy)


@SETTINGS
@given(rules_st, st.integers(0, 10**9), st.integers(0, 3))
def test_records_round_trip(rules: SchafkopfRules, seed: int, dealer: int) -> None:
    s = play(rules, seed, dealer)
    rec = record_of(s)
    again = replay(json.loads(json.dumps(rec)))
    assert again.result() == s.result()
    assert record_of(again) == rec
    assert replay_record(rec) == s.result()
