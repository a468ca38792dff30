"""Who wins a Mucken game and how many points it is worth (seeds 000 and 001).

Reading of seed 001's table (documented in docs/rules/mucken.md):

- Declarers win: the announced game's value in the column of what they reached —
  the announced level, raised to "schneider" when the other pair has at most 30
  Augen and to "schwarz" when it took no trick.
- Declarers lose: the other pair is credited the announced game's value for the
  announced level, raised to the schneider/schwarz column if the declarers ended
  with at most 30 Augen / no trick.
- Kontra (and Re, Sup, Hirsch) double whatever is credited; Einwerfen
  multiplies it by the table's pending factor.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from stammtisch.engine.results import GameResult
from stammtisch.games.mucken.orders import trick_order
from stammtisch.games.mucken.rules import LEVELS, Level, MuckenRules


@dataclass(frozen=True, slots=True)
class Outcome:
    """Winner pair (or None when not scored) and the points credited to it."""

    winner: int | None
    score: int
    column: Level | None = None
    reason: str = ""


@dataclass(frozen=True)
class MuckenResult(GameResult):
    """A finished Mucken game (``MuckenState.final_result()``); ``to_json()`` is the line
    of ``stammtisch replay --json``."""

    SUMMARY_KEYS: ClassVar[tuple[str, ...]] = (
        "contract", "declarer", "kontra", "trick_winners", "augen", "tricks", "winner",
        "score")

    #: the game played: a bid name, ``pflichtmuck``, ``ramsch``, ``sie``, ``eingeworfen``
    contract: str
    #: the declaring seat (a Sie: its holder); ``None`` without one
    declarer: int | None
    kontra: bool
    doublings: int
    trick_winners: tuple[int, ...]
    #: Augen and tricks per pair
    augen: tuple[int, ...]
    tricks: tuple[int, ...]
    #: the winning pair, ``None`` when not scored
    winner: int | None
    score: int
    column: Level | None
    reason: str
    #: the seat that broke a rule (Regelverstoß), if any
    violation: int | None
    forced: bool
    #: the Bobbl factor of the game
    factor: int


def pair_of(seat: int) -> int:
    return seat % 2


def _column(augen: int, tricks: int, schneider_max: int) -> Level:
    if tricks == 0:
        return "schwarz"
    if augen <= schneider_max:
        return "schneider"
    return "plain"


def score_game(
    rules: MuckenRules,
    bid_name: str,
    level: Level,
    declarer_pair: int,
    augen: list[int],
    tricks: list[int],
    doublings: int,
    forced: bool,
) -> Outcome:
    """Outcome of an announced game (Muck, Wenz, … or a Muss-Spiel)."""
    dp, op = declarer_pair, 1 - declarer_pair
    muss = forced and rules.muss_60_wins
    schneider_max = 29 if muss else 30
    kontra = doublings > 0
    if level == "plain":
        if kontra and rules.kontra_uebernimmt:
            won = augen[op] < 61
        else:
            won = augen[dp] >= (60 if muss else 61)
    elif level == "schneider":
        won = augen[op] <= schneider_max
    else:
        won = tricks[op] == 0
    lvl = LEVELS.index(level)
    if won:
        reached = LEVELS.index(_column(augen[op], tricks[op], schneider_max))
        column = LEVELS[max(lvl, reached)]
        winner = dp
    else:
        reached = LEVELS.index(_column(augen[dp], tricks[dp], schneider_max))
        column = LEVELS[max(lvl, reached)]
        winner = op
    column = _fit_column(rules, bid_name, column)
    value = rules.value(bid_name, column)
    assert value is not None
    return Outcome(winner, value * 2**doublings, column, "gewonnen" if won else "verloren")


def _fit_column(rules: MuckenRules, bid_name: str, column: Level) -> Level:
    """Highest column at or below ``column`` that has a value (tables may leave gaps)."""
    i = LEVELS.index(column)
    while i > 0 and rules.value(bid_name, LEVELS[i]) is None:
        i -= 1
    while rules.value(bid_name, LEVELS[i]) is None:
        i += 1
    return LEVELS[i]


def score_pflichtmuck(rules: MuckenRules, augen: list[int], tie_loser: int | None) -> Outcome:
    """Pflichtmuck um einen Punkt: the pair with 61 gets the point; 60:60 per the rules."""
    if augen[0] == augen[1]:
        if rules.pflichtmuck_tie == "card_holder_loses" and tie_loser is not None:
            return Outcome(1 - tie_loser, rules.pflichtmuck_value, "plain", "60:60")
        return Outcome(None, 0, None, "60:60 nicht gewertet")
    winner = 0 if augen[0] > augen[1] else 1
    return Outcome(winner, rules.pflichtmuck_value, "plain", "gewonnen")


def score_ramsch(
    rules: MuckenRules,
    augen: list[int],
    tricks: list[int],
    trick_cards: list[tuple[int, tuple[Any, ...]]],
    trick_winners: list[int],
) -> Outcome:
    """Ramsch: fewest Augen wins; ties by tricks, trumps taken, then highest trump."""
    value = rules.ramsch_value * (2 if rules.ramsch_double else 1)
    if rules.durchmarsch:
        seats = set(trick_winners)
        if len(seats) == 1:
            return Outcome(pair_of(seats.pop()), value, "schwarz", "Durchmarsch")
    if augen[0] != augen[1]:
        return Outcome(0 if augen[0] < augen[1] else 1, value, "plain", "weniger Augen")
    if tricks[0] != tricks[1]:
        return Outcome(0 if tricks[0] < tricks[1] else 1, value, "plain", "weniger Stiche")
    order = trick_order("muck", rules.deck)
    trumps = [0, 0]
    best = [-1, -1]
    for (_, cards), w in zip(trick_cards, trick_winners, strict=True):
        p = pair_of(w)
        for c in cards:
            if order.is_trump(c):
                trumps[p] += 1
                best[p] = max(best[p], order.power(c))
    if trumps[0] != trumps[1]:
        return Outcome(0 if trumps[0] < trumps[1] else 1, value, "plain", "weniger Trümpfe")
    return Outcome(0 if best[0] < best[1] else 1, value, "plain", "niedrigerer Trumpf")
