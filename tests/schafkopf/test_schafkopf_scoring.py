"""Scoring: win thresholds, Schneider, Schwarz, Laufende per game, Tout, Sie, Bettel,
Muss-Spiel, Ramsch (loser tie-breaks, Jungfrau, Durchmarsch), the multiplier, payments.

Most cases set the tricks taken directly on a hand in play (the trick play itself is
tested elsewhere) and score it."""

from __future__ import annotations

from typing import Any

import pytest
from schafkopf_helpers import D1, hand, say

from stammtisch.games.schafkopf import SchafkopfState
from stammtisch.games.schafkopf.state import RESULT_KEYS


def scored(s: SchafkopfState, winners: list[int], augen: list[int]) -> dict[str, Any]:
    assert s.phase == "play" and len(winners) == 8 and sum(augen) == 120
    s.tricks.winners = list(winners)
    s.tricks.augen = list(augen)
    return s._score()


def rufspiel(stoss: str = "gut gut gut", **options: object) -> SchafkopfState:
    # D1, dealer 3: seat 0 calls the Gras ace, seat 2 holds it
    return say(hand(D1, **options), "sauspiel-gras weiter weiter weiter " + stoss)


def solo(word: str, seat: int, preset: str = "standard", **options: object) -> SchafkopfState:
    words = ["weiter"] * 4
    words[seat] = word
    pre = ["gut"] * 4 if preset == "anleitung" else []
    s = say(hand(D1, preset, **options), [*pre, *words])
    while s.phase == "stossen":
        s.push("gut")
    return s


# winners: seats 0 and 2 (the declaring party) take the first k tricks
def party(k: int) -> list[int]:
    return [0] * k + [1] * (8 - k)


@pytest.mark.parametrize("augen0, tricks, winner, schneider, schwarz, pay", [
    (61, 4, "declarers", False, False, 10),
    (60, 4, "opponents", False, False, -10),
    (90, 6, "declarers", False, False, 10),
    (91, 6, "declarers", True, False, 20),
    (31, 2, "opponents", False, False, -10),
    (30, 2, "opponents", True, False, -20),
    (120, 8, "declarers", True, True, 30),
    (0, 0, "opponents", True, True, -30),
    (0, 1, "opponents", True, False, -20),  # a trick without Augen: not schwarz
])
def test_rufspiel_thresholds(augen0: int, tricks: int, winner: str, schneider: bool,
                             schwarz: bool, pay: int) -> None:
    r = scored(rufspiel(), party(tricks), [augen0, 120 - augen0, 0, 0])
    assert (r["winner"], r["schneider"], r["schwarz"]) == (winner, schneider, schwarz)
    assert r["payments"] == [pay, -pay, pay, -pay]
    assert r["contract"] == "sauspiel-gras" and r["declarer"] == 0 and r["partner"] == 2
    assert r["laufende"] == 0 and r["loser"] is None and list(r) == list(RESULT_KEYS)


def test_stoss_words_and_lege_double() -> None:
    r = scored(rufspiel("kontra re"), party(5), [70, 50, 0, 0])
    assert r["multiplier"] == 4 and r["payments"] == [40, -40, 40, -40]
    s = say(hand(D1, "anleitung"), "lege gut lege gut sauspiel-gras weiter weiter weiter "
            "kontra sup gut gut gut")
    r = scored(s, party(5), [70, 50, 0, 0])
    assert r["multiplier"] == 16 and r["payments"] == [160, -160, 160, -160]


@pytest.mark.parametrize("augen0, winner, schneider, pay", [
    (60, "declarers", False, 10),
    (59, "opponents", False, -10),
    (89, "declarers", False, 10),
    (90, "declarers", True, 20),
    (30, "opponents", False, -10),
    (29, "opponents", True, -20),
])
def test_muss_thresholds(augen0: int, winner: str, schneider: bool, pay: int) -> None:
    s = say(hand(D1, all_pass="muss"), "weiter weiter weiter weiter sauspiel-gras")
    r = scored(s, party(4), [augen0, 120 - augen0, 0, 0])
    assert (r["winner"], r["schneider"], r["payments"]) == (winner, schneider,
                                                             [pay, -pay, pay, -pay])
    assert r["multiplier"] == 1


