"""Legen, bidding with ranks, no game (redeal, Ramsch, Muss with Renonce and -zehn),
Hochzeit with the exchange, Stoßen: one test per sentence of the contract."""

from __future__ import annotations

import pytest
from schafkopf_helpers import D1, hand, legal, say

from stammtisch.cards import Card, cards
from stammtisch.engine.core import Say
from stammtisch.errors import IllegalActionError

# one trump (HA) at seat 0: a Hochzeit; seat 1 holds only trumps (its Sie is not allowed)
D3 = ["HA EA E10 EK GA G10 SA S10", "EO GO HO SO EU GU HU SU",
      "H10 HK H9 E9 E8 G9 G8 E7", "H8 H7 G7 GK S9 S8 S7 SK"]
# a Hochzeit hand where every other seat could accept
D2 = ["HA EA E10 EK GA G10 SA S10", "EO GO HO SO E9 E8 G9 G8",
      "EU GU HU SU H10 HK E7 G7", "H9 H8 H7 GK S9 S8 S7 SK"]
# EO at seat 0 with the Eichel and Gras aces and no Schellen: Renonce on Schellen
D4 = ["EO GO HO SO EU EA E10 GA", "GU HU SU HA H10 HK H9 H8",
      "H7 EK E9 E8 E7 G10 GK G9", "G8 G7 SA S10 SK S9 S8 S7"]
# EO at seat 0 with all three aces and E10: a Muss on the Gras or Schellen ten
D5 = ["EO HO EA GA SA E10 E9 G9", "GO SO EU GU HA H10 HK H9",
      "HU SU H8 H7 EK E8 G10 GK", "E7 G8 G7 S10 SK S9 S8 S7"]
# EO at seat 0 with all three aces and all three tens: redealt
D6 = ["EO HO EA GA SA E10 G10 S10", "GO SO EU GU HA H10 HK H9",
      "HU SU H8 H7 EK E9 E8 E7", "GK G9 G8 G7 SK S9 S8 S7"]

ALL_GAMES = ["sauspiel", "hochzeit", "bettel", "geier", "wenz", "farbwenz", "solo", "tout"]


# -- Legen ---------------------------------------------------------------------------
def test_legen_from_vorhand_each_lege_doubles_and_views_show_four_cards() -> None:
    s = hand(D1, "anleitung", dealer=1)
    assert s.phase == "legen" and s.current_player == 2
    assert legal(s) == ["lege", "gut"]
    assert s.view(2)["hand"] == [str(c) for c in sorted(cards("GA G10 GK G9"),
                                                         key=s.order.sort_key)]
    assert s.view(2)["hand_sizes"] == [4, 4, 4, 4]
    say(s, "lege gut lege gut")
    assert s.phase == "bidding" and s.current_player == 2
    assert s.lege_seats == [2, 0] and s.multiplier == 4
    assert len(s.view(2)["hand"]) == 8


def test_no_legen_phase_in_standard() -> None:
    assert hand(D1).phase == "bidding"


# -- bidding -------------------------------------------------------------------------
def test_bidding_words_and_callable_sauspiele() -> None:
    s = hand(D1)
    assert legal(s) == ["weiter", "sauspiel-eichel", "sauspiel-gras", "sauspiel-schellen",
                        "wenz", "solo-eichel", "solo-gras", "solo-herz", "solo-schellen",
                        "wenz-tout", "solo-eichel-tout", "solo-gras-tout", "solo-herz-tout",
                        "solo-schellen-tout"]
    say(s, "weiter")
    # seat 1 holds no Eichel card that is not... it holds E10 EK: callable; no Gras: not
    assert "sauspiel-gras" not in legal(s) and "sauspiel-eichel" in legal(s)
    # seat 2 holds the Gras and Eichel aces
    say(s, "weiter")
    assert [w for w in legal(s) if w.startswith("sauspiel")] == []


def test_a_caller_needs_a_plain_card_of_the_suit_not_a_trump() -> None:
    # seat 0 holds only trumps of Herz and Ober/Unter: no Sauspiel at all
    s = hand(["EO GO HO SO EU GU HU HA", "SU H10 HK H9 H8 H7 EA E10",
              "EK E9 E8 E7 GA G10 GK G9", "G8 G7 SA S10 SK S9 S8 S7"])
    assert not any(w.startswith("sauspiel") for w in legal(s))
    with pytest.raises(IllegalActionError, match="no Eichel card"):
        s.push("sauspiel-eichel")


def test_later_seats_must_name_a_strictly_higher_rank() -> None:
    s = say(hand(D1, "anleitung", dealer=3), "gut gut gut gut sauspiel-gras")
    assert "hochzeit" not in legal(s) and "bettel" in legal(s)
    say(s, "wenz")
    assert "geier" not in legal(s) and "wenz" not in legal(s)
    assert "solo-herz" in legal(s) and "farbwenz-gras" in legal(s)
    with pytest.raises(IllegalActionError, match="does not rank above wenz"):
        s.push("geier")
    say(s, "farbwenz-gras")
    assert "solo-eichel" not in legal(s) and "geier-tout" in legal(s)
    say(s, "weiter")
    assert s.contract == "farbwenz-gras" and s.declarer == 2


