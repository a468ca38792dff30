"""A double-dummy trick counter for Mulatschak's card play (all hands open).

The playing seats hold at most five cards each, so the rest of a hand is small enough to
be searched exactly: :class:`TrickSolver` finds how many of the remaining tricks a *side*
(a set of seats) takes when the side maximises and every other seat minimises that count
(the paranoid reading: the others play together against the side).  Everything a
Mulatschak seat cares about is monotone in such a count: the bidder's own tricks
(made or not), a defender's own tricks (none: +5), or in a Muli the tricks of all
non-bidders (broken or not), so the minimax of the score equals the score of the minimax
count.

Cards are the indices of :data:`~stammtisch.games.mulatschak.state.DECK` (0..32) and
hands bit masks.  The rules mirror the engine's ``_playable`` and trick winner exactly:
follow the led suit (the Weli is a trump), else trump, else anything; with
``stichzwang`` among those the cards that beat the trick so far if there are any.
Alpha-beta inside a trick, exact values memoised at trick boundaries, and cards of one
seat that are adjacent in strength (no live card between them) searched once.

>>> from stammtisch.cards import Card
>>> idx = {str(c): i for i, c in enumerate(DECK)}
>>> m = lambda *cs: sum(1 << idx[c] for c in cs)
>>> s = TrickSolver("H", True)
>>> s.solve([0, 1], {0: m("HA", "EA"), 1: m("H7", "E7")}, 0, [], 1 << 0)
2
"""

from __future__ import annotations

from collections.abc import Sequence

from stammtisch.analysis.layout import bits
from stammtisch.cards import Rank
from stammtisch.games.mulatschak.state import DECK, SUITS

__all__ = ["NodeLimit", "TrickSolver", "card_masks"]

_ORDER = (Rank.ASS, Rank.KOENIG, Rank.OBER, Rank.UNTER, Rank.ZEHN, Rank.NEUN, Rank.ACHT,
          Rank.SIEBEN)


class NodeLimit(Exception):
    """The search went past its node budget."""


def card_masks(trump: str) -> tuple[list[int], list[int], list[int]]:
    """Per card: its suit class (0..3, the Weli: the trump's), its power in its own class
    (trumps 100 + rank, the Weli between A and K; side suits 1..8), and the class masks."""
    cls: list[int] = []
    power: list[int] = []
    t = SUITS.index(trump)
    for c in DECK:
        if c.is_weli:
            cls.append(t)
            power.append(100 + 9 - 1)
            continue
        k = SUITS.index(c.suit.letter)
        cls.append(k)
        rank = 8 - _ORDER.index(c.rank)  # A 8 .. 7 1
        power.append(100 + (10 if c.rank == Rank.ASS else rank) if k == t else rank)
    masks = [0, 0, 0, 0]
    for i, k in enumerate(cls):
        masks[k] |= 1 << i
    return cls, power, masks



