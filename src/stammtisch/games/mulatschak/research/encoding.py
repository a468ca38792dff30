"""Fixed integer action ids and observation tensors for Mulatschak (2–6 seats).

The engine's words name card sets (``tausche E7 G8``, ``ab HK S9``), far too many to give
each an id.  Here such a word is **chosen card by card**: :class:`Driver` keeps the cards
selected so far (a *pending selection*; the same seat stays to act) and applies the
engine's word when the selection is complete.  Cards are selected in deck order
(:data:`~stammtisch.games.mulatschak.state.DECK`), so every card set has exactly one
sequence of ids.  88 ids, the same for every table:

==============  ================================================================
id              action
==============  ================================================================
``0 .. 32``     the card ``DECK[id]``: played, or selected (tausche, sicht, ab)
``33 .. 64``    ``abheben 1`` … ``abheben 32``
``65``          ``klopfen``
``66 .. 70``    ``1``, ``2``, ``3``, ``4``, ``muli`` (in turn)
``71 .. 72``    ``bei mir``, ``weiter``
``73 .. 76``    ``trumpf E``, ``trumpf G``, ``trumpf H``, ``trumpf S``
``77``          ``weiss nicht``
``78 .. 79``    ``mit``, ``daheim``
``80 .. 83``    ``behalte``, ``sau``, ``sechs``, ``bruecke``
``84``          ``sicht``: the next card id names the card given away
``85``          ``fertig``: the cards selected so far are the ``tausche``
``86 .. 87``    ``nimm``, ``weg``
==============  ================================================================

A ``tausche`` starts with its first card id (only cards that can start a legal
``tausche``), goes on with higher cards while a larger ``tausche`` is legal, and ends with
``fertig``.  ``ab C…`` (after ``sau``, ``sechs``, a ``bruecke``, ``weiss nicht``): the card
ids in deck order, applied when as many as must go are selected.  **A Muli out of turn is
not offered** by the adapters (only ``muli`` in turn, id 70): a learning agent acts on its
turn only.  The shuffle has no id: the environments resolve chance themselves.

The observation (:class:`ObservationEncoder`) is built from ``state.view(seat)`` plus the
cards played in the finished tricks (public at the table; the view shows only the current
trick) and the seat's own pending selection — never another seat's hand.  Seats are
*relative*: ``r`` is absolute seat ``(seat + r) % n``; rows for seats beyond ``n`` stay 0
(``MAX_SEATS = 6``).  Every entry lies in ``[0, 1]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from stammtisch.cards import Card
from stammtisch.engine.core import Action, Say
from stammtisch.errors import IllegalActionError
from stammtisch.games.mulatschak.state import DECK, SUITS, MulatschakState, canonical

__all__ = ["MAX_SEATS", "NUM_ACTIONS", "WORDS", "Driver", "ObservationEncoder", "action_name"]

MAX_SEATS = 6
NUM_CARDS = len(DECK)
#: the word ids from 33 on, in order
WORDS: tuple[str, ...] = (
    *(f"abheben {k}" for k in range(1, 33)), "klopfen", "1", "2", "3", "4", "muli",
    "bei mir", "weiter", *(f"trumpf {s}" for s in SUITS), "weiss nicht", "mit", "daheim",
    "behalte", "sau", "sechs", "bruecke", "sicht", "fertig", "nimm", "weg")
NUM_ACTIONS = NUM_CARDS + len(WORDS)
_WORD_ID = {w: NUM_CARDS + i for i, w in enumerate(WORDS)}
SICHT = _WORD_ID["sicht"]
FERTIG = _WORD_ID["fertig"]
_INDEX = {c: i for i, c in enumerate(DECK)}
PHASES = ("shuffle", "cut", "bidding", "trump", "weiss_ab", "mitgehen", "exchange", "give",
          "play", "end")


def action_name(action: int) -> str:
    """The text of an action id (a card, or a word of :data:`WORDS`)."""
    if not 0 <= action < NUM_ACTIONS:
        raise IllegalActionError(f"action id {action}: not in 0..{NUM_ACTIONS - 1}",
                                 "invalid_action")
    return str(DECK[action]) if action < NUM_CARDS else WORDS[action - NUM_CARDS]


def _text(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in canonical(cards))


@dataclass
class Driver:
    """An engine state and the acting seat's pending card selection, driven by ids."""

    state: MulatschakState
    #: ``"tausche"``, ``"sicht"`` or ``"ab"`` while a selection is open
    mode: str | None = None
    chosen: list[Card] = field(default_factory=list)

    def clone(self) -> Driver:
        return Driver(self.state.clone(), self.mode, list(self.chosen))

    def _ab_count(self) -> int:
        s = self.state
        if s.phase == "weiss_ab" or (s.phase == "give" and s.to_discard):
            return s.to_discard
        return 0

    def legal_ids(self) -> list[int]:
        """The legal action ids of the seat to act (sorted; empty at the end)."""
        s = self.state
        if s.is_terminal():
            return []
        words = {str(a) for a in s.legal_actions()}
        hand = canonical(s.hands[s.current_player]) if s.current_player >= 0 else ()
        k = self._ab_count()
        if k:
            after = _INDEX[self.chosen[-1]] if self.chosen else -1
            need = k - len(self.chosen)
            ids = []
            for c in hand:
                i = _INDEX[c]
                if i > after and sum(1 for x in hand if _INDEX[x] > i) >= need - 1:
                    ids.append(i)
            return ids
        if s.phase == "play":
            return sorted(_INDEX[a] for a in s.legal_actions() if isinstance(a, Card))
        if self.mode == "sicht":
            return sorted(_INDEX[c] for c in hand if f"sicht {c}" in words)
        if self.mode == "tausche":
            after = _INDEX[self.chosen[-1]]
            ids = [_INDEX[c] for c in hand if _INDEX[c] > after
                   and f"tausche {_text([*self.chosen, c])}" in words]
            return sorted([*ids, FERTIG])
        ids = []
        if s.phase == "exchange":
            ids = [_INDEX[c] for c in hand if f"tausche {c}" in words]
            if any(w.startswith("sicht ") for w in words):
                ids.append(SICHT)
        ids += [_WORD_ID[w] for w in words if w in _WORD_ID]
        return sorted(ids)

    def apply(self, action: int) -> Action | None:
        """Apply an id (checked); the engine action when one was applied, else ``None``
        (a card added to the selection)."""
        if action not in self.legal_ids():
            name = action_name(action)
            raise IllegalActionError(f"action {action} ({name}) is not legal now "
                                     f"(phase {self.state.phase})")
        s = self.state
        k = self._ab_count()
        if k:
            self.chosen.append(DECK[action])
            if len(self.chosen) < k:
                return None
            return self._say(f"ab {_text(self.chosen)}")
        if s.phase == "play":
            card = DECK[action]
            s.apply(card)
            return card
        if self.mode == "sicht":
            return self._say(f"sicht {DECK[action]}")
        if action == SICHT:
            self.mode = "sicht"
            return None
        if action == FERTIG:
            return self._say(f"tausche {_text(self.chosen)}")
        if action < NUM_CARDS:  # a tausche card
            self.mode = "tausche"
            self.chosen.append(DECK[action])
            return None
        return self._say(WORDS[action - NUM_CARDS])

    def _say(self, word: str) -> Action:
        action = Say(word)
        self.state.apply(action)
        self.mode = None
        self.chosen = []
        return action


