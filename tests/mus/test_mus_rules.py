"""Mus, sentence by sentence of ../shared/specs/mus.md (unit tests on the engine)."""

from __future__ import annotations

from typing import Any

import pytest

from stammtisch.cards import SPANISH_DECK, cards
from stammtisch.errors import RecordActionError, RecordError, RulesError
from stammtisch.games.mus.record import replay_record
from stammtisch.games.mus.rules import MusRules
from stammtisch.games.mus.state import (
    MusState,
    chica_key,
    grande_key,
    juego_rank,
    juego_value,
    pares_key,
)

R8 = MusRules.preset("duples")
R4 = MusRules.preset("duples", reyes=4)


def record(hands: list[str], actions: list[list[Any]], *, dealer: int = 0,
           score: tuple[int, int] = (0, 0), **extra: Any) -> dict[str, Any]:
    hand_cards = [h.split() for h in hands]
    used = {c for h in hand_cards for c in h}
    return {"game": "mus", "rules": extra.pop("rules", "duples"), "dealer": dealer,
            "score": list(score), "hands": hand_cards,
            "stock": [str(c) for c in SPANISH_DECK if str(c) not in used],
            "actions": actions, **extra}


# dealer 0: Mano = seat 3, playing order 3, 2, 1, 0
HANDS = ["OR C3 OC B1", "CR PR OS O2", "O4 C4 P5 B6", "O7 C7 P6 B5"]
ALL_PASS = [[3, "paso"], [2, "paso"], [1, "paso"], [0, "paso"]]


def test_presets_and_options() -> None:
    assert R8.to_json() == {"preset": "duples", "target": 30, "sets": 3, "reyes": 8,
                            "punto_bonus": 1}
    assert MusRules.from_json(R4.to_json()) == R4
    for bad in ({"target": 0}, {"reyes": 5}, {"sets": "3"}, {"punto_bonus": True},
                {"nope": 1}):
        with pytest.raises(RulesError):
            MusRules.from_json({"preset": "duples", **bad})
    with pytest.raises(RulesError):
        MusRules.from_json("spanish")


def test_ranks_with_8_and_4_reyes() -> None:
    # 3 counts as a king and 2 as an ace with 8 reyes
    assert grande_key(cards("O3 OR C2 C1"), R8) == (12, 12, 1, 1)
    assert grande_key(cards("O3 OR C2 C1"), R4) == (12, 3, 2, 1)
    assert juego_value(cards("O3 OR OC OS"), R8) == 40
    assert juego_value(cards("O3 O2 OC OS"), R4) == 25
    assert juego_value(cards("O3 O2 OC OS"), R8) == 31


def test_pares_categories() -> None:
    assert pares_key(cards("OR C3 O4 O5"), R8) == (1, 12, 0)  # par of kings (R and 3)
    assert pares_key(cards("OR C3 O4 O5"), R4) is None
    assert pares_key(cards("O4 C4 P4 O5"), R8) == (2, 4, 0)  # medias
    assert pares_key(cards("O4 C4 P5 O5"), R8) == (3, 5, 4)  # duples
    assert pares_key(cards("O4 C4 P4 B4"), R8) == (3, 4, 4)  # four of a kind = duples
    assert (3, 5, 4) > (2, 12, 0) > (1, 12, 0)


def test_juego_order() -> None:
    order = sorted((33, 34, 35, 36, 37, 40, 32, 31), key=juego_rank, reverse=True)
    assert order == [31, 32, 40, 37, 36, 35, 34, 33]


def test_chica_lower_wins() -> None:
    assert chica_key(cards("O1 O2 O4 O5"), R8) < chica_key(cards("O1 O2 O4 O6"), R8)


def test_seed_betting_example_refused_scores_stake_before_last_bet() -> None:
    acts = [[3, "no mus"], [3, "envido 2"], [2, "no quiero"], [0, "envido 3"],
            [3, "envido 6"], [0, "no quiero"], *ALL_PASS, *ALL_PASS, [1, "paso"], [0, "paso"]]
    out = replay_record(record(HANDS, acts))
    assert out["status"]["grande"] == "no_querido"
    # 5 for grande, chica en paso 1, pares bonus 1+1, juego 31 = 3 (ties to seat 1)
    assert out["score"] == [0, 11]


def test_refused_first_bet_scores_one_and_grande_accepted() -> None:
    acts = [[3, "no mus"], [3, "envido 4"], [2, "quiero"], *ALL_PASS, *ALL_PASS,
            [1, "paso"], [0, "paso"]]
    out = replay_record(record(HANDS, acts))
    assert out["status"]["grande"] == "querido"
    # grande 4 to pair 0 (seat 0's R R C 1 beats seat 1's R R S 1)
    assert out["score"] == [4, 6]
    acts = [[3, "no mus"], [3, "envido 4"], [2, "no quiero"], [0, "no quiero"],
            *ALL_PASS, *ALL_PASS, [1, "paso"], [0, "paso"]]
    assert replay_record(record(HANDS, acts))["score"] == [0, 7]


