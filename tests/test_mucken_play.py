"""Trick play inside a Mucken game: who leads, following, the trick winner leading
on, the end after 6 tricks, and what each seat may see."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from stammtisch.cards import Card
from stammtisch.errors import IllegalActionError
from stammtisch.games.mucken import MuckenState

GameFactory = Callable[..., MuckenState]


def legal_set(state: MuckenState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def wenz_by_seat_2(game: GameFactory) -> MuckenState:
    # dealer 1: seat 2 calls first and comes out
    return game(dealer=1, calls="wenz weiter weiter weiter", doubling="gut gut")


def test_wenz_eichel_ober_must_follow_but_the_unter_need_not(game: GameFactory) -> None:
    s = wenz_by_seat_2(game)
    assert s.phase == "play" and s.current_player == 2
    s.push("EA")
    # seat 3: no Eichel, no duty to trump
    assert legal_set(s) == {"GK", "G9", "SA", "S10", "SK", "S9"}
    s.push("GK")
    assert legal_set(s) == {"EO"}  # seat 0 holds EO (plain Eichel in a Wenz) and EU (trump)
    with pytest.raises(IllegalActionError, match=r"seat 0 must follow Eichel, holds EO"):
        s.push("EU")
    with pytest.raises(IllegalActionError, match=r"seat 0 does not hold SA"):
        s.push("SA")
    s.push("EO")
    # seat 1 is void in Eichel: free choice
    assert legal_set(s) == {"HA", "H10", "H9", "GU", "HU", "SU"}
    s.push("H9")
    assert s.tricks.winners == [2]  # EA beats EO, the Ober ranks below the König
    assert s.current_player == 2


def test_muck_eichel_ober_and_unter_are_trumps_not_eichel(game: GameFactory) -> None:
    s = game(dealer=1, calls="muck weiter weiter weiter", doubling="gut gut")
    s.push("EA")
    s.push("GK")
    # seat 0 holds only trumps, no plain Eichel: free choice
    assert legal_set(s) == {"EO", "GO", "HO", "SO", "EU", "HK"}


MIXED = ("EO GO HO SO EU HK", "HA H10 GU EA E10 EK", "H9 HU SU E9 GA G10",
         "GK G9 SA S10 SK S9")


def test_trump_led_must_be_followed_with_trump(game: GameFactory) -> None:
    s = game(MIXED, calls="muck weiter weiter weiter", doubling="gut gut")
    s.push("HK")  # Herz is trump in the Muck
    assert legal_set(s) == {"GU", "HA", "H10"}
    with pytest.raises(IllegalActionError, match="seat 1 must follow Trumpf, holds GU HA H10"):
        s.push("EA")
    s.push("H10")
    assert legal_set(s) == {"H9", "HU", "SU"}
    s.push("HU")
    assert legal_set(s) == {"GK", "G9", "SA", "S10", "SK", "S9"}  # no trump: free
    s.push("S9")
    assert s.tricks.winners == [2]  # HU beats H10 and HK
    assert s.pair_augen() == [16, 0]
    assert s.current_player == 2


def test_trick_winner_leads_the_next_trick_and_game_ends_after_six(
    game: GameFactory,
) -> None:
    s = game(calls="muck weiter weiter weiter", doubling="gut gut")
    plays = "SO GU E9 S9  EO HA EA SA  GO H10 E10 S10  HO H9 EK SK  EU HU GA GK  HK SU G10 G9"
    leaders = []
    for i, text in enumerate(plays.split()):
        if i % 4 == 0:
            leaders.append(s.current_player)
        s.push(text)
    assert s.is_terminal() and s.phase == "end"
    assert leaders == [0, 0, 0, 0, 0, 0]
    assert s.tricks.winners == [0, 0, 0, 0, 0, 1]
    assert len(s.tricks.tricks) == 6
    assert sum(s.pair_augen()) == 120
    assert s.pair_tricks() == [5, 1]
    assert all(h == [] for h in s.hands)


def test_the_lead_passes_to_the_trick_winner(game: GameFactory) -> None:
    s = game(calls="muck weiter weiter weiter", doubling="gut gut",
             plays="HK HA EA S9")  # seat 1 takes it with HA
    assert s.tricks.winners == [1]
    assert s.current_player == 1
    assert s.tricks.leader == 1


def test_views_during_play(game: GameFactory) -> None:
    s = game(calls="muck weiter weiter weiter", doubling="gut gut", plays="HK HA EA S9 H9")
    v = s.view(2)
    assert v["seat"] == 2 and v["to_act"] == 2
    assert v["hand"] == ["E10", "EK", "E9", "GA", "G10"]
    assert v["legal"] == ["E10", "EK", "E9", "GA", "G10"]
    assert v["hand_sizes"] == [5, 4, 5, 5]
    assert v["trick"] == [{"seat": 1, "card": "H9"}]
    assert v["last_trick"]["winner"] == 1
    assert [x["card"] for x in v["last_trick"]["cards"]] == ["HK", "HA", "EA", "S9"]
    assert v["contract"] == "muck" and v["declarer"] == 0
    assert v["augen_taken"] == [0, 26] and v["tricks_taken"] == [0, 1]
    assert s.view(0)["legal"] == []  # not seat 0's turn
    spectator = s.view(None)
    assert spectator["hand"] == [] and spectator["legal"] == []
    text = json.dumps(spectator)
    for hand in s.hands:
        for c in hand:
            assert f'"{c}"' not in text
    assert "dealt" not in v


def test_hand_in_view_is_sorted_by_the_game(game: GameFactory) -> None:
    s = game(dealer=1, calls="wenz weiter weiter weiter", doubling="gut gut")
    assert s.view(0)["hand"] == ["EU", "EO", "GO", "HK", "HO", "SO"]
    m = game(dealer=1, calls="muck weiter weiter weiter", doubling="gut gut")
    assert m.view(0)["hand"] == ["EO", "GO", "HO", "SO", "EU", "HK"]


def test_a_card_before_the_play_is_refused(game: GameFactory) -> None:
    s = game(calls="muck weiter weiter weiter")
    with pytest.raises(IllegalActionError, match="may say 'kontra' or 'gut'"):
        s.apply(Card.parse("S9"))


def test_result_and_returns_of_a_finished_game(game: GameFactory) -> None:
    s = game(calls="muck weiter weiter weiter", doubling="gut gut",
             plays="SO GU E9 S9 EO HA EA SA GO H10 E10 S10 HO H9 EK SK EU HU GA GK "
                   "HK SU G10 G9")
    r = s.result()
    assert r is not None
    assert r["contract"] == "muck" and r["declarer"] == 0
    assert r["augen"] == [104, 16] and r["tricks"] == [5, 1]
    assert r["winner"] == 0 and r["column"] == "schneider" and r["score"] == 3
    assert s.returns() == [3, -3, 3, -3]
    assert sum(s.returns()) == 0
    # every card is public once all are played
    assert s.view(1)["dealt"][0] == ["EO", "GO", "HO", "SO", "EU", "HK"]
