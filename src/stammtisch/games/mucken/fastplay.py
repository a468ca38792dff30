"""An explicitly unchecked fast path: random play-outs of whole Mucken games.

:func:`fast_random_playout` plays one game — shuffle, Abheben, bidding, the
no-game rule, Kontra/Re/…, the tricks and the score — with uniformly random
choices among the legal ones, on integer card indices and tables precomputed
per rules object from :func:`~stammtisch.games.mucken.orders.trick_order`.
Nothing is validated on the way; it exists for benchmarks and statistics.

It makes *exactly* the choices :func:`stammtisch.engine.core.play_random`
makes on a :class:`~stammtisch.games.mucken.state.MuckenState` with a
``random.Random`` in the same state: the legal options are enumerated in the
order of ``legal_actions()`` and each one is picked with one
``rng.randrange(len(options))``.  :meth:`FastGame.actions` lists the game's
actions for the checked API, so every fast game can be replayed and compared.

>>> import random
>>> from stammtisch.games.mucken.rules import MuckenRules
>>> g = fast_random_playout(MuckenRules.preset("seefest"), dealer=0, rng=random.Random(7))
>>> g.card_plays, sum(g.augen)
(24, 120)
>>> from stammtisch.games.mucken.state import MuckenState
>>> s = MuckenState(MuckenRules.preset("seefest"), 0)
>>> for a in g.actions():
...     s.apply(a)
>>> s.result() == g.result()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from stammtisch.cards import GERMAN_SUITS, LONG_DECK, SHORT_DECK, Card, Rank, Suit
from stammtisch.engine.core import Action, Cut, Rng, Say, Shuffle
from stammtisch.engine.tricks import TRUMP, TrickOrder
from stammtisch.games.mucken.orders import trick_order
from stammtisch.games.mucken.rules import DOUBLING_WORDS, Bid, MuckenRules
from stammtisch.games.mucken.scoring import (
    Outcome,
    score_game,
    score_pflichtmuck,
    score_ramsch,
)

__all__ = ["FastGame", "fast_random_playout", "fast_tables"]

_NUM_CARDS = len(Card._by_index)
_AUGEN: tuple[int, ...] = tuple(Card.from_index(i).augen for i in range(_NUM_CARDS))


@dataclass(frozen=True, slots=True)
class _OrderTables:
    """One trick order as flat tables indexed by ``Card.index``."""

    #: follow class of each card (suit number, or TRUMP)
    klass: tuple[int, ...]
    #: strength[lead_class][card]: trump power, power in the led suit, or 0 (cannot win)
    strength: tuple[tuple[int, ...], ...]


def _order_tables(order: TrickOrder) -> _OrderTables:
    cards_ = [Card.from_index(i) for i in range(_NUM_CARDS)]
    klass = tuple(order.klass(c) for c in cards_)
    power = [order.power(c) for c in cards_]
    strength = []
    for lead in range(TRUMP + 1):
        strength.append(tuple(
            power[i] if klass[i] == TRUMP or (klass[i] == lead and power[i] > 0) else 0
            for i in range(_NUM_CARDS)
        ))
    return _OrderTables(klass, tuple(strength))


@dataclass(frozen=True, slots=True)
class FastTables:
    """Everything :func:`fast_random_playout` needs of one rules object."""

    rules: MuckenRules
    deck: tuple[int, ...]
    bids: tuple[Bid, ...]
    bid_names: tuple[str, ...]
    #: per bid: index of the first bid ranked strictly higher (the overcalls are a suffix)
    higher_start: tuple[int, ...]
    bid_tables: tuple[_OrderTables, ...]
    muck: _OrderTables
    sie_cards: frozenset[int]
    muss_card: int
    tie_card: int
    #: (bid, declarer pair, Augen and tricks of pair 0, doublings, forced) -> Outcome
    score_memo: dict[tuple[int, int, int, int, int, bool], Outcome] = field(
        default_factory=dict, compare=False)


_CACHE: dict[int, FastTables] = {}


def fast_tables(rules: MuckenRules) -> FastTables:
    """The precomputed tables of ``rules`` (cached per rules object)."""
    t = _CACHE.get(id(rules))
    if t is not None and t.rules is rules:
        return t
    deck = SHORT_DECK if rules.deck == "short" else LONG_DECK
    bids = rules.bids
    ranks = [rules.bid_rank(b) for b in bids]
    higher = []
    for r in ranks:
        start = len(bids)
        for j, rj in enumerate(ranks):
            if rj > r:
                start = j
                break
        higher.append(start)
    # the overcalls must be a suffix of ``bids`` for the index arithmetic below
    for i, r in enumerate(ranks):
        assert all((ranks[j] > r) == (j >= higher[i]) for j in range(len(bids)))
    sie = {Card.of(s, Rank.OBER).index for s in GERMAN_SUITS}
    sie |= {Card.of(Suit.EICHEL, Rank.UNTER).index, Card.of(Suit.GRAS, Rank.UNTER).index}
    t = FastTables(
        rules=rules,
        deck=tuple(c.index for c in deck),
        bids=bids,
        bid_names=tuple(b.name for b in bids),
        higher_start=tuple(higher),
        bid_tables=tuple(_order_tables(trick_order(b.kind, rules.deck, b.suit)) for b in bids),
        muck=_order_tables(trick_order("muck", rules.deck)),
        sie_cards=frozenset(sie),
        muss_card=Card.parse(rules.muss_card).index,
        tie_card=Card.parse(rules.tie_card).index,
    )
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[id(rules)] = t
    return t


@dataclass(slots=True)
class FastGame:
    """The record and result of one fast play-out (cards as ``Card.index``)."""

    rules: MuckenRules
    dealer: int
    factor: int
    #: the shuffled deck, top card first
    shuffle: tuple[int, ...]
    #: the Abheben: cards lifted each time
    cuts: list[int]
    #: how the cutting ended: "geben", "klopfen", or "" (the last allowed cut deals)
    cut_end: str
    #: every word said after the deal, in order: bids, the Muss-Spiel call, doublings, "gut"
    says: list[str]
    #: the cards in the order played
    plays: list[int]
    trick_winners: list[int]
    #: Augen per pair
    augen: list[int]
    contract: str
    #: the declarer (the Sie's holder for a Sie), None without a called game
    holder: int | None
    bid: Bid | None
    doublings: int
    forced: bool
    outcome: Outcome

    @property
    def card_plays(self) -> int:
        return len(self.plays)

    @property
    def declarer(self) -> int | None:
        return self.holder if self.bid is not None else None

    def tricks(self) -> list[int]:
        out = [0, 0]
        for w in self.trick_winners:
            out[w & 1] += 1
        return out

    def actions(self) -> list[Action]:
        """The game's actions (chance included) for the checked API, in order."""
        out: list[Action] = [Shuffle(tuple(Card.from_index(i) for i in self.shuffle))]
        out.extend(Cut(k) for k in self.cuts)
        if self.cut_end:
            out.append(Say(self.cut_end))
        out.extend(Say(w) for w in self.says)
        out.extend(Card.from_index(i) for i in self.plays)
        return out

    def result(self) -> dict[str, Any]:
        """The same JSON-ready result as :meth:`MuckenState.result`."""
        o = self.outcome
        return {
            "contract": self.contract,
            "declarer": self.declarer if self.contract != "sie" else self.holder,
            "kontra": self.doublings > 0,
            "doublings": self.doublings,
            "trick_winners": list(self.trick_winners),
            "augen": list(self.augen),
            "tricks": self.tricks(),
            "winner": o.winner,
            "score": o.score,
            "column": o.column,
            "reason": o.reason,
            "violation": None,
            "forced": self.forced,
            "factor": self.factor,
        }


