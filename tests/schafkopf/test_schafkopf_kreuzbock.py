"""Kreuzbock (a match rule of seed 002, outside the hand contract) and the sitting."""

from __future__ import annotations

import random

import pytest
from schafkopf_helpers import D1, say

from stammtisch.cards import cards
from stammtisch.engine import play_random
from stammtisch.engine.core import Deal
from stammtisch.errors import IllegalActionError, RecordError, RulesError
from stammtisch.games.schafkopf import SchafkopfRules, SchafkopfState
from stammtisch.games.schafkopf.match import KreuzbockState, SchafkopfMatch
from stammtisch.games.schafkopf.record import record_of


def kreuzbock(preset: str = "anleitung", dealer: int = 3, **options: object) -> KreuzbockState:
    s = KreuzbockState(SchafkopfRules.preset(preset, **options), dealer)
    s.apply(Deal(tuple(cards(h) for h in D1)))
    return s


def test_no_bidding_any_seat_may_open_the_stossen() -> None:
    s = kreuzbock()
    assert s.phase == "legen"
    say(s, "gut gut gut gut")
    assert s.phase == "stossen" and s.current_player == 0
    assert [str(a) for a in s.legal_actions()] == ["kontra", "gut"]
    say(s, "gut kontra")  # seat 1 (pair 1) opens
    assert s.current_player == 2 and [str(a) for a in s.legal_actions()] == ["sup", "gut"]
    say(s, "gut")
    assert [str(a) for a in s.legal_actions()] == ["gut"]  # seat 3: pair 1 said the word
    with pytest.raises(IllegalActionError, match="may say gut now"):
        s.push("sup")
    say(s, "gut sup gut gut gut")
    assert s.phase == "play" and s.current_player == 0  # Vorhand leads
    assert (s.declarer, s.partner) == (0, 2)  # seat 0 said the last word ("sup")
    assert s.multiplier == 4 and s.view(1)["partner"] == 2


def test_without_kontra_the_first_lege_then_eo_decides() -> None:
    s = say(kreuzbock(), "gut lege lege gut gut gut gut gut")
    assert (s.declarer, s.partner) == (1, 3)
    s = say(kreuzbock(), "gut gut gut gut gut gut gut gut")
    assert (s.declarer, s.partner) == (0, 2)  # seat 0 holds EO
    s = kreuzbock("standard")
    assert s.phase == "stossen"


def test_scored_like_a_sauspiel_for_the_crosswise_pairs() -> None:
    s = say(kreuzbock(), "gut lege gut gut gut gut gut gut")
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    r = s.result()
    assert r is not None and r["contract"] == "kreuzbock" and r["partner"] == 3
    party = r["augen"][1] + r["augen"][3]
    assert r["winner"] == ("declarers" if party >= 61 else "opponents")
    v = abs(r["payments"][1])
    assert r["payments"][1] == r["payments"][3] == -r["payments"][0] == -r["payments"][2]
    assert v % 20 == 0 and r["multiplier"] == 2 and sum(r["augen"]) == 120
    with pytest.raises(RecordError, match="Kreuzbock"):
        record_of(s)


def test_a_round_of_four_kreuzbock_hands_after_a_ramsch() -> None:
    m = SchafkopfMatch(SchafkopfRules.preset("anleitung"), kreuzbock=True, dealer=3)
    hand = m.new_hand()
    assert type(hand) is SchafkopfState
    with pytest.raises(IllegalActionError, match="current hand"):
        m.new_hand()
    hand.apply(Deal(tuple(cards(h) for h in D1)))
    say(hand, "gut gut gut gut weiter weiter weiter weiter")
    play_random(hand, random.Random(1))
    m.finish_hand(hand)
    assert m.kreuzbock_pending == 4 and m.dealer == 0
    kinds = []
    for i in range(5):
        h = m.new_hand()
        kinds.append(type(h).__name__)
        m.finish_hand(play_random(h, random.Random(i)))
    assert kinds[:4] == ["KreuzbockState"] * 4 and kinds[4] in ("SchafkopfState",)
    assert sum(m.totals) == 0 and len(m.results) == 6


def test_without_the_option_no_kreuzbock() -> None:
    m = SchafkopfMatch(SchafkopfRules.preset("anleitung"))
    with pytest.raises(RulesError):
        m.ask_kreuzbock()
    with pytest.raises(RulesError):
        SchafkopfMatch(kreuzbock="yes")  # type: ignore[arg-type]
    h = m.new_hand()
    with pytest.raises(IllegalActionError, match="not over"):
        m.finish_hand(h)


def test_random_kreuzbock_hands_are_zero_sum() -> None:
    for seed in range(40):
        rules = SchafkopfRules.preset("anleitung" if seed % 2 else "standard")
        s = play_random(KreuzbockState(rules, seed % 4), random.Random(seed))
        r = s.result()
        assert r is not None and sum(r["payments"]) == 0 and sum(r["augen"]) == 120


def test_a_kreuzbock_hand_clones_as_one() -> None:
    s = kreuzbock()
    c = s.clone()
    assert type(c) is KreuzbockState
    say(c, "gut gut gut gut")
    assert s.phase == "legen" and c.phase == "stossen"
