"""The game registry: one :class:`GameDescription` per game, registered in one place.

The server, the CLI, the research facade and persistence reach a game only through this
module; no module outside ``stammtisch.games.<game>`` imports a concrete game (an
``import-linter`` contract in ``pyproject.toml`` checks it, run by the test command).
Each game package exports ``describe() -> GameDescription``; :func:`_load_builtin` below
is the one place that lists them.

>>> from stammtisch.games import registry
>>> registry.names()
['mucken', 'mulatschak', 'mus', 'schafkopf']
>>> mucken = registry.get("mucken")
>>> mucken.title["de"], mucken.seats, mucken.default_preset
('Mucken', (4, 4), 'seefest')
>>> registry.get("skat")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
stammtisch.games.base.UnknownGameError: unknown game 'skat' (known: mucken, mulatschak, mus, ...)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stammtisch.bots.base import BOTS, Bot, BotFactory
from stammtisch.engine.core import GameState
from stammtisch.errors import StammtischError
from stammtisch.games.base import GameDescription, UnknownGameError

__all__ = [
    "DEFAULT_GAME",
    "GameDescription",
    "UnknownGameError",
    "bot_factories",
    "bot_names",
    "descriptions",
    "get",
    "make_bot",
    "names",
    "register",
]

#: the game every command and table uses when none is named
DEFAULT_GAME = "mucken"


_GAMES: dict[str, GameDescription] = {}
_LOADED = False


def register(desc: GameDescription) -> None:
    """Add a game (a name can be registered once; tests may register a stub and remove it)."""
    if desc.name in _GAMES and _GAMES[desc.name] is not desc:
        raise StammtischError(f"game {desc.name!r} is registered already")
    _GAMES[desc.name] = desc


def unregister(name: str) -> None:
    """Remove a game (for tests that register a stub)."""
    _GAMES.pop(name, None)


def _load_builtin() -> None:
    """The one place that lists the games of stammtisch."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    from stammtisch.games import mucken

    register(mucken.describe())
    from stammtisch.games import mulatschak

    register(mulatschak.describe())
    from stammtisch.games import mus

    register(mus.describe())
    from stammtisch.games import schafkopf

    # the package's own describe() once it has one; until then the one below
    describe = getattr(schafkopf, "describe", None)
    register(describe() if callable(describe) else _schafkopf())


def _schafkopf() -> GameDescription:
    """Schafkopf's description, built here until ``games/schafkopf`` exports its own
    ``describe()`` (the package is still being written; then this function goes)."""
    from stammtisch.engine.core import Rng, resolve_chance
    from stammtisch.games.schafkopf import ai, online, record
    from stammtisch.games.schafkopf.rules import PRESETS, SchafkopfRules
    from stammtisch.games.schafkopf.state import SchafkopfState

    def new_state(rules: SchafkopfRules, dealer: int = 0,
                  rng: Rng | None = None) -> SchafkopfState:
        state = SchafkopfState(rules, dealer)
        if rng is not None:
            resolve_chance(state, rng)
        return state

    def record_of(state: GameState) -> dict[str, Any]:
        if not isinstance(state, SchafkopfState):
            raise TypeError(f"not a Schafkopf state: {type(state).__name__}")
        return record.record_of(state)

    def result_line(out: Mapping[str, Any]) -> str:
        who = "-" if out["declarer"] is None else f"seat {out['declarer']}"
        return (f"{out['contract']} ({who}); Augen " + ":".join(str(a) for a in out["augen"])
                + f"; {out['winner'] or '-'}; payments "
                + " ".join(f"{p:+d}" for p in out["payments"]))

    return GameDescription(
        name="schafkopf",
        title={"de": "Schafkopf", "en": "Schafkopf"},
        seats=(4, 4),
        rules_class=SchafkopfRules,
        presets=PRESETS,
        default_preset="standard",
        make_rules=SchafkopfRules.preset,
        new_state=new_state,
        load_record=record.load,
        replay_state=record.replay,
        replay_record=lambda source: record.replay_record(record.load(source)),
        record_of=record_of,
        describe_result=result_line,
        fast_playout=_schafkopf_fast_playout,
        prepare_fast_playout=_schafkopf_prepare_fast_playout,
        new_match=online.new_match,
        ui_module="table_schafkopf.js",
        terminal="stammtisch.games.schafkopf.terminal",
        load_bots=ai.load_bots,
        default_bot=ai.DEFAULT_BOT,
        solver=ai.solver,
        solver_deal=ai.solver_deal,
        analysis=ai.ANALYSIS,
        hint=ai.hint,
        research={
            "encoding": "stammtisch.games.schafkopf.research.encoding",
            "pettingzoo": "stammtisch.games.schafkopf.research.pettingzoo_env",
            "openspiel": "stammtisch.games.schafkopf.research.openspiel_game",
        },
    )


def _schafkopf_fast_playout(rules: Any, dealer: int, rng: Any) -> int:
    """Schafkopf's unchecked fast path (``bench playout``): one random hand's card plays."""
    from stammtisch.games.schafkopf.fastplay import fast_random_playout

    return fast_random_playout(rules, dealer, rng).card_plays


def _schafkopf_prepare_fast_playout(rules: Any) -> object:
    from stammtisch.games.schafkopf.fastplay import fast_tables

    return fast_tables(rules)


def names() -> list[str]:
    """The registered games, sorted."""
    _load_builtin()
    return sorted(_GAMES)


def descriptions() -> list[GameDescription]:
    """Every registered game's description, by name."""
    return [get(n) for n in names()]


def get(name: str) -> GameDescription:
    """The description of game ``name``; :class:`UnknownGameError` listing the known ones."""
    _load_builtin()
    try:
        return _GAMES[name]
    except (KeyError, TypeError):
        raise UnknownGameError(
            f"unknown game {name!r} (known: {', '.join(sorted(_GAMES))})") from None


def bot_factories(game: str) -> dict[str, BotFactory]:
    """Every bot that can play ``game``: the generic ones and the game's own."""
    return {**BOTS, **get(game).load_bots()}


def bot_names(game: str) -> list[str]:
    """The bots of ``game`` by name, sorted."""
    return sorted(bot_factories(game))


def make_bot(game: str, name: str) -> Bot:
    """A new bot ``name`` for ``game``; ``StammtischError`` listing the known bots."""
    factories = bot_factories(game)
    try:
        factory = factories[name]
    except KeyError:
        raise StammtischError(
            f"unknown bot {name!r} (known: {', '.join(sorted(factories))})") from None
    return factory()
