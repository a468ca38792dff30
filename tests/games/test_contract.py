"""The contract every registered game must pass (in the spirit of OpenSpiel's per-game tests).

Parametrised over :func:`stammtisch.games.registry.names` and every preset of each game,
so a game added to the registry is checked without a line here:

- random play-outs from the shuffle never raise and end with a JSON-ready result;
- legal actions are unique, stable, parse back from their text, and are exactly the
  actions ``apply`` accepts (every other card of the decks and every other word seen in
  the game is refused with ``IllegalActionError``, the state unchanged);
- ``apply`` on a copy leaves the original untouched;
- the view of a seat never shows a card another seat holds (a spectator's none at all);
- records round-trip (``record_of`` → JSON → ``load_record`` → ``replay_state`` →
  ``record_of``) and replaying a record reproduces the result (``replay_record`` too).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from stammtisch.cards import DOPPELDEUTSCH_DECK, SPANISH_DECK, Card
from stammtisch.engine.core import CHANCE, TERMINAL, Action, GameState, Say, action_log
from stammtisch.errors import IllegalActionError, StammtischError
from stammtisch.games import registry
from stammtisch.games.base import GameDescription

GAMES = registry.names()
PRESETS = [(g, p) for g in GAMES for p in sorted(registry.get(g).presets)]
#: every card of every deck: the candidates ``apply`` must refuse unless legal
ALL_CARDS: tuple[Card, ...] = tuple(dict.fromkeys((*DOPPELDEUTSCH_DECK, *SPANISH_DECK)))
PLAYOUTS = 12  # per game and preset


def _state(desc: GameDescription, preset: str, seed: int) -> GameState:
    rules = desc.make_rules(preset)
    return desc.new_state(rules, seed % desc.seats[0], random.Random(seed))


def _playout(state: GameState, rng: random.Random) -> Iterator[GameState]:
    """Play ``state`` to the end with random legal actions; yields every state on the way
    (before each action, and the final one)."""
    while True:
        yield state
        player = state.current_player
        if player == TERMINAL:
            return
        if player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        assert legal, f"seat {player} to act in phase {state.phase} has no legal action"
        state.apply(legal[rng.randrange(len(legal))])


def _snapshot(state: GameState) -> Any:
    n = state.num_seats
    return (state.phase, state.current_player, [str(a) for a in state.legal_actions()],
            action_log(state), json.dumps([state.view(s) for s in [*range(n), None]],
                                          sort_keys=True, default=str),
            json.dumps(state.result(), sort_keys=True, default=str))


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield from value.replace("|", " ").replace(",", " ").split()
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


@pytest.fixture(params=GAMES)
def desc(request: pytest.FixtureRequest) -> GameDescription:
    return registry.get(request.param)


def test_the_leak_check_finds_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    desc = registry.get("mucken")
    state = _state(desc, desc.default_preset, 0)
    cls = type(state)
    monkeypatch.setattr(cls, "view", lambda self, seat: {"all": [[str(c) for c in h]
                                                                 for h in self.hands]})
    with pytest.raises(AssertionError, match="shows"):
        test_views_hide_other_seats_cards("mucken")


def test_registry_knows_mucken_and_types_its_errors() -> None:
    assert "mucken" in GAMES and registry.DEFAULT_GAME in GAMES
    with pytest.raises(registry.UnknownGameError, match=r"unknown game 'x' \(known: mucken"):
        registry.get("x")
    with pytest.raises(StammtischError, match="unknown bot 'nobody'"):
        registry.make_bot("mucken", "nobody")


def test_description_is_complete(desc: GameDescription) -> None:
    assert desc.title["de"] and desc.title["en"]
    lo, hi = desc.seats
    assert 1 <= lo <= hi
    assert desc.default_preset in desc.presets
    for preset in desc.presets:
        rules = desc.make_rules(preset)
        assert isinstance(rules, desc.rules_class)
        assert desc.rules_class.from_json(rules.to_json()) == rules
    state = desc.new_state(desc.make_rules(desc.default_preset), 0, None)
    assert state.game_name == desc.name and lo <= state.num_seats <= hi
    assert state.current_player == CHANCE  # without a random source: waiting for the shuffle
    assert "random" in registry.bot_names(desc.name)
    assert desc.default_bot in registry.bot_names(desc.name)


@pytest.mark.parametrize(("game", "preset"), PRESETS)
def test_random_playouts_never_raise(game: str, preset: str) -> None:
    desc = registry.get(game)
    for seed in range(PLAYOUTS):
        state = _state(desc, preset, seed)
        for _ in _playout(state, random.Random(1000 + seed)):
            pass
        result = desc.result(state)
        assert result is not None and state.is_terminal()
        assert json.loads(json.dumps(result)) == result  # JSON-ready
        with pytest.raises(IllegalActionError) as err:
            state.apply(Say("weiter"))
        assert err.value.code == "game_over"


@pytest.mark.parametrize(("game", "preset"), PRESETS)
def test_returns_and_teams(game: str, preset: str) -> None:
    """One return per seat (zeros before the end, zero-sum where the game is); the teams
    split the seats and the members of a team share their return."""
    desc = registry.get(game)
    for seed in range(PLAYOUTS):
        state = _state(desc, preset, seed)
        for s in _playout(state, random.Random(2000 + seed)):
            if not s.is_terminal():
                assert list(s.returns()) == [0] * s.num_seats
        returns = state.returns()
        assert len(returns) == state.num_seats
        teams = state.teams()
        assert sorted(seat for team in teams for seat in team) == list(range(state.num_seats))
        assert teams == sorted(teams) and all(list(t) == sorted(t) for t in teams)
        for team in teams:
            assert len({returns[seat] for seat in team}) == 1, (teams, returns)
        if desc.zero_sum:
            assert sum(returns) == 0, returns


@pytest.mark.parametrize(("game", "preset"), PRESETS)
def test_legal_actions_are_exactly_what_apply_accepts(game: str, preset: str) -> None:
    desc = registry.get(game)
    words: set[str] = {"weiter", "gut", "kontra", "muck", "ruf:E", "x"}
    for seed in range(3):
        for state in _playout(_state(desc, preset, seed), random.Random(seed)):
            if state.current_player in (CHANCE, TERMINAL):
                continue
            legal = list(state.legal_actions())
            assert len(set(legal)) == len(legal), "legal actions repeat"
            assert list(state.legal_actions()) == legal, "legal actions are not stable"
            for action in legal:
                assert state.parse_action(str(action)) == action
                if isinstance(action, Say):
                    words.add(action.word)
            before = _snapshot(state)
            for action in legal:
                copy = state.clone()
                copy.apply(action)  # accepted
            others: list[Action] = [c for c in ALL_CARDS if c not in legal]
            others += [Say(w) for w in sorted(words) if Say(w) not in legal]
            for action in others:
                copy = state.clone()
                with pytest.raises(IllegalActionError):
                    copy.apply(action)
                assert _snapshot(copy) == before, f"a refused {action} changed the state"
            assert _snapshot(state) == before


@pytest.mark.parametrize("game", GAMES)
def test_apply_on_a_copy_leaves_the_original(game: str) -> None:
    desc = registry.get(game)
    rng = random.Random(5)
    for seed in range(4):
        for state in _playout(_state(desc, desc.default_preset, seed), rng):
            if state.current_player == TERMINAL:
                continue
            before = _snapshot(state)
            copy = state.clone()
            if state.current_player == CHANCE:
                copy.apply(copy.sample_chance(random.Random(seed)))
            else:
                legal = copy.legal_actions()
                copy.apply(legal[-1])
            assert _snapshot(state) == before


@pytest.mark.parametrize("game", GAMES)
def test_views_hide_other_seats_cards(game: str) -> None:
    desc = registry.get(game)
    for seed in range(8):
        for state in _playout(_state(desc, desc.default_preset, seed), random.Random(seed)):
            hands = getattr(state, "hands", None)
            if hands is None:
                pytest.skip(f"{game} does not expose hands")
            if state.is_terminal():
                continue  # the end of a deal may show everything
            # cards everybody has seen although someone holds them (Mulatschak: the cut
            # card, the cards shown face up in the exchange)
            public = {str(c) for c in getattr(state, "public_cards", tuple)()}
            held = [{str(c) for c in h} - public for h in hands]
            for seat in [*range(state.num_seats), None]:
                seen = set(_strings(desc.view(state, seat)))
                if seat is not None:  # the check can see cards: a seat sees its own hand
                    assert held[seat] <= seen, f"seat {seat} does not see its own hand"
                for other, cards in enumerate(held):
                    if other == seat:
                        continue
                    leaked = seen & cards
                    assert not leaked, (f"{game} phase {state.phase}: the view of "
                                        f"{'a spectator' if seat is None else f'seat {seat}'}"
                                        f" shows {sorted(leaked)} of seat {other}")


@pytest.mark.parametrize(("game", "preset"), PRESETS)
def test_records_round_trip_and_replay_the_result(game: str, preset: str) -> None:
    desc = registry.get(game)
    for seed in range(PLAYOUTS):
        state = _state(desc, preset, seed)
        for _ in _playout(state, random.Random(seed)):
            pass
        record = desc.record_of(state)
        assert record["game"] == game
        text = json.dumps(record)
        assert desc.load_record(text) is not None
        again = desc.replay_state(json.loads(text))
        assert again.result() == state.result()
        assert desc.record_of(again) == record
        summary = desc.replay_record(text)
        result = state.result()
        assert result is not None
        assert summary == {k: result[k] for k in summary}
        assert desc.describe_result(summary)


def test_every_game_is_in_the_import_contracts() -> None:
    """A registered game must be named in pyproject's import-linter contracts: a layer of
    its own next to the other games, forbidden outside the registry, independent."""
    import tomllib
    from pathlib import Path

    config = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text("utf-8"))
    every = config["tool"]["importlinter"]["contracts"]
    contracts = {c["type"]: c for c in every}
    layers = " ".join(" ".join(c["layers"]) for c in every if c["type"] == "layers")
    for game in GAMES:
        module = f"stammtisch.games.{game}"
        assert module in contracts["forbidden"]["forbidden_modules"], module
        assert module in contracts["independence"]["modules"], module
        assert module in layers.replace("|", " ").split(), module
