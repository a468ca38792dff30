"""Mulatschak records (../specs/records.md, ../specs/mulatschak.md): load, replay, write.

A record is one hand::

    {"game": "mulatschak", "rules": "salzburg" | {"preset": ..., <option>: ...},
     "dealer": 0, "scores": [21, 21, 21, 21], "doubled": 0, "deck": [33 cards, top first],
     "actions": [[3, "abheben 12"], [1, "2"], ..., [1, "trumpf E"], ...]}

:func:`replay_record` gives the result object (exactly the contract's keys) or raises
:class:`~stammtisch.errors.RecordError`; a bad action raises
:class:`~stammtisch.errors.RecordActionError` carrying the action's ``index``.  A
``muli`` said out of turn is an action of its seat while another seat is to act.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stammtisch.cards import Card
from stammtisch.engine import records
from stammtisch.engine.core import Say, Shuffle
from stammtisch.errors import RecordActionError, RecordError, StammtischError
from stammtisch.games.mulatschak.rules import MulatschakRules
from stammtisch.games.mulatschak.state import DECK, MulatschakState

KNOWN_KEYS = ("game", "rules", "dealer", "scores", "doubled", "deck", "actions")


def load(source: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    """Parse a record from JSON text (or take a mapping) and check its top-level shape."""
    return records.load_record(source, "mulatschak", ("rules", "dealer", "scores", "deck"))


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _deck(value: Any) -> tuple[Card, ...]:
    if not isinstance(value, list) or len(value) != 33:
        n = len(value) if isinstance(value, list) else "no list"
        raise RecordError(f"deck: must be a list of the 33 cards (got {n})")
    out = []
    for i, text in enumerate(value):
        c = records.record_card(text, f"deck[{i}]", DECK, "the deck")
        if c in out:
            raise RecordError(f"deck[{i}]: {text} is a duplicate")
        out.append(c)
    return tuple(out)


def replay(source: str | bytes | Mapping[str, Any]) -> MulatschakState:
    """Replay a record with every check; returns the finished hand."""
    data = load(source)
    rules = records.record_rules(data["rules"], MulatschakRules.from_json)
    scores = data["scores"]
    if (not isinstance(scores, list) or not 2 <= len(scores) <= 6
            or not all(_is_int(s) for s in scores)):
        raise RecordError(f"scores: {scores!r} must be 2 to 6 integers, one per seat")
    doubled = data.get("doubled", 0)
    if not _is_int(doubled) or doubled < 0:
        raise RecordError(f"doubled: {doubled!r} must be an integer >= 0")
    dealer = records.record_seat(data["dealer"], "dealer", len(scores))
    state = MulatschakState(rules, dealer, scores, doubled)
    state.apply(Shuffle(_deck(data["deck"])))
    actions = data["actions"]
    for i, seat, word, where in records.entries(state, actions):
        player = state.current_player
        if seat != player:
            if word == "muli" and state.can_say_muli_out_of_turn(seat):
                state.apply_out_of_turn(seat, Say("muli"))
                continue
            why = ""
            if word == "muli" and state.phase == "bidding":
                why = (": it already said weiter" if seat in state.passed else
                       ": a Muli stands" if state.bid == 5 else
                       ": its score is 5 or less" if 0 <= seat < state.num_seats
                       and state.start_scores[seat] <= 5 else "")
            raise RecordActionError(f"{where}: seat {seat} may not act now (seat {player} "
                                    f"is to act){why}", i)
        try:
            action = state.parse_action(word)
        except StammtischError as e:
            raise RecordActionError(f"{where}: {e}", i) from None
        if action not in state.legal_actions():
            raise RecordActionError(f"{where}: {state.explain_illegal(action)}", i)
        state.apply(action)
    records.actions_complete(state, actions)
    return state


def replay_record(record: Any) -> dict[str, Any]:
    """The result object of a record (exactly the contract's keys, in its order)."""
    return records.final_json(replay(record))


def record_of(state: MulatschakState) -> dict[str, Any]:
    """The record of a shuffled (or finished) hand; the inverse of :func:`replay`."""
    if not state.deck:
        raise RecordError("the hand is not shuffled yet")
    return {
        "game": "mulatschak",
        "rules": state.rules.to_json(),
        "dealer": state.dealer,
        "scores": list(state.start_scores),
        "doubled": state.doubled,
        "deck": [str(c) for c in state.deck],
        "actions": [[seat, str(a)] for seat, a in state.history if not isinstance(a, Shuffle)],
    }


def describe_result(summary: dict[str, Any]) -> str:
    """One line for a result (or an error)."""
    if "error" in summary:
        return f"invalid: {summary['error']}"
    if summary["folded"]:
        return "zusammengefallen: no score changes"
    if summary["bidder"] is None:
        return "everybody weiter: no game"
    return (f"seat {summary['bidder']} bid {summary['bid']} in {summary['trump']}: "
            f"delta {summary['delta']}, scores {summary['scores']}")


__all__ = ["describe_result", "load", "record_of", "replay", "replay_record"]
