"""A Mulatschak match: every seat starts at 21 and goes down; the first at 0 or less wins.

Readings (docs/rules/mulatschak.md): the dealer moves one seat clockwise after every
hand that was bid for (played or everybody home); a folded hand (Zusammengefallen) and an
all-``weiter`` redeal are dealt again by the same dealer.  A folded hand adds one
doubling to the next hand (``doubled``); the doubling is kept through an all-``weiter``
redeal (no points were scored, so nothing has counted double yet) and reset after a
hand that scores (played or everybody home).
Several seats at 0 or less at once: the lowest score wins, a tie is shared.  When every
seat is at 5 or less (nobody may bid any more, every hand would be redealt for ever),
the match ends and the lowest score wins (:func:`stuck_winners`).

>>> import random
>>> from stammtisch.games.mulatschak.rules import MulatschakRules
>>> match = MulatschakMatch(MulatschakRules(), players=3)
>>> match.scores, match.dealer, match.doubled
([21, 21, 21], 0, 0)
>>> rng = random.Random(1)
>>> while not match.is_over():
...     state = match.start_hand(rng)
...     from stammtisch.engine.core import play_random
...     _ = play_random(state, rng)
...     _ = match.finish_hand(state)
>>> bool(match.winners) and all(match.scores[w] <= 0 for w in match.winners)
True
"""

from __future__ import annotations

from typing import Any

from stammtisch.engine.core import Rng
from stammtisch.errors import RulesError
from stammtisch.games.mulatschak.rules import MulatschakRules
from stammtisch.games.mulatschak.state import MulatschakState, match_winner, new_state

START: int = 21


class MulatschakMatch:
    """The running score sheet of one table (2–6 seats)."""

    def __init__(self, rules: MulatschakRules, players: int = 4, first_dealer: int = 0,
                 start: int = START) -> None:
        if not 2 <= players <= 6:
            raise RulesError(f"players={players}: Mulatschak has 2 to 6")
        self.rules = rules
        self.players = players
        self.dealer = first_dealer % players
        self.scores = [start] * players
        self.doubled = 0
        self.hands: list[dict[str, Any]] = []
        self.winners: list[int] = []

    def is_over(self) -> bool:
        return bool(self.winners)

    def start_hand(self, rng: Rng | None = None) -> MulatschakState:
        """The next hand (shuffled with ``rng``, else waiting for its shuffle)."""
        if self.is_over():
            raise RulesError("the match is over")
        return new_state(self.rules, self.dealer, rng, list(self.scores), self.doubled)

    def finish_hand(self, state: MulatschakState) -> dict[str, Any]:
        """Book a finished hand: scores, the carried doubling, the next dealer, winners."""
        result = state.result()
        if result is None:
            raise RulesError("the hand is not finished")
        if state.start_scores != self.scores or state.doubled != self.doubled:
            raise RulesError("the hand does not continue this match")
        self.hands.append(dict(result))
        self.scores = list(result["scores"])
        if result["folded"]:
            self.doubled += 1
        elif result["bidder"] is not None:
            self.doubled = 0
            self.dealer = (self.dealer + 1) % self.players
        self.winners = match_winner(self.scores) or stuck_winners(self.scores)
        return dict(result)


#: a seat at this score or less may only say ``weiter`` (the contract's bidding rule)
NO_BID_AT: int = 5


def stuck_winners(scores: list[int]) -> list[int]:
    """The winners of a match that cannot go on (reading, docs/rules/mulatschak.md): when
    every seat is at 5 or less and none at 0, nobody may bid, every hand is redealt and
    the match would never end; it ends there and the lowest score wins (ties shared).
    ``[]`` while some seat may still bid.

    >>> stuck_winners([4, 2, 5, 2]), stuck_winners([4, 2, 6, 2])
    ([1, 3], [])
    """
    if not scores or any(v > NO_BID_AT for v in scores) or any(v <= 0 for v in scores):
        return []
    low = min(scores)
    return [s for s, v in enumerate(scores) if v == low]


__all__ = ["NO_BID_AT", "START", "MulatschakMatch", "stuck_winners"]
