"""Post-game analysis: the double-dummy value of every position of a finished game.

:func:`analyze` replays a game (a record, or a :class:`MuckenState`) and, for every card
played, solves the position before and after it with all hands open
(:mod:`stammtisch.analysis.solver`): the most Augen the *reference pair* takes with best
play by both pairs from there on (taken Augen included).  The reference pair is the
declarer pair of an announced game, pair 0 (seats 0 and 2) in a Pflichtmuck or a Ramsch.
A card that lowers its own pair's value lost Augen (``loss``); the better cards are
those that keep the value (``best``); ``cost_game`` marks a card after which the
game's result flips (with best play from there on).

>>> from stammtisch.cards import cards
>>> from stammtisch.games.mucken.state import game_from_hands
>>> g = game_from_hands([cards(h) for h in ("EO GO HO SO EU HK", "HA H10 GU H9 HU SU",
...                      "EA E10 EK E9 GA G10", "GK G9 SA S10 SK S9")], dealer=3)
>>> for a in "muck weiter weiter weiter gut gut EO H9 E9".split():
...     _ = g.push(a)
>>> p = analyze(g)[2]  # seat 2 throws the Neuner onto its partner's sure trick
>>> p.card, p.value_before, p.value_after, p.loss, p.best
('E9', 94, 90, 4, ('EA', 'E10', 'EK', 'GA', 'G10'))

A Ramsch is a misère: each pair wants *few* Augen, so the pair that counts and the pair
that maximises are not the same seats.  The solver of :mod:`~stammtisch.analysis.solver`
couples the two (the side that counts maximises), so this module has a small solver of
its own for such games, :class:`SplitSolver` (alpha-beta with a transposition table at
trick boundaries; slower than the main solver, fine for the rare Ramsch).

The outcome helpers (:func:`game_outcome`, :func:`guess_tricks`) are shared with the
PIMC bot (:mod:`stammtisch.games.mucken.bots.pimc`), which scores double-dummy results the same way.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from stammtisch.analysis.layout import bits
from stammtisch.analysis.solver import Solver
from stammtisch.cards import Card
from stammtisch.engine.core import Cut, Deal, Say, Shuffle
from stammtisch.engine.tricks import TRUMP, TrickOrder
from stammtisch.games.base.analysis import PlayAnalysis, the_game
from stammtisch.games.mucken.record import replay
from stammtisch.games.mucken.rules import Level, MuckenRules
from stammtisch.games.mucken.scoring import Outcome, score_game, score_pflichtmuck
from stammtisch.games.mucken.state import PLAY, MuckenState

__all__ = [
    "PlayAnalysis",
    "SplitSolver",
    "analyze",
    "game_outcome",
    "guess_tricks",
    "reference_pair",
]

_INF = 1 << 20


# -- outcomes ----------------------------------------------------------------------------
def guess_tricks(augen: Sequence[int], known: Sequence[int] = (0, 0)) -> list[int]:
    """Tricks of each pair as far as final Augen tell: a pair with Augen took a trick;
    a pair without Augen is taken to have none (a trick of four Neuner is the rare
    exception).  ``known``: tricks already taken, kept when larger."""
    return [max(int(known[p]), 1 if augen[p] > 0 else 0) for p in (0, 1)]


def game_outcome(
    rules: MuckenRules,
    contract: str,
    declarer_pair: int | None,
    augen: Sequence[int],
    tricks: Sequence[int],
    *,
    doublings: int = 0,
    forced: bool = False,
    tie_loser: int | None = None,
) -> Outcome:
    """The outcome of ``contract`` with these final Augen and tricks per pair (no
    Einwerfen factor).  ``tie_loser``: the pair holding the rules' ``tie_card`` (for a
    Pflichtmuck 60:60 with ``card_holder_loses``).  A Ramsch tie on Augen and tricks is
    taken as not scored (the real rule looks at the trumps in the tricks)."""
    aug = [int(augen[0]), int(augen[1])]
    trk = [int(tricks[0]), int(tricks[1])]
    if contract == "pflichtmuck":
        return score_pflichtmuck(rules, aug, tie_loser)
    if contract == "ramsch":
        value = rules.ramsch_value * (2 if rules.ramsch_double else 1)
        if aug[0] != aug[1]:
            return Outcome(0 if aug[0] < aug[1] else 1, value, "plain", "weniger Augen")
        if trk[0] != trk[1]:
            return Outcome(0 if trk[0] < trk[1] else 1, value, "plain", "weniger Stiche")
        return Outcome(None, 0, None, "unentschieden")
    bid = rules.bid_by_name(contract)
    if bid is None or declarer_pair is None:
        return Outcome(None, 0, None, contract)
    level: Level = bid.level
    return score_game(rules, bid.name, level, declarer_pair, aug, trk, doublings, forced)


def reference_pair(state: MuckenState) -> int:
    """The pair whose Augen an analysis counts: the declarer pair, else pair 0."""
    declarer = state.declarer
    return declarer % 2 if declarer is not None else 0


def _tie_loser(state: MuckenState) -> int | None:
    tie = Card.parse(state.rules.tie_card)
    for seat, hand in enumerate(state.dealt):
        if tie in hand:
            return seat % 2
    return None


# -- a solver with separate counting and maximising seats --------------------------------
class SplitSolver:
    """Exact minimax for trick games where the seats whose Augen count (``count_side``)
    and the seats that maximise (``max_side``) differ — a Ramsch: the counting pair
    minimises its own Augen and the others maximise them.  With both sets equal it
    computes what :class:`~stammtisch.analysis.solver.Solver` does (more slowly).

    Values are the counted Augen still to come (the cards on the table included).
    Every card keeps its owner, so one instance answers any later position of the deal
    and keeps its transposition table.
    """

    def __init__(
        self,
        order: TrickOrder,
        hands: Sequence[Sequence[Card]],
        *,
        count_side: Collection[int],
        max_side: Collection[int],
        leader: int = 0,
        trick: Sequence[Card] = (),
        must_trump: bool = False,
    ) -> None:
        placed = [(seat, c) for seat, hand in enumerate(hands) for c in hand]
        placed += [((leader + i) % 4, c) for i, c in enumerate(trick)]
        # bit layout: each follow class a contiguous run, weakest lowest, trumps on top
        placed.sort(key=lambda sc: (order.klass(sc[1]) == TRUMP, order.klass(sc[1]),
                                    order.power(sc[1])))
        self.order = order
        self.cards: list[Card] = [c for _, c in placed]
        self.index: dict[Card, int] = {c: i for i, c in enumerate(self.cards)}
        if len(self.index) != len(self.cards):
            raise ValueError("a card is held twice")
        self.owner: list[int] = [s for s, _ in placed]
        self.aug: list[int] = [c.augen for c in self.cards]
        n = len(self.cards)
        klass = [order.klass(c) for c in self.cards]
        self.trump_mask = sum(1 << i for i in range(n) if klass[i] == TRUMP)
        self.cmask: list[int] = [sum(1 << j for j in range(n) if klass[j] == klass[i])
                                 for i in range(n)]
        self.above: list[int] = [self.cmask[i] & ~((2 << i) - 1) for i in range(n)]
        self.beat: list[int] = [(self.cmask[i] | self.trump_mask) & ~((2 << i) - 1)
                                for i in range(n)]
        self.seat_mask: list[int] = [sum(1 << i for i in range(n) if self.owner[i] == s)
                                     for s in range(4)]
        self.counts: list[bool] = [s in count_side for s in range(4)]
        self.maxing: list[bool] = [s in max_side for s in range(4)]
        self.must_trump = must_trump
        self.tt: dict[int, tuple[int, int]] = {}
        self.nodes = 0

    # -- public ----------------------------------------------------------------------
    def value(self, hands: Sequence[Sequence[Card]], leader: int,
              trick: Sequence[Card] = ()) -> int:
        """Exact counted Augen still to come from this position."""
        rem, table = self._position(hands, trick)
        return self._play(rem, leader, table, -_INF, _INF)

    def card_values(self, hands: Sequence[Sequence[Card]], leader: int,
                    trick: Sequence[Card] = ()) -> dict[Card, int]:
        """Counted Augen still to come after each legal card of the player to move."""
        rem, table = self._position(hands, trick)
        seat = (leader + len(table)) % 4
        out: dict[Card, int] = {}
        for i in bits(self._legal(rem, seat, table)):
            out[self.cards[i]] = self._play(rem ^ (1 << i), leader, [*table, i], -_INF, _INF)
        return out

    # -- internals -------------------------------------------------------------------
    def _position(self, hands: Sequence[Sequence[Card]],
                  trick: Sequence[Card]) -> tuple[int, list[int]]:
        rem = 0
        for seat, hand in enumerate(hands):
            for c in hand:
                i = self.index[c]
                if self.owner[i] != seat:
                    raise ValueError(f"{c} belongs to seat {self.owner[i]}, not {seat}")
                rem |= 1 << i
        return rem, [self.index[c] for c in trick]

    def _legal(self, rem: int, seat: int, table: list[int]) -> int:
        hand = rem & self.seat_mask[seat]
        if table:
            f = hand & self.cmask[table[0]]
            if f:
                return f
            if self.must_trump and hand & self.trump_mask:
                return hand & self.trump_mask
        return hand

    def _upper(self, rem: int) -> int:
        aug = self.aug
        return sum(aug[i] for i in bits(rem))

    def _trick(self, rem: int, leader: int, alpha: int, beta: int) -> int:
        """Value from a trick boundary (fail-soft; bounds kept in the table)."""
        if not rem:
            return 0
        key = rem << 2 | leader
        e = self.tt.get(key)
        if e is None:
            lo, hi = 0, self._upper(rem)
        else:
            lo, hi = e
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        a = max(alpha, lo)
        b = min(beta, hi)
        v = self._play(rem, leader, [], a, b)
        if v <= a:
            hi = min(hi, v)
        elif v >= b:
            lo = max(lo, v)
        else:
            lo = hi = v
        self.tt[key] = (lo, hi)
        return v

    def _play(self, rem: int, leader: int, table: list[int], alpha: int, beta: int) -> int:
        n = len(table)
        if n == 4:
            best = table[0]
            for i in table[1:]:
                if (1 << i) & self.beat[best]:
                    best = i
            w = self.owner[best]
            gain = sum(self.aug[i] for i in table) if self.counts[w] else 0
            return gain + self._trick(rem, w, alpha - gain, beta - gain)
        if not rem:
            return 0
        seat = (leader + n) % 4
        moves = self._ordered(rem, seat, table)
        maxing = self.maxing[seat]
        best_v = -_INF if maxing else _INF
        for i in moves:
            self.nodes += 1
            v = self._play(rem ^ (1 << i), leader, [*table, i], alpha, beta)
            if maxing:
                if v > best_v:
                    best_v = v
                    if v > alpha:
                        alpha = v
            elif v < best_v:
                best_v = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        return best_v

    def _ordered(self, rem: int, seat: int, table: list[int]) -> list[int]:
        """Legal cards without equivalent duplicates, the promising first."""
        legal = self._legal(rem, seat, table)
        alive = rem
        for i in table:
            alive |= 1 << i
        aug = self.aug
        moves = []
        for i in bits(legal):
            nxt = alive & self.above[i]
            if nxt:
                j = (nxt & -nxt).bit_length() - 1
                if (legal >> j) & 1 and aug[j] == aug[i]:
                    continue  # the next card above is ours, worth the same: equivalent
            moves.append(i)
        # winning the trick is good for a seat whose role and counting agree
        wants = self.counts[seat] == self.maxing[seat]
        if not table:
            moves.sort(key=lambda i: (-aug[i] if wants else aug[i], -i if wants else i))
            return moves
        best = table[0]
        for i in table[1:]:
            if (1 << i) & self.beat[best]:
                best = i
        beats = self.beat[best]
        wins = [i for i in moves if (1 << i) & beats]
        loses = [i for i in moves if not (1 << i) & beats]
        if wants:
            wins.sort()
            loses.sort(key=lambda i: (aug[i], i))
            return wins + loses
        loses.sort(key=lambda i: (-aug[i], -i))
        wins.sort(key=lambda i: (aug[i], i))
        return loses + wins


# -- the analysis ---------------------------------------------------------------------------
class _Judge:
    """Who wins the game for a final value of the reference pair (Augen; tricks for a
    game announced schwarz)."""

    def __init__(self, state: MuckenState, ref: int) -> None:
        self.state = state
        self.ref = ref
        bid = state.bid if state.declarer is not None else None
        self.schwarz = bid is not None and bid.level == "schwarz"
        self.tie_loser = _tie_loser(state)
        self.total = sum(c.augen for c in state.deck)

    def winner(self, value: int, tricks_value: int | None, known: Sequence[int]) -> int | None:
        s = self.state
        ref = self.ref
        augen = [0, 0]
        augen[ref] = value
        augen[1 - ref] = self.total - value
        tricks = guess_tricks(augen, known)
        if tricks_value is not None:
            tricks[ref] = tricks_value
            tricks[1 - ref] = s.rules.max_tricks - tricks_value
        o = game_outcome(s.rules, s.contract, None if s.declarer is None else s.declarer % 2,
                         augen, tricks, doublings=s.doublings, forced=s.forced,
                         tie_loser=self.tie_loser)
        return o.winner


def _fresh_game(state: MuckenState) -> MuckenState:
    """A new game with the same rules, dealer and factor as ``state``, dealt alike."""
    g = MuckenState(state.rules, state.dealer, state.factor)
    g.apply_unchecked(Deal(tuple(tuple(h) for h in state.dealt)))
    return g


def analyze(record_or_state: MuckenState | str | bytes | Mapping[str, Any]) -> list[PlayAnalysis]:
    """Judge every card of a game (see the module docstring).

    ``record_or_state``: a game record (JSON text or mapping, replayed with every check)
    or a game state (finished or not: the cards played so far are judged).  A game
    without card play (eingeworfen, Sie) gives an empty list.
    """
    final = the_game(record_or_state, MuckenState, replay)
    if not final.dealt:
        return []
    # replay the actions after the deal on a fresh game, judging each card before it
    game = _fresh_game(final)
    actions = [a for _, a in final.history if not isinstance(a, Shuffle | Deal)]
    # a shuffled game has its cut actions in the history; the fresh game is dealt directly
    actions = [a for a in actions if not _is_cut_action(a)]
    out: list[PlayAnalysis] = []
    ref = -1
    judge: _Judge | None = None
    solver: Solver | SplitSolver | None = None
    tsolver: Solver | None = None
    play_index = 0
    for action in actions:
        if game.phase == PLAY and isinstance(action, Card):
            if solver is None:
                ref = reference_pair(final)
                judge = _Judge(final, ref)
                solver, tsolver = _solvers(game, ref, judge.schwarz)
            assert judge is not None
            out.append(_judge_play(game, action, play_index, ref, judge, solver, tsolver))
            play_index += 1
        if game.is_terminal():
            break
        game.apply_unchecked(action)
    return out


def _is_cut_action(action: object) -> bool:
    return isinstance(action, Cut) or (isinstance(action, Say)
                                       and action.word in ("geben", "klopfen"))


def _solvers(game: MuckenState, ref: int,
             schwarz: bool) -> tuple[Solver | SplitSolver, Solver | None]:
    hands = [list(h) for h in game.hands]
    t = game.tricks
    must = game.contract == "ramsch" and game.rules.ramsch_stichzwang
    side = {ref, ref + 2}
    if game.contract == "ramsch":
        other = {1 - ref, 3 - ref}
        return SplitSolver(game.order, hands, count_side=side, max_side=other, leader=t.leader,
                           trick=list(t.current), must_trump=must), None
    solver = Solver(game.order, hands, side, leader=t.leader, trick=list(t.current),
                    must_trump=must)
    tsolver = (Solver(game.order, hands, side, leader=t.leader, trick=list(t.current),
                      mode="tricks", must_trump=must) if schwarz else None)
    return solver, tsolver


def _judge_play(game: MuckenState, card: Card, index: int, ref: int, judge: _Judge,
                solver: Solver | SplitSolver, tsolver: Solver | None) -> PlayAnalysis:
    t = game.tricks
    seat = game.current_player
    hands = [list(h) for h in game.hands]
    trick = list(t.current)
    base = game.pair_augen()[ref]
    values = {c: base + v for c, v in solver.card_values(hands, t.leader, trick).items()}
    ramsch = game.contract == "ramsch"
    # the mover's pair wants the reference value high if it is the reference pair (in a
    # Ramsch: low, a misère), else the other way round
    wants_high = (seat % 2 == ref) != ramsch
    best_value = max(values.values()) if wants_high else min(values.values())
    after = values[card]
    loss = best_value - after if wants_high else after - best_value
    legal_order = [c for c in game.legal_actions() if isinstance(c, Card)]
    best = tuple(str(c) for c in game.sort_hand(legal_order) if values[c] == best_value)
    known = game.pair_tricks()
    tvals: dict[Card, int] | None = None
    tbefore: int | None = None
    if tsolver is not None:
        tbase = known[ref]
        tvals = {c: tbase + v for c, v in tsolver.card_values(hands, t.leader, trick).items()}
        tbefore = max(tvals.values()) if seat % 2 == ref else min(tvals.values())
    w_before = judge.winner(best_value, tbefore, known)
    w_after = judge.winner(after, None if tvals is None else tvals[card], known)
    return PlayAnalysis(
        index=index, seat=seat, card=str(card), trick=len(t.tricks) + 1,
        value_before=best_value, value_after=after, loss=loss, best=best,
        cost_game=w_before != w_after)