class ObservationEncoder:
    """A flat float32 vector of one seat's view (see the module); :meth:`split` names
    the pieces."""

    def __init__(self) -> None:
        n, m = MAX_SEATS, NUM_CARDS
        self.shapes: dict[str, tuple[int, ...]] = {
            "seats": (n,), "hand": (m,), "played": (n, m), "trick": (n, m), "phase": (
                len(PHASES),), "to_act": (n,), "dealer": (n,), "scores": (n,),
            "bid": (6,), "holder": (n,), "passed": (n,), "trump": (4,), "home": (n,),
            "tricks_won": (n,), "hand_sizes": (n,), "stock": (1,), "klopfen": (1,),
            "doubled": (1,), "shown": (m,), "revealed": (m,), "selection": (m,),
            "mode": (2,)}
        self.size = int(sum(int(np.prod(s)) for s in self.shapes.values()))

    def split(self, vector: np.ndarray[Any, Any]) -> dict[str, np.ndarray[Any, Any]]:
        out, at = {}, 0
        for name, shape in self.shapes.items():
            k = int(np.prod(shape))
            out[name] = vector[at:at + k].reshape(shape)
            at += k
        return out

    def encode(self, driver: Driver, seat: int, *, private: bool = True,
               out: np.ndarray[Any, Any] | None = None) -> np.ndarray[Any, Any]:
        """The observation of ``seat`` (``private=False``: without its own hand and
        selection, the public observation)."""
        vec = np.zeros(self.size, np.float32) if out is None else out
        vec[:] = 0.0
        p = self.split(vec)
        state = driver.state
        v = state.view(seat)
        n = state.num_seats

        def rel(s: int) -> int:
            return (s - seat) % n

        p["seats"][:n] = 1.0
        if private:
            for c in v["hand"]:
                p["hand"][_INDEX[Card.parse(c)]] = 1.0
            if state.current_player == seat:
                for c in driver.chosen:
                    p["selection"][_INDEX[c]] = 1.0
                if driver.mode == "tausche":
                    p["mode"][0] = 1.0
                elif driver.mode == "sicht":
                    p["mode"][1] = 1.0
        for trick in state.tricks_played:  # public: the cards played in finished tricks
            for s, c in trick:
                p["played"][rel(s), _INDEX[c]] = 1.0
        for s, c in v["trick"]:
            p["trick"][rel(s), _INDEX[Card.parse(c)]] = 1.0
            p["played"][rel(s), _INDEX[Card.parse(c)]] = 1.0
        p["phase"][PHASES.index(v["phase"])] = 1.0
        if v["to_act"] >= 0:
            p["to_act"][rel(v["to_act"])] = 1.0
        p["dealer"][rel(v["dealer"])] = 1.0
        for s, score in enumerate(v["scores"]):
            p["scores"][rel(s)] = min(1.0, max(0.0, score / 21))
        p["bid"][min(5, v["bid"])] = 1.0
        if v["holder"] is not None:
            p["holder"][rel(v["holder"])] = 1.0
        for s in state.passed:
            p["passed"][rel(s)] = 1.0
        if v["trump"] is not None:
            p["trump"][SUITS.index(v["trump"])] = 1.0
        for s in v["home"]:
            p["home"][rel(s)] = 1.0
        for w in v["trick_winners"]:
            p["tricks_won"][rel(w)] += 0.2
        for s, size in enumerate(v["hand_sizes"]):
            p["hand_sizes"][rel(s)] = min(1.0, size / 15)
        p["stock"][0] = v["stock_size"] / NUM_CARDS
        p["klopfen"][0] = float(v["klopfen"])
        p["doubled"][0] = min(1.0, v["doubled"] / 4)
        for c in v["shown"]:
            p["shown"][_INDEX[Card.parse(c)]] = 1.0
        if v["revealed"] is not None:
            p["revealed"][_INDEX[Card.parse(v["revealed"])]] = 1.0
        return vec
