"""A Schafkopf sitting at an online table: the table's side of :class:`SchafkopfMatch`.

The server's table runtime drives every game through one small interface (the registry's
``new_match``): ``start_game(rng)``, ``state``, ``finish_game()``, ``is_over()`` and a
``sheet`` with ``to_json()`` and ``finished_bobbl()``.  :class:`SchafkopfSitting` gives
that interface to a :class:`SchafkopfMatch` (dealer rotation, payments, Kreuzbock), and its
sheet is the per-player *Abrechnung*: every finished hand with its payments and each
player's running balance.

The sheet holds finished hands only, so it says nothing about a hand in play (in a
Rufspiel, nobody may learn the partner from it before the called ace is played).

>>> import random
>>> from stammtisch.engine import play_random
>>> from stammtisch.games.schafkopf.rules import SchafkopfRules
>>> s = new_match(SchafkopfRules.preset("standard"), 0, 1)
>>> hand = s.start_game(random.Random(1))
>>> _ = play_random(hand, random.Random(2))
>>> s.finish_game() is None, s.dealer, len(s.sheet.hands), s.is_over()
(True, 1, 1, False)
>>> sum(s.sheet.to_json()["totals"])
0
"""

from __future__ import annotations

from typing import Any

from stammtisch.games.base.table import Sitting
from stammtisch.games.schafkopf.match import SchafkopfMatch
from stammtisch.games.schafkopf.rules import SchafkopfRules
from stammtisch.games.schafkopf.state import SchafkopfState

__all__ = ["AbrechnungSheet", "SchafkopfSitting", "new_match"]


class AbrechnungSheet:
    """The Abrechnung of a sitting: one row per finished hand, each player's balance."""

    def __init__(self) -> None:
        self.hands: list[dict[str, Any]] = []
        self.totals = [0, 0, 0, 0]

    def add(self, dealer: int, result: dict[str, Any]) -> None:
        payments = [int(p) for p in result["payments"]]
        self.totals = [a + b for a, b in zip(self.totals, payments, strict=True)]
        self.hands.append({
            "number": len(self.hands) + 1,
            "dealer": dealer,
            "contract": result["contract"],
            "declarer": result["declarer"],
            "partner": result["partner"],
            "winner": result["winner"],
            "schneider": bool(result.get("schneider")),
            "schwarz": bool(result.get("schwarz")),
            "laufende": int(result.get("laufende") or 0),
            "multiplier": int(result.get("multiplier") or 1),
            "loser": result.get("loser"),
            "payments": payments,
            "balance": list(self.totals),
        })

    def finished_bobbl(self) -> list[Any]:
        """Schafkopf plays no Bobbl (the table asks for Mucken's)."""
        return []

    #: how many of the last hands the sheet's JSON lists (every state message carries it)
    SHOWN = 50

    def to_json(self) -> dict[str, Any]:
        """``totals`` (each player's balance), ``count`` (hands booked) and the last
        :attr:`SHOWN` ``hands`` (each with its payments and the balance after it)."""
        return {"kind": "abrechnung", "totals": list(self.totals), "count": len(self.hands),
                "hands": [dict(h) for h in self.hands[-self.SHOWN:]]}


class SchafkopfSitting(Sitting[SchafkopfState]):
    """Hands one after another (see the module); ``rounds`` rounds of four hands, then the
    sitting is over (``None``: it goes on as long as the table plays)."""

    match: SchafkopfMatch

    def __init__(self, rules: SchafkopfRules, first_dealer: int = 0,
                 rounds: int | None = None, *, kreuzbock: bool = False) -> None:
        self.rules = rules
        self.match = SchafkopfMatch(rules, kreuzbock=kreuzbock, dealer=first_dealer)
        self.rounds = rounds
        self.sheet = AbrechnungSheet()
        self.state: SchafkopfState | None = None

    @property
    def totals(self) -> list[int]:
        return list(self.sheet.totals)

    def is_over(self) -> bool:
        return self.rounds is not None and len(self.sheet.hands) >= 4 * self.rounds

    def next_hand(self) -> SchafkopfState:
        return self.match.new_hand()

    def finish_game(self) -> None:
        """Book the finished hand; Schafkopf has no Bobbl, so this returns ``None``."""
        state = self.state
        assert state is not None
        dealer = state.dealer
        self.match.finish_hand(state)
        result = state.result()
        assert result is not None
        self.sheet.add(dealer, result)
        self.state = None


def new_match(rules: SchafkopfRules, first_dealer: int = 0,
              limit: int | None = None, *, kreuzbock: bool = False) -> SchafkopfSitting:
    """The registry's ``new_match`` for Schafkopf: ``limit`` is the number of rounds (four
    hands each) of the sitting, ``None`` for an open end; ``kreuzbock``: a round of four
    Kreuzbock hands follows every Ramsch (``SchafkopfMatch``)."""
    return SchafkopfSitting(rules, first_dealer, limit, kreuzbock=kreuzbock)
