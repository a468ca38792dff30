"""The Mus sitting for online tables (games/mus/online.py): the registry's interface, sets
and stones, the sheet's JSON, a whole random match, the table's replay of a stored log."""

from __future__ import annotations

import json
import random

import pytest

from stammtisch.cards import SPANISH_DECK
from stammtisch.engine.core import CHANCE, Say, Shuffle, action_log, play_random
from stammtisch.errors import RulesError
from stammtisch.games import registry
from stammtisch.games.mus.online import MusSitting, new_match, stones
from stammtisch.games.mus.rules import MusRules
from stammtisch.games.mus.senas import SenasConfig
from stammtisch.games.mus.state import LANCES, MusState

DUPLES = MusRules.preset("duples")


def _hand_order(hands: list[str], stock: list[str], mano: int) -> Shuffle:
    """The shuffle that deals ``hands`` (by seat, 4 cards each) from Mano in playing
    order and leaves ``stock``."""
    from stammtisch.cards import cards

    order = [(mano - k) % 4 for k in range(4)]
    per_seat = [cards(h) for h in hands]
    deck = [per_seat[order[i % 4]][i // 4] for i in range(16)] + list(cards(stock))
    return Shuffle(tuple(deck))


def test_registry_offers_the_sitting() -> None:
    desc = registry.get("mus")
    assert desc.new_match is not None
    sitting = desc.new_match(DUPLES, 2, None, senas="sichtbar", catch=0.5)
    assert isinstance(sitting, MusSitting)
    assert sitting.dealer == 2 and sitting.state is None and not sitting.is_over()
    assert sitting.senas == SenasConfig("sichtbar", 0.5)
    assert sitting.sheet.finished_bobbl() == []


@pytest.mark.parametrize(("kwargs", "option"), [
    ({"senas": "laut"}, "senas="), ({"senas": True}, "senas="),
    ({"senas": "sichtbar", "catch": 1.5}, "catch="), ({"catch": "viel"}, "catch="),
    ({"catch": True}, "catch="),
])
def test_bad_match_options_name_the_option(kwargs: dict[str, object], option: str) -> None:
    with pytest.raises(RulesError) as err:
        new_match(DUPLES, 0, None, **kwargs)  # type: ignore[arg-type]
    assert str(err.value).startswith(option)


def test_bad_dealer_and_limit_are_refused() -> None:
    with pytest.raises(RulesError, match="first_dealer=4"):
        new_match(DUPLES, 4)
    with pytest.raises(RulesError, match="limit=-1"):
        new_match(DUPLES, 0, -1)
    with pytest.raises(RulesError, match="rules"):
        new_match("duples")  # type: ignore[arg-type]
    # the table's Bobbl limit does not shorten a Mus match
    assert new_match(DUPLES, 0, 2).match.rules.sets == 3


def test_stones() -> None:
    assert [stones(p) for p in (0, 4, 5, 12, 29, 30)] == [
        (0, 0), (0, 4), (1, 0), (2, 2), (5, 4), (6, 0)]


def test_start_game_shuffles_and_deals_counterclockwise() -> None:
    s = new_match(DUPLES, 1)
    state = s.start_game(random.Random(3))
    assert s.state is state and state.dealer == 1 and state.current_player == 0  # Mano
    dealt = [c for h in state.hands for c in h] + state.stock
    assert sorted(dealt) == sorted(SPANISH_DECK)
    unshuffled = new_match(DUPLES, 1).start_game()
    assert unshuffled.current_player == CHANCE


def test_a_full_random_match() -> None:
    rules = MusRules.preset("duples", target=12, sets=2)
    s = new_match(rules, 0)
    rng = random.Random(7)
    dealers = []
    while not s.is_over():
        dealers.append(s.dealer)
        hand = s.start_game(rng)
        play_random(hand, rng)
        s.finish_game()
        assert s.state is None
        sheet = s.sheet.to_json()
        assert json.loads(json.dumps(sheet)) == sheet
        for p in (0, 1):
            am, pi = sheet["amarracos"][p], sheet["piedras"][p]
            assert 5 * am + pi == sheet["score"][p] and 0 <= pi < 5
    assert dealers[:5] == [0, 3, 2, 1, 0][:len(dealers[:5])]  # the deal passes to Mano
    sheet = s.sheet.to_json()
    assert sheet["kind"] == "mus" and sheet["target"] == 12 and sheet["sets_to"] == 2
    assert max(sheet["sets"]) == 2 and sheet["winner"] == sheet["sets"].index(2)
    assert len(sheet["set_results"]) == sum(sheet["sets"])
    assert sum(r["hands"] for r in sheet["set_results"]) == sheet["count"] == len(dealers)
    for r in sheet["set_results"]:
        assert r["score"][r["winner"]] >= 12 or r["by"] == "ordago"
    # every hand's points add up from its bookings, lance by lance
    for h in s.match.hands:
        assert [h["score"][p] - h["score_before"][p] for p in (0, 1)] == h["points"]
        booked = [sum(e["points"][p] for e in h["report"]) for p in (0, 1)]
        assert booked == h["points"], h
        assert {e["lance"] for e in h["report"]} <= set(LANCES)
    with pytest.raises(ValueError):
        s.start_game(rng)


def _stacked_state(hands: list[str]) -> MusState:
    used = {c for h in hands for c in h.split()}
    stock = [str(c) for c in SPANISH_DECK if str(c) not in used]
    s = new_match(DUPLES, 0)
    state = s.start_game()
    state.apply(_hand_order(hands, stock, state.mano))
    return state


def test_the_report_explains_each_lance() -> None:
    # the seed's two hands (A = seat 3 = Mano, B = seat 2) and two weak ones
    state = _stacked_state(["O4 C4 P5 B6", "CR PR OS O2", "O7 C7 P6 B5", "OR C3 OC B1"])
    # the seed's betting (A bets 2, B refuses, D raises by 3 to 5, A by 6 to 11), but
    # here D accepts: the stake 11 goes to the Grande winner
    for seat, word in [(3, "no mus"), (3, "envido 2"), (2, "no quiero"), (0, "envido 3"),
                       (3, "envido 6"), (0, "quiero")]:
        assert state.current_player == seat
        state.apply(Say(word))
    while not state.is_terminal():
        state.apply(Say("paso"))
    report = {e["lance"]: e for e in state.showdown_report()}
    assert list(report) == ["grande", "chica", "pares", "juego"]
    g = report["grande"]
    assert g["status"] == "querido" and g["winner"] == 3 and g["pair"] == 1
    assert g["stake"] == 11 and g["points"] == [0, 11] and g["why"] == "querido"
    assert g["best"] == [12, 12, 11, 1]
    c = report["chica"]
    assert c["status"] == "paso" and c["winner"] == 1 and c["points"] == [0, 1]
    assert c["best"] == [1, 10, 12, 12] and c["why"] == "paso"
    p = report["pares"]
    assert p["winner"] == 3 and p["best"] == {"combo": "par", "ranks": [12, 0]}
    assert p["bonus"] == [{"seat": 1, "combo": "par", "points": 1},
                          {"seat": 3, "combo": "par", "points": 1}]
    assert p["points"] == [0, 2]
    j = report["juego"]
    assert j["winner"] == 3 and j["best"] == 31 and j["points"] == [0, 6]
    assert [b["kind"] for e in report.values() for b in e["booked"]] == [
        "querido", "paso", "pares", "juego"]


def test_the_table_rebuilds_a_hand_from_its_log_with_senas() -> None:
    """What tables.py does after a restart: a new hand at the same point, the stored log
    replayed action by action (señas included, with their recorded catches)."""
    s = new_match(DUPLES, 0, None, senas="sichtbar", catch=1.0)
    state = s.start_game(random.Random(11))
    rng = random.Random(5)
    made = 0
    while not state.is_terminal():
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        for seat in range(4):
            for a in state.out_of_turn_actions(seat)[:1]:
                state.apply_out_of_turn(seat, a, rng)
                made += 1
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))] if rng.random() < 0.5 else legal[0])
    assert made and all(len(e.seen_by) == 2 for e in state.senas)  # catch 1.0
    again = new_match(DUPLES, 0, None, senas="sichtbar", catch=1.0).start_game()
    for text in action_log(state):
        again.apply(again.parse_action(text))
    assert again.senas == state.senas and again.result() == state.result()