def test_only_allowed_games_and_tout_forms() -> None:
    s = hand(D1, games=["sauspiel", "wenz"])
    assert legal(s) == ["weiter", "sauspiel-eichel", "sauspiel-gras", "sauspiel-schellen",
                        "wenz"]
    s = hand(D1, games=["geier", "tout"])
    assert legal(s) == ["weiter", "geier", "geier-tout"]
    with pytest.raises(IllegalActionError, match="not among the games"):
        s.push("wenz")


def test_the_bidding_is_one_round_ending_at_the_dealer() -> None:
    s = say(hand(D1, dealer=1), "weiter")  # Vorhand is seat 2
    assert s.current_player == 3
    say(s, "wenz weiter")
    assert s.current_player == 1  # the dealer speaks last
    say(s, "weiter")
    assert s.phase == "stossen" and s.declarer == 3


def test_sie_ends_the_bidding_at_once() -> None:
    s = hand(D3, dealer=0)  # Vorhand 1 holds the Sie
    say(s, "sie")
    r = s.result()
    assert r is not None and r["contract"] == "sie" and r["declarer"] == 1
    assert r["trick_winners"] == [1] * 8 and r["augen"] == [0, 120, 0, 0]
    assert r["schneider"] is False and r["schwarz"] is False and r["winner"] == "declarers"


# -- no game -------------------------------------------------------------------------
def test_redeal() -> None:
    s = say(hand(D1), "weiter weiter weiter weiter")
    r = s.result()
    assert r == {"contract": None, "declarer": None, "partner": None, "trick_winners": [],
                 "augen": [0, 0, 0, 0], "winner": None, "schneider": False, "schwarz": False,
                 "laufende": 0, "multiplier": 1, "payments": [0, 0, 0, 0], "loser": None}


def test_all_pass_ramsch_is_played_vorhand_leads() -> None:
    s = say(hand(D1, "anleitung", dealer=2), "gut gut gut gut weiter weiter weiter weiter")
    assert s.phase == "play" and s.contract == "ramsch" and s.current_player == 3
    assert s.declarer is None


def test_muss_the_holder_of_eo_names_a_callable_sauspiel() -> None:
    s = say(hand(D1, all_pass="muss", dealer=0), "weiter weiter weiter weiter")
    assert s.phase == "muss" and s.current_player == 0 and s.view(0)["to_act"] == 0
    assert legal(s) == ["sauspiel-eichel", "sauspiel-gras", "sauspiel-schellen"]
    say(s, "sauspiel-gras")
    assert s.phase == "play" and s.contract == "sauspiel-gras" and s.partner == 2
    assert s.stoss == []  # no Stoßen in a Muss-Spiel


def test_muss_with_renonce() -> None:
    s = say(hand(D4, all_pass="muss"), "weiter weiter weiter weiter")
    assert legal(s) == ["sauspiel-schellen"]
    say(s, "sauspiel-schellen")
    assert s.partner == 3 and s.called == Card.parse("SA")


def test_muss_needs_no_sauspiel_in_games() -> None:
    s = say(hand(D4, all_pass="muss", games=["wenz"]), "weiter weiter weiter weiter")
    assert legal(s) == ["sauspiel-schellen"]


def test_muss_on_a_ten_when_holding_all_three_aces() -> None:
    s = say(hand(D5, all_pass="muss"), "weiter weiter weiter weiter")
    assert legal(s) == ["sauspiel-gras-zehn", "sauspiel-schellen-zehn"]
    with pytest.raises(IllegalActionError, match="Muss-Spiel"):
        s.push("sauspiel-eichel-zehn")
    with pytest.raises(IllegalActionError, match="Muss-Spiel"):
        s.push("weiter")
    say(s, "sauspiel-gras-zehn")
    assert s.contract == "sauspiel-gras-zehn" and s.partner == 2
    assert s.called == Card.parse("G10")


def test_muss_with_all_aces_and_tens_is_redealt() -> None:
    s = say(hand(D6, all_pass="muss"), "weiter weiter weiter weiter")
    r = s.result()
    assert r is not None and r["contract"] is None and r["payments"] == [0, 0, 0, 0]
    assert r["trick_winners"] == []


def test_muss_words_only_in_the_muss_phase() -> None:
    s = hand(D5, all_pass="muss")
    assert "sauspiel-gras-zehn" not in legal(s)


# -- Hochzeit ------------------------------------------------------------------------
def test_hochzeit_needs_exactly_one_trump() -> None:
    s = hand(D2, "anleitung")
    say(s, "gut gut gut gut")
    assert "hochzeit" in legal(s)
    say(s, "weiter")
    assert "hochzeit" not in legal(s)  # seat 1: four Ober