# Laufende on D1: trumps of the normal order EO GO (seat 0) HO SO (seat 1) EU (0) GU (1)
# HU SU (2); Herz: H9 (0) HA (1) H10 HK H8 H7 (3)
@pytest.mark.parametrize("word, seat, laufende", [
    ("sauspiel-gras", 0, 0),   # EO GO with the declarers, then HO: 2 < 3
    ("solo-herz", 1, 0),       # the opponents hold EO GO: 2 < 3
    ("wenz", 3, 4),            # EU GU HU SU all with the opponents: "ohne 4"
    ("wenz", 0, 0),            # EU with seat 0, GU not: 1 < 2
    ("geier", 1, 2),           # EO GO with the opponents, HO with seat 1: 2 from 2
    ("farbwenz-herz", 2, 2),   # EU GU with the opponents, HU with seat 2
    ("bettel", 3, 0),          # never
])
def test_laufende_per_game(word: str, seat: int, laufende: int) -> None:
    s = solo(word, seat, "anleitung")
    r = scored(s, [seat] * 4 + [(seat + 1) % 4] * 4, [60, 20, 20, 20])
    assert r["laufende"] == laufende


def test_laufende_count_from_three_in_a_farbsolo_and_pay_each() -> None:
    # seat 1 plays a Schellen-Solo holding... the opponents hold EO GO: 2 < 3 (none);
    # seat 0 holds EO GO EU and seat 1 HO SO: a solo by seat 0 has 2 < 3 Laufende
    s = solo("solo-schellen", 0)
    r = scored(s, [0] * 8, [120, 0, 0, 0])
    assert r["laufende"] == 0 and r["schwarz"] and r["schneider"]
    assert r["payments"] == [210, -70, -70, -70]  # 50 + 10 + 10, three times
    # with three top trumps it counts three
    s = hand(["EO GO HO H7 G7 E7 S7 S8", "EU SO GU HA E10 EK S9 SK",
              "GA G10 GK G9 HU SU EA E9", "H10 HK H8 H9 SA S10 E8 G8"])
    say(s, "solo-herz weiter weiter weiter gut gut gut")
    r = scored(s, [0] * 5 + [1] * 3, [80, 40, 0, 0])
    assert r["laufende"] == 3 and r["payments"] == [240, -80, -80, -80]  # 50 + 3 * 10


def test_wenz_with_laufende_lost_pays_three_times() -> None:
    s = solo("wenz", 3)
    r = scored(s, [3] * 3 + [0] * 5, [40, 0, 20, 60])
    assert r["winner"] == "opponents" and r["laufende"] == 4
    assert r["payments"] == [90, 90, 90, -270]  # (50 + 4 * 10) each


def test_tout_won_only_with_all_tricks_value_doubled_no_schneider() -> None:
    s = solo("wenz-tout", 3)
    r = scored(s, [3] * 8, [0, 0, 0, 120])
    assert r["winner"] == "declarers" and r["laufende"] == 4
    assert r["schneider"] is False and r["schwarz"] is False
    assert r["payments"] == [-180, -180, -180, 540]  # (50 + 40) * 2
    s = solo("wenz-tout", 3)
    r = scored(s, [3] * 7 + [0], [2, 0, 0, 118])
    assert r["winner"] == "opponents" and r["payments"] == [180, 180, 180, -540]


def test_bettel_won_only_without_a_trick() -> None:
    s = solo("bettel", 3, "anleitung")
    r = scored(s, [0, 1, 2, 0, 1, 2, 0, 1], [40, 40, 40, 0])
    assert r["winner"] == "declarers" and r["payments"] == [-50, -50, -50, 150]
    assert r["laufende"] == 0 and not r["schneider"] and not r["schwarz"]
    s = solo("bettel", 3, "anleitung")
    r = scored(s, [3, 1, 2, 0, 1, 2, 0, 1], [30, 40, 40, 10])
    assert r["winner"] == "opponents" and r["payments"] == [50, 50, 50, -150]


