"""A match of Mus: hands until a pair reaches ``target`` points (a set), sets until a
pair has won ``sets`` of them.  The deal passes counterclockwise: the next dealer is the
last hand's Mano (dealer − 1).

>>> import random
>>> from stammtisch.games.mus.rules import MusRules
>>> m = MusMatch(MusRules.preset("duples", target=5, sets=2), first_dealer=0)
>>> rng = random.Random(1)
>>> while not m.is_over():
...     state = m.start_game(rng)
...     _ = play_random(state, rng)
...     _ = m.finish_game()
>>> max(m.sets_won) == 2 and m.winner() in (0, 1)
True
"""

from __future__ import annotations

from typing import Any

from stammtisch.engine.core import Rng, play_random, resolve_chance
from stammtisch.errors import StammtischError
from stammtisch.games.mus.rules import MusRules
from stammtisch.games.mus.senas import SenasConfig
from stammtisch.games.mus.state import MusState

__all__ = ["MusMatch", "play_random"]


class MusMatch:
    """The running score of a Mus match: points in the set, sets won, the hands played
    (each: ``number``, ``set``, ``dealer``, ``mano``, ``score_before``, the result's keys,
    ``points`` won in the hand by pair, ``report`` (:meth:`MusState.showdown_report`) and
    ``senas``); ``senas``: the table's señas, given to every hand."""

    def __init__(self, rules: MusRules, first_dealer: int = 0,
                 senas: SenasConfig | None = None) -> None:
        self.rules = rules
        self.dealer = first_dealer
        self.senas = senas
        self.score: list[int] = [0, 0]
        self.sets_won: list[int] = [0, 0]
        self.hands: list[dict[str, Any]] = []
        #: each finished set: {"set", "winner", "score", "by" (``points`` or ``ordago``),
        #: "hands"}
        self.sets: list[dict[str, Any]] = []
        self.current: MusState | None = None

    @property
    def set_number(self) -> int:
        """The running set (1, 2, …)."""
        return len(self.sets) + 1

    def start_game(self, rng: Rng | None = None) -> MusState:
        """A new hand at the running score (shuffled at once with ``rng``)."""
        if self.is_over():
            raise StammtischError("the match is over")
        if self.current is not None:
            raise StammtischError("a hand is still being played")
        state = MusState(self.rules, self.dealer, (self.score[0], self.score[1]), self.senas)
        if rng is not None:
            resolve_chance(state, rng)
        self.current = state
        return state

    def finish_game(self) -> dict[str, Any]:
        """Book the finished hand; a set won resets the points."""
        state = self.current
        if state is None or not state.is_terminal():
            raise StammtischError("no finished hand to book")
        result = state.result()
        assert result is not None
        before = list(state.start_score)
        self.hands.append({
            "number": len(self.hands) + 1, "set": self.set_number, "dealer": self.dealer,
            "mano": state.mano, "score_before": before, **result,
            "points": [result["score"][p] - before[p] for p in (0, 1)],
            "stopped": state.stopped, "report": state.showdown_report(),
            "senas": [e.to_json() for e in state.senas],
        })
        self.score = list(result["score"])
        if result["set_winner"] is not None:
            self.sets_won[result["set_winner"]] += 1
            first = sum(s["hands"] for s in self.sets)
            self.sets.append({"set": self.set_number, "winner": result["set_winner"],
                              "score": list(result["score"]),
                              "by": "ordago" if "ordago" in result["status"].values()
                              else "points",
                              "hands": len(self.hands) - first})
            self.score = [0, 0]
        self.dealer = (self.dealer - 1) % 4
        self.current = None
        return dict(result)

    def is_over(self) -> bool:
        return max(self.sets_won) >= self.rules.sets

    def winner(self) -> int | None:
        """The pair that won the match (``None`` while it runs)."""
        if not self.is_over():
            return None
        return 0 if self.sets_won[0] >= self.rules.sets else 1

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules.to_json(), "dealer": self.dealer, "score": self.score,
                "sets_won": self.sets_won, "hands": len(self.hands),
                "winner": self.winner()}
