"""Mucken's research encoding: fixed action ids, observation tensors and strings, the deal
card by card and a world sampler, for the generic PettingZoo environment and OpenSpiel game
(:mod:`stammtisch.research.pettingzoo`, :mod:`stammtisch.research.openspiel`).

Action ids (:class:`ActionCodec`), for one rules object, with ``N`` the deck size
(24 short, 32 long) and ``B = len(rules.bids)``:

====================  =====================================================
id                    action
====================  =====================================================
``0 .. N-1``          play the card ``deck[id]`` (the deck suit by suit, Eichel,
                      Gras, Herz, Schellen; ranks A 10 K O U 9 (8 7))
``N .. N+B-1``        say the bid ``rules.bids[id - N]`` (lowest first; also the
                      call of a Muss-Spiel)
``N+B``               ``weiter``
``N+B+1 .. N+B+4``    ``kontra``, ``re``, ``sup``, ``hirsch``
``N+B+5``             ``gut``
then ``C`` ids        ``Cut(k)`` for ``k = cut_min .. N - cut_min_left`` (``C = 0``
                      when ``cut_max_times == 0``)
then                  ``geben``, ``klopfen``, ``ramsch``
====================  =====================================================

The observation (:class:`ObservationEncoder`) is built from ``state.view(seat)`` alone, so
it cannot leak hidden cards.  Seats are *relative* to the observer: relative seat ``r`` is
seat ``(seat + r) % 4`` (0 the observer, 1 the left neighbour, 2 the partner, 3 the right
neighbour).  Every entry lies in ``[0, 1]``.  ``K = 4 * B + 5`` bounds the calls of one
game.  The pieces, in order:

=================  ==================  ===============================================
piece              shape               meaning
=================  ==================  ===============================================
``hand``           ``(N,)``            own cards
``played``         ``(4, N)``          cards on the table (finished tricks and the
                                       current one), by relative seat
``trick``          ``(4, N)``          the cards of the current trick, by relative seat
``trick_leader``   ``(4,)``            who leads / led the current trick (play phase)
``tricks_won``     ``(4,)``            tricks taken by each relative seat, / hand size
``augen``          ``(2,)``            Augen of the own pair and of the other pair, / 120
``hand_sizes``     ``(4,)``            cards held by each relative seat, / hand size
``phase``          ``(7,)``            shuffle, cut, bidding, muss, doubling, play, end
``to_act``         ``(4,)``            relative seat to act (all 0 at chance or the end)
``dealer``         ``(4,)``            relative seat of the dealer
``cuts``           ``(5,)``            cards lifted by each Abheben, / N
``klopfen``        ``(1,)``            whether it was geklopft
``calls``          ``(K, 4 + B + 2)``  the calls in order: relative seat one-hot, then the
                                       word one-hot over ``weiter``, the bids, ``ramsch``
``standing_bid``   ``(B,)``            the highest bid so far
``bid_holder``     ``(4,)``            relative seat holding it
``contract``       ``(B + 4,)``        the game played: a bid, ``pflichtmuck``, ``ramsch``,
                                       ``sie``, ``eingeworfen``
``declarer``       ``(4,)``            relative seat of the declarer
``doublings``      ``(4, 4)``          row ``i`` (kontra, re, sup, hirsch): who said it
``factor``         ``(1,)``            ``1 - 1/factor`` (Einwerfen's pending factor)
``play_sequence``  ``(N, N)``          only with ``perfect_recall``: row ``k`` is the
                                       ``k``-th card played
=================  ==================  ===============================================

**OpenSpiel** deals card by card in the packets of the real deal (the chance outcomes are
card ids; during the deal a seat sees the cards dealt to it so far) and leaves out the
Abheben (a random deal is what any cut gives; so no Klopfen either).  **Resampling**
(:func:`sample_world`) deals the unseen cards uniformly among the deals with the hard
facts: voids, the Stichzwang of a Ramsch, the Muss-Spiel card with the seat that had to
call; what calls suggest is not used.

>>> from stammtisch.games.mucken.rules import MuckenRules
>>> codec = ActionCodec(MuckenRules.preset("seefest"))
>>> codec.num_actions, codec.encode(Say("weiter")), str(codec.decode(0))
(58, 30, 'EA')
>>> enc = ObservationEncoder(MuckenRules.preset("seefest"))
>>> enc.size, enc.shape("calls")
(640, (29, 12))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from stammtisch.cards import LONG_DECK, SHORT_DECK, Card
from stammtisch.engine.core import CHANCE, Action, Cut, GameState, Say
from stammtisch.engine.tricks import TRUMP
from stammtisch.errors import InvalidActionError
from stammtisch.games.base.encoding import Layout, PacketDeal, Uniform, deal_uniformly, shuffle
from stammtisch.games.mucken.rules import DOUBLING_WORDS, LEVELS, MuckenRules
from stammtisch.games.mucken.state import MuckenState

__all__ = ["PHASES", "ActionCodec", "MuckenEncoding", "ObservationEncoder", "max_calls",
           "played_by_seat", "sample_world"]

#: the phases of :class:`~stammtisch.games.mucken.state.MuckenState`, in tensor order
PHASES: tuple[str, ...] = ("shuffle", "cut", "bidding", "muss", "doubling", "play", "end")
#: contracts that are not a bid, in tensor order after the bids
NO_BID_CONTRACTS: tuple[str, ...] = ("pflichtmuck", "ramsch", "sie", "eingeworfen")
MAX_CUTS = 5  # MuckenRules allows cut_max_times <= 5

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]


def max_calls(rules: MuckenRules) -> int:
    """An upper bound of the calls (bids, ``weiter``, ``ramsch``, Muss call) in one game."""
    return 4 * len(rules.bids) + 5


def _deck(rules: MuckenRules) -> tuple[Card, ...]:
    return SHORT_DECK if rules.deck == "short" else LONG_DECK


class ActionCodec:
    """Stable integer ids for every action of a rules object (see the module docstring)."""

    def __init__(self, rules: MuckenRules) -> None:
        self.rules = rules
        self.deck: tuple[Card, ...] = _deck(rules)
        actions: list[Action] = [*self.deck, *(Say(name) for name in rules.bid_names()),
                                 Say("weiter"), *(Say(w) for w in DOUBLING_WORDS), Say("gut")]
        if rules.cut_max_times > 0:
            n = len(self.deck)
            actions.extend(Cut(k) for k in range(rules.cut_min, n - rules.cut_min_left + 1))
        actions.extend((Say("geben"), Say("klopfen"), Say("ramsch")))
        self.actions: tuple[Action, ...] = tuple(actions)
        self._ids: dict[Action, int] = {a: i for i, a in enumerate(actions)}
        self.num_cards = len(self.deck)
        self.num_actions = len(self.actions)

    def encode(self, action: Action) -> int:
        """The id of ``action``; :class:`InvalidActionError` if it has none (chance)."""
        try:
            return self._ids[action]
        except (KeyError, TypeError):
            raise InvalidActionError(
                f"{action}: not an action with an id for rules {self.rules.name!r}") from None

    def decode(self, action_id: int) -> Action:
        """The action of ``action_id`` (any integer type, e.g. ``np.int64``)."""
        i = int(action_id)
        if not 0 <= i < len(self.actions):
            raise InvalidActionError(
                f"{action_id!r}: not an action id (0..{len(self.actions) - 1})")
        return self.actions[i]

    def card_id(self, card: Card) -> int:
        return self._ids[card]

    def name(self, action_id: int) -> str:
        """The text form of the action (as ``str(action)`` writes it)."""
        return str(self.decode(action_id))

    def legal_ids(self, state: GameState) -> list[int]:
        """The ids of ``state.legal_actions()``, ascending."""
        return sorted(self._ids[a] for a in state.legal_actions())

    def legal_mask(self, state: GameState) -> MaskArray:
        mask = np.zeros(len(self.actions), dtype=np.int8)
        mask[self.legal_ids(state)] = 1
        return mask


class ObservationEncoder(Layout):
    """Turns ``state.view(seat)`` into a flat ``float32`` tensor (layout: module docstring)."""

    def __init__(self, rules: MuckenRules, *, perfect_recall: bool = False) -> None:
        self.rules = rules
        self.perfect_recall = perfect_recall
        n, b = len(_deck(rules)), len(rules.bids)
        self.num_cards = n
        self.hand_size = rules.hand_size
        self.max_calls = max_calls(rules)
        self._card = {str(c): i for i, c in enumerate(_deck(rules))}
        words = ["weiter", *rules.bid_names(), "ramsch"]
        self._word = {w: i for i, w in enumerate(words)}
        self._bid = {w: i for i, w in enumerate(rules.bid_names())}
        contracts = [*rules.bid_names(), *NO_BID_CONTRACTS]
        self._contract = {w: i for i, w in enumerate(contracts)}
        self._phase = {p: i for i, p in enumerate(PHASES)}
        super().__init__([
            ("hand", (n,)), ("played", (4, n)), ("trick", (4, n)), ("trick_leader", (4,)),
            ("tricks_won", (4,)), ("augen", (2,)), ("hand_sizes", (4,)),
            ("phase", (len(PHASES),)), ("to_act", (4,)), ("dealer", (4,)),
            ("cuts", (MAX_CUTS,)), ("klopfen", (1,)), ("calls", (self.max_calls, 4 + len(words))),
            ("standing_bid", (b,)), ("bid_holder", (4,)), ("contract", (len(contracts),)),
            ("declarer", (4,)), ("doublings", (len(DOUBLING_WORDS), 4)), ("factor", (1,)),
            *([("play_sequence", (n, n))] if perfect_recall else []),
        ])

    def encode(self, view: Mapping[str, Any], out: FloatArray | None = None) -> FloatArray:
        """The tensor of ``view`` (a ``MuckenState.view(seat)`` for a seat, not a spectator),
        written into ``out`` (zeroed first) when given."""
        seat: int | None = view["seat"]
        if seat is None:
            raise ValueError("the observation needs a seat's view, not a spectator's")
        out = self.cleared(out)
        t = self.split(out)
        card = self._card
        h = float(self.hand_size)
        observer: int = seat

        def rel(s: int) -> int:
            return (s - observer) % 4

        for c in view["hand"]:
            t["hand"][card[c]] = 1.0
        played = t["played"]
        sequence = t.get("play_sequence")
        k = 0
        for trick in view["tricks_played"]:
            t["tricks_won"][rel(trick["winner"])] += 1.0 / h
            for entry in trick["cards"]:
                ci = card[entry["card"]]
                played[rel(entry["seat"]), ci] = 1.0
                if sequence is not None:
                    sequence[k, ci] = 1.0
                k += 1
        current = view["trick"]
        for entry in current:
            ci = card[entry["card"]]
            r = rel(entry["seat"])
            played[r, ci] = t["trick"][r, ci] = 1.0
            if sequence is not None:
                sequence[k, ci] = 1.0
            k += 1
        phase = view["phase"]
        if phase == "play":
            if current:
                lead = current[0]["seat"]
            elif view["tricks_played"]:
                lead = view["tricks_played"][-1]["winner"]
            else:
                lead = view["leader"]
            t["trick_leader"][rel(lead)] = 1.0
        augen = view["augen_taken"]
        t["augen"][0] = augen[seat % 2] / 120.0
        t["augen"][1] = augen[1 - seat % 2] / 120.0
        for s, size in enumerate(view["hand_sizes"]):
            t["hand_sizes"][rel(s)] = size / h
        t["phase"][self._phase[phase]] = 1.0
        if view["to_act"] is not None:
            t["to_act"][rel(view["to_act"])] = 1.0
        t["dealer"][rel(view["dealer"])] = 1.0
        for i, count in enumerate(view["cuts"][:MAX_CUTS]):
            t["cuts"][i] = count / self.num_cards
        t["klopfen"][0] = 1.0 if view["klopfen"] else 0.0
        if len(view["calls"]) > self.max_calls:
            raise ValueError(f"{len(view['calls'])} calls, more than the bound {self.max_calls}")
        for i, call in enumerate(view["calls"]):
            t["calls"][i, rel(call["seat"])] = 1.0
            t["calls"][i, 4 + self._word[call["call"]]] = 1.0
        if view["standing_bid"] is not None:
            t["standing_bid"][self._bid[view["standing_bid"]]] = 1.0
            t["bid_holder"][rel(view["bid_holder"])] = 1.0
        if view["contract"] is not None:
            t["contract"][self._contract[view["contract"]]] = 1.0
        if view["declarer"] is not None:
            t["declarer"][rel(view["declarer"])] = 1.0
        for i, d in enumerate(view["doublings"]):
            t["doublings"][i, rel(d["seat"])] = 1.0
        t["factor"][0] = 1.0 - 1.0 / max(1, int(view["factor"]))
        return out


def _max_utility(rules: MuckenRules) -> float:
    best = max(rules.pflichtmuck_value, rules.ramsch_value * (2 if rules.ramsch_double else 1),
               rules.sie_value if rules.sie else 0)
    for name in rules.bid_names():
        for column in LEVELS:
            v = rules.value(name, column)
            if v is not None:
                best = max(best, v * 2**rules.doublings)
    return float(best)


class MuckenEncoding:
    """Mucken's :class:`~stammtisch.games.base.encoding.Encoding` (see the module)."""

    num_players = 4
    zero_sum = True
    information_state_strings = True

    def __init__(self, rules: MuckenRules) -> None:
        self.rules = rules
        self.params: Mapping[str, int] = {}
        self.codec = ActionCodec(rules)
        self.encoders = (ObservationEncoder(rules), ObservationEncoder(rules, perfect_recall=True))
        n = self.num_cards = self.max_chance_outcomes = len(self.codec.deck)
        size = rules.hand_size
        self.deal = PacketDeal(self.codec.deck, (size // 2, size - size // 2))
        self.num_actions = self.codec.num_actions
        self.observation_shape: tuple[int, ...] = (self.encoders[0].size,)
        self.information_state_shape: tuple[int, ...] | None = (self.encoders[1].size,)
        self.max_utility = _max_utility(rules)
        # the deal, the calls, the doubling words (at most 3 per doubling), the cards
        self.max_game_length = n + max_calls(rules) + 3 * max(1, rules.doublings) + n

    def initial_state(self, dealer: int) -> MuckenState:
        return MuckenState(self.rules, dealer)

    def legal_ids(self, state: MuckenState, pending: Sequence[int] = ()) -> list[int]:
        if state.current_player == CHANCE:
            return self.deal.outcomes(pending)
        return self.codec.legal_ids(state)

    def action_index(self, action: Action, state: MuckenState) -> int:
        return self.codec.encode(action)

    def action_of(self, state: MuckenState, ids: Sequence[int]) -> Action | None:
        if state.current_player == CHANCE:
            return self.deal.action(ids, state.dealer)
        return self.codec.decode(ids[-1])

    def action_name(self, index: int, *, chance: bool = False) -> str:
        return f"deal:{self.codec.deck[index]}" if chance else self.codec.name(index)

    def returns(self, state: MuckenState) -> list[float]:
        return [float(r) for r in state.returns()]

    def view(self, state: MuckenState, seat: int, pending: Sequence[int] = (),
             private: bool = True) -> dict[str, Any]:
        """``state.view(seat)``; during OpenSpiel's deal with the cards dealt so far."""
        v = state.view(seat)
        if state.current_player == CHANCE:
            dealt = self.deal.dealt(pending, state.dealer, seat)
            v["hand"] = [str(c) for c in state.sort_hand(dealt)]
            v["hand_sizes"] = self.deal.counts(pending, state.dealer)
        if not private:
            v["hand"] = []
        return v

    def observation(self, state: MuckenState, seat: int, pending: Sequence[int] = (), *,
                    private: bool = True, perfect_recall: bool = False,
                    out: FloatArray | None = None) -> FloatArray:
        return self.encoders[perfect_recall].encode(self.view(state, seat, pending, private), out)

    def pieces(self, tensor: FloatArray, *, perfect_recall: bool = False
               ) -> dict[str, FloatArray]:
        return self.encoders[perfect_recall].split(tensor)

    def observation_string(self, state: MuckenState, seat: int, pending: Sequence[int] = (),
                           *, private: bool = True, perfect_recall: bool = False) -> str:
        v = self.view(state, seat, pending, private)
        parts = [f"p{seat}", v["phase"]]
        if private:
            parts.append("hand:" + " ".join(v["hand"]))
        parts.append("sizes:" + "".join(str(n) for n in v["hand_sizes"]))
        if v["calls"]:
            parts.append("calls:" + " ".join(f"{c['seat']}{c['call']}" for c in v["calls"]))
        if v["contract"]:
            parts.append(f"contract:{v['contract']}@{v['declarer']}")
        if v["doublings"]:
            parts.append("dbl:" + " ".join(f"{d['seat']}{d['word']}" for d in v["doublings"]))
        if perfect_recall:
            plays = [f"{e['seat']}{e['card']}" for t in v["tricks_played"] for e in t["cards"]]
            if plays:
                parts.append("plays:" + " ".join(plays))
        else:
            played = [sorted(e["card"] for t in v["tricks_played"] for e in t["cards"]
                             if e["seat"] == s) for s in range(4)]
            if any(played):
                parts.append("played:" + "|".join(" ".join(p) for p in played))
            parts.append(f"tricks:{v['tricks_taken'][0]}-{v['tricks_taken'][1]}"
                         f" augen:{v['augen_taken'][0]}-{v['augen_taken'][1]}")
        if v["trick"]:
            parts.append("trick:" + " ".join(f"{e['seat']}{e['card']}" for e in v["trick"]))
        if v["to_act"] is not None:
            parts.append(f"to_act:{v['to_act']}")
        return " ".join(parts)

    def resample(self, state: MuckenState, history: Sequence[int], player: int,
                 uniform: Uniform) -> list[int]:
        """Every seat keeps its deal positions; the other seats' hold the cards they
        played and a :func:`sample_world` of the unseen ones."""
        deal, dealer = list(history[:self.num_cards]), state.dealer
        own = self.deal.dealt(deal, dealer, player)
        hidden = sample_world(state, player, own, self.deal.counts(deal, dealer), uniform)
        played = played_by_seat(state)
        for seat in range(4):
            if seat != player:
                positions = [k for k in self.deal.positions(dealer, seat) if k < len(deal)]
                for k, card in zip(positions, [*played[seat], *hidden[seat]], strict=True):
                    deal[k] = self.codec.card_id(card)
        return [*deal, *history[self.num_cards:]]


def played_by_seat(ms: MuckenState) -> list[list[Card]]:
    """The cards each seat has played so far (finished tricks and the current one)."""
    out: list[list[Card]] = [[], [], [], []]
    t = ms.tricks
    for lead, cards in [*t.tricks, (t.leader, tuple(t.current))]:
        for i, c in enumerate(cards):
            out[(lead + i) % 4].append(c)
    return out


def _muss_caller(ms: MuckenState) -> int | None:
    """The seat known to hold the Muss-Spiel card: asked to call after four 'weiter'."""
    if ms.rules.no_game != "muss":
        return None
    if ms.phase == "muss":
        return ms.current_player
    calls = ms.calls
    if len(calls) >= 5 and all(w == "weiter" for _, w in calls[:4]):
        return calls[4][0]
    return None


def sample_world(ms: MuckenState, player: int, own: Sequence[Card], dealt_to: Sequence[int],
                 uniform: Uniform) -> list[list[Card]]:
    """The hidden cards of every other seat, drawn uniformly among the worlds with the hard
    facts ``player`` knows from public information and its cards ``own`` (dealt so far,
    played or held); ``dealt_to``: the cards each seat was dealt so far.  Reads no other
    hand.  ``result[player]`` is empty."""
    order = ms.order
    must_trump = ms.contract == "ramsch" and ms.rules.ramsch_stichzwang
    voids: list[set[int]] = [set(), set(), set(), set()]
    t = ms.tricks
    for lead, cards in [*t.tricks, (t.leader, tuple(t.current))]:
        for i, c in enumerate(cards[1:], start=1):
            k = order.klass(c)
            if k != order.klass(cards[0]):
                voids[(lead + i) % 4].add(order.klass(cards[0]))
                if must_trump and k != TRUMP:
                    voids[(lead + i) % 4].add(TRUMP)
    played = played_by_seat(ms)
    gone = {*own, *(c for p in played for c in p)}
    unseen = [c for c in _deck(ms.rules) if c not in gone]
    hidden = [0 if s == player else dealt_to[s] - len(played[s]) for s in range(4)]
    excluded = [{c for c in unseen if order.klass(c) in voids[s]} for s in range(4)]
    fixed: dict[Card, int] = {}
    muss_seat = _muss_caller(ms)
    if muss_seat is not None and muss_seat != player and Card.parse(ms.rules.muss_card) in unseen:
        fixed[Card.parse(ms.rules.muss_card)] = muss_seat
    out = deal_uniformly(unseen, [*hidden, len(unseen) - sum(hidden)], [*excluded, set()],
                         fixed, uniform)
    for hand in out[:4]:  # the order within a hand is not observable
        shuffle(hand, uniform)
    return out[:4]
