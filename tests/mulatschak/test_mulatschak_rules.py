"""Mulatschak's contract (../specs/mulatschak.md), sentence by sentence."""

from __future__ import annotations

import pytest
from mulatschak_helpers import H4, state_for

from stammtisch.cards import Card, cards
from stammtisch.engine.core import Say
from stammtisch.errors import IllegalActionError, InvalidActionError, RulesError
from stammtisch.games.mulatschak.rules import MulatschakRules
from stammtisch.games.mulatschak.state import (
    DECK,
    MulatschakState,
    match_winner,
    parse_action,
    strength,
)


def words(state: MulatschakState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


# -- the deck, the orders, the rules ----------------------------------------------------
def test_the_deck_is_33_cards_with_the_weli() -> None:
    assert len(DECK) == 33 and Card.parse("S6") in DECK and len(set(DECK)) == 33


def test_trump_order_a_weli_k_o_u_10_9_8_7_and_the_weli_in_every_suit() -> None:
    for trump in "EGHS":
        order = [Card.parse(trump + r) for r in ("A",)] + [Card.parse("S6")] + [
            Card.parse(trump + r) for r in ("K", "O", "U", "10", "9", "8", "7")]
        values = [strength(c, trump, "E") for c in order]
        assert values == sorted(values, reverse=True) and len(set(values)) == 9
    side = cards("GA GK GO GU G10 G9 G8 G7")
    values = [strength(c, "E", "G") for c in side]
    assert values == sorted(values, reverse=True) and min(values) > 0
    assert strength(Card.parse("HA"), "E", "G") == 0  # neither led nor trump


def test_rules_preset_options_and_typed_errors() -> None:
    r = MulatschakRules.preset("salzburg")
    assert r.to_json() == {"preset": "salzburg", "klopfen": True, "stichzwang": True,
                           "muli_broken": "all", "all_pass": "redeal", "weiss_nicht": False}
    assert MulatschakRules.from_json(r.to_json()) == r == MulatschakRules.from_json("salzburg")
    for bad in ({"x": 1}, {"klopfen": 1}, {"muli_broken": "some"}, {"all_pass": "ramsch"},
                {"preset": "wien"}):
        with pytest.raises(RulesError):
            MulatschakRules.from_json({"preset": "salzburg", **bad})
    with pytest.raises(RulesError):
        MulatschakRules.from_json(3)


# -- Abheben, Klopfen, the deal ----------------------------------------------------------
def test_the_cutter_is_right_of_the_dealer_and_abheben_rotates_the_deck() -> None:
    s = state_for(H4, 3, cut="abheben 7")
    assert s.history[1][0] == 2
    assert [sorted(map(str, h)) for h in s.hands] == [sorted(h) for h in H4.values()]
    assert len(s.stock) == 13 and s.klopfen is False and s.weli_keeper is None
    assert s.revealed == Card.parse(s.deck[6].__str__())


def test_a_cut_weli_is_kept_and_the_cutter_gets_two_then_two() -> None:
    deck = list(DECK)
    deck.remove(Card.parse("S6"))
    deck.insert(9, Card.parse("S6"))  # deck[9]: revealed by abheben 10
    s = MulatschakState(MulatschakRules(), 3, [21] * 4)
    from stammtisch.engine.core import Shuffle

    s.apply(Shuffle(tuple(deck)))
    s.apply(Say("abheben 10"))
    assert s.weli_keeper == 2 and Card.parse("S6") in s.hands[2]
    stock = deck[10:] + deck[:10]
    stock.remove(Card.parse("S6"))
    assert s.hands[0] == stock[0:3] + stock[11:13]
    assert s.hands[2] == [Card.parse("S6"), *stock[6:8], *stock[15:17]]
    assert all(len(h) == 5 for h in s.hands) and len(s.stock) == 13


def test_klopfen_shows_the_bottom_card_keeps_the_order_and_doubles() -> None:
    s = state_for(H4, 3, ["weiter"] * 4, cut="klopfen")
    assert s.klopfen and s.revealed == s.deck[32]
    assert [sorted(map(str, h)) for h in s.hands] == [sorted(h) for h in H4.values()]
    assert s.result() is not None and s.result()["multiplier"] == 2  # type: ignore[index]
    no = state_for(H4, 3, rules=MulatschakRules(klopfen=False))
    assert "klopfen" not in words(MulatschakState(no.rules, 3, [21] * 4)) and \
        "klopfen" not in [w for w in words(no)]


def test_zusammengefallen_ends_the_hand_without_score_changes() -> None:
    hands = {**H4, 0: ["E10", "G10", "G8", "H7", "S9"], 2: ["HA", "H8", "S8", "E8", "G9"]}
    s = state_for(hands, 3, doubled=2)
    r = s.result()
    assert r is not None and r["folded"] and r["bidder"] is None and r["multiplier"] == 4
    assert r["delta"] == [0] * 4 and r["tricks"] == [0] * 4 and r["trick_winners"] == []


# -- Stichansage -------------------------------------------------------------------------------
def test_bidding_bei_mir_and_the_answer() -> None:
    s = state_for(H4, 3, ["2", "3", "weiter"])
    assert s.current_player == 3 and words(s) == ["4", "muli", "bei mir", "weiter"]
    s.push("bei mir")
    assert s.current_player == 1 and words(s) == ["4", "muli", "weiter"]
    s.push("4")
    assert s.current_player == 3 and words(s) == ["muli", "bei mir", "weiter"]
    s.push("bei mir")
    s.push("weiter")
    assert s.phase == "trump" and s.holder == 3 and s.bid == 4


def test_the_dealer_has_no_bei_mir_without_a_bid_and_his_raise_ends() -> None:
    s = state_for(H4, 3, ["weiter", "weiter", "weiter"])
    assert "bei mir" not in words(s)
    s.push("1")
    assert s.phase == "trump" and s.holder == 3 and s.bid == 1


def test_a_muli_in_turn_leaves_only_weiter_then_the_dealer() -> None:
    s = state_for(H4, 3, ["muli"])
    assert words(s) == ["weiter"]
    s.push("weiter")
    s.push("weiter")
    assert words(s) == ["bei mir", "weiter"]
    s.push("bei mir")
    assert s.phase == "trump" and s.holder == 3 and s.bid == 5


def test_a_muli_out_of_turn() -> None:
    s = state_for(H4, 3, ["1"])
    assert s.can_say_muli_out_of_turn(2) and not s.can_say_muli_out_of_turn(1)
    s.apply_out_of_turn(2, Say("muli"))
    assert s.current_player == 3 and words(s) == ["bei mir", "weiter"]
    s.push("weiter")
    assert s.holder == 2 and s.bid == 5 and s.phase == "trump"
    d = state_for(H4, 3, ["1"])
    d.apply_out_of_turn(3, Say("muli"))  # the dealer's Muli ends the bidding at once
    assert d.phase == "trump" and d.holder == 3
    w = state_for(H4, 3, ["weiter"])
    with pytest.raises(IllegalActionError):
        w.apply_out_of_turn(0, Say("muli"))  # said weiter already


def test_a_score_of_five_or_less_only_says_weiter() -> None:
    s = state_for(H4, 3, ["2", "weiter", "weiter"], scores=[21, 21, 21, 5])
    assert words(s) == ["weiter"]
    assert not s.can_say_muli_out_of_turn(3)


def test_everybody_weiter_redeals_without_scores() -> None:
    s = state_for(H4, 3, ["weiter"] * 4)
    r = s.result()
    assert r is not None and r["bidder"] is None and r["bid"] is None and r["trump"] is None
    assert r["delta"] == [0] * 4 and not r["folded"] and r["multiplier"] == 1


# -- trump, Mitgehen ---------------------------------------------------------------------------
def test_mitgehen_is_forced_with_herz_in_a_muli_and_at_three() -> None:
    s = state_for(H4, 3, ["2", "weiter", "weiter", "weiter", "trumpf E"],
                  scores=[21, 3, 21, 21])
    assert s.current_player == 1 and words(s) == ["mit"]
    s.push("mit")
    assert words(s) == ["mit", "daheim"]
    h = state_for(H4, 3, ["2", "weiter", "weiter", "weiter", "trumpf H"])
    assert words(h) == ["mit"]
    m = state_for(H4, 3, ["muli", "weiter", "weiter", "weiter", "trumpf E"])
    assert words(m) == ["mit"]


def test_everybody_home_scores_bid_times_m() -> None:
    s = state_for(H4, 3, ["3", "weiter", "weiter", "weiter", "trumpf G", "daheim", "daheim",
                          "daheim"], doubled=1)
    r = s.result()
    assert r is not None and r["home"] == [1, 2, 3] and r["delta"] == [-6, 2, 2, 2]
    assert r["multiplier"] == 2 and r["trick_winners"] == []


# -- Kartentausch ------------------------------------------------------------------------------
def test_exchange_words_and_the_stocks_promises() -> None:
    s = state_for(H4, 3, ["2", "weiter", "weiter", "weiter", "trumpf G", "mit", "mit", "mit"])
    w = words(s)  # seat 0: EK EO G9 H8 S8, no GA, no S7
    assert "behalte" in w and "sicht EK" in w and "bruecke" in w and "sau" not in w
    assert "tausche EK EO G9 H8" in w and "sechs" not in w
    assert len([x for x in w if x.startswith("tausche")]) == 5 + 10 + 10 + 5
    s.push("bruecke")  # 13 in the stock, 6 promised
    s.push("bruecke")  # 12 promised, 1 left
    w = words(s)
    assert "sicht GA" not in w and "bruecke" not in w and "tausche E8" in w
    assert "tausche E8 G8" not in w


def test_sau_and_sechs_need_their_cards() -> None:
    s = state_for(H4, 3, ["2", "weiter", "weiter", "weiter", "trumpf S", "mit", "mit", "mit"])
    assert "sau" not in words(s) and "sechs" not in words(s)  # seat 0 holds S8 only
    s.push("behalte")
    s.push("behalte")
    s.push("behalte")
    assert "sau" in words(s)  # seat 3 holds SA


def test_sicht_nimm_and_weg() -> None:
    base = ["2", "weiter", "weiter", "weiter", "trumpf E", "mit", "mit", "mit",
            "sicht G9", "behalte", "behalte", "behalte"]
    s = state_for(H4, 3, base, rest=["HO", "H10"])
    assert s.phase == "give" and s.current_player == 0 and words(s) == ["nimm", "weg"]
    assert s.view(1)["shown"] == ["HO"]
    s.push("weg")
    assert Card.parse("H10") in s.hands[0] and Card.parse("HO") not in s.hands[0]
    n = state_for(H4, 3, [*base, "nimm"], rest=["HO", "H10"])
    assert Card.parse("HO") in n.hands[0] and n.phase == "play"


def test_a_bruecke_shows_cards_while_they_are_trumps() -> None:
    hands = {0: ["EK", "G9", "H8", "S8", "G7"], 1: ["GA", "GK", "E10", "S9", "SU"]}
    rest = ["HA", "HK", "HO", "HU", "H10", "EA", "S6", "EO", "EU", "E9", "E8", "E7", "H9",
            "H7"]
    s = state_for(hands, 1, ["1", "2", "trumpf E", "mit", "bruecke", "bruecke"], rest=rest)
    # seat 1 first: 5 unseen, then EA S6 EO EU E9 E8 E7 (trumps, stock stays > 6), H9
    assert s.current_player == 1 and len(s.hands[1]) == 13 and s.to_discard == 8
    assert [str(c) for c in s.shown] == ["EA", "S6", "EO", "EU", "E9", "E8", "E7", "H9"]


def test_the_last_bruecke_stops_at_the_stocks_reserve() -> None:
    hands = {0: ["EK", "G9", "H8", "S8", "G7"], 1: ["GA", "GK", "E10", "S9", "SU"]}
    rest = ["HA", "HK", "HO", "HU", "H10", "EA", "S6", "EO", "EU", "E9", "E8", "E7", "G10",
            "G8", "GO", "GU", "H9"]
    s = state_for(hands, 1, ["1", "2", "trumpf G", "mit", "bruecke", "bruecke"], rest=rest)
    assert [str(c) for c in s.shown] == ["EA"]  # not a trump: stop


def test_a_low_score_only_keeps() -> None:
    s = state_for(H4, 3, ["2", "weiter", "weiter", "weiter", "trumpf G", "mit", "mit", "mit",
                          "behalte", "behalte", "behalte"], scores=[21, 21, 21, 3])
    assert s.current_player == 3 and words(s) == ["behalte"]


# -- play --------------------------------------------------------------------------------------
def _play_state(rules: MulatschakRules | None = None) -> MulatschakState:
    return state_for(H4, 3, ["2", "weiter", "weiter", "weiter", "trumpf S", "mit", "mit",
                             "mit", "behalte", "behalte", "behalte", "behalte"], rules=rules)


def test_follow_suit_trump_and_stichzwang() -> None:
    s = _play_state()
    assert s.phase == "play" and s.current_player == 0
    s.push("EK")
    assert words(s) == ["E7"]  # seat 1 follows Eichel
    s.push("E7")
    assert words(s) == ["E8"]
    s.push("E8")
    assert sorted(words(s)) == ["E9", "EU"]  # neither beats EK: both
    z = _play_state()
    z.push("H8")
    z.push("GA")  # no Herz, no trump: anything
    assert words(z) == ["HA"]  # stichzwang: HA beats H8, H7 does not
    free = _play_state(MulatschakRules(stichzwang=False))
    free.push("H8")
    free.push("GA")
    assert sorted(words(free)) == ["H7", "HA"]


def test_no_suit_means_trump_and_the_weli_is_trump() -> None:
    s = _play_state()
    s.push("H8")  # seat 0 leads Herz; seat 1 has none and no trump: anything
    assert words(s) == ["GA", "GK", "GO", "GU", "E7"] or sorted(words(s)) == sorted(
        ["GA", "GK", "GO", "GU", "E7"])
    assert parse_action("S6") == Card.parse("S6")


def test_scoring_and_the_muli() -> None:
    s = _play_state()
    while s.phase == "play":
        s.apply(s.legal_actions()[0])
    r = s.result()
    assert r is not None and sum(r["tricks"]) == 5 and len(r["trick_winners"]) == 5
    for seat in range(4):
        t = r["tricks"][seat]
        if seat == 0:
            assert r["delta"][0] == (-t if t >= 2 else 10)
        else:
            assert r["delta"][seat] == (-t if t else 5)


def test_match_winner_lowest_then_shared() -> None:
    assert match_winner([3, 0, -2, 5]) == [2]
    assert match_winner([-1, 4, -1]) == [0, 2]
    assert match_winner([1, 2]) == []


def test_parse_words_exactly() -> None:
    assert parse_action("tausche G7 E8") == Say("tausche E8 G7")
    for bad in ("Weiter", "tausche g7", "tausche G7 G7", "trumpf h", "abheben 05", "EA EK"):
        with pytest.raises(InvalidActionError):
            parse_action(bad)


def test_views_hide_hands_stock_and_discards() -> None:
    s = state_for(H4, 3, ["2", "weiter", "weiter", "weiter", "trumpf G", "mit", "mit", "mit",
                          "tausche G9 H8"])
    v = s.view(1)
    text = str(v)
    assert all(c not in text.split("'") for c in ("G9", "H8", "EK", "HA", "SA"))
    assert v["hand"] == sorted(H4[1], key=lambda c: DECK.index(Card.parse(c)))
    assert s.view(None)["hand"] is None and "stock" not in v


# -- the option weiss_nicht (reading 12 of docs/rules/mulatschak.md) ---------------------

WEISS = MulatschakRules(weiss_nicht=True)


def test_weiss_nicht_the_sixth_card_names_the_trump_and_the_seventh_is_shown() -> None:
    # the 6th (HO) makes Herz trump; the 7th (G7) is no trump: two cards to discard
    state = state_for(H4, 3, ["3", "weiter", "weiter", "weiter"], rules=WEISS,
                      rest=["EA", "E10", "G10", "S10", "H10", "HO", "G7", "HU"])
    assert "weiss nicht" in words(state)
    state.push("weiss nicht")
    assert state.trump == "H" and [str(c) for c in state.shown] == ["HO", "G7"]
    assert sorted(map(str, state.hands[0])) == sorted(["EA", "E10", "G10", "S10", "H10",
                                                       "HO", "G7"])
    assert state.phase == "weiss_ab" and state.to_discard == 2
    state.push("ab E10 G7")
    assert state.phase == "mitgehen" and words(state) == ["mit"]  # Herz: all play


def test_weiss_nicht_shows_more_while_trumps_as_a_bruecke() -> None:
    # SO names Schellen; S7 and the Weli are trumps, so G7 is shown too: four to discard
    state = state_for(H4, 3, ["3", "weiter", "weiter", "weiter", "weiss nicht"],
                      rules=WEISS,
                      rest=["EA", "E10", "G10", "S10", "H10", "SO", "S7", "S6", "G7", "HU"])
    assert state.trump == "S" and [str(c) for c in state.shown] == ["SO", "S7", "S6", "G7"]
    assert state.to_discard == 4 and len(state.hands[0]) == 9
    assert "ab E10 G10" not in words(state)
    state.push("ab E10 G10 H10 G7")
    assert len(state.hands[0]) == 5


def test_weiss_nicht_only_with_the_option_and_not_in_a_muli() -> None:
    state = state_for(H4, 3, ["3", "weiter", "weiter", "weiter"])
    assert "weiss nicht" not in words(state)
    state = state_for(H4, 3, ["muli", "weiter", "weiter", "weiter"], rules=WEISS)
    assert "weiss nicht" not in words(state)
