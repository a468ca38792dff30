"""Scoring (seed 001's table and "Gewinnen eines ... Spiels", seed 000's
"Zählen und Ermitteln des Gewinners", Kontra "übernimmt")."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from stammtisch.games.mucken import MuckenRules, MuckenState
from stammtisch.games.mucken.scoring import Outcome, score_game, score_pflichtmuck

GameFactory = Callable[..., MuckenState]

SEEFEST = MuckenRules.preset("seefest")
WIKIPEDIA = MuckenRules.preset("wikipedia")

# Seed 001's table: Angesagtes Spiel -> gewonnen, schneider, schwarz
SEEFEST_TABLE = {
    "muck": (2, 3, 4),
    "wenz": (3, 4, 5),
    "schneidermuck": (None, 4, 5),
    "schneiderwenz": (None, 5, 6),
    "schwarzmuck": (None, None, 8),
    "schwarzwenz": (None, None, 10),
}
# Seed 000's example table for "Muck über Wenz"
WIKIPEDIA_TABLE = {
    "wenz": (2, 3, 4),
    "muck": (3, 4, 5),
    "schneiderwenz": (None, 4, 5),
    "schneidermuck": (None, 5, 6),
    "schwarzwenz": (None, None, 8),
    "schwarzmuck": (None, None, 10),
}
COLUMNS = ("plain", "schneider", "schwarz")
# (declarers' Augen, other pair's Augen, declarers' tricks, other pair's tricks) that
# reach each column for the declarers when they win
WIN_IN = {
    "plain": ([80, 40], [4, 2]),
    "schneider": ([95, 25], [5, 1]),
    "schwarz": ([120, 0], [6, 0]),
}


def level_of(name: str) -> str:
    return "schneider" if name.startswith("schneider") else (
        "schwarz" if name.startswith("schwarz") else "plain")


def score(rules: MuckenRules, name: str, augen: list[int], tricks: list[int], *,
          declarers: int = 0, doublings: int = 0, forced: bool = False) -> Outcome:
    return score_game(rules, name, level_of(name), declarers,  # type: ignore[arg-type]
                      augen, tricks, doublings, forced)


@pytest.mark.parametrize(
    ("rules", "table"), [(SEEFEST, SEEFEST_TABLE), (WIKIPEDIA, WIKIPEDIA_TABLE)],
    ids=["seefest", "wikipedia"])
def test_every_cell_of_the_table(rules: MuckenRules, table: dict) -> None:
    assert set(rules.bid_names()) == set(table)
    for name, row in table.items():
        for column, expected in zip(COLUMNS, row, strict=True):
            assert rules.value(name, column) == expected, (name, column)
            if expected is None:
                continue
            augen, tricks = WIN_IN[column]
            for declarers in (0, 1):
                a = augen if declarers == 0 else augen[::-1]
                t = tricks if declarers == 0 else tricks[::-1]
                o = score(rules, name, a, t, declarers=declarers)
                assert o == Outcome(declarers, expected, column, "gewonnen"), (name, column)


def test_seefest_pflichtmuck_row_is_one_point_in_every_column() -> None:
    assert score_pflichtmuck(SEEFEST, [70, 50], None) == Outcome(0, 1, "plain", "gewonnen")
    assert score_pflichtmuck(SEEFEST, [20, 100], None).score == 1
    assert score_pflichtmuck(SEEFEST, [0, 120], None) == Outcome(1, 1, "plain", "gewonnen")


def test_pflichtmuck_60_60_is_not_scored() -> None:
    o = score_pflichtmuck(SEEFEST, [60, 60], tie_loser=0)
    assert o.winner is None and o.score == 0


def test_pflichtmuck_60_60_card_holder_loses_option() -> None:
    rules = SEEFEST.replace(pflichtmuck_tie="card_holder_loses")
    assert score_pflichtmuck(rules, [60, 60], tie_loser=0) == Outcome(1, 1, "plain", "60:60")
    assert score_pflichtmuck(rules, [60, 60], tie_loser=1).winner == 0
    assert rules.replace(pflichtmuck_value=2).pflichtmuck_value == 2
    assert score_pflichtmuck(rules.replace(pflichtmuck_value=2), [61, 59], None).score == 2


# -- winning a plain game -------------------------------------------------------------------


def test_plain_game_needs_61_and_60_60_loses_for_the_declarers() -> None:
    assert score(SEEFEST, "muck", [61, 59], [3, 3]) == Outcome(0, 2, "plain", "gewonnen")
    assert score(SEEFEST, "muck", [60, 60], [3, 3]) == Outcome(1, 2, "plain", "verloren")
    assert score(SEEFEST, "wenz", [60, 60], [3, 3], declarers=1) == Outcome(
        0, 3, "plain", "verloren")


def test_schneider_and_schwarz_boundaries_when_winning() -> None:
    # the other pair with 31 is schneiderfrei, with 30 it is schneider
    assert score(SEEFEST, "muck", [89, 31], [4, 2]).column == "plain"
    assert score(SEEFEST, "muck", [90, 30], [4, 2]).column == "schneider"
    # no trick is schwarz; a trick of four Neuner is a trick
    assert score(SEEFEST, "muck", [120, 0], [6, 0]).score == 4
    assert score(SEEFEST, "muck", [120, 0], [5, 1]) == Outcome(0, 3, "schneider", "gewonnen")


# -- losing ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "augen", "tricks", "points", "column"),
    [
        ("muck", [50, 70], [2, 4], 2, "plain"),
        ("muck", [31, 89], [2, 4], 2, "plain"),
        ("muck", [30, 90], [1, 5], 3, "schneider"),
        ("muck", [0, 120], [0, 6], 4, "schwarz"),
        ("wenz", [44, 76], [2, 4], 3, "plain"),
        ("wenz", [12, 108], [1, 5], 4, "schneider"),
        ("wenz", [0, 120], [0, 6], 5, "schwarz"),
        ("schneidermuck", [70, 50], [4, 2], 4, "schneider"),
        ("schneidermuck", [20, 100], [1, 5], 4, "schneider"),
        ("schneidermuck", [0, 120], [0, 6], 5, "schwarz"),
        ("schneiderwenz", [89, 31], [5, 1], 5, "schneider"),
        ("schneiderwenz", [0, 120], [0, 6], 6, "schwarz"),
        ("schwarzmuck", [120, 0], [5, 1], 8, "schwarz"),
        ("schwarzwenz", [100, 20], [4, 2], 10, "schwarz"),
    ],
)
def test_losing_declarers_the_other_pair_gets_the_value_raised(
    name: str, augen: list[int], tricks: list[int], points: int, column: str
) -> None:
    assert score(SEEFEST, name, augen, tricks) == Outcome(1, points, column, "verloren")  # type: ignore[arg-type]


# -- Kontra ---------------------------------------------------------------------------------


def test_kontra_doubles() -> None:
    assert score(SEEFEST, "muck", [80, 40], [4, 2], doublings=1).score == 4
    assert score(SEEFEST, "wenz", [0, 120], [0, 6], doublings=1) == Outcome(
        1, 10, "schwarz", "verloren")


def test_kontra_uebernimmt_60_60_goes_to_the_declarers() -> None:
    assert score(SEEFEST, "muck", [60, 60], [3, 3], doublings=1) == Outcome(
        0, 4, "plain", "gewonnen")
    # the Kontra pair needs 61
    assert score(SEEFEST, "muck", [59, 61], [3, 3], doublings=1) == Outcome(
        1, 4, "plain", "verloren")
    # without the "übernimmt" reading 60:60 still loses for the declarers
    rules = SEEFEST.replace(kontra_uebernimmt=False)
    assert score(rules, "muck", [60, 60], [3, 3], doublings=1).winner == 1


def test_kontra_pair_needs_31_against_schneider_and_a_trick_against_schwarz() -> None:
    assert score(SEEFEST, "schneidermuck", [90, 30], [5, 1], doublings=1) == Outcome(
        0, 8, "schneider", "gewonnen")
    assert score(SEEFEST, "schneidermuck", [89, 31], [5, 1], doublings=1) == Outcome(
        1, 8, "schneider", "verloren")
    assert score(SEEFEST, "schwarzwenz", [120, 0], [6, 0], doublings=1) == Outcome(
        0, 20, "schwarz", "gewonnen")
    # one trick of four Neuner is enough
    assert score(SEEFEST, "schwarzwenz", [120, 0], [5, 1], doublings=1) == Outcome(
        1, 20, "schwarz", "verloren")


@pytest.mark.parametrize("doublings", range(5))
def test_each_doubling_doubles_again(doublings: int) -> None:
    rules = SEEFEST.replace(doublings=4)
    assert score(rules, "wenz", [70, 50], [3, 3], doublings=doublings).score == 3 * 2**doublings


# -- Muss-Spiel counting -----------------------------------------------------------------------


def test_muss_spiel_wins_with_60_and_30_is_schneiderfrei() -> None:
    rules = SEEFEST.replace(no_game="muss")
    assert score(rules, "muck", [60, 60], [3, 3], forced=True).winner == 0
    assert score(rules, "muck", [59, 61], [3, 3], forced=True).winner == 1
    assert score(rules, "muck", [90, 30], [4, 2], forced=True).column == "plain"
    assert score(rules, "muck", [91, 29], [4, 2], forced=True).column == "schneider"
    # without the option the forced game counts like any other
    plain = rules.replace(muss_60_wins=False)
    assert score(plain, "muck", [60, 60], [3, 3], forced=True).winner == 1


# -- whole games ------------------------------------------------------------------------------

FOUR_NEUNER = ("EO GO HO SO EU E9", "GU HU SU HA H10 H9", "HK G9 EA E10 EK GA",
               "S9 G10 GK SA S10 SK")
FOUR_NEUNER_PLAYS = ("EO GU HK SA GO HU EA S10 HO SU E10 SK SO HA EK GK EU H10 GA G10 "
                     "E9 H9 G9 S9")


def test_a_trick_of_four_neuner_is_a_trick(game: GameFactory) -> None:
    s = game(FOUR_NEUNER, calls="muck weiter weiter weiter", doubling="gut gut",
             plays=FOUR_NEUNER_PLAYS)
    r = s.result()
    assert r is not None
    assert r["augen"] == [120, 0] and r["tricks"] == [5, 1]
    assert r["trick_winners"] == [0, 0, 0, 0, 0, 1]
    assert (r["winner"], r["score"], r["column"]) == (0, 3, "schneider")  # not schwarz (4)


def test_schwarz_lost_by_a_trick_of_four_neuner(game: GameFactory) -> None:
    s = game(FOUR_NEUNER, calls="schwarzmuck weiter weiter weiter", doubling="gut gut",
             plays=FOUR_NEUNER_PLAYS)
    r = s.result()
    assert r is not None
    assert (r["winner"], r["score"], r["column"]) == (1, 8, "schwarz")


def test_schwarz_lost_with_kontra_by_a_trick_of_four_neuner(game: GameFactory) -> None:
    s = game(FOUR_NEUNER, calls="schwarzmuck weiter weiter weiter", doubling="kontra",
             plays=FOUR_NEUNER_PLAYS)
    assert s.result() is not None
    assert (s.result()["winner"], s.result()["score"]) == (1, 16)  # type: ignore[index]


def test_pflichtmuck_is_one_point_even_when_schwarz(game: GameFactory) -> None:
    s = game(FOUR_NEUNER, calls="weiter weiter weiter weiter",
             plays=FOUR_NEUNER_PLAYS.replace("E9 H9 G9 S9", "E9 H9 G9 S9"))
    r = s.result()
    assert r is not None and r["contract"] == "pflichtmuck"
    assert r["winner"] == 0 and r["score"] == 1
    assert s.returns() == [1, -1, 1, -1]


def test_factor_multiplies_the_score(game: GameFactory) -> None:
    s = game(FOUR_NEUNER, calls="muck weiter weiter weiter", doubling="kontra",
             plays=FOUR_NEUNER_PLAYS, factor=4)
    r = s.result()
    assert r is not None and r["factor"] == 4
    assert r["score"] == 3 * 2 * 4


def test_wikipedia_muck_ueber_wenz_values_in_a_game(game: GameFactory) -> None:
    s = game(FOUR_NEUNER, rules="wikipedia", calls="muck weiter weiter weiter",
             doubling="gut gut", plays=FOUR_NEUNER_PLAYS)
    assert s.result() is not None
    assert s.result()["score"] == 4  # type: ignore[index]  # Muck schneider: 4 (seefest: 3)


def test_generated_values_for_other_game_orders() -> None:
    # "Muck über Geier über Wenz": plain games 2, 3, 4 by their order, +1 per column
    rules = SEEFEST.replace(games=("wenz", "geier", "muck"))
    assert rules.bid_names()[:3] == ("wenz", "geier", "muck")
    assert [rules.value(n, "plain") for n in ("wenz", "geier", "muck")] == [2, 3, 4]
    assert [rules.value(n, "schwarz") for n in ("wenz", "geier", "muck")] == [4, 5, 6]
    assert rules.value("schneiderwenz", "plain") is None
    assert rules.value("schneiderwenz", "schneider") == 5
    # schwarz rows start at max(8, 2n + 4) = 10 so they outrank every schneider game
    assert rules.value("schwarzwenz", "schwarz") == 10
    assert rules.value("schwarzmuck", "schwarz") == 14
    assert rules.value("schwarzwenz", "schwarz") > rules.value("schneidermuck", "schwarz")  # type: ignore[operator]
