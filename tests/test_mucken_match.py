"""A sitting of Mucken: the score sheet with Bobbl, Tore, Brille and Hänger
(seed 001 "Runden und Bobbl", seed 000 "Zählen und Ermitteln des Gewinners"),
and the dealer moving on."""

from __future__ import annotations

import random

import pytest

from stammtisch.cards import cards
from stammtisch.engine import Deal, play_random
from stammtisch.games.mucken import MuckenRules
from stammtisch.games.mucken.match import MuckenMatch, ScoreSheet


def test_bobbl_ends_when_a_pair_would_reach_21_and_that_game_is_not_written() -> None:
    sheet = ScoreSheet(target=21)
    assert sheet.add_game(0, 8) is None
    assert sheet.add_game(1, 5) is None
    assert sheet.add_game(0, 10) is None  # 18
    assert sheet.add_game(1, 4) is None  # 9
    b = sheet.add_game(0, 3)  # 18 + 3 = 21: reached by winning a game
    assert b is not None and b.finished
    assert b.winner == 0 and b.loser == 1
    assert b.totals == [18, 9]  # the last game is not written
    assert [e.written for e in b.entries] == [True, True, True, True, False]
    assert b.entries[-1].points == 3 and b.entries[-1].pair == 0
    assert b.tore == 9  # the loser's points are its geschossene Tore
    assert b.winner_points == 18  # the loser's Tore are the winner's gegnerische Tore
    assert not b.brille
    assert sheet.bobbl_won() == [1, 0]


def test_bobbl_is_won_by_overshooting_too() -> None:
    sheet = ScoreSheet(21)
    sheet.add_game(1, 20)
    b = sheet.add_game(1, 10)
    assert b is not None and b.winner == 1 and b.totals == [0, 20]


def test_a_bobbl_to_zero_is_a_brille_and_counts_like_any_other() -> None:
    sheet = ScoreSheet(21)
    sheet.add_game(1, 10)
    sheet.add_game(1, 10)
    b = sheet.add_game(1, 2)
    assert b is not None and b.brille and b.tore == 0
    sheet.add_game(0, 4)
    sheet.add_game(1, 30)
    assert not sheet.bobbl[1].brille
    assert sheet.bobbl_won() == [0, 2]
    assert b.to_json()["brille"] is True


def test_unscored_games_are_noted_but_not_written() -> None:
    sheet = ScoreSheet(21)
    assert sheet.add_game(None, 0, "eingeworfen") is None
    assert sheet.add_game(0, 0) is None
    e = sheet.current.entries
    assert [x.written for x in e] == [False, False] and sheet.current.totals == [0, 0]
    assert e[0].note == "eingeworfen"
    assert sheet.games == 2


def test_a_new_bobbl_starts_after_one_is_finished() -> None:
    sheet = ScoreSheet(21)
    sheet.add_game(0, 21)
    assert len(sheet.bobbl) == 1 and sheet.current.finished
    sheet.add_game(1, 4)
    assert len(sheet.bobbl) == 2
    assert sheet.current.totals == [0, 4] and not sheet.current.finished
    assert len(sheet.finished_bobbl()) == 1
    data = sheet.to_json()
    assert data["bobbl_won"] == [1, 0] and len(data["bobbl"]) == 2


def test_bobbl_target_31() -> None:
    sheet = ScoreSheet(31)
    sheet.add_game(0, 20)
    assert sheet.add_game(0, 10) is None
    assert sheet.current.totals == [30, 0]
    assert sheet.add_game(0, 1) is not None
    match = MuckenMatch(MuckenRules.preset("seefest", bobbl_target=31))
    assert match.sheet.target == 31


def _play_game(match: MuckenMatch, rng: random.Random) -> None:
    s = match.start_game(rng)
    play_random(s, rng)
    match.finish_game()


def test_dealer_moves_one_seat_clockwise_per_game() -> None:
    match = MuckenMatch(first_dealer=2)
    rng = random.Random(1)
    dealers = []
    for _ in range(6):
        dealers.append(match.dealer)
        s = match.start_game(rng)
        assert s.dealer == dealers[-1] and s.leader == (dealers[-1] + 1) % 4
        play_random(s, rng)
        match.finish_game()
    assert dealers == [2, 3, 0, 1, 2, 3]


def test_the_dealer_moves_on_after_einwerfen_too() -> None:
    match = MuckenMatch(MuckenRules.preset("wikipedia"), first_dealer=0)
    s = match.start_game()
    s.apply(Deal(tuple(cards(h) for h in ("EO GO HO SO EU E9", "GU HU SU HA H10 H9",
                                          "HK G9 EA E10 EK GA", "S9 G10 GK SA S10 SK"))))
    for _ in range(4):
        s.push("weiter")
    assert match.finish_game() is None
    assert match.dealer == 1
    assert match.sheet.current.entries[0].written is False


def test_match_books_games_on_the_sheet_until_bobbl() -> None:
    match = MuckenMatch(bobbl_limit=1)
    rng = random.Random(5)
    finished = None
    while not match.is_over():
        s = match.start_game(rng)
        play_random(s, rng)
        finished = match.finish_game()
        o = s.outcome
        assert o is not None
        entry = match.sheet.bobbl[-1].entries[-1]
        assert entry.pair == (o.winner if o.score > 0 else None)
    assert finished is not None and finished.finished
    b = match.sheet.bobbl[0]
    assert max(b.totals) < 21
    written = [e for e in b.entries if e.written]
    assert sum(e.points for e in written if e.pair == 0) == b.totals[0]
    assert sum(e.points for e in written if e.pair == 1) == b.totals[1]
    last = b.entries[-1]
    assert not last.written and b.totals[last.pair] + last.points >= 21
    assert len(match.games) == match.sheet.games
    with pytest.raises(ValueError, match="over"):
        match.start_game(rng)


def test_haenger_is_best_of_three_bobbl() -> None:
    for seed in range(3):
        match = MuckenMatch(MuckenRules.preset("seefest", haenger=True, bobbl_target=11))
        rng = random.Random(seed)
        while not match.is_over():
            _play_game(match, rng)
        won = match.sheet.bobbl_won()
        assert max(won) == 2 and min(won) <= 1
        assert len(match.sheet.finished_bobbl()) == sum(won) in (2, 3)


def test_haenger_goes_to_a_third_bobbl_after_one_each() -> None:
    match = MuckenMatch(MuckenRules.preset("seefest", haenger=True))
    match.sheet.add_game(0, 21)
    assert not match.is_over()
    match.sheet.add_game(1, 21)
    assert not match.is_over()  # one each: in den Hänger
    match.sheet.add_game(1, 21)
    assert match.is_over() and match.sheet.bobbl_won() == [1, 2]


def test_match_refuses_out_of_order_calls() -> None:
    match = MuckenMatch()
    with pytest.raises(ValueError, match="no finished game"):
        match.finish_game()
    match.start_game(random.Random(0))
    with pytest.raises(ValueError, match="not finished"):
        match.start_game()
    with pytest.raises(ValueError, match="no finished game"):
        match.finish_game()
