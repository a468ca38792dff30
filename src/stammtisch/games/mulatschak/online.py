"""A Mulatschak sitting at an online table: the table's side of :class:`MulatschakMatch`.

The server's table runtime drives every game through the registry's ``new_match``
interface: ``start_game(rng)``, ``state``, ``dealer``, ``finish_game()``, ``is_over()`` and
a ``sheet`` with ``to_json()`` and ``finished_bobbl()``.  :class:`MulatschakSitting` gives
that interface to one :class:`MulatschakMatch` (every seat from 21 down to 0, the doubling
carried after a folded hand, the dealer moving on after a hand that was bid for), and its
sheet is the score column (*Punkteliste*): one row per finished hand — dealer, bidder,
bid, trump, who played and who stayed home, the tricks, each seat's change, the
multiplier of the hand, folded hands (``Zusammengefallen``) and redeals — and the running
score of every seat.  ``multiplier`` on the sheet is the doubling carried into the next
hand (2^doubled, from folded hands); Herz and Klopfen of a hand in play are in the hand's
own view, not on the sheet.

The sheet holds finished hands only, so it says nothing about a hand in play (no cards,
no bid in progress).

``limit`` (the table's ``bobbl_limit``) does not apply: a sitting is one match, over when
a seat reaches 0 or less.

>>> import random
>>> from stammtisch.engine import play_random
>>> from stammtisch.games.mulatschak.rules import MulatschakRules
>>> s = new_match(MulatschakRules(), 0, None, players=3)
>>> hand = s.start_game(random.Random(1))
>>> _ = play_random(hand, random.Random(2))
>>> s.finish_game() is None, len(s.sheet.hands), s.is_over()
(True, 1, False)
>>> s.sheet.to_json()["kind"], len(s.sheet.to_json()["scores"])
('mulatschak', 3)
>>> new_match(MulatschakRules(), players=7)
Traceback (most recent call last):
...
stammtisch.errors.RulesError: players=7: Mulatschak has 2 to 6
"""

from __future__ import annotations

from typing import Any

from stammtisch.errors import RulesError
from stammtisch.games.base.table import Sitting
from stammtisch.games.mulatschak.match import START, MulatschakMatch
from stammtisch.games.mulatschak.rules import MulatschakRules
from stammtisch.games.mulatschak.state import MulatschakState

__all__ = ["MulatschakSitting", "ScoreColumn", "new_match"]

#: the note of a hand on the sheet (no play): folded, everybody weiter, everybody home
FOLDED = "Zusammengefallen"
REDEAL = "weiter"
HOME = "daheim"


class ScoreColumn:
    """The score column of a sitting: each seat's running score from 21 down, one row per
    finished hand."""

    #: how many of the last hands the sheet's JSON lists (every state message carries it)
    SHOWN = 100

    def __init__(self, players: int, start: int = START) -> None:
        self.players = players
        self.start = start
        self.hands: list[dict[str, Any]] = []
        self.scores = [start] * players
        self.doubled = 0
        self.winners: list[int] = []

    def add(self, state: MulatschakState, result: dict[str, Any], doubled_next: int) -> None:
        """Book the finished hand ``state`` (its ``result``); ``doubled_next`` is the
        doubling the match carries into the next hand."""
        bidder = result["bidder"]
        played = bool(result["trick_winners"])
        if result["folded"]:
            note = FOLDED
        elif bidder is None:
            note = REDEAL
        elif not played:
            note = HOME
        else:
            note = ""
        playing = ([s for s in range(self.players) if s not in result["home"]]
                   if bidder is not None else [])
        self.scores = [int(v) for v in result["scores"]]
        self.doubled = doubled_next
        self.winners = list(result["match_winner"])
        self.hands.append({
            "number": len(self.hands) + 1,
            "dealer": state.dealer,
            "klopfen": state.klopfen,
            "weli_keeper": state.weli_keeper,
            "folded": bool(result["folded"]),
            "note": note,
            "bidder": bidder,
            "bid": result["bid"],
            "muli": result["bid"] == 5,
            "trump": result["trump"],
            "playing": playing,
            "home": list(result["home"]),
            "tricks": list(result["tricks"]),
            "doubled": state.doubled,
            "multiplier": int(result["multiplier"]),
            "delta": [int(d) for d in result["delta"]],
            "scores": list(self.scores),
        })

    def finished_bobbl(self) -> list[Any]:
        """Mulatschak plays no Bobbl (the table asks for Mucken's)."""
        return []

    def to_json(self) -> dict[str, Any]:
        """``kind`` ``mulatschak``, ``players``, ``start`` (21), ``scores`` (each seat's
        score now), ``doubled`` and ``multiplier`` (2^doubled: the doubling carried into
        the next hand from folded hands), ``winners`` (seats, empty while the match goes
        on), ``count`` (hands booked) and the last :attr:`SHOWN` ``hands``."""
        return {"kind": "mulatschak", "players": self.players, "start": self.start,
                "scores": list(self.scores), "doubled": self.doubled,
                "multiplier": 2 ** self.doubled, "winners": list(self.winners),
                "count": len(self.hands),
                "hands": [dict(h) for h in self.hands[-self.SHOWN:]]}


class MulatschakSitting(Sitting[MulatschakState]):
    """One Mulatschak match at a table (see the module)."""

    match: MulatschakMatch

    def __init__(self, rules: MulatschakRules, first_dealer: int = 0, *,
                 players: int = 4) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesError(f"players={players!r}: must be a whole number 2 to 6")
        if isinstance(first_dealer, bool) or not isinstance(first_dealer, int):
            raise RulesError(f"first_dealer={first_dealer!r}: must be a seat number")
        self.rules = rules
        self.match = MulatschakMatch(rules, players=players, first_dealer=first_dealer)
        self.players = players
        self.sheet = ScoreColumn(players)
        self.state: MulatschakState | None = None

    @property
    def scores(self) -> list[int]:
        return list(self.match.scores)

    @property
    def doubled(self) -> int:
        return self.match.doubled

    @property
    def multiplier(self) -> int:
        """The doubling carried into the next hand (2^doubled)."""
        return int(2 ** self.match.doubled)

    @property
    def winners(self) -> list[int]:
        return list(self.match.winners)

    def is_over(self) -> bool:
        return self.match.is_over()

    def next_hand(self) -> MulatschakState:
        return self.match.start_hand()

    def finish_game(self) -> None:
        """Book the finished hand on the match and the sheet; returns ``None`` (no Bobbl)."""
        state = self.state
        if state is None:
            raise RulesError("no hand is running")
        result = self.match.finish_hand(state)
        self.sheet.add(state, result, self.match.doubled)
        self.sheet.winners = list(self.match.winners)  # also a match that cannot go on
        self.state = None


def new_match(rules: MulatschakRules, first_dealer: int = 0, limit: int | None = None, *,
              players: int = 4) -> MulatschakSitting:
    """The registry's ``new_match`` for Mulatschak: one match of ``players`` (2–6) seats
    to a winner; ``limit`` does not apply (see the module)."""
    del limit
    return MulatschakSitting(rules, first_dealer, players=players)
