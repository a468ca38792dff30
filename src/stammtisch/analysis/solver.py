"""The exact double-dummy solver driver for four-seat trick games with all hands open.

Value of a position: the most Augen (or tricks) the optimising ``side`` — a set of
seats — takes from here on with best play by both sides, the other seats minimising.
One driver serves every trick game of four seats: :class:`Solver` (MTD(f) or bisection
over zero-window probes, the transposition table, move ordering, the search of
:mod:`stammtisch.analysis.search`), and a game says what differs in its
:class:`TrickRules` — its hooks: must-trump (Mucken's Ramsch), a called card (Schafkopf's
Rufsau, in the move generation), the sure-trump bound, the ordering guesses (the first
probe at a greedy play-out's value, the quick look at the leads).  Mucken uses the plain
rules through :func:`solve`, :func:`solve_state` and :func:`card_values` below;
Schafkopf's hooks are :mod:`stammtisch.games.schafkopf.solver`.

>>> from stammtisch.cards import cards
>>> from stammtisch.games.mucken.orders import trick_order
>>> hands = [cards("EO GO"), cards("EA E10"), cards("HO SO"), cards("GA G10")]
>>> r = solve(trick_order("muck", "short"), hands, leader=0, side={0, 2})
>>> r.value, str(r.best_card)
(54, 'EO')

Design (figures in docs/performance.md, ``## Solver``):

- Cards are bit positions of one int (:mod:`stammtisch.analysis.layout`).  Every card
  keeps its owner for the whole deal, so a position is ``remaining`` (the unplayed cards,
  plus flag bits of a game above them) and the leader, and a seat's hand is
  ``remaining & seat_mask[seat]``.
- Alpha-beta (fail-soft) on the Augen still to come, driven by zero-window probes that
  share one transposition table: bisecting between the known bounds, or (with
  ``greedy_guess``) MTD(f) from the value of a quick greedy play-out.  The table is kept
  at trick boundaries only: one dict per leader, keyed by ``remaining``; an entry holds a
  lower and an upper bound of the future value and the leader's best card.  The position
  after a trick is looked up in the table before any call.
- One search call plays a whole trick as four nested loops (no call per card); a copy of
  it for the last two tricks evaluates the last trick directly.
- Equivalent cards: two cards of one hand, adjacent in the order of their class with no
  unplayed card (nor a card on the table) between them, win and lose the same tricks now
  and later.  They are merged only when their Augen are equal as well (the four trump
  Ober of a Muck, the 9-8-7 of the long deck, the Unter of a Wenz): adjacent cards with
  different Augen are both searched, because which trick receives which of the two values
  can matter.  In the ``tricks`` mode every card counts the same, so any adjacent run is
  merged.
- Move ordering: when leading, the table's card, else the card that last proved a bound
  at this depth for this leader, then the richest cards; with five or more tricks left
  (four, without a card from the table, where the rules say so) the leads are sorted by a
  quick look at their trick (each follower plays its first card).  A follower first takes
  a trick the other side holds (the fourth hand with its richest winner, the others with
  their cheapest), gives Augen to a trick its own side holds safely, and otherwise throws
  its cheapest card.  Move lists are cached per trick order, across deals.
- Cheap bounds: the future value lies in ``[0, Augen still out]``; a window outside that
  range is answered at once.
- Small ints: keys and masks stay below 2**30 for the short deck (one CPython digit),
  card bits come from a table, and the caches are indexed by small ints; this alone was
  worth about 20 %.

Pure Python and deterministic (no randomness; dictionaries keyed by ints).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from stammtisch.analysis.layout import MODES, Layout, layout
from stammtisch.analysis.search import (
    INF,
    LED_BIT,
    NO_CARD,
    NO_LIMIT,
    NodeLimitExceeded,
    build_search,
)
from stammtisch.cards import Card
from stammtisch.engine.tricks import TrickOrder, TrickPlay

__all__ = [
    "LED_BIT",
    "NodeLimitExceeded",
    "PairTrickState",
    "SolveResult",
    "Solver",
    "TrickRules",
    "card_values",
    "solve",
    "solve_state",
]


@dataclass(frozen=True, slots=True)
class TrickRules:
    """A game's hooks on the driver: what its rules and its search add to plain trick play
    (follow the led class, else any card; the highest trump, else the highest card of the
    led class takes the trick; Augen or tricks count for the side).

    The move generation, the flag bits of a position and the greedy guess are the
    driver's (:meth:`Solver.legal_cards`, the inlined search), switched on here, so the
    fast search and the readable one cannot part.
    """

    #: a player who cannot follow must trump if able (Mucken's Ramsch with Stichzwang)
    must_trump: bool = False
    #: the called card (Schafkopf's Rufsau): its holder must play it when its class is led,
    #: may not discard it, and leads its class only with it until the class has been led
    called: Card | None = None
    #: the holder of the called card may lead another card of its class with four or more
    davonlaufen: bool = True
    #: bound a position without a table entry by the top run of the trumps left
    sure_trumps: bool = False
    #: the quick look at the leads also with four tricks left (without a table card)
    probe_fresh_four: bool = True
    #: MTD(f) from a greedy play-out's value (else zero-window bisection)
    greedy_guess: bool = False


#: plain trick play (Mucken's Muck, Wenz, Geier, Farbsolo)
PLAIN = TrickRules()


class _PairRules(Protocol):
    @property
    def ramsch_stichzwang(self) -> bool: ...


class PairTrickState(Protocol):
    """What :func:`solve_state` and :func:`card_values` read of a four-seat pair trick
    game in play (Mucken's ``MuckenState``); the solver imports no concrete game."""

    @property
    def phase(self) -> str: ...
    @property
    def current_player(self) -> int: ...
    @property
    def contract(self) -> str | None: ...
    @property
    def rules(self) -> _PairRules: ...
    @property
    def hands(self) -> Sequence[Sequence[Card]]: ...
    @property
    def tricks(self) -> TrickPlay: ...
    @property
    def order(self) -> TrickOrder: ...
    def pair_augen(self) -> list[int]: ...
    def pair_tricks(self) -> list[int]: ...


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The exact value (``taken`` included), the search effort and a best card.

    ``nodes`` counts the cards tried by the search.  ``best_card`` is a card for
    the player to move that reaches ``value`` (``None`` if no card is left).
    """

    value: int
    nodes: int
    best_card: Card | None = None
    mode: str = "augen"

    @property
    def value_augen(self) -> int:
        return self.value


class Solver:
    """The solver for one deal: owners of the cards and a transposition table.

    ``hands[seat]`` are the cards the seats hold now, ``trick`` the cards on the
    table (played in turn from ``leader``).  Every card keeps its owner, so one
    solver answers any later position of the same deal and keeps what it learnt:
    :meth:`value`, :meth:`card_values`, :meth:`probe_cards`.  Four seats.  ``rules``
    are the game's hooks (``must_trump=True`` is short for
    ``TrickRules(must_trump=True)``); ``gesucht`` of a position: the called card's class
    has been led in a finished trick (games with a called card).
    """

    def __init__(
        self,
        order: TrickOrder,
        hands: Sequence[Sequence[Card]],
        side: Collection[int],
        *,
        leader: int = 0,
        trick: Sequence[Card] = (),
        mode: str = "augen",
        must_trump: bool = False,
        rules: TrickRules | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be 'augen' or 'tricks', not {mode!r}")
        if len(hands) != 4:
            raise ValueError(f"the solver plays four seats, got {len(hands)} hands")
        if not 0 <= leader < 4 or len(trick) >= 4:
            raise ValueError("leader must be a seat 0..3 and the trick hold at most 3 cards")
        if rules is None:
            rules = TrickRules(must_trump=True) if must_trump else PLAIN
        elif must_trump and not rules.must_trump:
            rules = replace(rules, must_trump=True)
        self.order = order
        self.mode = mode
        self.rules = rules
        self.must_trump = rules.must_trump
        self.side = frozenset(side)
        lay = self.lay = layout(order, mode)
        self.cards = lay.cards
        self.index = lay.index
        n = len(lay.cards)
        self.all_cards = (1 << n) - 1
        self.owner: list[int] = [-1] * n
        seen: set[Card] = set()
        placed = [(seat, c) for seat, hand in enumerate(hands) for c in hand]
        placed += [((leader + i) % 4, c) for i, c in enumerate(trick)]
        for seat, c in placed:
            i = lay.index.get(c)
            if i is None:
                raise ValueError(f"{c} is not a card of the order {order.name!r}")
            if c in seen:
                raise ValueError(f"{c} is held twice")
            seen.add(c)
            self.owner[i] = seat
        self.seat_mask: list[int] = [
            sum(1 << i for i in range(n) if self.owner[i] == s) for s in range(4)
        ]
        self.in_side: list[bool] = [s in self.side for s in range(4)]
        self._called = self._called_of(rules)
        #: transposition table per leader: remaining -> (lower, upper, best lead)
        self.tt: list[dict[int, tuple[int, int, int]]] = [{}, {}, {}, {}]
        self.nodes = 0
        self._node_limit = NO_LIMIT
        self._search, self._set_limit = build_search(self)

    @property
    def node_limit(self) -> int:
        """The search gives up (:class:`NodeLimitExceeded`) past this many nodes."""
        return self._node_limit

    @node_limit.setter
    def node_limit(self, limit: int) -> None:
        self._node_limit = limit
        self._set_limit(limit)

    # -- public --------------------------------------------------------------
    def mask_of(self, cards_: Collection[Card]) -> int:
        idx = self.index
        m = 0
        for c in cards_:
            m |= 1 << idx[c]
        return m

    def called_bits(self) -> tuple[int, int, int, bool]:
        """(bit of the called card, bits of its class, its holder, davonlaufen); without a
        called card a bit never in a position and holder -1."""
        return self._called

    def value(self, hands: Sequence[Sequence[Card]], leader: int, trick: Sequence[Card] = (),
              *, gesucht: bool = False) -> SolveResult:
        """Exact future value of a position of this deal (``taken`` not included)."""
        remaining, table = self._position(hands, leader, trick, gesucht)
        start = self.nodes
        v, best = self._solve(remaining, leader, table)
        return SolveResult(v, self.nodes - start, self.cards[best] if best >= 0 else None,
                           self.mode)

    def card_values(self, hands: Sequence[Sequence[Card]], leader: int,
                    trick: Sequence[Card] = (), *, gesucht: bool = False) -> dict[Card, int]:
        """Future value (for ``side``) after each legal card of the player to move."""
        remaining, table = self._position(hands, leader, trick, gesucht)
        seat = (leader + len(table)) % 4
        out: dict[Card, int] = {}
        for i in self._legal(remaining, seat, table):
            v, _ = self._solve(remaining ^ (1 << i), leader, [*table, i])
            out[self.cards[i]] = v
        return out

    def legal_cards(self, hands: Sequence[Sequence[Card]], leader: int,
                    trick: Sequence[Card] = (), *, gesucht: bool = False) -> list[Card]:
        """The solver's legal cards for the mover (tests compare them with the engine)."""
        remaining, table = self._position(hands, leader, trick, gesucht)
        seat = (leader + len(trick)) % 4
        return [self.cards[i] for i in self._legal(remaining, seat, table)]

    def probe_cards(self, hands: Sequence[Sequence[Card]], leader: int,
                    trick: Sequence[Card], levels: Sequence[int], *, gesucht: bool = False
                    ) -> dict[Card, int]:
        """For each legal card of the mover: how many of ``levels`` (ascending thresholds
        of the side's future value) it still reaches with best play — zero-window probes
        bisecting the levels, much cheaper than the exact value."""
        remaining, table = self._position(hands, leader, trick, gesucht)
        seat = (leader + len(table)) % 4
        out: dict[Card, int] = {}
        for i in self._legal(remaining, seat, table):
            r = remaining ^ (1 << i)
            t = [*table, i]
            lo, hi = 0, len(levels)
            while lo < hi:
                mid = (lo + hi) // 2
                level = levels[mid]
                if level <= 0:
                    reached = True
                else:
                    g, _ = self._root(r, leader, t, level - 1, level)
                    reached = g >= level
                if reached:
                    lo = mid + 1
                else:
                    hi = mid
            out[self.cards[i]] = lo
        return out

    def position(self, hands: Sequence[Sequence[Card]], leader: int,
                 trick: Sequence[Card] = (), *, gesucht: bool = False
                 ) -> tuple[int, list[int]]:
        """(``remaining``, the table's card indices) of a position, for :meth:`bound`."""
        return self._position(hands, leader, trick, gesucht)

    def bound(self, remaining: int, leader: int, table: list[int], level: int) -> int:
        """One zero-window probe at ``level``: a fail-soft bound of the future value —
        at least ``level`` means the side reaches it (and the value is at least the
        bound), less means it does not (and the value is at most the bound)."""
        return self._root(remaining, leader, table, level - 1, level)[0]

    # -- internals -------------------------------------------------------------
    def _called_of(self, rules: TrickRules) -> tuple[int, int, int, bool]:
        c = rules.called
        if c is None:
            return NO_CARD, 0, -1, False
        i = self.index[c]
        return 1 << i, self.lay.cmask[i], self.owner[i], rules.davonlaufen

    def _position(self, hands: Sequence[Sequence[Card]], leader: int, trick: Sequence[Card],
                  gesucht: bool = False) -> tuple[int, list[int]]:
        if len(hands) != 4 or not 0 <= leader < 4 or len(trick) >= 4:
            raise ValueError("need four hands, a leader 0..3 and at most 3 cards on the table")
        size = len(hands[(leader + len(trick)) % 4])
        remaining = 0
        for j in range(4):
            seat = (leader + j) % 4
            if len(hands[seat]) != (size - 1 if j < len(trick) else size):
                raise ValueError("the hands do not fit the cards on the table")
            m = self.mask_of(hands[seat])
            if m & ~self.seat_mask[seat]:
                raise ValueError(f"seat {seat} holds cards this solver gave to another seat")
            remaining |= m
        if self.mask_of(trick) & remaining:
            raise ValueError("a card on the table is still held")
        if gesucht and remaining & self._called[0]:
            remaining |= LED_BIT
        return remaining, [self.index[c] for c in trick]

    def _legal(self, remaining: int, seat: int, table: list[int]) -> list[int]:
        """The legal cards (indices) of ``seat``: the move generation of the search."""
        lay = self.lay
        hand = remaining & self.seat_mask[seat]
        if table:
            f = hand & lay.cmask[table[0]]
            if f:
                hand = f
            elif self.rules.must_trump and hand & lay.trump_mask:
                hand &= lay.trump_mask
        out = lay.bits(hand)
        abit, smask, holder, dav = self._called
        if seat != holder or remaining & (abit | LED_BIT) != abit:
            return out
        ai = abit.bit_length() - 1
        if not table:
            if dav and (remaining & self.seat_mask[seat] & smask).bit_count() >= 4:
                return out
            return [i for i in out if i == ai or not (1 << i) & smask]
        if lay.cmask[table[0]] == smask:
            return [ai]
        if len(out) > 1:
            return [i for i in out if i != ai]
        return out

    def _after_trick(self, remaining: int, first: int) -> int:
        """The flag bits after a trick led by ``first`` (the called card's class led)."""
        abit, smask, _, _ = self._called
        if remaining & abit:
            if self.lay.cmask[first] == smask:
                remaining |= LED_BIT
        else:
            remaining &= ~LED_BIT
        return remaining

    def _trick_value(self, table: list[int]) -> tuple[int, int]:
        """(winner, value for ``side``) of a complete trick."""
        lay = self.lay
        best = table[0]
        for i in table[1:]:
            if (1 << i) & lay.beat[best]:
                best = i
        w = self.owner[best]
        gain = sum(lay.aug[i] for i in table) + lay.bonus
        return w, (gain if self.in_side[w] else 0)

    def _upper(self, cards_: int) -> int:
        """Augen (plus one per trick in the tricks mode) of the cards ``cards_``."""
        cards_ &= self.all_cards
        lay: Layout = self.lay
        return sum(lay.aug[i] for i in lay.bits(cards_)) + lay.bonus * (cards_.bit_count() // 4)

    def _guess(self, remaining: int, leader: int, table: list[int]) -> int:
        """The side's future value in a quick play-out: the leader plays its strongest
        card, a follower schmiert its richest card onto its side's trick, else takes the
        trick with its weakest winner, else throws its cheapest card."""
        lay = self.lay
        rem = remaining
        tab = list(table)
        value = 0
        while rem & self.all_cards or len(tab) == 4:
            if len(tab) == 4:
                w, gain = self._trick_value(tab)
                value += gain
                rem = self._after_trick(rem, tab[0])
                leader = w
                tab = []
                continue
            seat = (leader + len(tab)) % 4
            legal = self._legal(rem, seat, tab)
            if not tab:
                c = max(legal)
            else:
                best = tab[0]
                for i in tab[1:]:
                    if (1 << i) & lay.beat[best]:
                        best = i
                wins = [i for i in legal if (1 << i) & lay.beat[best]]
                if self.in_side[seat] == self.in_side[self.owner[best]]:
                    c = max(legal, key=lambda i: (lay.aug[i], -i))
                elif wins:
                    c = min(wins)
                else:
                    c = min(legal, key=lambda i: (lay.aug[i], i))
            rem ^= 1 << c
            tab.append(c)
        return value

    def _solve(self, remaining: int, leader: int, table: list[int]) -> tuple[int, int]:
        """(exact future value, a best card of the player to move or -1).

        Zero-window probes until the bounds meet (fail-soft answers narrow faster than
        the step).  Plain rules bisect between the bounds.  With ``greedy_guess``:
        MTD(f) — the first probe at the value of a quick greedy play-out
        (:meth:`_guess`), each next one at the bound the last returned; after two or
        more probes in a row that failed high the next one jumps 2, 4, 8, ... above the
        bound (Schafkopf's long deck: 20 % fewer nodes in the median than bisection).
        The best card comes with the probes: for a maximising mover the card of the last
        probe that failed high reaches the final lower bound, i.e. the value (likewise
        the last fail-low card of a minimising mover).  Without such a probe every card
        has the value (0 for a maximiser, everything for a minimiser).
        """
        if not remaining & self.all_cards and len(table) < 4:
            return 0, -1
        total = self._upper(remaining | self.mask_of([self.cards[i] for i in table]))
        maxing = self.in_side[(leader + len(table)) % 4]
        mtdf = self.rules.greedy_guess
        lo, hi = 0, total
        best = -1
        beta = min(max(self._guess(remaining, leader, table), lo + 1), hi) if mtdf else 0
        step = 0  # consecutive probes that failed high: the next one jumps 1, 2, 4, ... up
        while lo < hi:
            if not mtdf:
                beta = (lo + hi + 1) // 2
            g, mv = self._root(remaining, leader, table, beta - 1, beta)
            if g < beta:
                hi = g
                if not maxing:
                    best = mv
                step = 0
                beta = hi
            else:
                lo = g
                if maxing:
                    best = mv
                step = step * 2 if step else 1
                beta = lo + step
            beta = min(max(beta, lo + 1), hi)
        if best < 0 and remaining & self.all_cards and len(table) < 4:
            best = self._legal(remaining, (leader + len(table)) % 4, table)[-1]
        return lo, best

    def _root(
        self, remaining: int, leader: int, table: list[int], alpha: int, beta: int
    ) -> tuple[int, int]:
        """Search from any position; returns (value, best card) with fail-soft bounds."""
        cards_left = remaining & self.all_cards
        if len(table) == 4:
            w, gain = self._trick_value(table)
            if not cards_left:
                return gain, -1
            remaining = self._after_trick(remaining, table[0])
            sub = self._search(remaining, w, cards_left.bit_count() // 4,
                               self._upper(remaining), alpha - gain, beta - gain)
            return gain + sub, -1
        if not cards_left:
            return 0, -1
        if not table:
            v = self._search(remaining, leader, cards_left.bit_count() // 4,
                             self._upper(remaining), alpha, beta)
            e = self.tt[leader].get(remaining)
            return v, (e[2] if e is not None else -1)
        seat = (leader + len(table)) % 4
        maxing = self.in_side[seat]
        best_v = -INF if maxing else INF
        best_c = -1
        for i in self._legal(remaining, seat, table):
            self.nodes += 1
            v, _ = self._root(remaining ^ (1 << i), leader, [*table, i], alpha, beta)
            if maxing:
                if v > best_v:
                    best_v, best_c = v, i
                    if v > alpha:
                        alpha = v
            elif v < best_v:
                best_v, best_c = v, i
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        return best_v, best_c


def solve(
    order: TrickOrder,
    hands: Sequence[Sequence[Card]],
    leader: int,
    side: Collection[int],
    trick: Sequence[Card] = (),
    taken: int = 0,
    *,
    mode: str = "augen",
    must_trump: bool = False,
) -> SolveResult:
    """Exact value for ``side`` (a set of seats) of the position, ``taken`` included.

    ``hands[seat]`` are the cards held now; ``trick`` the cards on the table, led
    by ``leader``; ``mode`` is ``"augen"`` (card points) or ``"tricks"``.
    ``must_trump``: a player who cannot follow must trump if able (Ramsch).
    """
    solver = Solver(order, hands, side, leader=leader, trick=trick, mode=mode,
                    must_trump=must_trump)
    r = solver.value(hands, leader, trick)
    return SolveResult(r.value + taken, r.nodes, r.best_card, mode)


def _state_args(state: PairTrickState) -> tuple[list[list[Card]], int, list[Card], bool]:
    if state.phase != "play":
        raise ValueError(f"the game is not in the play phase (phase {state.phase!r})")
    t = state.tricks
    must = state.contract == "ramsch" and state.rules.ramsch_stichzwang
    return [list(h) for h in state.hands], t.leader, list(t.current), must


def _pair_side(pair: int) -> frozenset[int]:
    if pair not in (0, 1):
        raise ValueError(f"pair must be 0 or 1, not {pair!r}")
    return frozenset({pair, pair + 2})


def _taken(state: PairTrickState, pair: int, mode: str) -> int:
    if mode == "augen":
        return state.pair_augen()[pair]
    return state.pair_tricks()[pair]


def solve_state(state: PairTrickState, side_pair: int, *, mode: str = "augen") -> SolveResult:
    """Exact final Augen (or tricks) of pair ``side_pair`` (0: seats 0+2, 1: seats 1+3)
    of a Mucken game in play, with best play by all from here; taken Augen included."""
    hands, leader, trick, must = _state_args(state)
    return solve(state.order, hands, leader, _pair_side(side_pair), trick,
                 _taken(state, side_pair, mode), mode=mode, must_trump=must)


def card_values(
    state: PairTrickState, side_pair: int | None = None, *, mode: str = "augen"
) -> dict[Card, int]:
    """The exact final Augen (taken included) of a pair after each legal card of the
    player to move, with best play afterwards.  ``side_pair`` defaults to the
    mover's pair, so the best card's value is :func:`solve_state`'s value."""
    hands, leader, trick, must = _state_args(state)
    pair = state.current_player % 2 if side_pair is None else side_pair
    solver = Solver(state.order, hands, _pair_side(pair), leader=leader, trick=trick,
                    mode=mode, must_trump=must)
    base = _taken(state, pair, mode)
    return {c: base + v for c, v in solver.card_values(hands, leader, trick).items()}
