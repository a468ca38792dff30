"""Fixed integer action ids and observation tensors for Schafkopf, for learning code.

The engine keeps typed actions (a :class:`~stammtisch.cards.Card`, a
:class:`~stammtisch.engine.core.Say`); this module is the edge where they become integers
and arrays, for the PettingZoo environment (:mod:`.pettingzoo_env`) and the OpenSpiel game
(:mod:`.openspiel_game`).

Action ids (:class:`ActionCodec`) are the same for every rules object — 70 ids:

==============  ================================================================
id              action
==============  ================================================================
``0 .. 31``     play (or, in a Hochzeit, give) the card ``LONG_DECK[id]`` (suit by
                suit, Eichel, Gras, Herz, Schellen; ranks A 10 K O U 9 8 7)
``32 .. 57``    a game word of the bidding, lowest rank first (``sauspiel-eichel``
                … ``sie``, the order of :data:`~stammtisch.games.schafkopf.games.BID_GAMES`)
``58 .. 60``    the Muss-Spiel on a ten: ``sauspiel-eichel-zehn``, ``-gras-zehn``,
                ``-schellen-zehn``
``61 .. 64``    ``weiter``, ``gut``, ``lege``, ``annehmen``
``65 .. 69``    the table's Stoß words by position: ``65 + i`` is ``rules.stoss_words[i]``
                (``kontra``, ``re`` in ``standard``; at most :data:`MAX_STOSS` words)
==============  ================================================================

The shuffle has no id: the environments resolve chance themselves.

The observation (:class:`ObservationEncoder`) is built from ``state.view(seat)`` alone — the
view that hides other hands, the second packet during Legen, the card passed in a
Hochzeit and the partner of a Rufspiel until the called ace falls — so it cannot leak hidden
cards.  Seats are *relative* to the observer: ``r`` is absolute seat ``(seat + r) % 4``.
Every entry lies in ``[0, 1]``.  ``W = 29`` game words, ``P = 9`` phases.

=================  ===============  ==================================================
piece              shape            meaning
=================  ===============  ==================================================
``hand``           ``(32,)``        own cards (during Legen the first four only)
``played``         ``(4, 32)``      cards on the table so far, by relative seat
``trick``          ``(4, 32)``      the current trick's cards, by relative seat
``trick_leader``   ``(4,)``         who leads / led the current trick (play phase)
``tricks_won``     ``(4,)``         tricks taken by each relative seat, / 8
``augen``          ``(4,)``         Augen taken by each relative seat, / 120
``hand_sizes``     ``(4,)``         cards held by each relative seat, / 8
``phase``          ``(P,)``         shuffle legen bidding muss hochzeit exchange stossen
                                    play end
``to_act``         ``(4,)``         relative seat to act (all 0 at chance or the end)
``dealer``         ``(4,)``         relative seat of the dealer
``lege``           ``(4,)``         who said ``lege``
``bids``           ``(5, 4 + 1+W)`` the words of the bidding and the Muss call in order:
                                    relative seat, then ``weiter`` or a game word
``standing``       ``(W,)``         the highest game named so far
``contract``       ``(W + 1,)``     the game played (a game word, or ``ramsch``)
``declarer``       ``(4,)``         relative seat of the declarer
``called``         ``(32,)``        the called card of a Sauspiel / Muss-Spiel
``partner``        ``(4,)``         the declarer's partner once everybody knows him
``hochzeit``       ``(4, 2)``       answers to a Hochzeit: ``annehmen``, ``gut``
``stoss``          ``(5, 4)``       row ``i``: who said the ``i``-th Stoß word
``multiplier``     ``(1,)``         ``1 - 1/multiplier`` (Legen and Stoßen double)
``play_sequence``  ``(32, 32)``     only with ``perfect_recall``: row ``k`` is the
                                    ``k``-th card played
=================  ===============  ==================================================

>>> from stammtisch.games.schafkopf.rules import SchafkopfRules
>>> codec = ActionCodec(SchafkopfRules.preset("anleitung"))
>>> codec.num_actions, codec.encode(Say("weiter")), str(codec.decode(66)), str(codec.decode(0))
(70, 61, 'sup', 'EA')
>>> ObservationEncoder().size
623
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from stammtisch.cards import LONG_DECK, Card
from stammtisch.engine.core import Action, GameState, Say
from stammtisch.errors import InvalidActionError, RulesError
from stammtisch.games.schafkopf.games import BID_GAMES, MUSS_GAMES
from stammtisch.games.schafkopf.rules import SchafkopfRules

__all__ = ["GAME_WORDS", "MAX_STOSS", "NUM_ACTIONS", "PHASES", "ActionCodec",
           "ObservationEncoder", "Piece"]

#: the phases of :class:`~stammtisch.games.schafkopf.state.SchafkopfState`, in tensor order
PHASES: tuple[str, ...] = ("shuffle", "legen", "bidding", "muss", "hochzeit", "exchange",
                           "stossen", "play", "end")
#: every game word (bidding, then the Muss-Spiel on a ten)
GAME_WORDS: tuple[str, ...] = (*BID_GAMES, *(w for w in MUSS_GAMES if w not in BID_GAMES))
PLAIN_WORDS: tuple[str, ...] = ("weiter", "gut", "lege", "annehmen")
#: the most Stoß words a table may have for these ids
MAX_STOSS = 5
#: the bidding has one word per seat, and a Muss-Spiel call
MAX_BIDS = 5
CARD_IDS = 32
WORD_BASE = CARD_IDS
PLAIN_BASE = WORD_BASE + len(GAME_WORDS)
STOSS_BASE = PLAIN_BASE + len(PLAIN_WORDS)
NUM_ACTIONS = STOSS_BASE + MAX_STOSS

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]


class ActionCodec:
    """Stable integer ids for every action (see the module docstring); the Stoß ids name
    the words of ``rules``."""

    def __init__(self, rules: SchafkopfRules | None = None) -> None:
        rules = rules if rules is not None else SchafkopfRules.preset("standard")
        if len(rules.stoss_words) > MAX_STOSS:
            raise RulesError(f"stoss_words: at most {MAX_STOSS} words have action ids")
        self.rules = rules
        actions: list[Action | None] = [*LONG_DECK]
        actions.extend(Say(w) for w in GAME_WORDS)
        actions.extend(Say(w) for w in PLAIN_WORDS)
        stoss: list[Action | None] = [Say(w) for w in rules.stoss_words]
        actions.extend(stoss + [None] * (MAX_STOSS - len(stoss)))
        self.actions: tuple[Action | None, ...] = tuple(actions)
        self._ids: dict[Action, int] = {a: i for i, a in enumerate(actions) if a is not None}
        self.num_cards = CARD_IDS

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    def encode(self, action: Action) -> int:
        """The id of ``action``; :class:`InvalidActionError` if it has none (chance)."""
        try:
            return self._ids[action]
        except (KeyError, TypeError):
            raise InvalidActionError(f"{action}: not an action with an id") from None

    def decode(self, action_id: int) -> Action:
        """The action of ``action_id`` (any integer type)."""
        i = int(action_id)
        action = self.actions[i] if 0 <= i < NUM_ACTIONS else None
        if action is None:
            raise InvalidActionError(f"{action_id!r}: not an action id of these rules")
        return action

    def card_id(self, card: Card) -> int:
        return self._ids[card]

    def is_card(self, action_id: int) -> bool:
        return 0 <= action_id < CARD_IDS

    def name(self, action_id: int) -> str:
        return str(self.decode(action_id))

    def legal_ids(self, state: GameState) -> list[int]:
        """The ids of ``state.legal_actions()``, ascending."""
        ids = self._ids
        return sorted(ids[a] for a in state.legal_actions())

    def legal_mask(self, state: GameState) -> MaskArray:
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
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


_CARD = {str(c): i for i, c in enumerate(LONG_DECK)}
_AUGEN = {str(c): c.augen for c in LONG_DECK}
_BID_WORD = {w: i for i, w in enumerate(("weiter", *GAME_WORDS))}
_GAME = {w: i for i, w in enumerate(GAME_WORDS)}
_CONTRACT = {w: i for i, w in enumerate((*GAME_WORDS, "ramsch"))}
_PHASE = {p: i for i, p in enumerate(PHASES)}


class ObservationEncoder:
    """Turns ``state.view(seat)`` into a flat ``float32`` tensor (layout: module docstring)."""

    def __init__(self, *, perfect_recall: bool = False) -> None:
        self.perfect_recall = perfect_recall
        w = len(GAME_WORDS)
        shapes: list[tuple[str, tuple[int, ...]]] = [
            ("hand", (32,)), ("played", (4, 32)), ("trick", (4, 32)), ("trick_leader", (4,)),
            ("tricks_won", (4,)), ("augen", (4,)), ("hand_sizes", (4,)),
            ("phase", (len(PHASES),)), ("to_act", (4,)), ("dealer", (4,)), ("lege", (4,)),
            ("bids", (MAX_BIDS, 4 + 1 + w)), ("standing", (w,)), ("contract", (w + 1,)),
            ("declarer", (4,)), ("called", (32,)), ("partner", (4,)), ("hochzeit", (4, 2)),
            ("stoss", (MAX_STOSS, 4)), ("multiplier", (1,)),
        ]
        if perfect_recall:
            shapes.append(("play_sequence", (32, 32)))
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
        return {p.name: tensor[p.offset: p.offset + p.size].reshape(p.shape)
                for p in self.pieces}

    def encode(self, view: Mapping[str, Any], out: FloatArray | None = None) -> FloatArray:
        """The tensor of ``view`` (a ``SchafkopfState.view(seat)`` of a seat)."""
        seat: int | None = view["seat"]
        if seat is None:
            raise ValueError("the observation needs a seat's view, not a spectator's")
        if out is None:
            out = np.zeros(self.size, dtype=np.float32)
        else:
            out.fill(0.0)
        t = self.split(out)
        observer: int = seat

        def rel(s: int) -> int:
            return (s - observer) % 4

        for c in view["hand"]:
            t["hand"][_CARD[c]] = 1.0
        played = t["played"]
        sequence = t.get("play_sequence")
        k = 0
        for trick in view["tricks_played"]:
            winner = rel(trick["winner"])
            t["tricks_won"][winner] += 1.0 / 8
            for entry in trick["cards"]:
                ci = _CARD[entry["card"]]
                played[rel(entry["seat"]), ci] = 1.0
                t["augen"][winner] += _AUGEN[entry["card"]] / 120.0
                if sequence is not None:
                    sequence[k, ci] = 1.0
                k += 1
        current = view["trick"]
        for entry in current:
            ci = _CARD[entry["card"]]
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
                lead = view["to_act"]
            t["trick_leader"][rel(lead)] = 1.0
        for s, size in enumerate(view["hand_sizes"]):
            t["hand_sizes"][rel(s)] = size / 8.0
        t["phase"][_PHASE[phase]] = 1.0
        if view["to_act"] is not None:
            t["to_act"][rel(view["to_act"])] = 1.0
        t["dealer"][rel(view["dealer"])] = 1.0
        for s in view["lege"]:
            t["lege"][rel(s)] = 1.0
        bids = t["bids"]
        for i, b in enumerate(view["bids"][:MAX_BIDS]):
            bids[i, rel(b["seat"])] = 1.0
            bids[i, 4 + _BID_WORD[b["word"]]] = 1.0
        if view["standing"] is not None:
            t["standing"][_GAME[view["standing"]]] = 1.0
        contract = view["contract"]
        if contract is not None and contract in _CONTRACT:
            t["contract"][_CONTRACT[contract]] = 1.0
        if view["declarer"] is not None:
            t["declarer"][rel(view["declarer"])] = 1.0
        if view["called"] is not None:
            t["called"][_CARD[view["called"]]] = 1.0
        if view["partner"] is not None:
            t["partner"][rel(view["partner"])] = 1.0
        for answer in view["hochzeit"]:
            t["hochzeit"][rel(answer["seat"]), 0 if answer["word"] == "annehmen" else 1] = 1.0
        for i, s in enumerate(view["stoss"][:MAX_STOSS]):
            t["stoss"][i, rel(s["seat"])] = 1.0
        t["multiplier"][0] = 1.0 - 1.0 / max(1, int(view["multiplier"]))
        return out

    def describe(self) -> list[dict[str, Any]]:
        """The layout as JSON-ready data: name, shape, offset, size of each piece."""
        return [{"name": p.name, "shape": list(p.shape), "offset": p.offset, "size": p.size}
                for p in self.pieces]