def test_hochzeit_accepted_and_the_exchange() -> None:
    s = say(hand(D2, "anleitung"), "gut gut gut gut hochzeit weiter weiter weiter")
    assert s.phase == "hochzeit" and s.current_player == 1
    assert legal(s) == ["annehmen", "gut"]
    say(s, "gut annehmen")
    assert s.phase == "exchange" and s.current_player == 2
    assert legal(s) == ["E7", "G7"]
    with pytest.raises(IllegalActionError, match="not a trump"):
        s.push("HK")
    say(s, "G7")
    assert s.contract == "hochzeit" and s.declarer == 0 and s.partner == 2
    assert Card.parse("G7") in s.hands[0] and Card.parse("HA") not in s.hands[0]
    assert Card.parse("HA") in s.hands[2]
    assert s.phase == "stossen" and s.current_player == 1
    # nobody else sees the exchanged cards
    assert "G7" not in str(s.view(1)) and "G7" not in str(s.view(3))
    assert s.view(1)["partner"] == 2  # the Hochzeit partner is public


def test_hochzeit_asking_goes_from_vorhand_and_skips_the_hochzeiter() -> None:
    s = say(hand(D2, "anleitung", dealer=0), "gut gut gut gut weiter weiter weiter")
    # Vorhand 1 passed; the dealer's seat 0 names the Hochzeit last
    say(s, "hochzeit")
    assert s.phase == "hochzeit" and s._ask == [1, 2, 3]


def test_only_a_seat_with_a_non_trump_may_accept_and_nobody_accepts() -> None:
    s = say(hand(D3, "anleitung", games=ALL_GAMES), "gut gut gut gut hochzeit weiter weiter")
    say(s, "weiter")
    assert s.current_player == 1 and legal(s) == ["gut"]
    with pytest.raises(IllegalActionError, match="only trumps"):
        s.push("annehmen")
    say(s, "gut gut gut")
    # treated as no game named: the anleitung plays a Ramsch
    assert s.contract == "ramsch" and s.phase == "play"


def test_first_annehmen_ends_the_asking() -> None:
    s = say(hand(D2, "anleitung"), "gut gut gut gut hochzeit weiter weiter weiter annehmen")
    assert s.acceptor == 1 and s.phase == "exchange" and s.current_player == 1
    assert legal(s) == ["E9", "E8", "G9", "G8"]


# -- Stoßen --------------------------------------------------------------------------
def test_stossen_asks_every_seat_but_the_declarer_the_partner_only_gut() -> None:
    s = say(hand(D1), "sauspiel-gras weiter weiter weiter")
    assert s.phase == "stossen" and s.current_player == 1
    assert legal(s) == ["kontra", "gut"]
    say(s, "gut")
    assert legal(s) == ["gut"]  # seat 2 holds the Gras ace
    with pytest.raises(IllegalActionError, match="declaring side"):
        s.push("kontra")
    say(s, "gut")
    assert legal(s) == ["kontra", "gut"]
    say(s, "gut")
    assert s.phase == "play" and s.multiplier == 1


def test_stossen_chain_with_the_anleitung_words() -> None:
    s = say(hand(D1, "anleitung"), "gut gut gut gut wenz weiter weiter weiter")
    say(s, "gut kontra")  # seat 1 gut, seat 2 kontra ends the first round
    assert s.current_player == 3 and legal(s) == ["gut"]  # seat 3: same side as seat 2
    say(s, "gut")
    assert s.current_player == 0 and legal(s) == ["sup", "gut"]
    say(s, "sup")
    assert s.current_player == 1 and legal(s) == ["re-sup", "gut"]
    say(s, "gut gut")
    assert s.current_player == 3
    with pytest.raises(IllegalActionError, match="next Stoß word is 're-sup'"):
        s.push("hirsch")
    say(s, "re-sup")
    assert [s.current_player, legal(s)] == [0, ["hirsch", "gut"]]
    say(s, "gut")
    assert legal(s) == ["gut"]
    say(s, "gut gut")
    assert s.phase == "play" and s.multiplier == 8
    assert s.stoss == [(2, "kontra"), (0, "sup"), (3, "re-sup")]
    assert s.current_player == 0  # the declarer leads (anleitung)


def test_stossen_ends_when_the_words_run_out() -> None:
    s = say(hand(D1), "wenz weiter weiter weiter kontra")
    assert s.current_player == 2 and legal(s) == ["gut"]
    say(s, "gut gut")
    assert legal(s) == ["re", "gut"]
    say(s, "re")
    assert s.phase == "play" and s.multiplier == 4


def test_in_a_rufspiel_the_partner_may_answer_for_the_declaring_side() -> None:
    s = say(hand(D1), "sauspiel-gras weiter weiter weiter kontra")
    assert s.current_player == 2 and legal(s) == ["re", "gut"]


def test_no_stoss_words_no_stossen() -> None:
    s = say(hand(D1, stoss_words=[]), "wenz weiter weiter weiter")
    assert s.phase == "play"


def test_no_stossen_after_ramsch_and_muss() -> None:
    s = say(hand(D1, all_pass="ramsch"), "weiter weiter weiter weiter")
    assert s.phase == "play"


def test_words_are_exact() -> None:
    s = hand(D1)
    assert Say("Weiter") not in s.legal_actions()
    with pytest.raises(IllegalActionError):
        s.apply(Say("pass"))
