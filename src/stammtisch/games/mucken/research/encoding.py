"""Fixed integer action ids and observation tensors for Mucken, for learning code.

The public API of :mod:`stammtisch` keeps typed actions (a :class:`~stammtisch.cards.Card`,
a :class:`~stammtisch.engine.core.Say`, a :class:`~stammtisch.engine.core.Cut`); this module
is the edge where they become integers and arrays, for the PettingZoo environment
(:mod:`stammtisch.games.mucken.research.pettingzoo_env`) and the OpenSpiel game
(:mod:`stammtisch.games.mucken.research.openspiel_game`).

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

The chance actions (:class:`~stammtisch.engine.core.Shuffle`,
:class:`~stammtisch.engine.core.Deal`) have no id: the environments resolve chance
themselves.

The observation (:class:`ObservationEncoder`) is built from ``state.view(seat)`` alone — the
JSON-ready view that hides other hands at the source — so it cannot leak hidden cards. Seats
are *relative* to the observer: relative seat ``r`` is absolute seat ``(seat + r) % 4``, so
``0`` is the observer, ``1`` the left neighbour (next to play), ``2`` the partner and ``3``
the right neighbour.  Every entry lies in ``[0, 1]``.  ``K = 4 * B + 5`` bounds the number
of calls of one game (at most ``B`` raises, at most three ``weiter`` between two raises,
before the first and after the last one, plus a Muss-Spiel call).  The pieces, in order:

=================  ==================  ===============================================
piece              shape               meaning
=================  ==================  ===============================================
``hand``           ``(N,)``            own cards
``played``         ``(4, N)``          cards already on the table (finished tricks and
                                       the current one), by relative seat
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
                                       ``k``-th card played (who played it follows from
                                       ``dealer`` and the trick winners)
=================  ==================  ===============================================

>>> from stammtisch.games.mucken.rules import MuckenRules
>>> codec = ActionCodec(MuckenRules.preset("seefest"))
>>> codec.num_actions, codec.encode(Say("weiter")), str(codec.decode(0))
(58, 30, 'EA')
>>> enc = ObservationEncoder(MuckenRules.preset("seefest"))
>>> enc.size, enc.shape("calls")
(640, (29, 12))
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from stammtisch.cards import LONG_DECK, SHORT_DECK, Card
from stammtisch.engine.core import Action, Cut, GameState, Say
from stammtisch.errors import InvalidActionError
from stammtisch.games.mucken.rules import DOUBLING_WORDS, MuckenRules

__all__ = [
    "PHASES",
    "ActionCodec",
    "ObservationEncoder",
    "Piece",
    "max_calls",
]

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
        actions: list[Action] = list(self.deck)
        actions.extend(Say(name) for name in rules.bid_names())
        actions.append(Say("weiter"))
        actions.extend(Say(w) for w in DOUBLING_WORDS)
        actions.append(Say("gut"))
        if rules.cut_max_times > 0:
            n = len(self.deck)
            actions.extend(Cut(k) for k in range(rules.cut_min, n - rules.cut_min_left + 1))
        actions.extend((Say("geben"), Say("klopfen"), Say("ramsch")))
        self.actions: tuple[Action, ...] = tuple(actions)
        self._ids: dict[Action, int] = {a: i for i, a in enumerate(actions)}
        self.num_cards = len(self.deck)

    @property
    def num_actions(self) -> int:
        return len(self.actions)

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

    def is_card(self, action_id: int) -> bool:
        return 0 <= action_id < self.num_cards

    def name(self, action_id: int) -> str:
        """The text form of the action (as ``str(action)`` writes it)."""
        return str(self.decode(action_id))

    def legal_ids(self, state: GameState) -> list[int]:
        """The ids of ``state.legal_actions()``, ascending."""
        ids = self._ids
        return sorted(ids[a] for a in state.legal_actions())

    def legal_mask(self, state: GameState) -> MaskArray:
        mask = np.zeros(len(self.actions), dtype=np.int8)
        for a in state.legal_actions():
            mask[self._ids[a]] = 1
        return mask


@dataclass(frozen=True, slots=True)
class Piece:
    """One named part of the flat observation tensor."""

    name: str
    shape: tuple[int, ...]
    offset: int

    @property
    def size(self) -> int:
        return math.prod(self.shape)


class ObservationEncoder:
    """Turns ``state.view(seat)`` into a flat ``float32`` tensor (layout: module docstring)."""

    def __init__(self, rules: MuckenRules, *, perfect_recall: bool = False) -> None:
        self.rules = rules
        self.perfect_recall = perfect_recall
        deck = _deck(rules)
        n = len(deck)
        b = len(rules.bids)
        self.num_cards = n
        self.hand_size = rules.hand_size
        self.max_calls = max_calls(rules)
        self._card: dict[str, int] = {str(c): i for i, c in enumerate(deck)}
        words = ["weiter", *rules.bid_names(), "ramsch"]
        self._word: dict[str, int] = {w: i for i, w in enumerate(words)}
        self._bid: dict[str, int] = {w: i for i, w in enumerate(rules.bid_names())}
        contracts = [*rules.bid_names(), *NO_BID_CONTRACTS]
        self._contract: dict[str, int] = {w: i for i, w in enumerate(contracts)}
        self._phase: dict[str, int] = {p: i for i, p in enumerate(PHASES)}
        shapes: list[tuple[str, tuple[int, ...]]] = [
            ("hand", (n,)),
            ("played", (4, n)),
            ("trick", (4, n)),
            ("trick_leader", (4,)),
            ("tricks_won", (4,)),
            ("augen", (2,)),
            ("hand_sizes", (4,)),
            ("phase", (len(PHASES),)),
            ("to_act", (4,)),
            ("dealer", (4,)),
            ("cuts", (MAX_CUTS,)),
            ("klopfen", (1,)),
            ("calls", (self.max_calls, 4 + len(words))),
            ("standing_bid", (b,)),
            ("bid_holder", (4,)),
            ("contract", (len(contracts),)),
            ("declarer", (4,)),
            ("doublings", (len(DOUBLING_WORDS), 4)),
            ("factor", (1,)),
        ]
        if perfect_recall:
            shapes.append(("play_sequence", (n, n)))
        pieces: list[Piece] = []
        offset = 0
        for name, shape in shapes:
            p = Piece(name, shape, offset)
            pieces.append(p)
            offset += p.size
        self.pieces: tuple[Piece, ...] = tuple(pieces)
        self._by_name = {p.name: p for p in pieces}
        self.size = offset

    def shape(self, name: str) -> tuple[int, ...]:
        return self._by_name[name].shape

    def split(self, tensor: FloatArray) -> dict[str, FloatArray]:
        """Named, reshaped views into ``tensor`` (no copies)."""
        return {p.name: tensor[p.offset : p.offset + p.size].reshape(p.shape)
                for p in self.pieces}

    def encode(self, view: Mapping[str, Any], out: FloatArray | None = None) -> FloatArray:
        """The tensor of ``view`` (a ``MuckenState.view(seat)`` for a seat, not a spectator).

        Writes into ``out`` (zeroed first) when given, else into a new array.
        """
        seat: int | None = view["seat"]
        if seat is None:
            raise ValueError("the observation needs a seat's view, not a spectator's")
        if out is None:
            out = np.zeros(self.size, dtype=np.float32)
        else:
            out.fill(0.0)
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
        won = t["tricks_won"]
        for trick in view["tricks_played"]:
            won[rel(trick["winner"])] += 1.0 / h
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
            played[r, ci] = 1.0
            t["trick"][r, ci] = 1.0
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
        calls = t["calls"]
        if len(view["calls"]) > self.max_calls:
            raise ValueError(f"{len(view['calls'])} calls, more than the bound {self.max_calls}")
        for i, call in enumerate(view["calls"]):
            calls[i, rel(call["seat"])] = 1.0
            calls[i, 4 + self._word[call["call"]]] = 1.0
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

    def describe(self) -> list[dict[str, Any]]:
        """The layout as JSON-ready data: name, shape, offset, size of each piece."""
        return [{"name": p.name, "shape": list(p.shape), "offset": p.offset, "size": p.size}
                for p in self.pieces]


def decode_ids(codec: ActionCodec, ids: Sequence[int]) -> list[str]:
    """The text forms of several ids (handy in logs)."""
    return [codec.name(i) for i in ids]
