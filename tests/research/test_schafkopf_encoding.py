"""Schafkopf's action ids and observation tensors
(stammtisch.games.schafkopf.research.encoding)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from stammtisch.cards import LONG_DECK
from stammtisch.engine.core import Say, Shuffle
from stammtisch.errors import InvalidActionError, RulesError
from stammtisch.games.schafkopf.research.encoding import (
    GAME_WORDS,
    NUM_ACTIONS,
    ActionCodec,
    ObservationEncoder,
)
from stammtisch.games.schafkopf.rules import SchafkopfRules
from stammtisch.games.schafkopf.state import SchafkopfState

from .schafkopf_helpers import SK_VARIANTS, random_states


def test_fixed_ids() -> None:
    codec = ActionCodec(SchafkopfRules.preset("standard"))
    assert [codec.encode(c) for c in LONG_DECK] == list(range(32))
    assert codec.encode(Say("sauspiel-eichel")) == 32 and codec.encode(Say("sie")) == 57
    assert codec.encode(Say("sauspiel-schellen-zehn")) == 60
    assert [codec.encode(Say(w)) for w in ("weiter", "gut", "lege", "annehmen")] == [
        61, 62, 63, 64]
    assert codec.encode(Say("kontra")) == 65 and codec.encode(Say("re")) == 66
    assert codec.num_actions == NUM_ACTIONS == 70 and len(GAME_WORDS) == 29
    # the same ids for every rules object; the Stoß ids name the table's words
    other = ActionCodec(SchafkopfRules.preset("anleitung"))
    assert [str(other.decode(i)) for i in range(65, 70)] == [
        "kontra", "sup", "re-sup", "hirsch", "bock"]
    assert all(other.decode(i) == codec.decode(i) for i in range(65))


def test_unknown_actions_are_refused() -> None:
    codec = ActionCodec()
    with pytest.raises(InvalidActionError):
        codec.encode(Shuffle(tuple(LONG_DECK)))
    with pytest.raises(InvalidActionError):
        codec.encode(Say("sup"))
    with pytest.raises(InvalidActionError):
        codec.decode(67)  # standard has two Stoß words
    with pytest.raises(InvalidActionError):
        codec.decode(NUM_ACTIONS)
    with pytest.raises(RulesError):
        ActionCodec(SchafkopfRules.preset("standard", stoss_words=list("abcdef")))


@pytest.mark.parametrize("rules", SK_VARIANTS, ids=lambda r: r.name + str(r.games))
def test_round_trip_of_every_legal_action(rules: SchafkopfRules) -> None:
    codec = ActionCodec(rules)
    enc = ObservationEncoder()
    phases = set()
    for state in random_states(rules, 25, seed=1):
        phases.add(state.phase)
        ids = codec.legal_ids(state)
        assert [codec.decode(i) for i in ids] == sorted(
            state.legal_actions(), key=codec.encode)
        assert codec.legal_mask(state).sum() == len(ids)
        for seat in range(4):
            obs = enc.encode(state.view(seat))
            assert obs.shape == (enc.size,) and obs.min() >= 0.0 and obs.max() <= 1.0
    assert {"bidding", "play", "end"} <= phases


def test_every_phase_is_reached() -> None:
    phases = set()
    for rules in SK_VARIANTS:
        phases.update(s.phase for s in random_states(rules, 40, seed=2))
    assert phases == {"legen", "bidding", "muss", "hochzeit", "exchange", "stossen", "play",
                      "end"}


def test_layout_is_contiguous() -> None:
    enc = ObservationEncoder(perfect_recall=True)
    offset = 0
    for piece in enc.describe():
        assert piece["offset"] == offset
        offset += piece["size"]
    assert offset == enc.size == ObservationEncoder().size + 32 * 32


@pytest.mark.parametrize("perfect_recall", [False, True])
def test_observation_ignores_other_seats_hidden_cards(perfect_recall: bool) -> None:
    """Two states that differ only in the hidden cards of other seats give seat 0 the
    same tensor."""
    enc = ObservationEncoder(perfect_recall=perfect_recall)
    rng = random.Random(5)
    for _ in range(30):
        a = SchafkopfState(SchafkopfRules.preset("standard"), dealer=3)
        a.apply(a.sample_chance(rng))
        b = a.clone()
        # swap all cards between seats 1 and 2 in b (before anybody acted)
        b.hands[1], b.hands[2] = b.hands[2], b.hands[1]
        assert np.array_equal(enc.encode(a.view(0)), enc.encode(b.view(0)))
        assert not np.array_equal(enc.encode(a.view(1)), enc.encode(b.view(1)))


def test_spectator_view_is_refused() -> None:
    state = SchafkopfState()
    state.apply(state.sample_chance(random.Random(0)))
    with pytest.raises(ValueError, match="spectator"):
        ObservationEncoder().encode(state.view(None))


def test_pieces_of_a_known_position() -> None:
    state = SchafkopfState(SchafkopfRules.preset("standard"), dealer=3)
    state.apply(state.sample_chance(random.Random(1)))
    enc = ObservationEncoder()
    t = enc.split(enc.encode(state.view(2)))
    assert t["hand"].sum() == 8 and t["phase"][2] == 1.0  # bidding
    assert t["to_act"][2] == 1.0  # seat 0 (Vorhand) is two seats after seat 2
    assert t["dealer"][1] == 1.0 and list(t["hand_sizes"]) == [1.0] * 4
