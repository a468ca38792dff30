"""The record shape the games after Mucken share (../shared/specs/records.md).

A record is a JSON object ``{"game", "rules", "dealer", …setup keys…, "actions": [[SEAT,
"WORD"], …]}``.  This module checks that outer shape and one action entry; what the setup
keys and the words mean is each game's own business (``games/<game>/record.py``).

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
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from stammtisch.errors import RecordActionError, RecordError

__all__ = ["action_entry", "load_record"]


def load_record(source: str | bytes | Mapping[str, Any], game: str,
                required: Iterable[str]) -> dict[str, Any]:
    """Parse a record (JSON text or a mapping) of ``game`` and check its outer shape: an
    object, the right ``game`` key, every ``required`` key, ``actions`` a list.  Further
    top-level keys are carried along unread (records.md names no rule against them)."""
    if isinstance(source, str | bytes):
        try:
            data = json.loads(source)
        except json.JSONDecodeError as e:
            raise RecordError(f"not JSON: {e}") from None
    else:
        data = source
    if not isinstance(data, Mapping):
        raise RecordError("a record must be a JSON object")
    data = dict(data)
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