def test_ordago_accepted_wins_the_set() -> None:
    acts = [[3, "no mus"], [3, "ordago"], [2, "quiero"]]
    out = replay_record(record(HANDS, acts))
    assert out["set_winner"] == 0 and out["score"] == [0, 0]
    assert out["status"] == {"grande": "ordago", "chica": "not_reached",
                             "pares": "not_reached", "juego": "not_reached",
                             "punto": "no_bet"}
    assert out["lances"] == {"grande": 0, "chica": 1, "pares": 1, "juego": 1, "punto": None}


def test_ordago_answers_only_quiero_or_no_quiero() -> None:
    with pytest.raises(RecordActionError) as e:
        replay_record(record(HANDS, [[3, "no mus"], [3, "ordago"], [2, "envido 2"]]))
    assert e.value.index == 2 and "ordago" in str(e.value)


def test_refused_bet_reaching_target_ends_the_set() -> None:
    acts = [[3, "no mus"], [3, "envido 2"], [2, "no quiero"], [0, "no quiero"]]
    out = replay_record(record(HANDS, acts, score=(0, 29)))
    assert out["score"] == [0, 30] and out["set_winner"] == 1
    assert out["status"]["chica"] == "not_reached"


def test_showdown_stops_at_target() -> None:
    acts = [[3, "no mus"], *ALL_PASS, *ALL_PASS, *ALL_PASS, [1, "paso"], [0, "paso"]]
    out = replay_record(record(HANDS, acts, score=(29, 0)))
    # grande en paso: 1 to pair 0 -> 30, the set ends there
    assert out["score"] == [30, 0] and out["set_winner"] == 0


def test_punto_when_nobody_has_juego() -> None:
    hands = ["O4 C4 P5 B6", "O7 C7 P6 B5", "O1 C1 P2 B2", "OS C5 P7 B7"]
    acts = [[3, "no mus"], *ALL_PASS, *ALL_PASS, *ALL_PASS, *ALL_PASS]
    out = replay_record(record(hands, acts))
    assert out["lances"]["juego"] is None and out["status"]["juego"] == "no_bet"
    assert out["status"]["punto"] == "paso"
    # punto: seat 1 has 25, seat 3 29 -> pair 1
    assert out["lances"]["punto"] == 1


def test_pares_one_pair_only_has_no_betting_but_bonus() -> None:
    hands = ["OR C3 OC B1", "O7 CS P6 B5", "O4 C4 P4 B6", "O1 CC P5 B7"]
    acts = [[3, "no mus"], *ALL_PASS, *ALL_PASS]
    out = replay_record(record(hands, acts))
    assert out["status"]["pares"] == "no_bet" and out["status"]["juego"] == "no_bet"
    assert out["lances"]["pares"] == 0 and out["lances"]["juego"] == 0
    # grande 1 (seat 0), chica 1 (seat 3, O1), pares seat 0 par 1 + seat 2 medias 2,
    # juego seat 0's 31: 3
    assert out["score"] == [7, 1]


def test_mus_round_discards_and_draws() -> None:
    rec = record(HANDS, [[3, "mus"], [2, "mus"], [1, "mus"], [0, "mus"],
                         [3, "descarte B5 O7"], [2, "descarte O4"], [1, "descarte O2"],
                         [0, "descarte B1"], [3, "no mus"]])
    stock = rec["stock"]
    with pytest.raises(RecordActionError) as e:
        replay_record(rec)
    assert e.value.index == len(rec["actions"])  # the lances are missing
    state = MusState.from_deal(R8, 0, (0, 0), [cards(h) for h in HANDS], cards(stock))
    for _, word in rec["actions"]:
        if word == "descarte B5 O7":  # a record may name the cards in any order
            word = "descarte O7 B5"
        state.push(word)
    assert [str(c) for c in state.hands[3]] == ["C7", "P6", *stock[:2]]
    assert [str(c) for c in state.hands[2]] == ["C4", "P5", "B6", stock[2]]
    assert [str(c) for c in state.hands[1]] == ["CR", "PR", "OS", stock[3]]
    assert [str(c) for c in state.hands[0]] == ["OR", "C3", "OC", stock[4]]


def test_invalid_setup() -> None:
    bad = record(HANDS, [])
    bad["hands"][0][0] = "CR"
    with pytest.raises(RecordError, match="twice"):
        replay_record(bad)
    with pytest.raises(RecordError, match="score"):
        replay_record(record(HANDS, [], score=(30, 0)))


def test_match_counts_sets_and_passes_the_deal_counterclockwise() -> None:
    import random

    from stammtisch.engine.core import play_random
    from stammtisch.games.mus.match import MusMatch

    m = MusMatch(MusRules.preset("duples", target=8, sets=2), first_dealer=0)
    rng = random.Random(7)
    dealers = []
    while not m.is_over():
        dealers.append(m.dealer)
        state = m.start_game(rng)
        assert list(state.score) == m.score
        play_random(state, rng)
        result = m.finish_game()
        assert max(result["score"]) < 8 or result["set_winner"] is not None
    assert dealers[:4] == [0, 3, 2, 1][:len(dealers[:4])]
    assert max(m.sets_won) == 2 and m.to_json()["winner"] == m.winner()


def test_descarte_needs_cards() -> None:
    with pytest.raises(RecordActionError, match="not a word"):
        replay_record(record(HANDS, [[3, "mus"], [2, "mus"], [1, "mus"], [0, "mus"],
                                     [3, "descarte"]]))
