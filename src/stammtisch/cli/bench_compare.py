"""``stammtisch bench compare``: random play-outs of Mucken next to other frameworks' card games.

In one run, side by side, uniformly random play-outs of whole games, counting card plays
per second:

- ``mucken_api`` — our :class:`~stammtisch.games.mucken.state.MuckenState` through the
  public API: ``legal_actions()`` and the checked ``apply()``, chance by ``sample_chance``;
- ``mucken_fast`` — our unchecked fast path
  :func:`~stammtisch.games.mucken.fastplay.fast_random_playout`;
- ``openspiel_skat`` and ``openspiel_hearts`` — OpenSpiel's C++ Skat and Hearts through
  ``pyspiel``, driven from Python: ``legal_actions()`` + ``apply_action()``, chance
  sampled from ``chance_outcomes()``;
- ``rlcard_bridge`` — RLCard's Bridge (pure Python): ``env.reset()`` and ``env.step()``
  with a uniformly random legal action (what RLCard's ``RandomAgent`` does), no agents'
  models;
- ``openspiel_python_mucken`` — our OpenSpiel game (:mod:`stammtisch.research.openspiel`) through
  pyspiel's Python-game path, driven exactly like Skat and Hearts.

Every engine draws its decisions with ``random.Random`` (seeded); each runs ``--seconds``
in total, in alternating slices of about half a second, so that other load on the machine
hits all alike.  Engines whose package is not installed are reported with an ``error``.

**What counts as a card play** (only moves that put a card on the table, never dealing,
bidding, discarding or passing cards):

- Mucken (API, fast, python_mucken): the cards played to tricks (24 per game with the
  short deck; a game ended by Einwerfen or a Sie has none);
- Skat: the player actions with a card id (0..31) minus the two discards into the Skat
  (each game has a game declaration and the discards before the tricks; a Null game can
  end early);
- Hearts: all player actions minus the 12 passed cards when the (chance) pass direction
  is not "No Pass" (every game plays all 52 cards);
- Bridge: the actions with an id at or above RLCard's ``first_play_card_action_id``
  (52 per game after a contract; none when all four pass).
"""

from __future__ import annotations

import os
import platform
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import typer

from stammtisch.cards import Card
from stammtisch.cli.meter import Meter
from stammtisch.cli.output import json_line
from stammtisch.engine.core import CHANCE, TERMINAL
from stammtisch.errors import StammtischError
from stammtisch.games import registry

#: a play-out: one whole game with decisions from ``rng``; returns its card plays
Playout = Callable[[random.Random], int]


@dataclass
class Engine:
    """One engine of the comparison."""

    name: str
    framework: str
    implementation: str
    counting: str
    make: Callable[[], Playout]
    error: str | None = None
    #: counts the play-outs (``bench playout``'s meter, one game at a time)
    meter: Meter | None = None

    def start(self, seed: int) -> None:
        """Build the engine's play-out (or note why it cannot run)."""
        try:
            playout = self.make()
        except ImportError as e:
            self.error = f"not installed: {e}"
            return
        self.meter = Meter(lambda _rules, _dealer, rng: playout(rng), None, seed)

    def run(self, seconds: float) -> None:
        """Play whole games for about ``seconds``."""
        if self.meter is not None:
            self.meter.run(seconds, batch=1)

    def figures(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "engine": self.name,
            "framework": self.framework,
            "implementation": self.implementation,
            "counting": self.counting,
        }
        m = self.meter
        if self.error is not None or m is None:
            out["error"] = self.error
            return out
        wall = m.wall or float("nan")
        out.update({
            "games": m.games,
            "card_plays": m.card_plays,
            "seconds": round(m.wall, 3),
            "games_per_s": round(m.games / wall, 1),
            "card_plays_per_s": round(m.card_plays / wall, 1),
            "card_plays_per_cpu_s": round(m.card_plays / m.cpu, 1) if m.cpu else None,
            "card_plays_per_game": round(m.card_plays / m.games, 2) if m.games else None,
        })
        return out


# -- our engines --------------------------------------------------------------------------


