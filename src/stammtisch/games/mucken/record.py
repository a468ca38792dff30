"""Mucken game records: JSON in, checked replay out.

The format (docs/records.md; JSON Schema ``stammtisch/schemas/mucken-record.json``)::

    {"game": "mucken", "rules": "seefest", "dealer": 3,
     "hands": [[6 cards], [6 cards], [6 cards], [6 cards]],
     "calls": ["muck", "weiter", "weiter", "weiter"],
     "kontra": 1,
     "plays": ["EO", "HA", ...]}

Optional keys: ``re``, ``sup``, ``hirsch`` (seat that said it), ``factor``
(pending Einwerfen factor, default 1), ``violation`` (``{"seat": s, "after": n}``:
a Regelverstoß by seat ``s`` after ``n`` plays).  ``rules`` is a preset name or
``{"preset": name, <option>: value, ...}``.

:func:`replay` checks every entry and returns the finished state, or raises
:class:`RecordError` naming the first bad call or play by its index.
:func:`record_of` writes the record of a state (the inverse).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stammtisch.cards import Card
from stammtisch.engine.core import Deal, Say
from stammtisch.engine.records import final_json, json_object, record_rules, record_seat
from stammtisch.errors import InvalidCardError, RecordError, StammtischError
from stammtisch.games.mucken.rules import DOUBLING_WORDS, MuckenRules
from stammtisch.games.mucken.state import BIDDING, DOUBLING, MUSS, PLAY, MuckenState

KNOWN_KEYS = {"game", "rules", "dealer", "hands", "calls", "kontra", "re", "sup", "hirsch",
              "plays", "factor", "violation", "players", "meta", "log"}


def _seat(value: Any, where: str) -> int | None:
    return None if value is None else record_seat(value, where)


def _card_list(value: Any, where: str) -> list[Card]:
    if not isinstance(value, list):
        raise RecordError(f"{where}: must be a list of cards")
    out = []
    for i, text in enumerate(value):
        try:
            out.append(Card.parse(text))
        except InvalidCardError as e:
            raise RecordError(f"{where}[{i}]: {e}") from None
    return out


def load(source: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    """Parse a record from JSON text (or take a mapping) and check its shape."""
    data = json_object(source)
    unknown = sorted(set(data) - KNOWN_KEYS)
    if unknown:
        raise RecordError(f"unknown key(s): {', '.join(unknown)}")
    if data.get("game", "mucken") != "mucken":
        raise RecordError(f"game: {data.get('game')!r} is not 'mucken'")
    for key in ("dealer", "hands"):
        if key not in data:
            raise RecordError(f"missing key {key!r}")
    for key in ("calls", "plays"):
        if key in data and not isinstance(data[key], list):
            raise RecordError(f"{key}: must be a list")
    return data


def replay(source: str | bytes | Mapping[str, Any]) -> MuckenState:
    """Replay a record with every check; returns the terminal state."""
    data = load(source)
    rules = record_rules(data.get("rules", "seefest"), MuckenRules.from_json)
    dealer = _seat(data["dealer"], "dealer")
    assert dealer is not None
    factor = data.get("factor", 1)
    if isinstance(factor, bool) or not isinstance(factor, int) or factor < 1:
        raise RecordError(f"factor: {factor!r} is not a whole number >= 1")
    hands_raw = data["hands"]
    if not isinstance(hands_raw, list):
        raise RecordError("hands: must be a list of four hands")
    hands = [_card_list(h, f"hands[{i}]") for i, h in enumerate(hands_raw)]
    state = MuckenState(rules, dealer, factor)
    deal = Deal(tuple(tuple(h) for h in hands))
    problem = state._deal_problem(deal.hands)
    if problem is not None:
        raise RecordError(f"hands: not a dealt deck: {problem}")
    state.apply(deal)

    doublers = {w: _seat(data.get(w), w) for w in DOUBLING_WORDS}
    violation = data.get("violation")
    v_seat: int | None = None
    v_after: int | None = None
    if violation is not None:
        if not isinstance(violation, dict):
            raise RecordError("violation: must be {\"seat\": s, \"after\": n}")
        v_seat = _seat(violation.get("seat"), "violation.seat")
        v_after = violation.get("after", 0)
        if v_seat is None or not isinstance(v_after, int) or v_after < 0:
            raise RecordError("violation: needs a seat and 'after' (plays before it) >= 0")

    calls = data.get("calls", [])
    plays = data.get("plays", [])
    for i, word in enumerate(calls):
        if not isinstance(word, str):
            raise RecordError(f"call {i}: {word!r} is not a call")
        if state.phase not in (BIDDING, MUSS):
            raise RecordError(f"call {i} ({word!r}): a call after the bidding ended")
        seat = state.current_player
        try:
            state.apply(Say(word.strip().lower()))
        except StammtischError as e:
            raise RecordError(f"call {i} ({word!r}) by seat {seat}: {_why(e)}") from None
    if state.phase in (BIDDING, MUSS):
        raise RecordError(
            f"calls: bidding not finished after {len(calls)} call(s) "
            f"(seat {state.current_player} is to call)")

    used: set[str] = set()
    while state.phase == DOUBLING:
        word = DOUBLING_WORDS[state.doublings]
        if doublers[word] == state.current_player:
            used.add(word)
            state.apply(Say(word))
        else:
            state.apply(Say("gut"))
    for word, doubler in doublers.items():
        if doubler is not None and word not in used:
            if word == "kontra" and state.contract in ("pflichtmuck", "ramsch", "sie",
                                                     "eingeworfen"):
                raise RecordError(f"kontra: no Kontra in a {state.contract}")
            declarer = state.declarer
            if word == "kontra" and declarer is not None and doubler % 2 == declarer % 2:
                raise RecordError(
                    f"kontra: seat {doubler} is of the declaring pair (seat {declarer} "
                    f"declared {state.contract}); only the other pair may say Kontra")
            raise RecordError(f"{word}: seat {doubler} may not say {word!r} here")

    for i, text in enumerate(plays):
        if v_after is not None and i == v_after:
            break
        if state.is_terminal():
            raise RecordError(f"play {i} ({text!r}): a play after the game's end")
        if state.phase != PLAY:
            raise RecordError(f"play {i} ({text!r}): no card may be played in phase {state.phase}")
        seat = state.current_player
        try:
            card = Card.parse(text)
        except (InvalidCardError, TypeError) as e:
            raise RecordError(f"play {i}: {e}") from None
        try:
            state.apply(card)
        except StammtischError as e:
            raise RecordError(f"play {i} ({card}) by seat {seat}: {_why(e)}") from None
    if v_seat is not None:
        assert v_after is not None
        if v_after > len(plays):
            raise RecordError(f"violation.after: {v_after} but only {len(plays)} plays")
        if v_after < len(plays):
            raise RecordError(f"play {v_after}: a play after the Regelverstoß")
        if state.is_terminal():
            raise RecordError("violation: the game was already over")
        state.record_violation(v_seat)
    if not state.is_terminal():
        raise RecordError(
            f"plays: the record stops before the game's end ({len(plays)} plays, "
            f"seat {state.current_player} is to play)")
    return state


def _why(e: StammtischError) -> str:
    text = str(e)
    # drop the leading "<action>: " the engine puts in front of its reason
    _head, sep, tail = text.partition(": ")
    return tail if sep else text


def summary(state: MuckenState) -> dict[str, Any]:
    """The replay line of ``stammtisch replay --json``."""
    return final_json(state)


def record_of(state: MuckenState) -> dict[str, Any]:
    """The record of a game (dealt or finished); the inverse of :func:`replay`."""
    rules: str | dict[str, Any]
    preset = state.rules.name
    try:
        same = MuckenRules.preset(preset) == state.rules
    except StammtischError:
        same = False
    # custom rules are written out in full, so the record replays under exactly them
    rules = preset if same else {"preset": "seefest", **_options(state.rules)}
    rec: dict[str, Any] = {
        "game": "mucken",
        "rules": rules,
        "dealer": state.dealer,
        "hands": [[str(c) for c in h] for h in state.dealt],
        "calls": [w for _, w in state.calls],
    }
    for i, seat in enumerate(state.doubling_seats):
        rec[DOUBLING_WORDS[i]] = seat
    rec["plays"] = [str(a) for seat, a in state.history if isinstance(a, Card)]
    if state.factor != 1:
        rec["factor"] = state.factor
    if state.violation is not None:
        rec["violation"] = {"seat": state.violation, "after": len(rec["plays"])}
    return rec


def _options(rules: MuckenRules) -> dict[str, Any]:
    return {k: v for k, v in rules.to_json().items() if k != "name"}
