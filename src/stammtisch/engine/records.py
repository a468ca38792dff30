"""The record shape the games after Mucken share (../shared/specs/records.md).

A record is a JSON object ``{"game", "rules", "dealer", …setup keys…, "actions": [[SEAT,
"WORD"], …]}``.  This module checks that outer shape and one action entry; what the setup
keys and the words mean is each game's own business (``games/<game>/record.py``), which
takes the checks every game words alike from here: the rules, a seat, a word that is no
legal action, actions that stop before the end, the result line of the replay.

>>> load_record('{"game": "mus", "rules": "duples", "actions": []}', "mus", ("rules",))
{'game': 'mus', 'rules': 'duples', 'actions': []}
>>> load_record({"game": "mus", "actions": []}, "schafkopf", ())
Traceback (most recent call last):
...
stammtisch.errors.RecordError: game: 'mus' is not 'schafkopf'
>>> action_entry([2, "weiter"], 5)
(2, 'weiter', 'action 5 ([2, "weiter"])')
>>> action_entry([True, "weiter"], 0)
Traceback (most recent call last):
...
stammtisch.errors.RecordActionError: action 0 ([true, "weiter"]): must be a pair [seat, "word"]
>>> record_seat(4, "dealer")
Traceback (most recent call last):
...
stammtisch.errors.RecordError: dealer: 4 is not a seat 0..3
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from stammtisch.cards import Card
from stammtisch.engine.core import Action, GameState
from stammtisch.errors import InvalidCardError, RecordActionError, RecordError, StammtischError

__all__ = [
    "action_entry",
    "actions_complete",
    "final_json",
    "json_object",
    "load_record",
    "record_rules",
    "record_seat",
    "word_problem",
]

_R = TypeVar("_R")


def json_object(source: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    """A record's JSON text parsed (or a mapping taken) as a new dict; anything but an
    object: :class:`RecordError`."""
    if isinstance(source, str | bytes):
        try:
            data = json.loads(source)
        except json.JSONDecodeError as e:
            raise RecordError(f"not JSON: {e}") from None
    else:
        data = source
    if not isinstance(data, Mapping):
        raise RecordError("a record must be a JSON object")
    return dict(data)


def load_record(source: str | bytes | Mapping[str, Any], game: str,
                required: Iterable[str]) -> dict[str, Any]:
    """Parse a record (JSON text or a mapping) of ``game`` and check its outer shape: an
    object, the right ``game`` key, every ``required`` key, ``actions`` a list.  Further
    top-level keys are carried along unread (records.md names no rule against them)."""
    data = json_object(source)
    if data.get("game") != game:
        raise RecordError(f"game: {data.get('game')!r} is not {game!r}")
    for key in (*required, "actions"):
        if key not in data:
            raise RecordError(f"missing key {key!r}")
    if not isinstance(data["actions"], list):
        raise RecordError("actions: must be a list of [seat, word] pairs")
    return data


def action_entry(entry: Any, index: int) -> tuple[int, str, str]:
    """``(seat, word, where)`` of the ``index``-th entry of ``actions``; ``where`` names it
    in error messages (``action 5 ([2, "weiter"])``).  Not a ``[int, str]`` pair:
    :class:`RecordActionError` carrying the index."""
    where = f"action {index} ({json.dumps(entry, ensure_ascii=False)})"
    if (not isinstance(entry, list) or len(entry) != 2 or isinstance(entry[0], bool)
            or not isinstance(entry[0], int) or not isinstance(entry[1], str)):
        raise RecordActionError(f"{where}: must be a pair [seat, \"word\"]", index)
    return entry[0], entry[1], where


def entries(state: GameState, actions: Sequence[Any]) -> Iterator[tuple[int, int, str, str]]:
    """``(index, seat, word, where)`` of each entry of ``actions`` (:func:`action_entry`),
    while ``state`` goes on; an entry after the end of the hand is a
    :class:`RecordActionError`.  The caller applies each entry before taking the next."""
    for i, entry in enumerate(actions):
        seat, word, where = action_entry(entry, i)
        if state.is_terminal():
            raise RecordActionError(f"{where}: the hand is already over", i)
        yield i, seat, word, where


def record_rules(value: Any, from_json: Callable[[Any], _R]) -> _R:
    """The record's ``rules`` read by the rules class's ``from_json``; its refusal as a
    :class:`RecordError` on ``rules``."""
    try:
        return from_json(value)
    except StammtischError as e:
        raise RecordError(f"rules: {e}") from None


def record_seat(value: Any, where: str, seats: int = 4) -> int:
    """``value`` as a seat ``0..seats-1``; anything else: :class:`RecordError` on ``where``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        raise RecordError(f"{where}: {value!r} is not a seat 0..{seats - 1}")
    return value


def record_card(text: Any, where: str, deck: Collection[Card], deck_name: str) -> Card:
    """One card of a record: its exact text form, a card of ``deck`` (RecordError naming
    ``where`` and, for a card not in the deck, ``deck_name``: "the deck")."""
    if not isinstance(text, str):
        raise RecordError(f"{where}: {text!r} is not a card")
    try:
        c = Card.parse(text)
    except InvalidCardError as e:
        raise RecordError(f"{where}: {e}") from None
    if str(c) != text or c not in deck:
        raise RecordError(f"{where}: {text!r} is not a card of {deck_name}")
    return c


def word_problem(state: GameState, word: str, legal: Sequence[Action], words_of: str) -> str:
    """Why ``word`` names none of the ``legal`` actions: no word ``words_of`` (``"the
    game"``), a legal action written otherwise, or the state's own reason."""
    try:
        parsed = state.parse_action(word)
    except StammtischError:
        return f"{word!r} is not a word of {words_of}"
    if parsed in legal:
        return f"{word!r} must be written exactly {str(parsed)!r}"
    return state.explain_illegal(parsed)


def actions_complete(state: GameState, actions: Sequence[Any]) -> None:
    """Refuse a record whose ``actions`` stop before the hand is over."""
    if not state.is_terminal():
        n = len(actions)
        raise RecordActionError(
            f"action {n}: missing, the actions stop before the hand is over "
            f"(seat {state.current_player} is to act in phase {state.phase})", n)


def final_json(state: GameState) -> dict[str, Any]:
    """The result of a finished hand as ``stammtisch replay --json`` prints it."""
    result = state.final_result()
    assert result is not None
    return result.to_json()
