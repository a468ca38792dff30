"""What a live table on the server needs from its game: the games' side of a table.

The server (:mod:`stammtisch.server`) holds no game knowledge.  Whatever differs between
the games at a table comes from the game's plug-in, ``GamePlugin.table`` — a
:class:`TableHooks`: which bots think long (they run off the event loop, on a copy of
the game), what the live record adds to the game's record, where an action a bot took
for a person's seat is in the record, the name of the rules, the target the lobby
shows, the phases that get hints, and how the new-table form's fields map onto the
game's match.  The match (``GamePlugin.new_match``) is reached through
:class:`TableMatch`.

>>> hooks = TableHooks()
>>> hooks.slow_bot("heuristic"), hooks.limit_field, sorted(hooks.match_flags)
(False, 'rounds', [])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from stammtisch.engine.core import Action, GameState, Rng, drawn

__all__ = [
    "ScoreSheet",
    "Sitting",
    "TableHooks",
    "TableMatch",
    "base_mark",
    "never_slow",
    "no_record_extras",
    "preset_rules_name",
    "seat_actions",
    "slow_by_prefix",
]


class ScoreSheet(Protocol):
    """The score sheet of a table's match, as every client gets it."""

    def to_json(self) -> Any: ...


class TableMatch(Protocol):
    """The match (sitting) of a table: its deals one after another and its score sheet."""

    @property
    def sheet(self) -> ScoreSheet: ...

    @property
    def state(self) -> GameState | None:
        """The deal being played (``None`` between deals)."""
        ...

    def start_game(self, rng: Rng | None = None) -> GameState:
        """The next deal at its first chance node (drawn at once with ``rng``)."""
        ...

    def finish_game(self) -> object | None:
        """Book the finished deal; a part of the match it finished (Mucken: a Bobbl),
        else ``None``."""
        ...

    def is_over(self) -> bool: ...


_S = TypeVar("_S", bound=GameState)


class Sitting(Generic[_S]):
    """The part of a game's sitting (its :class:`TableMatch`) that every game has: the
    deal being played, the start of the next one and the dealer of its match.  The game
    gives :meth:`next_hand`, its match's next deal at the shuffle, and ``match`` (the
    game's match, with its ``dealer``)."""

    state: _S | None
    match: Any

    @property
    def dealer(self) -> int:
        """The dealer of the next (or the running) deal."""
        return int(self.match.dealer)

    def next_hand(self) -> _S:
        raise NotImplementedError

    def start_game(self, rng: Rng | None = None) -> _S:
        """The next hand at its shuffle (shuffled with ``rng`` if given)."""
        state = self.state = drawn(self.next_hand(), rng)
        return state


def never_slow(bot: str) -> bool:
    """No bot of the game thinks long."""
    return False


def slow_by_prefix(*prefixes: str) -> Callable[[str], bool]:
    """The bots whose names start with one of ``prefixes`` think long."""
    def slow(bot: str) -> bool:
        return bot.startswith(prefixes)
    return slow


def no_record_extras(state: GameState) -> dict[str, Any]:
    """The live record adds nothing to the game's record."""
    return {}


def base_mark(state: GameState, seat: int, action: Action) -> dict[str, Any]:
    """The part of a stand-in mark every game has: the seat, the action, the phase."""
    return {"seat": seat, "action": str(action), "phase": state.phase}


def seat_actions(history: Iterable[tuple[int, Action]]) -> int:
    """How many actions of the seats (chance left out) a history holds: the index of the
    next one in a record's ``actions``."""
    return sum(1 for s, _ in history if s >= 0)


def preset_rules_name(presets: Mapping[str, Any]) -> Callable[[Any], str]:
    """Rules named by their ``preset_name``: that name when they are the preset
    unchanged, else ``custom``."""
    def name(rules: Any) -> str:
        preset = rules.preset_name
        return preset if isinstance(preset, str) and presets.get(preset) == rules \
            else "custom"
    return name


def _no_target(rules: Any) -> int | None:
    return None


def _unnamed(rules: Any) -> str:
    return "custom"


@dataclass(frozen=True)
class TableHooks:
    """What differs between the games at a live table (see the module docstring)."""

    #: whether bot ``name`` thinks long: it then chooses off the event loop, on a copy
    slow_bot: Callable[[str], bool] = never_slow
    #: keys the live record adds after the game's record (Mucken: the Bobbl ``factor``)
    record_extras: Callable[[GameState], Mapping[str, Any]] = no_record_extras
    #: the mark of an action a bot took for a person's seat: where it is in the record
    #: (``stand_in`` in the record's ``meta``)
    stand_in_mark: Callable[[GameState, int, Action], dict[str, Any]] = base_mark
    #: the rules' name in the lobby and the table info (a preset's name or ``custom``)
    rules_name: Callable[[Any], str] = _unnamed
    #: the target the lobby shows for the rules (Mucken: the Bobbl's points), if any
    lobby_target: Callable[[Any], int | None] = _no_target
    #: the new-table form's field that gives the match's length in the game's unit
    #: (``bobbl_limit``: Bobbl; ``rounds``: rounds of four hands)
    limit_field: str = "rounds"
    #: the form's true/false fields that are options of this game's match
    #: (Schafkopf: ``kreuzbock``); any other set flag is refused
    match_flags: frozenset[str] = frozenset()
    #: the phases in which a seat may ask for a hint (games with a ``hint``)
    hint_phases: frozenset[str] = field(default_factory=lambda: frozenset({"play"}))