def _chooser(rng: Rng) -> Callable[[int], int]:
    """``n -> rng.randrange(n)``; for a plain ``random.Random`` its ``_randbelow``
    (what ``randrange(n)`` calls; same numbers, less overhead)."""
    if isinstance(rng, random.Random) and type(rng).randrange is random.Random.randrange:
        below: Callable[[int], int] | None = getattr(rng, "_randbelow", None)
        if below is not None:
            return below
    return rng.randrange


def fast_random_playout(
    rules: MuckenRules, dealer: int, rng: Rng, factor: int = 1
) -> FastGame:
    """Play one whole game with uniformly random legal choices, unchecked.

    Same choices and the same game as ``play_random(MuckenState(rules, dealer,
    factor), rng)`` for a ``random.Random`` in the same state.
    """
    t = fast_tables(rules)
    rb = _chooser(rng)
    stack = list(t.deck)
    rng.shuffle(stack)
    shuffled = tuple(stack)
    cuts: list[int] = []
    cut_end = ""

    # -- Abheben ------------------------------------------------------------
    klopfen = False
    max_times = rules.cut_max_times
    if max_times > 0:
        lo = rules.cut_min
        ncut = len(stack) - rules.cut_min_left + 1 - lo
        min_times = rules.cut_min_times
        may_klopfen = rules.klopfen
        while True:
            done = len(cuts)
            options = ncut if done < max_times else 0
            geben = done >= min_times
            i = rb(options + geben + (may_klopfen and not done))
            if i < options:
                k = lo + i
                stack = stack[k:] + stack[:k]
                cuts.append(k)
                if len(cuts) >= max_times:
                    break
            elif geben and i == options:
                cut_end = "geben"
                break
            else:
                cut_end = "klopfen"
                klopfen = True
                break

    # -- Geben ----------------------------------------------------------------
    size = rules.hand_size
    hands: list[list[int]] = [[], [], [], []]
    pos = 0
    for packet in ((size,) if klopfen else (size // 2, size - size // 2)):
        for i in range(4):
            hands[(dealer + 1 + i) & 3].extend(stack[pos : pos + packet])
            pos += packet
    leader = (dealer + 1) & 3
    if rules.sie:
        sie = t.sie_cards
        for seat in range(4):
            if sie.issubset(hands[seat]):
                return FastGame(rules, dealer, factor, shuffled, cuts, cut_end, [], [], [],
                                [0, 0], "sie", seat, None, 0, False,
                                Outcome(seat & 1, rules.sie_value * factor, "schwarz", "Sie"))

    # -- Ansagen ----------------------------------------------------------------
    says: list[str] = []
    nb = len(t.bids)
    higher_start = t.higher_start
    bid_names = t.bid_names
    passed = [False, False, False, False]
    npassed = 0
    holder = -1
    bid_i = -1
    player = leader
    last_man_ramsch = rules.ramsch_last_man
    partner_round = rules.partner_overcall_new_round
    no_game = ""
    while True:
        start = 0 if bid_i < 0 else higher_start[bid_i]
        k = nb - start
        ramsch_ok = last_man_ramsch and bid_i < 0 and len(says) == 3 and player == dealer
        i = rb(1 + k + ramsch_ok)
        if i == 0:
            says.append("weiter")
            passed[player] = True
            npassed += 1
        elif i <= k:
            bid_i = start + i - 1
            says.append(bid_names[bid_i])
            if holder >= 0 and ((holder ^ player) & 1 or partner_round):
                passed = [False, False, False, False]
                npassed = 0
            holder = player
        else:
            says.append("ramsch")
            no_game = "ramsch"
            break
        if holder < 0:
            if npassed == 4:
                no_game = rules.no_game
                break
        elif npassed == 3 and not passed[holder]:
            break
        player = (player + 1) & 3
        while passed[player] or player == holder:
            player = (player + 1) & 3

    if no_game == "einwerfen":
        return FastGame(rules, dealer, factor, shuffled, cuts, cut_end, says, [], [], [0, 0],
                        "eingeworfen", None, None, 0, False,
                        Outcome(None, 0, None, "eingeworfen"))
    forced = False
    if no_game == "muss":
        holder = next(s for s in range(4) if t.muss_card in hands[s])
        bid_i = rb(nb)
        says.append(bid_names[bid_i])
        forced = True
        no_game = ""

    doublings = 0
    bid: Bid | None = None
    if no_game:  # pflichtmuck or ramsch: Muck trumps, no Kontra
        contract = no_game
        tables = t.muck
        tie_seat = next((s for s in range(4) if t.tie_card in hands[s]), None)
    else:
        bid = t.bids[bid_i]
        contract = bid.name
        tables = t.bid_tables[bid_i]
        tie_seat = None
        max_doublings = rules.doublings
        if max_doublings > 0:
            # the declarers' opponents, from the leader on
            ask = sorted(((holder + 1) & 3, (holder + 3) & 3), key=lambda s: (s - leader) & 3)
            while ask:
                seat = ask[0]
                if rb(2) == 0:
                    says.append(DOUBLING_WORDS[doublings])
                    doublings += 1
                    if doublings >= max_doublings:
                        break
                    # the other pair may answer, from the doubler's left
                    ask = [(seat + 1) & 3, (seat + 3) & 3]
                else:
                    says.append("gut")
                    ask.pop(0)

    # -- Stiche -----------------------------------------------------------------
    klass = tables.klass
    strength = tables.strength
    aug = _AUGEN
    must_trump = contract == "ramsch" and rules.ramsch_stichzwang
    plays: list[int] = []
    winners: list[int] = []
    augen = [0, 0]
    # each hand also split by follow class, in hand order (what legal_actions() lists)
    groups: list[list[list[int]]] = []
    for hand in hands:
        g: list[list[int]] = [[], [], [], [], [], [], [], [], []]
        for x in hand:
            g[klass[x]].append(x)
        groups.append(g)
    for _ in range(size):
        hand = hands[leader]
        c = hand.pop(rb(len(hand)))
        groups[leader][klass[c]].remove(c)
        plays.append(c)
        lk = klass[c]
        st = strength[lk]
        best = st[c]
        bseat = leader
        a = aug[c]
        for j in (1, 2, 3):
            p = (leader + j) & 3
            g = groups[p]
            legal = g[lk]
            if not legal:
                # cannot follow: anything, or in a Ramsch with Stichzwang a trump if held
                legal = (g[TRUMP] or hands[p]) if must_trump else hands[p]
            c = legal[rb(len(legal))]
            hands[p].remove(c)
            g[klass[c]].remove(c)
            plays.append(c)
            a += aug[c]
            v = st[c]
            if v > best:
                best = v
                bseat = p
        winners.append(bseat)
        augen[bseat & 1] += a
        leader = bseat

    # -- Wertung ----------------------------------------------------------------
    tricks = [0, 0]
    for w in winners:
        tricks[w & 1] += 1
    if contract == "pflichtmuck":
        o = score_pflichtmuck(rules, augen, None if tie_seat is None else tie_seat & 1)
    elif contract == "ramsch":
        trick_cards: list[tuple[int, tuple[Any, ...]]] = []
        lead = (dealer + 1) & 3
        for n, w in enumerate(winners):
            trick_cards.append((lead, tuple(Card.from_index(x) for x in plays[4 * n : 4 * n + 4])))
            lead = w
        o = score_ramsch(rules, augen, tricks, trick_cards, winners)
    else:
        # score_game is pure: memoise it per rules on what it depends on
        key = (bid_i, holder & 1, augen[0], tricks[0], doublings, forced)
        memo = t.score_memo
        found = memo.get(key)
        if found is None:
            assert bid is not None
            found = memo[key] = score_game(rules, bid.name, bid.level, holder & 1, augen,
                                           tricks, doublings, forced)
        o = found
    if factor != 1:
        o = Outcome(o.winner, o.score * factor, o.column, o.reason)
    return FastGame(rules, dealer, factor, shuffled, cuts, cut_end, says, plays, winners, augen,
                    contract, None if bid is None else holder, bid, doublings, forced, o)
