"""A Mus sitting at an online table: the table's side of :class:`MusMatch`.

The server's table runtime drives every game through the registry's ``new_match``:
``start_game(rng)``, ``state``, ``finish_game()``, ``is_over()``, ``dealer`` and a
``sheet`` with ``to_json()`` and ``finished_bobbl()``.  :class:`MusSitting` gives that
interface to a :class:`~stammtisch.games.mus.match.MusMatch`: hands until a pair reaches
``target`` points (a set), sets until a pair has won ``sets`` of them; the deal passes
counterclockwise (the next dealer is the last Mano).

The match options (beside the rules): ``senas`` (``off``, ``on``, ``sichtbar``) and
``catch`` (the probability that an opponent catches a seña, for ``sichtbar``): see
:mod:`stammtisch.games.mus.senas`.  They are table options, not rule options: a Mus
record's ``rules`` stay the contract's, the señas go into the record's ``senas`` key.

The sheet (:class:`MusSheet`, ``kind`` ``"mus"``) holds finished hands only: the points of
each pair in the running set, also as the stones of a Mus table (``amarracos`` of 5
points and single ``piedras``), the sets won, and each hand's bookings lance by lance
(:meth:`~stammtisch.games.mus.state.MusState.showdown_report`).

>>> import random
>>> from stammtisch.engine import play_random
>>> from stammtisch.games.mus.rules import MusRules
>>> s = new_match(MusRules.preset("duples", target=10, sets=1), 0, None, senas="on")
>>> hand = s.start_game(random.Random(1))
>>> _ = play_random(hand, random.Random(2))
>>> s.finish_game() is None, s.dealer, s.sheet.to_json()["count"]
(True, 3, 1)
>>> stones(17)
(3, 2)
>>> new_match(MusRules.preset("duples"), senas="laut")
Traceback (most recent call last):
...
stammtisch.errors.RulesError: senas='laut': must be off, on or sichtbar
"""

from __future__ import annotations

from typing import Any

from stammtisch.errors import RulesError
from stammtisch.games.base.table import Sitting
from stammtisch.games.mus.match import MusMatch
from stammtisch.games.mus.rules import MusRules
from stammtisch.games.mus.senas import DEFAULT_CATCH, SenasConfig
from stammtisch.games.mus.state import MusState

__all__ = ["MusSheet", "MusSitting", "new_match", "stones"]

#: points per amarraco (the big stone); smaller stones (piedras) count 1
AMARRACO = 5


def stones(points: int) -> tuple[int, int]:
    """``(amarracos, piedras)`` of ``points``: 5-point stones and single points."""
    return points // AMARRACO, points % AMARRACO


class MusSheet:
    """The sheet of a Mus sitting (see the module)."""

    #: how many of the last hands the JSON lists (every state message carries it, and a
    #: hand with its lance-by-lance report is about 1.5 kB)
    SHOWN = 10

    def __init__(self, match: MusMatch) -> None:
        self.match = match

    @property
    def hands(self) -> list[dict[str, Any]]:
        return self.match.hands

    def finished_bobbl(self) -> list[Any]:
        """Mus plays no Bobbl (the table asks for Mucken's)."""
        return []

    def to_json(self) -> dict[str, Any]:
        """``kind`` "mus"; ``target`` and ``sets_to`` (the rules); ``set`` (the running
        set's number), ``score`` (each pair's points in it), ``amarracos`` and ``piedras``
        (those points as stones), ``sets`` (sets won by pair), ``winner`` (the pair that
        won the match, else ``null``), ``set_results`` (each finished set: ``set``,
        ``winner``, ``score``, ``by`` — ``points`` or ``ordago`` — and ``hands``),
        ``count`` (hands booked) and the last
        :attr:`SHOWN` ``hands``: ``number``, ``set``, ``dealer``, ``mano``,
        ``score_before``, ``score``, ``points`` (won in the hand, by pair),
        ``set_winner``, ``lances`` and ``status`` (the result's), ``stopped``, ``report``
        (lance by lance: winner seat and pair, ``best`` combination, ``stake``, ``points``,
        ``booked``, ``bonus``, ``why``) and ``senas`` (every seña with ``seen_by``)."""
        m = self.match
        score = list(m.score)
        return {
            "kind": "mus",
            "target": m.rules.target,
            "sets_to": m.rules.sets,
            "set": m.set_number if not m.is_over() else len(m.sets),
            "score": score,
            "amarracos": [stones(p)[0] for p in score],
            "piedras": [stones(p)[1] for p in score],
            "sets": list(m.sets_won),
            "winner": m.winner(),
            "set_results": [dict(s) for s in m.sets],
            "count": len(m.hands),
            "hands": [dict(h) for h in m.hands[-self.SHOWN:]],
        }


class MusSitting(Sitting[MusState]):
    """A Mus match at a table (see the module)."""

    match: MusMatch

    def __init__(self, rules: MusRules, first_dealer: int = 0,
                 senas: SenasConfig | None = None) -> None:
        self.rules = rules
        self.match = MusMatch(rules, first_dealer, senas)
        self.sheet = MusSheet(self.match)
        self.state: MusState | None = None

    @property
    def senas(self) -> SenasConfig | None:
        return self.match.senas

    def is_over(self) -> bool:
        """Whether a pair has won ``sets`` sets."""
        return self.match.is_over()

    def next_hand(self) -> MusState:
        return self.match.start_game()

    def finish_game(self) -> None:
        """Book the finished hand; Mus has no Bobbl, so this returns ``None``."""
        self.match.finish_game()
        self.state = None


def new_match(rules: MusRules, first_dealer: int = 0, limit: int | None = None, *,
              senas: str | SenasConfig = "off", catch: float = DEFAULT_CATCH) -> MusSitting:
    """The registry's ``new_match`` for Mus.  The match ends when a pair has won the
    rules' ``sets`` sets; ``limit`` (the table's Bobbl limit of the other games) does not
    shorten it and is only checked to be ``None`` or a whole number.  ``senas``, ``catch``:
    the table's señas.  ``RulesError`` naming the option when one is not valid."""
    if not isinstance(rules, MusRules):
        raise RulesError(f"rules: {type(rules).__name__} are not Mus rules")
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, int) \
            or not 0 <= first_dealer < 4:
        raise RulesError(f"first_dealer={first_dealer!r}: must be a seat 0..3")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                              or limit < 0):
        raise RulesError(f"limit={limit!r}: must be a whole number or none")
    config = senas if isinstance(senas, SenasConfig) else SenasConfig(senas, catch)
    return MusSitting(rules, first_dealer, config)
