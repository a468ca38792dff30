"""The play: trump orders of every game, following, trick winners, first lead, and the
called ace's rules (gesucht, davonlaufen, no discarding it before the last trick)."""

from __future__ import annotations

import pytest
from schafkopf_helpers import D1, hand, legal, say

from stammtisch.cards import Suit, cards
from stammtisch.errors import IllegalActionError
from stammtisch.games.schafkopf.games import order_for


def names(cs: object) -> str:
    return " ".join(str(c) for c in cs)  # type: ignore[attr-defined]


@pytest.mark.parametrize("kind, suit, trumps", [
    ("sauspiel", None, "EO GO HO SO EU GU HU SU HA H10 HK H9 H8 H7"),
    ("hochzeit", None, "EO GO HO SO EU GU HU SU HA H10 HK H9 H8 H7"),
    ("ramsch", None, "EO GO HO SO EU GU HU SU HA H10 HK H9 H8 H7"),
    ("solo", Suit.HERZ, "EO GO HO SO EU GU HU SU HA H10 HK H9 H8 H7"),
    ("solo", Suit.SCHELLEN, "EO GO HO SO EU GU HU SU SA S10 SK S9 S8 S7"),
    ("wenz", None, "EU GU HU SU"),
    ("geier", None, "EO GO HO SO"),
    ("farbwenz", Suit.GRAS, "EU GU HU SU GA G10 GK GO G9 G8 G7"),
    ("bettel", None, ""),
])
def test_trump_orders(kind: str, suit: Suit | None, trumps: str) -> None:
    assert names(order_for(kind, suit).trumps) == trumps


@pytest.mark.parametrize("kind, suit, plain, ranking", [
    ("sauspiel", None, "E", "EA E10 EK E9 E8 E7"),
    ("solo", Suit.EICHEL, "H", "HA H10 HK H9 H8 H7"),
    ("wenz", None, "H", "HA H10 HK HO H9 H8 H7"),
    ("geier", None, "S", "SA S10 SK SU S9 S8 S7"),
    ("farbwenz", Suit.GRAS, "E", "EA E10 EK EO E9 E8 E7"),
    ("bettel", None, "G", "GA GK GO GU G10 G9 G8 G7"),
])
def test_suit_orders(kind: str, suit: Suit | None, plain: str, ranking: str) -> None:
    order = order_for(kind, suit)
    ranked = cards(ranking)
    assert all(not order.is_trump(c) and c.suit.letter == plain for c in ranked)
    assert [order.power(c) for c in ranked] == sorted((order.power(c) for c in ranked),
                                                      reverse=True)
    # every card of a trick of the suit: the first listed wins
    assert order.winner(tuple(reversed(ranked[:4]))) == 3


def test_highest_trump_wins_else_highest_of_the_led_suit() -> None:
    normal = order_for("sauspiel", None)
    assert normal.winner(cards("EA E10 H7 EK")) == 2
    assert normal.winner(cards("GA EA SA HA")) == 3  # HA is trump
    assert normal.winner(cards("E9 GA EK SA")) == 2
    assert order_for("wenz", None).winner(cards("EO EA E10 SU")) == 3
    assert order_for("bettel", None).winner(cards("EU EO E10 E9")) == 1


def rufspiel(**options: object) -> object:
    return say(hand(D1, **options), "sauspiel-gras weiter weiter weiter gut gut gut")


def test_first_lead_vorhand_or_declarer() -> None:
    s = say(hand(D1, dealer=2), "weiter sauspiel-gras weiter weiter gut gut gut")
    assert s.declarer == 0 and s.current_player == 3  # standard: Vorhand leads
    s = say(hand(D1, dealer=2, first_lead="declarer"),
            "weiter sauspiel-gras weiter weiter gut gut gut")
    assert s.current_player == 0


def test_follow_trump_and_suit_ober_are_trumps_not_suit() -> None:
    s = rufspiel()
    say(s, "EO")
    assert legal(s) == ["HO", "SO", "GU", "HA"]
    s = rufspiel()
    say(s, "E7")
    assert legal(s) == ["E10", "EK"]
    with pytest.raises(IllegalActionError, match="must follow Eichel, holds E10 EK"):
        s.push("HO")


def test_gesucht_the_holder_must_play_the_called_ace() -> None:
    s = rufspiel()
    say(s, "G7 HA")
    assert legal(s) == ["GA"]
    with pytest.raises(IllegalActionError, match="called GA and must play it"):
        s.push("G9")
    say(s, "GA")
    assert s.called_played and s.view(1)["partner"] == 2
    assert not s.gesucht  # the trick is not complete yet
    say(s, "G8")
    assert s.gesucht


def test_the_called_ace_may_not_be_discarded_before_the_last_trick() -> None:
    s = rufspiel()
    say(s, "S7 S9")
    assert "GA" not in legal(s) and len(legal(s)) == 7
    with pytest.raises(IllegalActionError, match="may not discard the called GA"):
        s.push("GA")


def test_davonlaufen_with_four_cards_of_the_called_suit() -> None:
    s = rufspiel()
    say(s, "E7 EK EA E8")  # seat 2 takes the trick and leads
    assert s.current_player == 2
    assert legal(s) == ["HU", "SU", "E9", "GA", "G10", "GK", "G9"]
    say(s, "G9 G8 G7 HO")  # runs away: the suit counts as led, the ace is free
    assert s.gesucht and not s.called_played
    # now seat 2 may keep or discard the ace as it likes
    assert s.view(0)["partner"] is None


def test_without_davonlaufen_the_holder_leads_the_suit_only_with_the_ace() -> None:
    s = rufspiel(davonlaufen=False)
    say(s, "E7 EK EA E8")
    assert legal(s) == ["HU", "SU", "E9", "GA"]
    with pytest.raises(IllegalActionError, match="may lead Gras only with it"):
        s.push("G10")


def test_after_the_suit_was_led_the_ace_is_free() -> None:
    s = rufspiel()
    say(s, "G7 HA GA G8")  # gesucht; seat 1 took it with HA
    say(s, "SK")
    assert legal(s) == ["HU", "SU", "EA", "E9", "G10", "GK", "G9"]  # the ace is played


def test_partner_is_hidden_from_every_other_view_until_the_ace_is_played() -> None:
    s = rufspiel()
    for seat in (None, 0, 1, 3):
        v = s.view(seat)
        assert v["partner"] is None
        assert "GA" not in v["hand"] if seat is not None else True
    assert s.view(2)["partner"] is None  # even the holder's view names nobody
    assert s.partner == 2  # the state knows


def test_muss_renonce_play_rules_hold_for_the_called_ace() -> None:
    from test_schafkopf_phases import D4

    s = say(hand(D4, all_pass="muss"), "weiter weiter weiter weiter sauspiel-schellen")
    say(s, "EA HA EK")  # seat 0 leads; seat 2 follows Eichel
    # seat 3 holds the called SA: no Eichel, may not discard SA
    assert "SA" not in legal(s)


def test_muss_zehn_the_called_ten_must_be_played_when_gras_is_led() -> None:
    from test_schafkopf_phases import D5

    s = say(hand(D5, all_pass="muss"), "weiter weiter weiter weiter sauspiel-gras-zehn")
    say(s, "G9 HA")
    assert legal(s) == ["G10"]


def test_cards_played_leave_the_hand_and_eight_tricks_end_the_hand() -> None:
    s = rufspiel()
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    r = s.result()
    assert r is not None and len(r["trick_winners"]) == 8 and sum(r["augen"]) == 120
    assert all(not h for h in s.hands)
