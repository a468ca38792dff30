"""Mus records (../specs/records.md, ../specs/mus.md): load, replay action by action, write.

A record is one hand::

    {"game": "mus", "rules": "duples" | {"preset": "duples", <option>: ...}, "dealer": 0,
     "score": [0, 0], "hands": [[4 cards] × 4], "stock": [24 cards, top first],
     "reshuffles": [[cards], ...] (optional),
     "senas": {"mode": "on" | "sichtbar", "catch": 0.2,
               "signs": [{"after": 3, "seat": 1, "sign": "31", "seen_by": [0]}, ...]}
              (optional: only at tables with señas, see :mod:`stammtisch.games.mus.senas`),
     "actions": [[3, "mus"], ...]}

``senas.signs[i]`` is applied before action ``after`` (the number of actions before it)
with its recorded catches; a bad entry is refused naming it (``senas.signs[i] (...)``).
Records without ``senas`` replay exactly as the contract says; ``actions`` never holds a
seña.

:func:`replay_record` gives the result object (the contract's keys) or raises
:class:`~stammtisch.errors.RecordError`; for a bad action a
:class:`~stammtisch.errors.RecordActionError` carrying the action's ``index``.
A ``descarte`` may name its cards in any order.

The seed's betting example (dealer 0, so Mano A is seat 3, B seat 2, C seat 1, D seat 0):
A bets 2, B refuses, D raises by 3 to 5, A raises by 6 to 11, D refuses: A's pair scores 5;
then chica (1 en paso), pares (seats 1 and 3 hold a par: 2) and juego (seat 1's 31: 3) go
to pair 1 as well, the ties of Pares and Juego (two kings, 31) to seat 1, nearer Mano.

>>> rec = {"game": "mus", "rules": "duples", "dealer": 0, "score": [0, 0],
...        "hands": [["OR", "C3", "OC", "B1"], ["CR", "PR", "OS", "O2"],
...                  ["O4", "C4", "P5", "B6"], ["O7", "C7", "P6", "B5"]],
...        "stock": [], "actions": []}
>>> from stammtisch.cards import SPANISH_DECK
>>> used = {c for h in rec["hands"] for c in h}
>>> rec["stock"] = [str(c) for c in SPANISH_DECK if str(c) not in used]
>>> out = replay_record({**rec, "actions": [
...     [3, "no mus"],
...     [3, "envido 2"], [2, "no quiero"], [0, "envido 3"], [3, "envido 6"],
...     [0, "no quiero"],
...     [3, "paso"], [2, "paso"], [1, "paso"], [0, "paso"],
...     [3, "paso"], [2, "paso"], [1, "paso"], [0, "paso"],
...     [1, "paso"], [0, "paso"]]})
>>> out["status"]
{'grande': 'no_querido', 'chica': 'paso', 'pares': 'paso', 'juego': 'paso', 'punto': 'no_bet'}
>>> out["score"], out["lances"]
([0, 11], {'grande': 0, 'chica': 1, 'pares': 1, 'juego': 1, 'punto': None})
>>> try:
...     replay_record({**rec, "actions": [[0, "mus"]]})
... except RecordActionError as e:
...     print(e.index, e)
0 action 0 ([0, "mus"]): seat 0 may not act now (seat 3 is to act)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from stammtisch.cards import SPANISH_DECK, Card
from stammtisch.engine import records
from stammtisch.engine.core import CHANCE, Say, Shuffle
from stammtisch.errors import RecordActionError, RecordError, StammtischError
from stammtisch.games.mus.rules import MusRules
from stammtisch.games.mus.senas import SenaMade, SenasConfig
from stammtisch.games.mus.state import MusState


def load(source: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    """Parse a record from JSON text (or take a mapping) and check its top-level shape."""
    return records.load_record(source, "mus", ("rules", "dealer", "score", "hands", "stock"))


def _cards(value: Any, where: str, count: int | None) -> list[Card]:
    if not isinstance(value, list) or (count is not None and len(value) != count):
        raise RecordError(f"{where}: must be a list of {count if count else 'the'} cards")
    out = []
    for i, text in enumerate(value):
        out.append(records.record_card(text, f"{where}[{i}]", SPANISH_DECK, "the Spanish deck"))
    return out


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _senas(data: dict[str, Any]) -> tuple[SenasConfig | None, list[SenaMade]]:
    """The record's optional ``senas`` key: ``{"mode", "catch", "signs": [{"after",
    "seat", "sign", "seen_by"}, ...]}`` (shape and types; whether each seña was allowed
    is checked while replaying)."""
    if "senas" not in data:
        return None, []
    value = data["senas"]
    if not isinstance(value, dict):
        raise RecordError("senas: must be an object {\"mode\", \"catch\", \"signs\"}")
    unknown = sorted(set(value) - {"mode", "catch", "signs"})
    if unknown:
        raise RecordError(f"senas: unknown key {unknown[0]!r} (known: catch, mode, signs)")
    try:
        config = SenasConfig.from_json(value)
    except StammtischError as e:
        raise RecordError(f"senas: {e}") from None
    signs_value = value.get("signs", [])
    if not isinstance(signs_value, list):
        raise RecordError("senas.signs: must be a list")
    signs: list[SenaMade] = []
    for k, entry in enumerate(signs_value):
        where = f"senas.signs[{k}] ({json.dumps(entry, ensure_ascii=False)})"
        if not isinstance(entry, dict) or set(entry) != {"after", "seat", "sign", "seen_by"}:
            raise RecordError(
                f"{where}: must be an object with after, seat, sign and seen_by")
        after, seat, sign, seen = entry["after"], entry["seat"], entry["sign"], entry["seen_by"]
        if not _int(after) or after < 0:
            raise RecordError(f"{where}: after must be an action count (0 or more)")
        if not _int(seat) or not 0 <= seat < 4:
            raise RecordError(f"{where}: seat must be a seat 0..3")
        if not isinstance(sign, str):
            raise RecordError(f"{where}: sign must be a seña's id")
        if not isinstance(seen, list) or not all(_int(s) for s in seen):
            raise RecordError(f"{where}: seen_by must be a list of seats")
        if signs and after < signs[-1].after:
            raise RecordError(f"{where}: after {after} comes before the previous seña's "
                              f"{signs[-1].after} (señas in the order they were made)")
        signs.append(SenaMade(after, seat, sign, tuple(seen)))
    if signs and not config.enabled:
        raise RecordError("senas.signs[0]: señas are off (mode 'off')")
    return config, signs


def _setup(data: dict[str, Any]) -> tuple[MusRules, MusState, list[tuple[Card, ...]]]:
    rules = records.record_rules(data["rules"], MusRules.from_json)
    dealer = records.record_seat(data["dealer"], "dealer")
    score = data["score"]
    if (not isinstance(score, list) or len(score) != 2
            or any(isinstance(v, bool) or not isinstance(v, int)
                   or not 0 <= v < rules.target for v in score)):
        raise RecordError(f"score: {score!r} must be two integers from 0 to {rules.target - 1}")
    hands_value = data["hands"]
    if not isinstance(hands_value, list) or len(hands_value) != 4:
        raise RecordError("hands: must be a list of four hands of 4 cards")
    hands = [_cards(h, f"hands[{s}]", 4) for s, h in enumerate(hands_value)]
    stock = _cards(data["stock"], "stock", 24)
    every = [c for h in hands for c in h] + stock
    if len(set(every)) != len(every):
        dup = next(c for c in every if every.count(c) > 1)
        raise RecordError(f"hands and stock: {dup} appears twice")
    reshuffles_value = data.get("reshuffles", [])
    if not isinstance(reshuffles_value, list):
        raise RecordError("reshuffles: must be a list of lists of cards")
    reshuffles = [tuple(_cards(r, f"reshuffles[{i}]", None))
                  for i, r in enumerate(reshuffles_value)]
    config, _ = _senas(data)
    state = MusState.from_deal(rules, dealer, (score[0], score[1]), hands, stock, config)
    return rules, state, reshuffles


def _word(state: MusState, word: str) -> Say | None:
    """The legal action ``word`` names (a ``descarte`` in any card order), else ``None``."""
    for a in state.legal_actions():
        if str(a) == word:
            return a if isinstance(a, Say) else None
    parts = word.split(" ")
    if parts[0] == "descarte" and len(parts) > 1:
        for a in state.legal_actions():
            if isinstance(a, Say) and sorted(a.word.split(" ")) == sorted(parts):
                return a
    return None


def replay(source: str | bytes | Mapping[str, Any]) -> MusState:
    """Replay a record with every check; returns the finished hand."""
    data = load(source)
    _, state, reshuffles = _setup(data)
    _, signs = _senas(data)
    used = 0
    actions = data["actions"]
    made = 0  # señas replayed

    def senas_until(count: int) -> None:
        nonlocal made
        while made < len(signs) and signs[made].after <= count:
            sign = signs[made]
            where = f"senas.signs[{made}] ({json.dumps(sign.to_json(), ensure_ascii=False)})"
            try:
                state.apply_sena(sign.seat, sign.sign, sign.seen_by)
            except StammtischError as e:
                raise RecordError(f"{where}: {e}") from None
            made += 1

    for i, entry in enumerate(actions):
        senas_until(i)
        seat, word, where = records.action_entry(entry, i)
        if state.is_terminal():
            raise RecordActionError(f"{where}: the hand is already over", i)
        player = state.current_player
        if seat != player:
            raise RecordActionError(
                f"{where}: seat {seat} may not act now (seat {player} is to act)", i)
        action = _word(state, word)
        if action is None:
            reason = records.word_problem(state, word, state.legal_actions(), "Mus")
            raise RecordActionError(f"{where}: {reason}", i)
        state.apply(action)
        while state.current_player == CHANCE:
            if used == len(reshuffles):
                raise RecordActionError(
                    f"{where}: the stock runs out and no reshuffle list is left", i)
            order = reshuffles[used]
            if not state.is_chance_outcome(Shuffle(order)):
                raise RecordError(
                    f"reshuffles[{used}] (used after action {i}): must be an ordering of "
                    f"the discards not yet reshuffled: "
                    f"{' '.join(sorted(str(c) for c in state.pool))}")
            state.apply(Shuffle(order))
            used += 1
    if made < len(signs):
        bad = signs[made]
        where = f"senas.signs[{made}] ({json.dumps(bad.to_json(), ensure_ascii=False)})"
        if bad.after > len(actions):
            raise RecordError(f"{where}: after {bad.after}: the record has only "
                              f"{len(actions)} actions")
        senas_until(len(actions))
    records.actions_complete(state, actions)
    if used < len(reshuffles):
        raise RecordError(f"reshuffles[{used}]: never needed (the stock did not run out)")
    return state


def replay_record(source: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    """The result object of a record (exactly the contract's keys, in its order)."""
    return records.final_json(replay(source))


def record_of(state: MusState) -> dict[str, Any]:
    """The record of a dealt (or finished) hand; the inverse of :func:`replay`."""
    if not state.dealt:
        raise RecordError("the hand is not dealt yet")
    out: dict[str, Any] = {
        "game": "mus",
        "rules": state.rules.to_record(),
        "dealer": state.dealer,
        "score": list(state.start_score),
        "hands": [[str(c) for c in h] for h in state.dealt],
        "stock": [str(c) for c in state.initial_stock],
    }
    if state.reshuffles:
        out["reshuffles"] = [[str(c) for c in r] for r in state.reshuffles]
    if state.senas_config.enabled:
        out["senas"] = {**state.senas_config.to_json(),
                        "signs": [e.to_json() for e in state.senas]}
    out["actions"] = [[seat, str(a)] for seat, a in state.history if seat >= 0]
    return out


__all__ = ["load", "record_of", "replay", "replay_record"]
