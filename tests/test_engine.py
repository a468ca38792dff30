"""The engine contract, driven through the Mucken state: checked apply, turn and
game-over codes, clone independence, parsing, chance with an injected seed."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from stammtisch.cards import SHORT_DECK, Card, cards
from stammtisch.engine import (
    CHANCE,
    TERMINAL,
    Cut,
    Deal,
    GameState,
    Say,
    Shuffle,
    play_random,
    resolve_chance,
)
from stammtisch.errors import IllegalActionError, InvalidActionError, StammtischError
from stammtisch.games.mucken import MuckenRules, MuckenState, new_game

GameFactory = Callable[..., MuckenState]


def snapshot(state: MuckenState) -> tuple[str, list[Any], str]:
    views = [state.view(seat) for seat in (0, 1, 2, 3, None)]
    return (
        json.dumps(views, sort_keys=True),
        list(state.history),
        json.dumps(state.result(), sort_keys=True),
    )


def states_at_every_phase() -> list[MuckenState]:
    """A shuffled game before the cut, in the bidding, the doubling and the play."""
    out = []
    s = new_game(MuckenRules.preset("seefest"), dealer=3)
    resolve_chance(s, random.Random(1))
    out.append(s.clone())  # cut
    s.apply(Cut(5))
    s.apply(Say("geben"))
    out.append(s.clone())  # bidding
    for w in ("weiter", "weiter", "weiter"):
        s.apply(Say(w))
    word = next(a for a in s.legal_actions() if a != Say("weiter"))
    s.apply(word)
    out.append(s.clone())  # doubling
    s.apply(Say("gut"))
    s.apply(Say("gut"))
    out.append(s.clone())  # play
    s.apply(s.legal_actions()[0])
    out.append(s.clone())  # play, mid-trick
    return out


ILLEGAL = [
    Say("wenzel"),
    Say("kontra"),
    Cut(1),
    Cut(40),
    Say("gut"),
    Say("geben"),
    Say("klopfen"),
    Card.parse("E7"),
    Card.parse("O1"),
    Shuffle(SHORT_DECK[:10]),
]


@pytest.mark.parametrize("index", range(5))
def test_illegal_action_raises_and_leaves_the_state_unchanged(index: int) -> None:
    state = states_at_every_phase()[index]
    legal = list(state.legal_actions())
    candidates = [a for a in ILLEGAL if a not in legal]
    if state.phase == "play":
        hand = state.hands[state.current_player]
        others = [c for seat in range(4) if seat != state.current_player
                  for c in state.hands[seat]]
        candidates += others[:3]
        candidates += [c for c in hand if c not in legal]
    assert candidates
    before = snapshot(state)
    for action in candidates:
        with pytest.raises(IllegalActionError) as info:
            state.apply(action)
        assert info.value.code == "illegal_action"
        assert str(action) in str(info.value)
        assert not state.is_legal(action)
        assert snapshot(state) == before
    # the state still works after the refusals
    state.apply(legal[0])
    assert snapshot(state) != before


def test_illegal_chance_outcome_is_refused() -> None:
    s = new_game()
    assert s.current_player == CHANCE
    before = snapshot(s)
    bad_deals = [
        Deal(tuple(cards(h) for h in ["EO GO", "HO", "SO", "EU"])),
        Deal((SHORT_DECK[:6], SHORT_DECK[:6], SHORT_DECK[12:18], SHORT_DECK[18:])),
        Shuffle(tuple(reversed(SHORT_DECK[1:]))),
        Say("weiter"),
    ]
    for action in bad_deals:
        with pytest.raises(IllegalActionError, match="chance"):
            s.apply(action)
    assert snapshot(s) == before
    s.apply(Shuffle(SHORT_DECK))
    assert s.phase == "cut"


def test_apply_as_checks_the_seat_first(game: GameFactory) -> None:
    s = game()  # dealer 3: seat 0 calls first
    before = snapshot(s)
    for seat in (1, 2, 3):
        with pytest.raises(IllegalActionError) as info:
            s.apply_as(seat, Say("weiter"))
        assert info.value.code == "not_your_turn"
        assert f"seat {seat}" in str(info.value) and "seat 0 is to act" in str(info.value)
    assert snapshot(s) == before
    s.apply_as(0, Say("weiter"))
    assert s.current_player == 1
    # an illegal action by the right seat still has the illegal_action code
    with pytest.raises(IllegalActionError) as info:
        s.apply_as(1, Card.parse("EO"))
    assert info.value.code == "illegal_action"


def test_apply_as_during_chance_is_not_your_turn() -> None:
    s = new_game()
    with pytest.raises(IllegalActionError, match="chance is to act") as info:
        s.apply_as(0, Say("weiter"))
    assert info.value.code == "not_your_turn"


def test_apply_after_the_end_is_game_over() -> None:
    s = new_game(MuckenRules.preset("seefest"))
    play_random(s, random.Random(3))
    assert s.is_terminal() and s.current_player == TERMINAL
    assert s.legal_actions() == []
    before = snapshot(s)
    for action in (Card.parse("EO"), Say("weiter"), Say("kontra")):
        with pytest.raises(IllegalActionError) as info:
            s.apply(action)
        assert info.value.code == "game_over"
        with pytest.raises(IllegalActionError) as info:
            s.apply_as(0, action)
        assert info.value.code == "game_over"
        assert not s.is_legal(action)
    with pytest.raises(IllegalActionError) as info:
        s.push("EO")
    assert info.value.code == "game_over"
    assert snapshot(s) == before


def test_clone_is_independent() -> None:
    s = new_game(MuckenRules.preset("seefest"))
    resolve_chance(s, random.Random(7))
    s.apply(Cut(5))
    s.apply(Say("geben"))
    c = s.clone()
    assert snapshot(c) == snapshot(s)
    before = snapshot(s)
    play_random(c, random.Random(8))
    assert c.is_terminal()
    assert snapshot(s) == before
    assert all(len(h) == 6 for h in s.hands)
    assert s.tricks.winners == [] and s.calls == []
    # and the other way round: playing the original leaves an older clone alone
    c2 = s.clone()
    frozen = snapshot(c2)
    play_random(s, random.Random(9))
    assert snapshot(c2) == frozen


def test_parse_action_forms() -> None:
    s = new_game()
    assert s.parse_action("EO") is Card.parse("EO")
    assert s.parse_action(" h10 ") is Card.parse("H10")
    assert s.parse_action("weiter") == Say("weiter")
    assert s.parse_action("Schneidermuck") == Say("schneidermuck")
    assert s.parse_action("gut") == Say("gut")
    assert s.parse_action("re") == Say("re")
    assert s.parse_action("sup") == Say("sup")
    assert s.parse_action("cut:5") == Cut(5)
    assert str(Cut(5)) == "cut:5" and str(Say("muck")) == "muck"
    for bad in ("cut:x", "E11!", "12"):
        with pytest.raises(InvalidActionError, match="not an action"):
            s.parse_action(bad)


def test_parse_action_round_trips_str_of_every_legal_action() -> None:
    s = new_game(MuckenRules.preset("seefest"))
    rng = random.Random(11)
    while not s.is_terminal():
        if s.current_player == CHANCE:
            s.apply(s.sample_chance(rng))
            continue
        for a in s.legal_actions():
            assert s.parse_action(str(a)) == a
        s.apply(s.legal_actions()[rng.randrange(len(s.legal_actions()))])


def test_push_parses_and_applies_checked(game: GameFactory) -> None:
    s = game()
    assert s.push("weiter") == Say("weiter")
    assert s.calls == [(0, "weiter")]
    with pytest.raises(IllegalActionError):
        s.push("kontra")
    with pytest.raises(InvalidActionError):
        s.push("cut:?")
    assert s.calls == [(0, "weiter")]
    for w in ("weiter", "muck", "weiter", "gut", "gut"):
        s.push(w)
    assert s.phase == "play" and s.current_player == 0
    assert s.push("eo") is Card.parse("EO")


def _drawn(seed: int) -> MuckenState:
    s = new_game(MuckenRules.preset("seefest"))
    resolve_chance(s, random.Random(seed))
    return s


def test_resolve_chance_is_deterministic_for_a_seed() -> None:
    a, b = _drawn(123), _drawn(123)
    assert a.phase == "cut" and a.current_player == a.cutter
    assert a.stack == b.stack
    assert sorted(a.stack) == sorted(SHORT_DECK)
    assert a.history == b.history
    assert _drawn(124).stack != a.stack
    # the same seed also plays the same game to the end
    ga = play_random(new_game(), random.Random(5))
    gb = play_random(new_game(), random.Random(5))
    assert ga.history == gb.history and ga.result() == gb.result()


def test_resolve_chance_stops_at_a_player_and_does_nothing_otherwise(game: GameFactory) -> None:
    s = game()
    before = snapshot(s)
    resolve_chance(s, random.Random(0))
    assert snapshot(s) == before


def test_play_random_checked_and_unchecked_agree() -> None:
    a = play_random(new_game(dealer=2), random.Random(21), checked=True)
    b = play_random(new_game(dealer=2), random.Random(21), checked=False)
    assert a.history == b.history and a.result() == b.result()


def test_the_mucken_state_is_a_game_state() -> None:
    s = new_game()
    assert isinstance(s, GameState)
    assert s.game_name == "mucken" and s.num_seats == 4
    assert s.phase == "shuffle" and not s.is_terminal()
    assert s.result() is None
    assert s.legal_actions() == []  # too many shuffles to list


def test_bad_dealer_is_refused() -> None:
    with pytest.raises(StammtischError):
        MuckenState(dealer=4)
