"""Señas (games/mus/senas.py and the state's out-of-turn actions): the palette, the
table option, who may make which seña when, who sees it, the catch probability, records
and replay, refused records, and a property: no opponent's view holds an uncaught seña."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stammtisch.cards import SPANISH_DECK, cards
from stammtisch.engine.core import CHANCE, TERMINAL, Say, action_log
from stammtisch.errors import IllegalActionError, RecordError, RulesError
from stammtisch.games.mus.record import record_of, replay, replay_record
from stammtisch.games.mus.rules import MusRules
from stammtisch.games.mus.senas import (
    BY_ID,
    IDS,
    PALETTE,
    SenaMade,
    SenasConfig,
    parse_log_word,
    true_signs,
)
from stammtisch.games.mus.state import SENA_LOG, MusState

DUPLES = MusRules.preset("duples")
#: dealer 0: Mano is seat 3, then 2, 1, 0
HANDS = ["O4 C4 P5 B6", "CR PR OS O2", "O7 C7 P6 B5", "OR C3 OC B1"]


def _deal(hands: list[str] = HANDS, mode: str = "sichtbar", catch: float = 0.5,
          rules: MusRules = DUPLES) -> MusState:
    used = {c for h in hands for c in h.split()}
    stock = [c for c in SPANISH_DECK if str(c) not in used]
    return MusState.from_deal(rules, 0, (0, 0), [cards(h) for h in hands], stock,
                              SenasConfig(mode, catch))


# -- the palette -----------------------------------------------------------------------------

def test_the_palette() -> None:
    assert IDS == ("2reyes", "3reyes", "2ases", "3ases", "medias", "duples", "31",
                   "solomillo", "juego", "30", "29", "ciego")
    assert len(set(IDS)) == len(IDS) and set(BY_ID) == set(IDS)
    for s in PALETTE:
        assert s.name and s.gesture and " " not in s.id
    # the seed's two examples
    assert BY_ID["31"].gesture == "guiñar un ojo"
    assert BY_ID["2reyes"].gesture == "morderse el labio inferior"


@pytest.mark.parametrize(("hand", "signs"), [
    ("OR C3 OC B1", ["2reyes", "31"]),       # the seed's hand A
    ("CR PR OS O2", ["2reyes", "31"]),       # the seed's hand B (R R S 2)
    ("O1 C2 P4 B6", ["2ases"]),              # 1 and 2 are aces: 12 al punto
    ("O1 C2 P1 BR", ["3ases"]),
    ("OR C3 PR B2", ["3reyes", "31", "solomillo"]),
    ("O7 C7 P7 B4", ["medias"]),             # medias of sevens, 25
    ("OR C3 O1 C2", ["duples"]),             # kings and aces: duples, no partial señas
    ("O4 C4 P4 B4", ["duples"]),             # four of a kind counts as duples
    ("OS OC O6 O4", ["30"]),                 # 10 + 10 + 6 + 4
    ("OS OC O5 O4", ["29"]),
    ("OS OC O7 O1", ["ciego"]),              # 28, no pares: nothing
    ("OS OC B5 C4", ["29"]),
    ("OS OC OR O7", ["juego"]),              # 37
])
def test_true_signs(hand: str, signs: list[str]) -> None:
    assert true_signs(cards(hand), DUPLES) == signs


def test_four_reyes_has_plain_threes_and_twos() -> None:
    four = MusRules.preset("duples", reyes=4)
    assert true_signs(cards("OR C3 OC B1"), four) == ["ciego"]  # 10+3+10+1 = 24
    assert true_signs(cards("OR CR PR B1"), four) == ["3reyes", "31", "solomillo"]


def test_config_validation() -> None:
    assert SenasConfig().mode == "off" and not SenasConfig().enabled
    assert SenasConfig("on").enabled and SenasConfig("sichtbar", 1).catch == 1.0
    assert SenasConfig.from_json({"mode": "on", "catch": 0.3}).to_json() == {
        "mode": "on", "catch": 0.3}
    for mode in ("laut", "", None, True, "ON"):
        with pytest.raises(RulesError, match="senas="):
            SenasConfig(mode)  # type: ignore[arg-type]
    for catch in (-0.1, 1.01, "0.2", True, None, float("nan")):
        with pytest.raises(RulesError, match="catch="):
            SenasConfig("sichtbar", catch)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="senas"):
        SenasConfig.from_json("on")


def test_log_words_round_trip() -> None:
    for made in (SenaMade(3, 2, "31", (1, 3)), SenaMade(0, 0, "ciego", ())):
        assert parse_log_word(made.log_word()) == (made.seat, made.sign, made.seen_by)
    assert parse_log_word("seña 31") is None and parse_log_word("seña 31 by x seen -") is None


# -- when, who, how often -------------------------------------------------------------------------

def test_off_means_no_senas() -> None:
    state = _deal(mode="off")
    assert all(state.out_of_turn_actions(s) == [] for s in range(4))
    with pytest.raises(IllegalActionError, match="off"):
        state.apply_out_of_turn(3, Say("seña 31"), random.Random(1))
    assert "senas" not in state.view(3) and "senas" not in record_of(state)


def test_who_may_make_which_sena_and_once_per_deal() -> None:
    state = _deal()
    assert [str(a) for a in state.out_of_turn_actions(3)] == ["seña 2reyes", "seña 31"]
    # a par of fours and 19 have no seña of their own: ciego ("no llevo nada")
    assert [str(a) for a in state.out_of_turn_actions(0)] == ["seña ciego"]
    state.apply_out_of_turn(3, Say("seña 31"), None)
    assert [str(a) for a in state.out_of_turn_actions(3)] == ["seña 2reyes"]
    before = state.view(3)
    for bad, why in [(Say("seña 31"), "already"), (Say("seña duples"), "not true"),
                     (Say("seña nada"), "not a seña"), (Say("paso"), "not your turn")]:
        with pytest.raises(IllegalActionError, match=why):
            state.apply_out_of_turn(3, bad, random.Random(0))
    assert state.view(3) == before
    # the seat to act may make a seña too; the parse accepts "sena"
    assert state.current_player == 3
    state.apply_out_of_turn(3, state.parse_action("sena 2reyes"))
    assert state.out_of_turn_actions(3) == []
    # a seña is not a turn
    with pytest.raises(IllegalActionError):
        state.apply(Say("seña 31"))
    with pytest.raises(IllegalActionError):
        state.apply_as(3, Say("seña 31 by 3 seen -"))


def test_senas_only_in_the_mus_rounds_and_lances_and_again_after_new_cards() -> None:
    state = _deal()
    for _ in range(4):
        state.apply(Say("mus"))
    assert state.phase == "discard" and state.out_of_turn_actions(2) == []
    with pytest.raises(IllegalActionError, match="phase discard"):
        state.apply_out_of_turn(1, Say("seña 31"))
    for seat in (3, 2, 1, 0):
        state.apply(Say("descarte " + str(state.hands[seat][0])))
    assert state.phase == "mus"
    assert state.out_of_turn_actions(3) == [Say(f"seña {s}")
                                            for s in true_signs(state.hands[3], DUPLES)]
    state.apply(Say("no mus"))
    while not state.is_terminal():
        state.apply(state.legal_actions()[0] if state.legal_actions()[0] != Say("ordago")
                    else Say("paso"))
    assert all(state.out_of_turn_actions(s) == [] for s in range(4))


def test_a_sena_made_again_after_new_cards() -> None:
    state = _deal(["O4 C4 P5 B6", "CR PR OS O2", "O7 C7 P6 B5", "OR C3 OC B1"])
    state.apply_out_of_turn(3, Say("seña 31"))
    assert Say("seña 31") not in state.out_of_turn_actions(3)
    for _ in range(4):
        state.apply(Say("mus"))
    # every seat throws its last card away and draws one
    for seat in (3, 2, 1, 0):
        state.apply(Say("descarte " + str(state.hands[seat][-1])))
    assert state.phase == "mus"
    # with the new cards every true seña is open again, the one made before included
    offered = [Say(f"seña {s}") for s in true_signs(state.hands[3], DUPLES)]
    assert offered and state.out_of_turn_actions(3) == offered
    made = offered[0]
    state.apply_out_of_turn(3, made)
    assert made not in state.out_of_turn_actions(3)
    assert [e.after for e in state.senas] == [0, 8]


def test_views_partner_only_caught_and_the_end() -> None:
    state = _deal(mode="sichtbar", catch=0.0)
    state.apply_out_of_turn(3, Say("seña 31"), random.Random(1))  # catch 0: nobody
    assert state.senas[-1].seen_by == ()
    assert state.view(3)["senas"] == [{"after": 0, "seat": 3, "sena": "31"}]
    assert state.view(1)["senas"] == [{"after": 0, "seat": 3, "sena": "31"}]  # partner
    assert state.view(0)["senas"] == [] and state.view(2)["senas"] == []
    assert state.view(None)["senas"] == [] and "senas_open" not in state.view(None)
    assert state.view(3)["senas_open"] == ["2reyes"]
    # caught by both (catch 1): the opponents see it marked caught; the sender is not told
    sure = _deal(mode="sichtbar", catch=1.0)
    sure.apply_out_of_turn(1, Say("seña 2reyes"), random.Random(1))
    assert sure.senas[-1].seen_by == (0, 2)
    assert sure.view(0)["senas"] == [{"after": 0, "seat": 1, "sena": "2reyes", "caught": True}]
    assert sure.view(1)["senas"] == [{"after": 0, "seat": 1, "sena": "2reyes"}]
    assert "seen" not in json.dumps(sure.view(3))
    # "on": never caught, even with catch 1
    on = _deal(mode="on", catch=1.0)
    on.apply_out_of_turn(1, Say("seña 2reyes"), random.Random(1))
    assert on.senas[-1].seen_by == () and on.view(0)["senas"] == []
    # at the end everybody sees every seña with its catches
    sure.apply(Say("no mus"))
    while not sure.is_terminal():
        sure.apply(Say("paso") if Say("paso") in sure.legal_actions() else Say("quiero"))
    want = [{"after": 0, "seat": 1, "sena": "2reyes", "seen_by": [0, 2]}]
    assert sure.view(None)["senas"] == want and sure.view(3)["senas"] == want


def test_catch_probability_and_determinism() -> None:
    n, caught = 0, 0
    rng = random.Random(2024)
    for _ in range(1500):
        state = _deal(mode="sichtbar", catch=0.3)
        state.apply_out_of_turn(3, Say("seña 31"), rng)
        n += 2
        caught += len(state.senas[-1].seen_by)
    # 3000 independent draws at 0.3: sd = sqrt(3000 * 0.21) = 25; allow 5 sd
    assert abs(caught - 0.3 * n) < 5 * 25.1
    outcomes = []
    for _ in range(2):
        state = _deal(mode="sichtbar", catch=0.5)
        r = random.Random(77)
        for seat, sign in [(3, "31"), (1, "2reyes"), (2, "ciego"), (3, "2reyes")]:
            state.apply_out_of_turn(seat, Say(f"seña {sign}"), r)
        outcomes.append([e.seen_by for e in state.senas])
    assert outcomes[0] == outcomes[1]
    # without a random source nobody catches
    state = _deal(mode="sichtbar", catch=1.0)
    state.apply_out_of_turn(3, Say("seña 31"))
    assert state.senas[-1].seen_by == ()


# -- records and replay ------------------------------------------------------------------------

def _played(seed: int, mode: str = "sichtbar", catch: float = 0.5,
            p_sena: float = 0.4) -> MusState:
    rng = random.Random(seed)
    state = MusState(DUPLES, seed % 4, senas=SenasConfig(mode, catch))
    while not state.is_terminal():
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        for seat in range(4):
            offered = state.out_of_turn_actions(seat)
            if offered and rng.random() < p_sena:
                state.apply_out_of_turn(seat, offered[rng.randrange(len(offered))], rng)
        legal = state.legal_actions()
        if Say("mus") in legal and rng.random() < 0.6:
            state.apply(Say("mus"))
        elif Say("paso") in legal and rng.random() < 0.6:
            state.apply(Say("paso"))
        else:
            state.apply(legal[rng.randrange(len(legal))])
    return state


def _with_senas() -> tuple[MusState, dict[str, Any]]:
    for seed in range(50):
        state = _played(seed)
        if len(state.senas) >= 3 and any(e.seen_by for e in state.senas):
            return state, record_of(state)
    raise AssertionError("no hand with three señas")


def test_records_round_trip_and_replay_exactly() -> None:
    state, rec = _with_senas()
    assert list(rec) == ["game", "rules", "dealer", "score", "hands", "stock",
                         *(["reshuffles"] if "reshuffles" in rec else []), "senas", "actions"]
    assert rec["senas"]["mode"] == "sichtbar" and rec["senas"]["catch"] == 0.5
    assert rec["senas"]["signs"] == [e.to_json() for e in state.senas]
    assert not any(w.startswith("seña") for _, w in rec["actions"])
    again = replay(json.dumps(rec))
    assert again.senas == state.senas and record_of(again) == rec
    assert replay_record(rec) == replay_record({k: v for k, v in rec.items() if k != "senas"})
    # the table's action log holds the señas too and rebuilds the same hand
    log = action_log(state)
    assert sum(w.startswith("seña ") for w in log) == len(state.senas)
    assert sum(1 for who, _ in state.history if who == SENA_LOG) == len(state.senas)
    rebuilt = MusState(DUPLES, state.dealer, senas=SenasConfig("sichtbar", 0.5))
    for text in log:
        rebuilt.apply(rebuilt.parse_action(text))
    assert record_of(rebuilt) == rec


def test_records_without_senas_stay_as_they_were() -> None:
    state = _played(3, mode="off")
    rec = record_of(state)
    assert "senas" not in rec and replay(rec).senas == []
    # an explicit "off" without signs is accepted too
    assert replay_record({**rec, "senas": {"mode": "off", "catch": 0.2, "signs": []}}) == \
        replay_record(rec)


def _bad(rec: dict[str, Any], change: Any) -> str:
    bad = copy.deepcopy(rec)
    change(bad)
    with pytest.raises(RecordError) as err:
        replay_record(bad)
    return str(err.value)


def test_bad_senas_records_are_refused_naming_the_entry() -> None:
    _, rec = _with_senas()
    first = rec["senas"]["signs"][0]
    seat = first["seat"]
    partner = (seat + 2) % 4
    cases: list[tuple[Any, str]] = [
        (lambda r: r.update(senas=[]), "senas: must be an object"),
        (lambda r: r["senas"].update(mode="laut"), "senas: senas='laut'"),
        (lambda r: r["senas"].update(catch=3), "senas: catch=3"),
        (lambda r: r["senas"].update(extra=1), "senas: unknown key 'extra'"),
        (lambda r: r["senas"].update(signs={}), "senas.signs: must be a list"),
        (lambda r: r["senas"]["signs"][0].pop("seen_by"), "senas.signs[0]"),
        (lambda r: r["senas"]["signs"][0].update(after=-1), "senas.signs[0]"),
        (lambda r: r["senas"]["signs"][0].update(seat=4), "senas.signs[0]"),
        (lambda r: r["senas"]["signs"][0].update(seat=True), "senas.signs[0]"),
        (lambda r: r["senas"]["signs"][0].update(sign=31), "senas.signs[0]"),
        (lambda r: r["senas"]["signs"][0].update(sign="nada"), "is not a seña"),
        (lambda r: r["senas"]["signs"][0].update(seen_by=[partner]), "seen_by"),
        (lambda r: r["senas"]["signs"][0].update(seen_by=["1"]), "senas.signs[0]"),
        (lambda r: r["senas"]["signs"][-1].update(after=len(r["actions"]) + 5),
         f"senas.signs[{len(rec['senas']['signs']) - 1}]"),
        (lambda r: r["senas"]["signs"][-1].update(after=len(r["actions"])),
         "no señas in phase end"),
        (lambda r: r["senas"].update(mode="off"), "señas are off"),
    ]
    for change, named in cases:
        assert named in _bad(rec, change), named
    # señas out of order
    last = len(rec["senas"]["signs"]) - 1
    assert rec["senas"]["signs"][last]["after"] > first["after"]
    msg = _bad(rec, lambda r: r["senas"]["signs"].reverse())
    assert "senas.signs[1]" in msg and "comes before" in msg
    # a seña that is not true of the seat's cards
    false = next(i for i in IDS if i not in true_signs(cards(" ".join(rec["hands"][seat])),
                                                       DUPLES))
    msg = _bad(rec, lambda r: r["senas"]["signs"][0].update(sign=false))
    assert msg.startswith("senas.signs[0]") and "not true" in msg
    # a catch with "on"
    on = _played(1, mode="on")
    on_rec = record_of(on)
    assert on_rec["senas"]["signs"]
    seat0 = on_rec["senas"]["signs"][0]["seat"]
    msg = _bad(on_rec, lambda r: r["senas"]["signs"][0].update(seen_by=[(seat0 + 1) % 4]))
    assert "nobody can catch" in msg


# -- the property ------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["on", "sichtbar"]), st.floats(0, 1))
def test_no_opponent_view_holds_an_uncaught_sena(seed: int, mode: str, catch: float) -> None:
    rng = random.Random(seed)
    state = MusState(DUPLES, seed % 4, senas=SenasConfig(mode, catch))
    while True:
        if state.current_player != TERMINAL:
            for seat in range(4):
                view = state.view(seat)
                for e in view["senas"]:
                    made = next(m for m in state.senas
                                if (m.after, m.seat, m.sign) == (e["after"], e["seat"],
                                                                 e["sena"]))
                    assert made.seat % 2 == seat % 2 or seat in made.seen_by
                    assert e.get("caught", False) == (made.seat % 2 != seat % 2)
                    assert "seen_by" not in e
                assert state.view(None).get("senas", []) == [] or state.phase == "shuffle"
                theirs = [m for m in state.senas if m.seat % 2 != seat % 2]
                hidden = [m for m in theirs if seat not in m.seen_by]
                shown = {(e["seat"], e["sena"], e["after"]) for e in view["senas"]}
                assert not any((m.seat, m.sign, m.after) in shown for m in hidden)
        if state.is_terminal():
            break
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        for seat in range(4):
            offered = state.out_of_turn_actions(seat)
            if offered and rng.random() < 0.5:
                state.apply_out_of_turn(seat, offered[rng.randrange(len(offered))], rng)
        legal = state.legal_actions()
        if Say("mus") in legal and rng.random() < 0.5:
            state.apply(Say("mus"))
        elif Say("paso") in legal and rng.random() < 0.7:
            state.apply(Say("paso"))
        else:
            state.apply(legal[rng.randrange(len(legal))])
    if mode == "on":
        assert all(m.seen_by == () for m in state.senas)
    assert record_of(replay(record_of(state))) == record_of(state)
