"""Schafkopf records (../specs/records.md): load, replay action by action, write.

A record is one hand::

    {"game": "schafkopf", "rules": "standard" | {"preset": ..., <option>: ...},
     "dealer": 0, "hands": [[8 cards], [8 cards], [8 cards], [8 cards]],
     "actions": [[1, "weiter"], [2, "sauspiel-gras"], ..., [0, "EA"], ...]}

The first four cards of each hand are the first packet of the deal.  Words must be
exactly the listed ones (lower case; cards in the notation, upper case).

:func:`replay_record` gives the result object (the keys of the contract) or raises
:class:`~stammtisch.errors.RecordError` — for a bad action a
:class:`~stammtisch.errors.RecordActionError` carrying the action's ``index``.

>>> rec = {"game": "schafkopf", "rules": "standard", "dealer": 3,
...        "hands": [["EO", "GO", "HO", "SO", "EU", "GU", "HU", "SU"],
...                  ["EA", "E10", "EK", "E9", "E8", "E7", "GA", "G10"],
...                  ["HA", "H10", "HK", "H9", "H8", "H7", "GK", "G9"],
...                  ["SA", "S10", "SK", "S9", "S8", "S7", "G8", "G7"]],
...        "actions": [[0, "sie"]]}
>>> replay_record(rec)["payments"]
[1560, -520, -520, -520]
>>> try:
...     replay_record({**rec, "actions": [[1, "sie"]]})
... except RecordActionError as e:
...     print(e.index, e)
0 action 0 ([1, "sie"]): seat 1 may not act now (seat 0 is to act)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stammtisch.cards import Card
from stammtisch.engine import records
from stammtisch.engine.core import CHANCE, Deal
from stammtisch.errors import InvalidCardError, RecordActionError, RecordError
from stammtisch.games.schafkopf.rules import SchafkopfRules
from stammtisch.games.schafkopf.state import SchafkopfState, deal_problem

#: the keys replay reads; records.md defines no others, so further top-level keys (a
#: title, a source, an id …) are carried along unread rather than refused
KNOWN_KEYS = ("game", "rules", "dealer", "hands", "actions", "players", "meta")


def load(source: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    """Parse a record from JSON text (or take a mapping) and check its top-level shape."""
    return records.load_record(source, "schafkopf", ("rules", "dealer", "hands"))


def _hands(value: Any) -> tuple[tuple[Card, ...], ...]:
    if not isinstance(value, list) or len(value) != 4:
        raise RecordError("hands: must be a list of four hands of 8 cards")
    out = []
    for seat, hand in enumerate(value):
        if not isinstance(hand, list):
            raise RecordError(f"hands[{seat}]: must be a list of 8 cards")
        cards = []
        for i, text in enumerate(hand):
            try:
                c = Card.parse(text)
            except InvalidCardError as e:
                raise RecordError(f"hands[{seat}][{i}]: {e}") from None
            if str(c) != text:
                raise RecordError(f"hands[{seat}][{i}]: {text!r} is not written as {str(c)!r}")
            cards.append(c)
        out.append(tuple(cards))
    hands = tuple(out)
    problem = deal_problem(hands)
    if problem is not None:
        raise RecordError(f"hands: not a deal of the 32 cards: {problem}")
    return hands


def replay(source: str | bytes | Mapping[str, Any]) -> SchafkopfState:
    """Replay a record with every check; returns the finished hand."""
    data = load(source)
    rules = records.record_rules(data["rules"], SchafkopfRules.from_json)
    state = SchafkopfState(rules, records.record_seat(data["dealer"], "dealer"))
    state.apply(Deal(_hands(data["hands"])))
    actions = data["actions"]
    for i, seat, word, where in records.entries(state, actions):
        player = state.current_player
        if seat != player:
            who = "chance" if player == CHANCE else f"seat {player}"
            raise RecordActionError(f"{where}: seat {seat} may not act now ({who} is to act)", i)
        legal = state.legal_actions()
        action = next((a for a in legal if str(a) == word), None)
        if action is None:
            raise RecordActionError(
                f"{where}: {records.word_problem(state, word, legal, 'the game')}", i)
        state.apply(action)
    records.actions_complete(state, actions)
    return state


def replay_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """The result object of a record (exactly the contract's keys, in its order)."""
    return records.final_json(replay(record))


def record_of(state: SchafkopfState) -> dict[str, Any]:
    """The record of a dealt (or finished) hand; the inverse of :func:`replay`."""
    if not state.dealt:
        raise RecordError("the hand is not dealt yet")
    if state.contract == "kreuzbock":
        raise RecordError("a Kreuzbock hand is a match rule outside the Schafkopf record format")
    return {
        "game": "schafkopf",
        "rules": state.rules.to_record(),
        "dealer": state.dealer,
        "hands": [[str(c) for c in h] for h in state.dealt],
        "actions": [[seat, str(a)] for seat, a in state.history if seat >= 0],
    }


__all__ = ["load", "record_of", "replay", "replay_record"]
