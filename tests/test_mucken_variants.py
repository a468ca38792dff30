"""House-rule variants of Mucken (seed 000 and seed 001) and the rules object."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable

import pytest

from stammtisch.cards import LONG_DECK, SHORT_DECK, Card, cards, format_cards
from stammtisch.engine import CHANCE, Cut, Deal, Say, Shuffle, play_random, resolve_chance
from stammtisch.errors import IllegalActionError, RulesError
from stammtisch.games.mucken import PRESETS, MuckenRules, MuckenState, new_game
from stammtisch.games.mucken.auskarten import auskarten, form_pairs_from, highest_draw
from stammtisch.games.mucken.match import MuckenMatch
from stammtisch.games.mucken.orders import muck_rank_order
from stammtisch.games.mucken.record import record_of, replay
from stammtisch.games.mucken.scoring import Outcome, score_ramsch

GameFactory = Callable[..., MuckenState]

FOUR_NEUNER = ("EO GO HO SO EU E9", "GU HU SU HA H10 H9", "HK G9 EA E10 EK GA",
               "S9 G10 GK SA S10 SK")
FOUR_NEUNER_PLAYS = ("EO GU HK SA GO HU EA S10 HO SU E10 SK SO HA EK GK EU H10 GA G10 "
                     "E9 H9 G9 S9")
SIE = ("EO GO HO SO EU GU", "HA H10 HK H9 HU SU", "EA E10 EK E9 GA G10", "GK G9 SA S10 SK S9")
# seat 0 takes all six tricks (Muck order)
SIE_PLAYS = "EO HA EA GK GO H10 E10 G9 HO HK EK SA SO H9 E9 S10 EU HU GA SK GU SU G10 S9"


def words(state: MuckenState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


# -- the rules object -----------------------------------------------------------------------


def test_rules_are_frozen() -> None:
    rules = MuckenRules.preset("seefest")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.deck = "long"  # type: ignore[misc]
    assert rules.replace(deck="long").deck == "long"
    assert rules.deck == "short"
    assert hash(rules) == hash(MuckenRules.preset("seefest"))


def test_presets_and_the_default() -> None:
    assert set(PRESETS) >= {"seefest", "wikipedia"}
    assert MuckenRules.preset() is PRESETS["seefest"]
    seefest = MuckenRules.preset("seefest")
    assert (seefest.deck, seefest.games, seefest.no_game) == ("short", ("muck", "wenz"),
                                                             "pflichtmuck")
    assert (seefest.cut_min, seefest.cut_min_left, seefest.cut_min_times,
            seefest.cut_max_times, seefest.klopfen) == (3, 3, 1, 2, False)
    assert seefest.bobbl_target == 21 and seefest.doublings == 1
    assert not seefest.partner_overcall_new_round and not seefest.sie
    wiki = MuckenRules.preset("wikipedia")
    assert wiki.games == ("wenz", "muck") and wiki.no_game == "einwerfen"
    assert wiki.partner_overcall_new_round and wiki.sie and wiki.klopfen
    assert MuckenState().rules == seefest
    assert MuckenRules.from_json("wikipedia") == wiki
    assert MuckenRules.from_json({"preset": "wikipedia", "bobbl_target": 31}).bobbl_target == 31
    assert MuckenRules.from_json({"deck": "long"}).name == "seefest"


def test_rules_json_round_trip() -> None:
    for name in ("seefest", "wikipedia"):
        rules = MuckenRules.preset(name)
        data = json.loads(json.dumps(rules.to_json()))
        assert MuckenRules.from_json({"preset": "seefest", **data}) == rules


def test_unknown_preset_and_option_name_them() -> None:
    with pytest.raises(RulesError, match="unknown Mucken preset 'schafkopf'"):
        MuckenRules.preset("schafkopf")
    with pytest.raises(RulesError, match="'bockrunde'"):
        MuckenRules.preset("seefest", bockrunde=True)
    with pytest.raises(RulesError, match="'bockrunde'"):
        MuckenRules.from_json({"preset": "seefest", "bockrunde": 1})
    with pytest.raises(RulesError):
        MuckenRules.from_json(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"deck": "medium"}, "deck"),
        ({"games": ()}, "games"),
        ({"games": ("muck", "skat")}, "skat"),
        ({"games": ("muck", "muck")}, "games"),
        ({"levels": ("schneider",)}, "levels"),
        ({"levels": ("plain", "schwarz", "schneider")}, "levels"),
        ({"doublings": 5}, "doublings"),
        ({"doublings": -1}, "doublings"),
        ({"no_game": "nochmal"}, "no_game"),
        ({"pflichtmuck_tie": "coin"}, "pflichtmuck_tie"),
        ({"einwerfen_double": "triple"}, "einwerfen_double"),
        ({"tie_card": "X9"}, "tie_card"),
        ({"muss_card": "O1"}, "muss_card"),
        ({"pflichtmuck_value": 0}, "pflichtmuck_value"),
        ({"ramsch_value": 0}, "ramsch_value"),
        ({"sie": True}, "sie"),
        ({"cut_min": 0}, "cut_min"),
        ({"cut_min": 20, "cut_min_left": 5}, "cut_min"),
        ({"cut_min_times": 3}, "cut_max_times"),
        ({"cut_max_times": 6}, "cut_max_times"),
        ({"bobbl_target": 0}, "bobbl_target"),
        ({"values": {"geier": [2, 3, 4]}}, "geier"),
        ({"values": {"muck": [2, 3]}}, "muck"),
        ({"values": {"muck": [0, 3, 4]}}, "muck"),
        ({"doublings": "2"}, "doublings"),
        ({"klopfen": "ja"}, "klopfen"),
        ({"durchmarsch": 1}, "durchmarsch"),
        ({"bobbl_target": 21.5}, "bobbl_target"),
    ],
)
def test_invalid_values_are_rejected(options: dict, named: str) -> None:
    with pytest.raises(RulesError, match=named):
        MuckenRules.preset("seefest", **options)


def test_changing_the_games_uses_a_table_that_fits_them() -> None:
    # "Muck über Wenz" built from the seefest preset scores like seed 000's table
    muck_ueber_wenz = MuckenRules.preset("seefest", games=("wenz", "muck"))
    wiki = MuckenRules.preset("wikipedia")
    for name in wiki.bid_names():
        for column in ("plain", "schneider", "schwarz"):
            assert muck_ueber_wenz.value(name, column) == wiki.value(name, column)
    # dropping a level or a game is possible, the table follows
    assert MuckenRules.preset("seefest", levels=("plain",)).bid_names() == ("muck", "wenz")
    assert MuckenRules.preset("seefest", games=("muck", "geier")).value("geier", "plain") == 3
    # an explicit table given with the games is kept
    custom = MuckenRules.preset("seefest", games=("wenz", "muck"),
                                values={"muck": [7, 8, 9]})
    assert custom.value("muck", "plain") == 7


# -- long deck ------------------------------------------------------------------------------


def test_long_deck_has_eight_tricks_dealt_four_and_four() -> None:
    rules = MuckenRules.preset("seefest", deck="long")
    assert (rules.deck_size, rules.hand_size, rules.max_tricks) == (32, 8, 8)
    s = new_game(rules, dealer=0)
    s.apply(Shuffle(LONG_DECK))
    s.apply(Cut(3))
    s.apply(Say("geben"))
    stack = [*LONG_DECK[3:], *LONG_DECK[:3]]
    assert s.hands[1] == [*stack[0:4], *stack[16:20]]
    assert s.hands[0] == [*stack[12:16], *stack[28:32]]
    play_random(s, random.Random(4))
    r = s.result()
    assert r is not None
    assert len(r["trick_winners"]) == 8 and sum(r["tricks"]) == 8
    assert sum(r["augen"]) == 120


def test_long_deck_deal_refuses_short_hands() -> None:
    s = new_game(MuckenRules.preset("seefest", deck="long"))
    with pytest.raises(IllegalActionError):
        s.apply(Deal(tuple(cards(h) for h in SIE)))


# -- games and their order ------------------------------------------------------------------


def test_muck_ueber_geier_ueber_wenz(game: GameFactory) -> None:
    rules = MuckenRules.preset("seefest", games=("wenz", "geier", "muck"))
    assert rules.bid_names() == (
        "wenz", "geier", "muck", "schneiderwenz", "schneidergeier", "schneidermuck",
        "schwarzwenz", "schwarzgeier", "schwarzmuck")
    s = game(rules=rules, calls="wenz geier")
    assert words(s)[:3] == ["weiter", "muck", "schneiderwenz"]
    s.push("muck")
    with pytest.raises(IllegalActionError, match="geier is not higher than muck"):
        s.push("geier")
    s = game(rules=rules, calls="geier weiter weiter weiter", doubling="gut gut")
    assert s.contract == "geier"
    assert format_cards(s.order.trumps) == "EO GO HO SO"


def test_geier_ueber_wenz_ueber_muck(game: GameFactory) -> None:
    rules = MuckenRules.preset("seefest", games=("muck", "wenz", "geier"))
    s = game(rules=rules, calls="geier")
    assert "wenz" not in words(s) and "muck" not in words(s)
    assert "schneidermuck" in words(s)


def test_farbsoli_rank_above_and_tie_among_themselves(game: GameFactory) -> None:
    rules = MuckenRules.preset("seefest", games=("muck", "wenz", "farbsolo"))
    assert rules.bid_names()[:5] == ("muck", "wenz", "eichelsolo", "grassolo", "schellensolo")
    s = game(rules=rules, calls="grassolo")
    assert words(s)[:2] == ["weiter", "schneidermuck"]
    with pytest.raises(IllegalActionError, match="eichelsolo is not higher than grassolo"):
        s.push("eichelsolo")
    s = game(rules=rules, calls="schellensolo weiter weiter weiter", doubling="gut gut")
    assert s.contract == "schellensolo"
    assert format_cards(s.order.trumps) == "EO GO HO SO EU GU HU SU SA S10 SK S9"
    assert not s.order.is_trump(Card.parse("HA"))


# -- no game: Einwerfen ----------------------------------------------------------------------


def test_einwerfen_ends_the_game_unscored(game: GameFactory) -> None:
    s = game(rules="wikipedia", calls="weiter weiter weiter weiter")
    assert s.is_terminal() and s.contract == "eingeworfen"
    r = s.result()
    assert r is not None and r["winner"] is None and r["score"] == 0
    assert r["declarer"] is None and r["trick_winners"] == []
    assert s.returns() == [0, 0, 0, 0]
    for seat in range(4):  # the thrown-in hands stay hidden
        text = json.dumps(s.view(seat))
        other = [c for o in range(4) if o != seat for c in s.hands[o]]
        assert other and not any(f'"{c}"' in text for c in other)


def _einwerfen(match: MuckenMatch) -> None:
    s = match.start_game()
    s.apply(Deal(tuple(cards(h) for h in FOUR_NEUNER)))
    for _ in range(4):
        s.push("weiter")
    assert s.contract == "eingeworfen"
    match.finish_game()


def _muck_game(match: MuckenMatch) -> MuckenState:
    s = match.start_game()
    s.apply(Deal(tuple(cards(h) for h in FOUR_NEUNER)))
    # the dealer moves on, so the seats rotate: let whoever calls first say muck
    s.push("muck")
    for _ in range(3):
        s.push("weiter")
    s.push("gut")
    s.push("gut")
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    match.finish_game()
    return s


@pytest.mark.parametrize(
    ("mode", "factors"),
    [
        ("none", [1, 1, 1, 1, 1]),
        ("next", [1, 2, 2, 1, 1]),  # the game after a throw-in counts double
        ("multiply", [1, 2, 4, 1, 1]),  # x2 per throw-in in a row
        ("count", [1, 2, 2, 2, 1]),  # thrown in twice: the next two games count double
    ],
)
def test_einwerfen_factors_in_a_match(mode: str, factors: list[int]) -> None:
    match = MuckenMatch(MuckenRules.preset("wikipedia", einwerfen_double=mode))
    seen = []
    _einwerfen(match)
    seen.append(match.games[-1].factor)
    _einwerfen(match)
    seen.append(match.games[-1].factor)
    for _ in range(3):
        seen.append(_muck_game(match).factor)
    assert seen == factors
    # the factor multiplies what the game is worth
    for g in match.games[2:]:
        rec = record_of(g)
        rec.pop("factor", None)
        single = replay(rec).result()
        r = g.result()
        assert r is not None and single is not None
        assert r["factor"] == g.factor
        assert r["score"] == single["score"] * g.factor
    assert [e.points for e in match.sheet.current.entries[2:]] == [
        g.result()["score"] for g in match.games[2:]]  # type: ignore[index]


def test_einwerfen_streak_is_counted_in_multiply_mode() -> None:
    match = MuckenMatch(MuckenRules.preset("wikipedia", einwerfen_double="multiply"))
    for expected in (1, 2, 4, 8):
        _einwerfen(match)
        assert match.games[-1].factor == expected


# -- no game: Muss-Spiel ---------------------------------------------------------------------

# a deal that Pflichtmuck plays out 60:60 (seed 001's rule: not scored); EO is with seat 2
TIE_HANDS = ("HK EA H9 G10 GA G9", "SU SO GU EU EK SK", "EO S10 E9 SA GO S9",
             "HO HU GK E10 H10 HA")
TIE_PLAYS = "G9 SU S9 GK EK E9 E10 EA G10 GU GO HA SA HU HK SK HO H9 SO EO S10 H10 GA EU"


def test_muss_spiel_the_holder_of_the_eichel_ober_must_call(game: GameFactory) -> None:
    s = game(TIE_HANDS, calls="weiter weiter weiter weiter", no_game="muss")
    assert s.phase == "muss" and s.current_player == 2
    assert "weiter" not in words(s)
    assert words(s)[0] == "muck"
    with pytest.raises(IllegalActionError, match="holds EO and must call a game"):
        s.push("weiter")
    s.push("muck")
    assert s.forced and s.declarer == 2 and s.contract == "muck"
    assert s.phase == "doubling"  # a Muss-Spiel may be doubled


def test_muss_spiel_is_won_with_60(game: GameFactory) -> None:
    s = game(TIE_HANDS, calls="weiter weiter weiter weiter muck", doubling="gut gut",
             plays=TIE_PLAYS, no_game="muss")
    r = s.result()
    assert r is not None and r["augen"] == [60, 60]
    assert (r["winner"], r["score"], r["forced"]) == (0, 2, True)
    # without the counting rule 60:60 loses for the declarers
    s = game(TIE_HANDS, calls="weiter weiter weiter weiter muck", doubling="gut gut",
             plays=TIE_PLAYS, no_game="muss", muss_60_wins=False)
    assert s.result()["winner"] == 1  # type: ignore[index]


def test_muss_card_option(game: GameFactory) -> None:
    s = game(TIE_HANDS, calls="weiter weiter weiter weiter", no_game="muss", muss_card="HA")
    assert s.phase == "muss" and s.current_player == 3


def test_pflichtmuck_60_60_not_scored_and_card_holder_option(game: GameFactory) -> None:
    s = game(TIE_HANDS, calls="weiter weiter weiter weiter", plays=TIE_PLAYS)
    r = s.result()
    assert r is not None and r["contract"] == "pflichtmuck" and r["augen"] == [60, 60]
    assert r["winner"] is None and r["score"] == 0 and s.returns() == [0, 0, 0, 0]
    s = game(TIE_HANDS, calls="weiter weiter weiter weiter", plays=TIE_PLAYS,
             pflichtmuck_tie="card_holder_loses")
    assert s.result()["winner"] == 1  # type: ignore[index]  # EO was with seat 2 (pair 0)
    s = game(TIE_HANDS, calls="weiter weiter weiter weiter", plays=TIE_PLAYS,
             pflichtmuck_tie="card_holder_loses", tie_card="HA")
    assert s.result()["winner"] == 0  # type: ignore[index]  # HA was with seat 3


# -- no game: Ramsch -------------------------------------------------------------------------


def test_ramsch_fewest_augen_wins(game: GameFactory) -> None:
    s = game(FOUR_NEUNER, calls="weiter weiter weiter weiter", plays=FOUR_NEUNER_PLAYS,
             no_game="ramsch")
    assert s.contract == "ramsch" and s.declarer is None
    r = s.result()
    assert r is not None and r["augen"] == [120, 0]
    assert (r["winner"], r["score"]) == (1, 1)
    s = game(FOUR_NEUNER, calls="weiter weiter weiter weiter", plays=FOUR_NEUNER_PLAYS,
             no_game="ramsch", ramsch_double=True)
    assert s.result()["score"] == 2  # type: ignore[index]
    with pytest.raises(IllegalActionError):
        game(FOUR_NEUNER, calls="weiter weiter weiter weiter kontra", no_game="ramsch")


def test_ramsch_durchmarsch(game: GameFactory) -> None:
    # one player takes every trick: with Durchmarsch his pair wins the Ramsch
    s = game(SIE, calls="weiter weiter weiter weiter", plays=SIE_PLAYS, no_game="ramsch",
             durchmarsch=True)
    r = s.result()
    assert r is not None and r["trick_winners"] == [0] * 6
    assert (r["winner"], r["reason"]) == (0, "Durchmarsch")
    s = game(SIE, calls="weiter weiter weiter weiter", plays=SIE_PLAYS, no_game="ramsch")
    assert s.result()["winner"] == 1  # type: ignore[index]
    # all tricks to one pair, but two players: no Durchmarsch
    s = game(FOUR_NEUNER, calls="weiter weiter weiter weiter", plays=FOUR_NEUNER_PLAYS,
             no_game="ramsch", durchmarsch=True)
    assert s.result()["winner"] == 1  # type: ignore[index]


# seat 1 and seat 2 are void in Schellen and hold trumps and plain cards
RAMSCH = ("S9 EO GO HO SO EU", "GU HA EA E10 EK E9", "HU SU H10 GA G10 GK",
          "HK H9 G9 SA S10 SK")


def test_ramsch_stichzwang(game: GameFactory) -> None:
    base = {"no_game": "ramsch", "calls": "weiter weiter weiter weiter"}
    s = game(RAMSCH, ramsch_stichzwang=True, **base)
    s.push("S9")
    assert set(words(s)) == {"GU", "HA"}  # void in Schellen: must trump
    with pytest.raises(IllegalActionError, match=r"seat 1 must trump \(Stichzwang\)"):
        s.push("EA")
    s.push("HA")
    assert set(words(s)) == {"HU", "SU", "H10"}  # the Schellen-Unter is a trump, not Schellen
    s.push("H10")
    assert set(words(s)) == {"SA", "S10", "SK"}  # who can follow, follows
    # without Stichzwang a void player may throw any card
    free = game(RAMSCH, **base)
    free.push("S9")
    assert len(words(free)) == 6


@pytest.mark.parametrize(
    ("augen", "tricks", "winner", "reason"),
    [
        ([40, 80], [3, 3], 0, "weniger Augen"),
        ([80, 40], [3, 3], 1, "weniger Augen"),
        ([60, 60], [2, 4], 0, "weniger Stiche"),
        ([60, 60], [4, 2], 1, "weniger Stiche"),
    ],
)
def test_ramsch_ties(augen: list[int], tricks: list[int], winner: int, reason: str) -> None:
    rules = MuckenRules.preset("seefest", no_game="ramsch")
    o = score_ramsch(rules, augen, tricks, [], [])
    assert o == Outcome(winner, 1, "plain", reason)


def test_ramsch_ties_by_trumps_then_the_highest_trump() -> None:
    rules = MuckenRules.preset("seefest", no_game="ramsch")
    # 60:60 and 3:3 tricks; pair 0's tricks hold 7 trumps, pair 1's 5: pair 1 wins
    tricks_ = [(0, cards("EO GO HO SO")), (0, cards("EU GU HU EA")), (1, cards("SU HA E10 EK")),
               (1, cards("H10 HK H9 E9")), (1, cards("GA G10 GK G9")), (0, cards("SA S10 SK S9"))]
    winners = [0, 2, 1, 3, 1, 0]
    o = score_ramsch(rules, [60, 60], [3, 3], tricks_, winners)
    assert o == Outcome(1, 1, "plain", "weniger Trümpfe")
    # equal trump counts (6:6): the pair holding the higher trump (EO) loses
    tricks_ = [(0, cards("EO HU SU EA")), (2, cards("HA H10 HK E10")),
               (0, cards("EK E9 GA G10")), (1, cards("GO HO SO GK")),
               (3, cards("EU GU H9 G9")), (1, cards("SA S10 SK S9"))]
    winners = [0, 2, 0, 1, 3, 1]
    o = score_ramsch(rules, [60, 60], [3, 3], tricks_, winners)
    assert o == Outcome(1, 1, "plain", "niedrigerer Trumpf")


def test_ramsch_last_man(game: GameFactory) -> None:
    s = game(calls="weiter weiter weiter", ramsch_last_man=True)
    assert s.current_player == 3 == s.dealer
    assert "ramsch" in words(s)
    s.push("ramsch")
    assert s.contract == "ramsch" and s.phase == "play" and s.current_player == 0
    # not for the earlier speakers, not after a game was called, not without the option
    s = game(ramsch_last_man=True)
    assert "ramsch" not in words(s)
    with pytest.raises(IllegalActionError, match="only the last man may call a Ramsch"):
        s.push("ramsch")
    s = game(calls="weiter muck weiter", ramsch_last_man=True)
    assert "ramsch" not in words(s)
    s = game(calls="weiter weiter weiter")
    assert "ramsch" not in words(s)
    # with the option, the last man's weiter still leads to the table's no-game rule
    s = game(calls="weiter weiter weiter weiter", ramsch_last_man=True)
    assert s.contract == "pflichtmuck"


# -- Sie -------------------------------------------------------------------------------------


def test_sie_needs_muck_as_the_highest_game() -> None:
    with pytest.raises(RulesError, match="sie"):
        MuckenRules.preset("seefest", sie=True)  # Wenz über Muck: no Sie
    assert MuckenRules.preset("seefest", sie=True, games=("wenz", "muck")).sie
    with pytest.raises(RulesError, match="sie"):
        MuckenRules.preset("wikipedia", games=("muck", "wenz"))


def test_a_sie_ends_the_game_at_once(game: GameFactory) -> None:
    s = game(SIE, rules="wikipedia", dealer=0)
    assert s.is_terminal() and s.contract == "sie"
    r = s.result()
    assert r is not None
    assert (r["declarer"], r["winner"], r["score"], r["column"]) == (0, 0, 20, "schwarz")
    assert r["trick_winners"] == [] and s.returns() == [20, -20, 20, -20]
    # the Sie is laid down for everyone; the other hands stay hidden
    for seat in (1, 2, 3, None):
        v = s.view(seat)
        assert v["dealt"][0] == list(SIE[0].split())
        text = json.dumps(v)
        for other in range(1, 4):
            if other != seat:
                assert not any(f'"{c}"' in text for c in s.hands[other])
    # without the option the same hand is just a very good Muck
    s = game(SIE, rules="wikipedia", dealer=0, sie=False)
    assert s.phase == "bidding"


def test_sie_with_another_factor_and_value(game: GameFactory) -> None:
    s = game(SIE, rules="wikipedia", dealer=2, factor=2, sie_value=30)
    assert s.result()["score"] == 60  # type: ignore[index]


# -- Regelverstoß -----------------------------------------------------------------------------


@pytest.mark.parametrize(("offender", "winner"), [(0, 1), (2, 1), (1, 0), (3, 0)])
def test_regelverstoss_is_schwarz_verloren(game: GameFactory, offender: int,
                                            winner: int) -> None:
    s = game(calls="muck weiter weiter weiter", doubling="gut gut", plays="SO GU")
    s.record_violation(offender)
    assert s.is_terminal()
    r = s.result()
    assert r is not None
    assert (r["winner"], r["score"], r["column"], r["violation"]) == (winner, 4, "schwarz",
                                                                      offender)
    assert "Regelverstoß" in r["reason"]
    # the unplayed hands stay hidden after the game ends early
    for seat in range(4):
        text = json.dumps(s.view(seat))
        for other in range(4):
            if other != seat:
                assert not any(f'"{c}"' in text for c in s.hands[other])


def test_regelverstoss_values(game: GameFactory) -> None:
    s = game(calls="schneiderwenz weiter weiter weiter", doubling="kontra")
    s.record_violation(1)
    assert (s.result()["winner"], s.result()["score"]) == (0, 12)  # type: ignore[index]
    s = game(calls="weiter weiter weiter weiter", plays="EO")
    s.record_violation(3)
    assert (s.result()["winner"], s.result()["score"]) == (0, 1)  # type: ignore[index]


def test_regelverstoss_refused_when_over_or_not_dealt(game: GameFactory) -> None:
    s = game(calls="muck weiter weiter weiter")
    s.record_violation(0)
    with pytest.raises(IllegalActionError) as info:
        s.record_violation(1)
    assert info.value.code == "game_over"
    with pytest.raises(IllegalActionError):
        new_game().record_violation(0)
    with pytest.raises(IllegalActionError):
        game().record_violation(4)


# -- Abheben and Geben ----------------------------------------------------------------------


def shuffled(rules: MuckenRules, dealer: int = 0) -> MuckenState:
    s = new_game(rules, dealer=dealer)
    s.apply(Shuffle(SHORT_DECK))
    return s


def test_the_player_right_of_the_dealer_cuts_within_the_limits() -> None:
    for dealer in range(4):
        s = shuffled(MuckenRules.preset("seefest"), dealer)
        assert s.phase == "cut" and s.current_player == (dealer + 3) % 4
    s = shuffled(MuckenRules.preset("seefest"))
    assert [a for a in s.legal_actions() if isinstance(a, Cut)] == [Cut(k) for k in range(3, 22)]
    assert Say("geben") not in s.legal_actions()  # at least once
    assert Say("klopfen") not in s.legal_actions()  # not allowed at the Seefest
    for bad in (Cut(0), Cut(2), Cut(22), Cut(24)):
        with pytest.raises(IllegalActionError, match="at least 3"):
            s.apply(bad)
    s.apply(Cut(3))
    assert s.phase == "cut" and s.cuts == [3]
    assert Say("geben") in s.legal_actions()
    assert Say("klopfen") not in s.legal_actions()
    s.apply(Cut(21))  # the second (last) cut deals at once
    assert s.phase == "bidding" and s.cuts == [3, 21]


def test_deal_three_and_three_clockwise_from_the_left_of_the_dealer() -> None:
    s = shuffled(MuckenRules.preset("seefest"), dealer=2)
    s.apply(Cut(5))
    s.apply(Say("geben"))
    stack = [*SHORT_DECK[5:], *SHORT_DECK[:5]]  # the lifted cards go under the rest
    # seats 3, 0, 1, 2 get three each, then three each again
    assert s.hands[3] == stack[0:3] + stack[12:15]
    assert s.hands[0] == stack[3:6] + stack[15:18]
    assert s.hands[1] == stack[6:9] + stack[18:21]
    assert s.hands[2] == stack[9:12] + stack[21:24]
    assert s.phase == "bidding" and s.current_player == 3
    assert [list(h) for h in s.dealt] == s.hands


def test_cut_max_and_min_times() -> None:
    once = shuffled(MuckenRules.preset("seefest", cut_max_times=1))
    once.apply(Cut(4))
    assert once.phase == "bidding"
    never = shuffled(MuckenRules.preset("seefest", cut_min_times=0))
    assert Say("geben") in never.legal_actions()
    never.apply(Say("geben"))
    assert never.hands[1] == list(SHORT_DECK[0:3] + SHORT_DECK[12:15])
    no_cut = new_game(MuckenRules.preset("seefest", cut_min_times=0, cut_max_times=0))
    no_cut.apply(Shuffle(SHORT_DECK))
    assert no_cut.phase == "bidding"
    wide = shuffled(MuckenRules.preset("seefest", cut_min=1, cut_min_left=1))
    assert Cut(1) in wide.legal_actions() and Cut(23) in wide.legal_actions()


def test_klopfen_deals_all_six_at_once() -> None:
    s = shuffled(MuckenRules.preset("wikipedia"), dealer=0)
    assert Say("klopfen") in s.legal_actions()
    s.apply(Say("klopfen"))
    assert s.klopfen and s.cuts == []
    assert s.hands[1] == list(SHORT_DECK[0:6])
    assert s.hands[2] == list(SHORT_DECK[6:12])
    assert s.hands[0] == list(SHORT_DECK[18:24])
    assert s.view(None)["klopfen"] is True
    # not after a cut
    s = new_game(MuckenRules.preset("seefest", klopfen=True, cut_max_times=2))
    s.apply(Shuffle(SHORT_DECK))
    s.apply(Cut(3))
    with pytest.raises(IllegalActionError, match="Klopfen"):
        s.apply(Say("klopfen"))


def test_the_stack_is_hidden_until_dealt() -> None:
    s = new_game()
    resolve_chance(s, random.Random(2))
    assert s.current_player != CHANCE
    for seat in (0, 1, 2, 3, None):
        text = json.dumps(s.view(seat))
        assert not any(f'"{c}"' in text for c in SHORT_DECK)


# -- Auskarten --------------------------------------------------------------------------------


def test_highest_card_in_muck_order_deals() -> None:
    assert highest_draw(cards("EA HO H9 SU")) == 1
    assert highest_draw(cards("H9 EA GA SA")) == 0  # Herz-Neun is trump
    assert highest_draw(cards("S10 GA E10 SA")) == 1  # equal rank: Eichel, Gras, Herz, Schellen
    assert highest_draw(cards("E7 H8 E8 S7"), deck="long") == 1
    with pytest.raises(IllegalActionError):
        highest_draw(cards("E7 EA GA SA"))


def test_auskarten_draw_is_reproducible_and_picks_the_highest() -> None:
    rank = {c: i for i, c in enumerate(muck_rank_order("short"))}
    for seed in range(30):
        r = auskarten(random.Random(seed))
        assert r == auskarten(random.Random(seed))
        assert len(set(r.draws)) == 4 and r.pairs is None
        assert rank[r.draws[r.dealer]] == min(rank[c] for c in r.draws)


def test_auskarten_pair_forming_procedure() -> None:
    # opener 1 (HO) lays EU open: Unter.  The cards go out from his left, seat 2 first.
    r = form_pairs_from(tuple(cards("EA HO H9 SU")), 1, cards("EU GU E9 H9 S9 HU EA SU G9"))
    assert r.dealer == 2  # the first Unter went to seat 2: he deals the first game
    # seat 2 gets a second Unter (HU) - that does not count; seat 0 gets the next (SU)
    assert r.pairs == ((2, 0), (1, 3))
    assert [p for p, _ in r.dealt] == [2, 3, 0, 1, 2, 3, 0]
    assert format_cards([c for _, c in r.dealt]) == "GU E9 H9 S9 HU EA SU"


def test_auskarten_with_pairs_from_a_seed() -> None:
    for seed in range(20):
        r = auskarten(random.Random(seed), form_pairs=True)
        assert r.pairs is not None
        (a, b), (c, d) = r.pairs
        assert sorted([a, b, c, d]) == [0, 1, 2, 3] and a == r.dealer
        # dealt one by one, clockwise from the left of the player with the highest draw
        opener = highest_draw(r.draws)
        assert [p for p, _ in r.dealt] == [(opener + 1 + i) % 4 for i in range(len(r.dealt))]
        kind = r.dealt[-1][1].rank
        assert r.dealt[-1][0] == b
        assert next(p for p, c in r.dealt if c.rank is kind) == a


def test_auskarten_when_one_player_gets_every_other_card_of_the_kind() -> None:
    # opener 0 lays EO open; GO, HO and SO all reach seat 1: no second player is found
    stack = cards("EO GO E9 G9 S9 HO EA GA SA SO E10 G10 S10 EK GK SK EU GU HU SU HA H10 HK H9")
    with pytest.raises(IllegalActionError, match="ran out"):
        form_pairs_from(tuple(cards("HO EA GA SA")), 0, stack)
    # this happens in real draws; auskarten then lays the cards out again
    hit = 0
    for seed in range(100):
        rng = random.Random(seed)
        deck = list(muck_rank_order("short"))
        rng.shuffle(deck)
        draws = tuple(deck[:4])
        rest = list(muck_rank_order("short"))
        rng.shuffle(rest)
        try:
            form_pairs_from(draws, highest_draw(draws), rest)
        except IllegalActionError:
            hit += 1
            r = auskarten(random.Random(seed), form_pairs=True)
            assert r.draws == draws and r.pairs is not None
    assert hit > 0
