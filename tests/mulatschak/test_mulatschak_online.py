"""The Mulatschak sitting of an online table (games/mulatschak/online.py): the registry's
``new_match``, the score column on the sheet, the doubling after a folded hand."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mulatschak_helpers import H4, deck_for

from stammtisch.cards import Card
from stammtisch.engine.core import Say, Shuffle, action_log, play_random, replay_actions
from stammtisch.errors import RulesError
from stammtisch.games import registry
from stammtisch.games.mulatschak.online import FOLDED, MulatschakSitting, new_match
from stammtisch.games.mulatschak.rules import MulatschakRules

RULES = MulatschakRules()


def play_match(sitting: MulatschakSitting, rng: random.Random,
               limit: int = 3000) -> list[list[str]]:
    """Random hands to the end of the match; the action log of every hand."""
    logs = []
    for _ in range(limit):
        if sitting.is_over():
            break
        state = sitting.start_game(rng)
        play_random(state, rng)
        logs.append(action_log(state))
        assert sitting.finish_game() is None
    return logs


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), dealer=st.integers(0, 5))
def test_random_matches_to_a_winner(players: int, seed: int, dealer: int) -> None:
    sitting = new_match(RULES, dealer % players, None, players=players)
    assert sitting.dealer == dealer % players and sitting.multiplier == 1
    play_match(sitting, random.Random(seed))
    assert sitting.is_over()
    sheet = sitting.sheet.to_json()
    json.dumps(sheet)  # JSON-ready
    assert sheet["kind"] == "mulatschak" and sheet["players"] == players
    assert sheet["start"] == 21 and sheet["count"] == len(sitting.sheet.hands)
    assert sheet["winners"] and sheet["winners"] == sitting.winners
    low = min(sheet["scores"])
    assert all(sheet["scores"][w] == low <= 0 for w in sheet["winners"])
    # the column adds up: 21 plus every change, row by row
    running = [21] * players
    doubled = 0
    for i, h in enumerate(sitting.sheet.hands):
        assert h["number"] == i + 1 and len(h["delta"]) == players
        running = [a + b for a, b in zip(running, h["delta"], strict=True)]
        assert h["scores"] == running
        assert h["doubled"] == doubled
        if h["folded"]:
            assert h["note"] == FOLDED and h["delta"] == [0] * players
            doubled += 1
        elif h["bidder"] is not None:
            doubled = 0
            assert sorted(h["playing"] + h["home"]) == list(range(players))
            assert h["bidder"] in h["playing"] and h["muli"] == (h["bid"] == 5)
        else:
            assert h["note"] == "weiter" and h["playing"] == []
    assert running == sheet["scores"] == sitting.scores
    with pytest.raises(RulesError):
        sitting.start_game(random.Random(0))


def test_the_table_rebuilds_the_sitting_from_the_logs() -> None:
    """As the server does after a restart: start_game() without a shuffle, then the log."""
    sitting = new_match(RULES, 2, 7, players=5)
    logs = play_match(sitting, random.Random(11))
    again = new_match(RULES, 2, 7, players=5)
    for log in logs:
        replay_actions(again.start_game(), log)
        again.finish_game()
    assert again.sheet.to_json() == sitting.sheet.to_json() and again.is_over()


def test_the_sheet_says_nothing_about_a_hand_in_play() -> None:
    sitting = new_match(RULES, 0, None, players=4)
    rng = random.Random(5)
    before = json.dumps(sitting.sheet.to_json())
    state = sitting.start_game(rng)
    while not state.is_terminal():
        assert sitting.state is state
        assert json.dumps(sitting.sheet.to_json()) == before
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    sitting.finish_game()
    assert sitting.state is None and sitting.sheet.to_json()["count"] == 1


def test_a_folded_hand_shows_zusammengefallen_and_doubles_the_next() -> None:
    sitting = new_match(RULES, 3, None, players=4)
    folded = {**H4, 0: ["E10", "G10", "G8", "H7", "S9"], 2: ["HA", "H8", "S8", "E8", "G9"]}
    state = sitting.start_game()
    state.apply(Shuffle(tuple(Card.parse(c) for c in deck_for(folded, 3))))
    state.apply(Say("abheben 5"))
    assert state.is_terminal()
    sitting.finish_game()
    sheet = sitting.sheet.to_json()
    assert sheet["hands"][0]["note"] == "Zusammengefallen" and sheet["hands"][0]["folded"]
    assert sheet["doubled"] == 1 and sheet["multiplier"] == 2 and sitting.multiplier == 2
    assert sitting.dealer == 3  # the same dealer deals again
    # the next hand counts double: 3 in Gras, everybody home: -3*2 and +2 each
    state = sitting.start_game()
    assert state.doubled == 1
    state.apply(Shuffle(tuple(Card.parse(c) for c in deck_for(H4, 3))))
    for word in ["abheben 5", "3", "weiter", "weiter", "weiter", "trumpf G", "daheim",
                 "daheim", "daheim"]:
        state.push(word)
    sitting.finish_game()
    sheet = sitting.sheet.to_json()
    row = sheet["hands"][1]
    assert row["multiplier"] == 2 and row["delta"] == [-6, 2, 2, 2] and row["note"] == "daheim"
    assert row["bidder"] == 0 and row["bid"] == 3 and row["trump"] == "G"
    assert row["home"] == [1, 2, 3] and row["playing"] == [0]
    assert sheet["scores"] == [15, 23, 23, 23] and sheet["multiplier"] == 1
    assert sitting.dealer == 0 and sheet["winners"] == []


def test_a_redeal_keeps_the_doubling_and_the_dealer() -> None:
    sitting = new_match(RULES, 3, None, players=4)
    folded = {**H4, 0: ["E10", "G10", "G8", "H7", "S9"], 2: ["HA", "H8", "S8", "E8", "G9"]}
    state = sitting.start_game()
    state.apply(Shuffle(tuple(Card.parse(c) for c in deck_for(folded, 3))))
    state.push("abheben 5")
    sitting.finish_game()
    state = sitting.start_game()
    state.apply(Shuffle(tuple(Card.parse(c) for c in deck_for(H4, 3))))
    for word in ["klopfen", "weiter", "weiter", "weiter", "weiter"]:
        state.push(word)
    sitting.finish_game()
    row = sitting.sheet.to_json()["hands"][1]
    assert row["note"] == "weiter" and row["klopfen"] and row["multiplier"] == 4
    assert sitting.doubled == 1 and sitting.dealer == 3


@pytest.mark.parametrize("players", [0, 1, 7, "4", 4.0, True, None])
def test_bad_players_name_the_option(players: object) -> None:
    with pytest.raises(RulesError, match="players"):
        new_match(RULES, 0, None, players=players)  # type: ignore[arg-type]


def test_the_registry_builds_it_as_the_table_does() -> None:
    desc = registry.get("mulatschak")
    assert desc.new_match is not None and desc.seats == (2, 6)
    sitting = desc.new_match(RULES, 1, 2, players=6)
    state = sitting.start_game(random.Random(3))
    assert state.num_seats == 6 and state.dealer == 1
    assert sitting.sheet.finished_bobbl() == []
    with pytest.raises(TypeError):
        desc.new_match(RULES, 0, None, kreuzbock=True)
    with pytest.raises(RulesError):
        sitting.finish_game()  # the hand is not over
