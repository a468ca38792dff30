"""The plug-in of one game: what the registry (:mod:`stammtisch.games.registry`) holds.

Each game exports one :class:`GamePlugin` as ``PLUGIN`` in ``games/<game>/plugin.py``.
Heavy parts (bots, the solver, the research encoding, the terminal presenter) are
reached through typed loader functions that import on first use — never through module
paths as strings.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from stammtisch.bots.base import BotFactory
from stammtisch.engine.core import GameState, Rng
from stammtisch.errors import StammtischError
from stammtisch.games.base.analysis import AnalysisHooks
from stammtisch.games.base.judging import JudgeStatistics
from stammtisch.games.base.options import RulesSchema
from stammtisch.games.base.table import TableHooks

if TYPE_CHECKING:
    from stammtisch.games.base.encoding import EncodingLoader
    from stammtisch.games.base.presenter import Presenter

__all__ = ["GameDescription", "GamePlugin", "UnknownGameError"]


class UnknownGameError(StammtischError):
    """A game name that is not registered; the message lists the known games."""


@dataclass(frozen=True)
class GamePlugin:
    """Everything the rest of stammtisch needs to know about one game.

    The callables take and return the game's own objects (its rules class, its
    ``GameState`` subclass, its match); callers treat them as opaque and pass them back.
    """

    #: registry name, also the ``game`` key of its records and of a table
    name: str
    #: display names by language (``de``, ``en``)
    title: Mapping[str, str]
    #: smallest and largest number of seats
    seats: tuple[int, int]
    #: whether a finished game's ``returns()`` always sum to zero (Mucken, Schafkopf)
    zero_sum: bool
    #: the frozen rules class (``preset(name, **options)``, ``from_json``, ``to_json``)
    rules_class: type[Any]
    #: the rules' option schema: name, type, default, allowed values and source of each
    #: option, the presets; the one parser of ``-o key=value`` (``parse_text``), JSON
    #: (``parse_json``) and the lobby form's fields (``to_json``)
    options: RulesSchema[Any]
    #: a fresh deal: ``new_state(rules, dealer, rng)`` (``rng`` may be ``None``: the state
    #: waits at its first chance node)
    new_state: Callable[[Any, int, Rng | None], GameState]
    #: parse and shape-check a record (JSON text or mapping) -> the record as a dict
    load_record: Callable[[Any], dict[str, Any]]
    #: replay a record checked -> the finished state (``RecordError`` naming the bad entry)
    replay_state: Callable[[Any], GameState]
    #: replay a record checked -> its result summary (what ``stammtisch replay`` prints)
    replay_record: Callable[[Any], dict[str, Any]]
    #: the record of a state (the inverse of ``replay_state``)
    record_of: Callable[[GameState], dict[str, Any]]
    #: one line of text for a ``replay_record`` summary (or an ``{"error": ...}``)
    describe_result: Callable[[dict[str, Any]], str]
    #: a match / score sheet: ``new_match(rules, first_dealer, bobbl_limit=None)`` (dealer
    #: rotation, factors, running scores; ``start_game(rng)``, ``finish_game()``,
    #: ``is_over()``, ``sheet.to_json()``); ``None`` for a game that has none yet (no
    #: online table, ``simulate`` or ``arena`` then)
    new_match: Callable[..., Any] | None
    #: the game's own bots by name, loaded lazily (they may import heavy modules); the
    #: generic bots of :mod:`stammtisch.bots` (``random``) work for every game on top
    load_bots: Callable[[], Mapping[str, BotFactory]] = dict
    #: the bot a table or ``play`` uses when none is named
    default_bot: str = "random"
    #: the JavaScript module (under ``server/static/js/``) that draws this game's table
    ui_module: str = ""
    #: the record's JSON Schema (package data under ``stammtisch/schemas``), if any
    record_schema: str | None = None
    #: the exact solver for a state in play, if the game has one (``analysis``)
    solver: Callable[..., Any] | None = None
    #: a new terminal presenter of the game (``stammtisch play``; the shell is
    #: :mod:`stammtisch.cli.play_session`), imported on first use; ``None``: no session
    presenter: Callable[[], Presenter[Any]] | None = None
    #: the unchecked fast path for benchmarks: ``fast_playout(rules, dealer, rng)`` plays a
    #: whole random game and returns its card plays (``None``: the game has no fast path)
    fast_playout: Callable[[Any, int, Rng], int] | None = None
    #: build the fast path's tables for ``rules`` (outside a measured time)
    prepare_fast_playout: Callable[[Any], object] | None = None
    #: a random problem for ``bench solver``: ``solver_deal(rng) -> (contract, trick
    #: order, hands, side)`` (``None``: no double-dummy solver)
    solver_deal: Callable[[random.Random], tuple[str, Any, list[list[Any]], tuple[int, ...]]] \
        | None = None
    #: the double-dummy analysis of a finished game (``stammtisch analyze``, the server's
    #: analysis page): a loader that imports the solver on first use; ``None``: none
    analysis: Callable[[], AnalysisHooks[Any, Any]] | None = None
    #: a hint for ``seat`` from its own view only: ``hint(state, seat, seed) -> (action
    #: text, values by action text)``; ``None``: the game gives no hints
    hint: Callable[[GameState, int, int], tuple[str, dict[str, float]]] | None = None
    #: what the judge of ``simulate`` and ``arena`` (:mod:`stammtisch.judging`) needs of
    #: the game: its deals and its own statistics; ``None``: bots are not judged
    statistics: JudgeStatistics | None = None
    #: the research encoding (ids, tensors, chance for the generic PettingZoo and OpenSpiel
    #: adapters of :mod:`stammtisch.research`): ``encoding(rules, **params)`` imports it on
    #: first use (it needs the research extra); ``None``: no research adapters
    encoding: EncodingLoader | None = None
    #: what a live table on the server needs from the game (slow bots, the live record's
    #: extras, the stand-in marks, the rules' name, the new-table form's fields)
    table: TableHooks = field(default_factory=TableHooks)

    @property
    def presets(self) -> Mapping[str, Any]:
        """Preset name -> its rules (the option schema's)."""
        return self.options.presets

    @property
    def default_preset(self) -> str:
        return self.options.default_preset

    def make_rules(self, preset: str, /, **options: Any) -> Any:
        """Rules from a preset name and option overrides, validated by the option schema
        (``RulesError`` naming the bad option), so every caller shares its checks."""
        return self.options.make_rules(preset, **options)

    def result(self, state: GameState) -> Mapping[str, Any] | None:
        """The outcome of a finished deal (``None`` before the end)."""
        return state.result()

    def view(self, state: GameState, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may see of ``state``."""
        return state.view(seat)

    def new_random_state(self, seed: int, rules: Any = None, dealer: int = 0) -> GameState:
        """A deal shuffled by ``random.Random(seed)`` (the default preset without rules)."""
        rules = self.make_rules(self.default_preset) if rules is None else rules
        return self.new_state(rules, dealer, random.Random(seed))


#: the former name of :class:`GamePlugin` (kept for callers not yet renamed)
GameDescription = GamePlugin