class TrickSolver:
    """Exact side trick counts for one trump and house rule (reusable across worlds)."""

    def __init__(self, trump: str, stichzwang: bool = True, node_limit: int = 0) -> None:
        self.trump = trump
        self.stichzwang = stichzwang
        self.cls, self.power, self.masks = card_masks(trump)
        self.t = SUITS.index(trump)
        self.node_limit = node_limit
        self.nodes = 0
        self._memo: dict[tuple[int, ...], int] = {}

    def strength(self, c: int, led: int) -> int:
        k = self.cls[c]
        if k == self.t:
            return self.power[c] + 100
        return self.power[c] if k == led else 0

    def legal(self, hand: int, trick: Sequence[int]) -> list[int]:
        """The cards of ``hand`` (a mask) that may be played to ``trick`` (card indices)."""
        if not trick:
            return bits(hand)
        led = self.cls[trick[0]]
        allowed = hand & self.masks[led]
        if not allowed:
            allowed = hand & self.masks[self.t] or hand
        cards = bits(allowed)
        if self.stichzwang:
            best = max(self.strength(c, led) for c in trick)
            beat = [c for c in cards if self.strength(c, led) > best]
            if beat:
                return beat
        return cards

    def winner_index(self, trick: Sequence[int]) -> int:
        led = self.cls[trick[0]]
        best, at = -1, 0
        for i, c in enumerate(trick):
            s = self.strength(c, led)
            if s > best:
                best, at = s, i
        return at

    def solve(self, seats: Sequence[int], hands: dict[int, int], leader: int,
              trick: Sequence[int], side: int) -> int:
        """Tricks the seats in the mask ``side`` take from here (the current ``trick``,
        led by ``leader``, included).  ``seats``: the playing seats clockwise."""
        self.nodes = 0
        self._memo.clear()
        self._seats = list(seats)
        self._side = side
        return self._trick(dict(hands), leader, list(trick), -1, 99)

    def solve_cards(self, seats: Sequence[int], hands: dict[int, int], leader: int,
                    trick: Sequence[int], side: int, seat: int,
                    cards: Sequence[int]) -> dict[int, int]:
        """For each of ``cards`` (``seat`` to play it to ``trick``): the tricks the ``side``
        takes from here after it (one memo shared by all cards)."""
        self.nodes = 0
        self._memo.clear()
        self._seats = list(seats)
        self._side = side
        out: dict[int, int] = {}
        order = self._order(leader)
        for c in cards:
            rest = dict(hands)
            rest[seat] = hands[seat] & ~(1 << c)
            out[c] = self._play(rest, leader, order, [*trick, c], -1, 99)
        return out

    def _order(self, leader: int) -> list[int]:
        i = self._seats.index(leader)
        return self._seats[i:] + self._seats[:i]

    def _trick(self, hands: dict[int, int], leader: int, trick: list[int],
               alpha: int, beta: int) -> int:
        if not trick:
            if not any(hands.values()):
                return 0
            key = (leader, *(hands[s] for s in self._seats))
            v = self._memo.get(key)
            if v is None:
                v = self._play(hands, leader, self._order(leader), [], -1, 99)
                self._memo[key] = v
            return v
        return self._play(hands, leader, self._order(leader), trick, alpha, beta)

    def _play(self, hands: dict[int, int], leader: int, order: list[int], trick: list[int],
              alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.node_limit and self.nodes > self.node_limit:
            raise NodeLimit
        if len(trick) == len(order):
            w = order[self.winner_index(trick)]
            gain = 1 if (self._side >> w) & 1 else 0
            return gain + self._trick(hands, w, [], alpha - gain, beta - gain)
        seat = order[len(trick)]
        hand = hands[seat]
        cards = self.legal(hand, trick)
        maximise = bool((self._side >> seat) & 1)
        live = trick_mask = 0
        for c in trick:
            trick_mask |= 1 << c
        for s in self._seats:
            live |= hands[s]
        live |= trick_mask
        # strongest first; skip a card adjacent in strength to one already tried
        cards.sort(key=lambda c: (self.cls[c], self.power[c]), reverse=True)
        best = -1 if maximise else 99
        prev = -1
        for c in cards:
            if prev >= 0 and self._adjacent(prev, c, live):
                prev = c
                continue
            prev = c
            hands[seat] = hand & ~(1 << c)
            trick.append(c)
            v = self._play(hands, leader, order, trick, alpha, beta)
            trick.pop()
            hands[seat] = hand
            if maximise:
                if v > best:
                    best = v
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best

    def _adjacent(self, hi: int, lo: int, live: int) -> bool:
        """Whether no live card lies between ``hi`` and ``lo`` of the same class."""
        k = self.cls[hi]
        if self.cls[lo] != k:
            return False
        a, b = self.power[lo], self.power[hi]
        return all(not a < self.power[c] < b for c in bits(live & self.masks[k]))