def test_sie_value() -> None:
    s = hand(["HA EA E10 EK GA G10 SA S10", "EO GO HO SO EU GU HU SU",
              "H10 HK H9 E9 E8 G9 G8 E7", "H8 H7 G7 GK S9 S8 S7 SK"], "anleitung")
    say(s, "lege gut gut gut weiter sie")
    r = s.result()
    assert r is not None and r["laufende"] == 8 and r["multiplier"] == 2
    assert r["payments"] == [-1040, 3120, -1040, -1040]  # (50 + 80) * 4 * 2


def test_tariff_is_used() -> None:
    s = solo("wenz", 3, tariff={"solo": 20, "laufend": 5})
    r = scored(s, [3] * 6 + [0] * 2, [40, 0, 0, 80])
    assert r["payments"] == [-40, -40, -40, 120]  # 20 + 4 * 5
    s = solo("wenz", 3, tariff={"solo": 20, "laufend": 5, "schneider": 7})
    r = scored(s, [3] * 6 + [0] * 2, [10, 0, 0, 110])
    assert r["payments"] == [-47, -47, -47, 141]  # 20 + 7 + 4 * 5


# -- Ramsch -------------------------------------------------------------------------
# D1 dealt trumps: seat 0 EO GO EU H9 (4), seat 1 HO SO GU HA (4), seat 2 HU SU (2),
# seat 3 H10 HK H8 H7 (4)
def ramsch(**options: object) -> SchafkopfState:
    return say(hand(D1, "anleitung", **options), "gut gut gut gut weiter weiter weiter weiter")


@pytest.mark.parametrize("winners, augen, loser", [
    ([0, 0, 1, 1, 2, 2, 3, 3], [40, 30, 30, 20], 0),          # most Augen
    ([0, 0, 1, 1, 1, 2, 2, 3], [40, 40, 20, 20], 1),          # tie: most tricks
    ([0, 0, 0, 1, 1, 1, 2, 3], [40, 40, 20, 20], 0),          # tie: 4 trumps each, EO
    ([0, 1, 1, 1, 2, 2, 2, 3], [20, 40, 40, 20], 1),          # tie: 4 trumps against 2
    ([0, 0, 0, 1, 1, 2, 3, 3], [20, 30, 20, 50], 3),
])
def test_ramsch_loser_and_tie_breaks(winners: list[int], augen: list[int], loser: int) -> None:
    r = scored(ramsch(), winners, augen)
    assert r["loser"] == loser and r["contract"] == "ramsch" and r["winner"] is None
    assert r["declarer"] is None and r["partner"] is None and r["laufende"] == 0
    assert r["payments"] == [-30 if s == loser else 10 for s in range(4)]


def test_ramsch_jungfrau_doubles_per_seat_without_a_trick() -> None:
    r = scored(ramsch(ramsch_jungfrau=True), [0] * 4 + [1] * 4, [70, 50, 0, 0])
    assert r["loser"] == 0 and r["payments"] == [-120, 40, 40, 40]


def test_ramsch_durchmarsch_and_without_it() -> None:
    r = scored(ramsch(), [2] * 8, [0, 0, 120, 0])
    assert r["loser"] is None and r["payments"] == [-10, -10, 30, -10]
    r = scored(ramsch(ramsch_durchmarsch=False), [2] * 8, [0, 0, 120, 0])
    assert r["loser"] == 2 and r["payments"] == [10, 10, -30, 10]


def test_ramsch_multiplier_counts_only_lege() -> None:
    s = say(hand(D1, "anleitung"), "lege lege gut gut weiter weiter weiter weiter")
    r = scored(s, [0, 0, 1, 1, 2, 2, 3, 3], [40, 30, 30, 20])
    assert r["multiplier"] == 4 and r["payments"] == [-120, 40, 40, 40]


def test_redeal_after_legen_keeps_the_multiplier_pays_nothing() -> None:
    s = say(hand(D1, "anleitung", all_pass="redeal"), "lege gut gut gut weiter weiter "
            "weiter weiter")
    r = s.result()
    assert r is not None and r["multiplier"] == 2 and r["payments"] == [0, 0, 0, 0]