def _game_api(game: str) -> Callable[[], Playout]:
    def make() -> Playout:
        desc = registry.get(game)
        rules = desc.make_rules(desc.default_preset)
        dealer = [0]
        seats = desc.seats[0]

        def playout(rng: random.Random) -> int:
            state = desc.new_state(rules, dealer[0], None)
            dealer[0] = (dealer[0] + 1) % seats
            plays = 0
            while True:
                player = state.current_player
                if player == TERMINAL:
                    break
                if player == CHANCE:
                    state.apply(state.sample_chance(rng))
                    continue
                actions = state.legal_actions()
                action = actions[rng.randrange(len(actions))]
                state.apply(action)
                plays += isinstance(action, Card)
            return plays

        return playout

    return make


def _game_fast(game: str) -> Callable[[], Playout]:
    def make() -> Playout:
        desc = registry.get(game)
        fast, prepare = desc.fast_playout, desc.prepare_fast_playout
        if fast is None or prepare is None:
            raise ImportError(f"{game} has no fast path")
        rules = desc.make_rules(desc.default_preset)
        prepare(rules)
        dealer = [0]
        seats = desc.seats[0]

        def playout(rng: random.Random) -> int:
            d = dealer[0]
            dealer[0] = (d + 1) % seats
            return fast(rules, d, rng)

        return playout

    return make


# -- OpenSpiel ----------------------------------------------------------------------------


def _pyspiel_playout(game: Any, card_plays: Callable[[list[int], int], int]) -> Playout:
    """Drive a pyspiel game with random legal actions and chance from chance_outcomes().

    ``card_plays(player_actions, first_chance_outcome)`` tells the card plays of a game.
    """

    def playout(rng: random.Random) -> int:
        state = game.new_initial_state()
        actions: list[int] = []
        first_chance = -1
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                # every game here deals uniformly: pick an outcome with equal weight when
                # the probabilities are equal, else by its probability
                if outcomes[0][1] == outcomes[-1][1]:
                    action = outcomes[rng.randrange(len(outcomes))][0]
                else:  # pragma: no cover - not reached by the games compared
                    r = rng.random()
                    action = outcomes[-1][0]
                    for a, p in outcomes:
                        r -= p
                        if r < 0:
                            action = a
                            break
                if first_chance < 0:
                    first_chance = action
                state.apply_action(action)
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
                actions.append(action)
                state.apply_action(action)
        return card_plays(actions, first_chance)

    return playout


def _skat_card_plays(actions: list[int], first_chance: int) -> int:
    cards = sum(1 for a in actions if a < 32)
    return max(0, cards - 2)


def _hearts_card_plays(actions: list[int], first_chance: int) -> int:
    # the first chance node is the pass direction: 0 "No Pass", else 12 cards are passed
    return len(actions) - (0 if first_chance == 0 else 12)


def _openspiel(name: str) -> Callable[[], Playout]:
    def make() -> Playout:
        import pyspiel

        game = pyspiel.load_game(name)
        counter = _skat_card_plays if name == "skat" else _hearts_card_plays
        return _pyspiel_playout(game, counter)

    return make


def _python_game(game: str) -> Callable[[], Playout]:
    def make() -> Playout:
        from stammtisch.research.openspiel import load_game

        spiel_game = load_game(game)
        cards = spiel_game.encoding.num_cards

        def count(actions: list[int], first_chance: int) -> int:
            return sum(1 for a in actions if a < cards)

        return _pyspiel_playout(spiel_game, count)

    return make


# -- RLCard -------------------------------------------------------------------------------


def _rlcard_bridge() -> Playout:
    import rlcard
    from rlcard.games.bridge.utils.action_event import ActionEvent

    env = rlcard.make("bridge", config={"seed": 0})
    first_card = ActionEvent.first_play_card_action_id

    def playout(rng: random.Random) -> int:
        state, _ = env.reset()
        plays = 0
        while not env.is_over():
            legal = list(state["legal_actions"])
            action = legal[rng.randrange(len(legal))]
            if action >= first_card:
                plays += 1
            state, _ = env.step(action)
        return plays

    return playout


def engines(game: str = registry.DEFAULT_GAME) -> list[Engine]:
    """The engines of the comparison, in report order (not yet set up): ``game`` through
    the public API and its fast path, the other frameworks' games, ``game`` in OpenSpiel."""
    desc = registry.get(game)
    ours = "cards played to tricks (24 per game, short deck)" if game == "mucken" \
        else "cards played"
    out = [
        Engine(f"{game}_api", "stammtisch", "Python", ours, _game_api(game)),
    ]
    if desc.fast_playout is not None:
        out.append(Engine(f"{game}_fast", "stammtisch", "Python (unchecked fast path)", ours,
                          _game_fast(game)))
    out += [
        Engine("openspiel_skat", "OpenSpiel (pyspiel)", "C++ via pybind11",
               "player actions with a card id (0..31) minus the 2 discards", _openspiel("skat")),
        Engine("openspiel_hearts", "OpenSpiel (pyspiel)", "C++ via pybind11",
               "player actions minus the 12 passed cards (unless 'No Pass')",
               _openspiel("hearts")),
        Engine("rlcard_bridge", "RLCard", "Python",
               "actions with id >= first_play_card_action_id (52 per played deal)",
               _rlcard_bridge),
    ]
    if desc.encoding is not None:
        out.append(Engine(f"openspiel_python_{game}", "OpenSpiel (pyspiel)",
                          "Python game (stammtisch.research.openspiel) via pyspiel",
                          "player actions with a card id (cards played to tricks)",
                          _python_game(game)))
    return out


def run_compare(seconds: float, seed: int = 0, only: list[str] | None = None,
                game: str = registry.DEFAULT_GAME) -> dict[str, Any]:
    """Run every engine for about ``seconds`` in alternating slices; JSON-ready figures."""
    chosen = [e for e in engines(game) if only is None or e.name in only]
    for i, engine in enumerate(chosen):
        engine.start(seed + i)
    active = [e for e in chosen if e.meter is not None]
    warm = min(0.2, seconds / 10)
    for engine in active:  # warm-up, not counted
        assert engine.meter is not None
        saved = engine.meter.rng.getstate()
        engine.run(warm)
        engine.meter.reset()
        engine.meter.rng.setstate(saved)
    slices = max(1, min(20, round(seconds / 0.5)))
    for _ in range(slices):
        for engine in active:
            engine.run(seconds / slices)
    return {
        "engines": [e.figures() for e in chosen],
        "seconds": seconds,
        "slices": slices,
        "seed": seed,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores",
    }


def compare_command(
    game: str = typer.Option(registry.DEFAULT_GAME, "--game",
                             help="Our game to compare: " + ", ".join(registry.names()) + "."),
    seconds: float = typer.Option(5.0, "--seconds", min=0.01,
                                  help="Seconds of play-outs for each engine."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object (one line)."),
) -> None:
    """Random play-outs: our game next to OpenSpiel's Skat and Hearts and RLCard's Bridge.

    Reports card plays per second for each engine (see the module docstring of
    stammtisch.cli.bench_compare for how card plays are counted).  JSON keys: engines (a
    list with one object per engine: engine, framework, implementation, counting, games,
    card_plays, seconds, games_per_s, card_plays_per_s, card_plays_per_cpu_s,
    card_plays_per_game, or error), seconds, slices, seed, python, machine.
    """
    from stammtisch.cli.extras import require

    # the comparison is the point: without OpenSpiel and RLCard say so in one line
    require("stammtisch bench compare", "pyspiel", "rlcard")
    try:
        registry.get(game)
    except StammtischError as err:
        raise typer.BadParameter(str(err), param_hint="--game") from None
    if not as_json:
        typer.echo(f"Random play-outs, {seconds:g} s per engine in alternating slices ...",
                   err=True)
    out = run_compare(seconds, game=game)
    if as_json:
        typer.echo(json_line(out))
        return
    typer.echo(f"{'engine':26}{'games/s':>11}{'card plays/s':>15}{'per CPU s':>13}  framework")
    for e in out["engines"]:
        if "error" in e:
            typer.echo(f"{e['engine']:26}{'-':>11}{'-':>15}{'-':>13}  {e['error']}")
            continue
        typer.echo(f"{e['engine']:26}{e['games_per_s']:>11,.0f}{e['card_plays_per_s']:>15,.0f}"
                   f"{e['card_plays_per_cpu_s'] or 0:>13,.0f}  {e['framework']}, "
                   f"{e['implementation']}")
    typer.echo(f"({out['python']}; {out['machine']})")
