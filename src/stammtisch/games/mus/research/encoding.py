"""Fixed integer action ids and observation tensors for Mus, for learning code.

The engine's words are :class:`~stammtisch.engine.core.Say` actions; this module is the
edge where they become integers and arrays, for the PettingZoo environment
(:mod:`.pettingzoo_env`) and the OpenSpiel game (:mod:`.openspiel_game`).

Action ids (:class:`ActionCodec`, 119 ids, the same for every rules object):

==============  ================================================================
id              action
==============  ================================================================
``0, 1``        ``mus``, ``no mus``
``2 .. 5``      ``paso``, ``quiero``, ``no quiero``, ``ordago``
``6 .. 103``    ``envido N`` for N = id − 4 (2 … 99)
``104 .. 118``  ``descarte``: bit ``i`` of ``id − 103`` (1 … 15) discards the ``i``-th
                card of the hand in its current order
==============  ================================================================

**Bounds** (:class:`Limits`, research only): the engine lets the Mus rounds and the raises
of a lance go on without end; the adapters mask ``mus`` after ``max_mus_rounds`` discard
rounds and every ``envido`` after ``max_bets`` bets in a lance (``ordago``, ``quiero``,
``no quiero`` stay), so a hand has a bounded length (OpenSpiel needs one).  Defaults: 3
discard rounds, 4 bets.

The observation (:class:`ObservationEncoder`) is built from ``state.view(seat)`` alone (the
view hides the other hands and the cards the others discarded), read through the bots'
:func:`~stammtisch.games.mus.bots.equity.observe`.  Seats are relative to the observer:
``r`` is absolute seat ``(seat + r) % 4``.  Every entry lies in ``[0, 1]``.

================  =========  ==========================================================
piece             shape      meaning
================  =========  ==========================================================
``hand``          ``(40,)``  own cards (``SPANISH_DECK`` order)
``phase``         ``(6,)``   shuffle mus discard reshuffle lances end
``to_act``        ``(4,)``   relative seat to act
``mano``          ``(4,)``   relative seat of Mano
``score``         ``(2,)``   own pair's and the other pair's points / target (≤ 1)
``mus_rounds``    ``(1,)``   discard rounds so far / 4 (≤ 1)
``discards``      ``(4,)``   cards discarded in the last round by relative seat / 4
``lance``         ``(5,)``   the lance being bet: grande chica pares juego punto
``pares``         ``(4,)``   relative seats that declared Pares
``juego``         ``(4,)``   relative seats that declared Juego
``bettor``        ``(4,)``   relative seat of the last bet in the lance
``refused``       ``(4,)``   relative seats that said ``no quiero`` in the lance
``stake``         ``(3,)``   stake / 100, stake before the last bet / 100, ordago
``bets``          ``(1,)``   bets in the lance / 4 (≤ 1)
================  =========  ==========================================================

>>> codec = ActionCodec()
>>> codec.num_actions, codec.encode_word("envido 2"), codec.name(103), codec.name(118)
(119, 6, 'envido 99', 'descarte 1111')
>>> ObservationEncoder().size
86
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from stammtisch.cards import SPANISH_DECK, Card
from stammtisch.engine.core import Action, GameState, Say
from stammtisch.errors import IllegalActionError, InvalidActionError
from stammtisch.games.mus.bots.equity import observe
from stammtisch.games.mus.rules import MusRules
from stammtisch.games.mus.state import MAX_ENVIDO, MusState

__all__ = ["NUM_ACTIONS", "ActionCodec", "Limits", "ObservationEncoder"]

_WORDS = ("mus", "no mus", "paso", "quiero", "no quiero", "ordago")
_ENVIDO0 = 6
_DESCARTE0 = _ENVIDO0 + MAX_ENVIDO - 1  # 104
NUM_ACTIONS = _DESCARTE0 + 15  # 119
_CARD_INDEX = {c: i for i, c in enumerate(SPANISH_DECK)}
_PHASES = ("shuffle", "mus", "discard", "reshuffle", "lances", "end")
_LANCES = ("grande", "chica", "pares", "juego", "punto")


@dataclass(frozen=True)
class Limits:
    """The research adapters' bounds on a hand's length (see the module text)."""

    max_mus_rounds: int = 3
    max_bets: int = 4

    def __post_init__(self) -> None:
        if self.max_mus_rounds < 0 or self.max_bets < 1:
            raise ValueError(f"{self}: max_mus_rounds >= 0 and max_bets >= 1")


def _mus_rounds(view: Mapping[str, Any]) -> int:
    """Discard rounds so far: every one follows four ``mus`` (own discards are not in
    a seat's words, the ``mus`` are)."""
    return sum(1 for _, w in view["words"] if w == "mus") // 4


class ActionCodec:
    """Action ids <-> engine actions (the ``descarte`` ids need the state's hand)."""

    num_actions = NUM_ACTIONS

    def encode_word(self, word: str) -> int:
        """The id of a word that names no cards."""
        if word in _WORDS:
            return _WORDS.index(word)
        if word.startswith("envido "):
            n = int(word.split()[1])
            if 2 <= n <= MAX_ENVIDO:
                return _ENVIDO0 + n - 2
        raise InvalidActionError(f"{word!r} has no action id")

    def encode(self, action: Action, state: MusState) -> int:
        """The id of ``action`` for the seat to act in ``state``."""
        if not isinstance(action, Say):
            raise InvalidActionError(f"{action} has no action id")
        word = action.word
        if word.startswith("descarte "):
            hand = [str(c) for c in state.hands[state.current_player]]
            mask = 0
            for name in word.split()[1:]:
                if name not in hand:
                    raise InvalidActionError(f"{word!r}: {name} is not in the hand")
                mask |= 1 << hand.index(name)
            return _DESCARTE0 + mask - 1
        return self.encode_word(word)

    def decode(self, action_id: int, state: MusState) -> Say:
        """The action of id ``action_id`` for the seat to act in ``state``."""
        if not 0 <= action_id < NUM_ACTIONS:
            raise InvalidActionError(f"action id {action_id} (ids are 0..{NUM_ACTIONS - 1})")
        if action_id < _ENVIDO0:
            return Say(_WORDS[action_id])
        if action_id < _DESCARTE0:
            return Say(f"envido {action_id - _ENVIDO0 + 2}")
        mask = action_id - _DESCARTE0 + 1
        seat = state.current_player
        if seat < 0:
            raise IllegalActionError(f"action id {action_id}: nobody is to discard")
        hand = state.hands[seat]
        if mask >= 1 << len(hand):
            raise IllegalActionError(f"action id {action_id}: the hand has {len(hand)} cards")
        return Say("descarte " + " ".join(str(c) for i, c in enumerate(hand) if mask >> i & 1))

    def name(self, action_id: int) -> str:
        """A readable name of an id (``descarte`` as its bit mask, first card first)."""
        if _DESCARTE0 <= action_id < NUM_ACTIONS:
            mask = action_id - _DESCARTE0 + 1
            return "descarte " + "".join("1" if mask >> i & 1 else "0" for i in range(4))
        if _ENVIDO0 <= action_id < _DESCARTE0:
            return f"envido {action_id - _ENVIDO0 + 2}"
        if 0 <= action_id < _ENVIDO0:
            return _WORDS[action_id]
        raise InvalidActionError(f"action id {action_id} (ids are 0..{NUM_ACTIONS - 1})")

    def legal_ids(self, state: GameState, limits: Limits | None = None) -> list[int]:
        """The legal ids of the seat to act, sorted (within ``limits``)."""
        if not isinstance(state, MusState) or state.current_player < 0:
            return []
        limits = limits or Limits()
        ids = sorted(self.encode(a, state) for a in state.legal_actions())
        if state.phase == "mus" and _mus_rounds(state.view(None)) >= limits.max_mus_rounds:
            ids = [i for i in ids if i != 0]
        if state.phase == "lances":
            view = state.view(state.current_player)
            bet = observe(view, state.rules).lance_bet
            if bet is not None and bet.bets >= limits.max_bets:
                ids = [i for i in ids if not _ENVIDO0 <= i < _DESCARTE0]
        return ids

    def legal_mask(self, state: GameState, limits: Limits | None = None) -> npt.NDArray[np.int8]:
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[self.legal_ids(state, limits)] = 1
        return mask


_PIECES: tuple[tuple[str, int], ...] = (
    ("hand", 40), ("phase", 6), ("to_act", 4), ("mano", 4), ("score", 2), ("mus_rounds", 1),
    ("discards", 4), ("lance", 5), ("pares", 4), ("juego", 4), ("bettor", 4), ("refused", 4),
    ("stake", 3), ("bets", 1),
)


class ObservationEncoder:
    """A flat ``float32`` tensor of one seat's view (pieces in the module text)."""

    def __init__(self, rules: MusRules | None = None) -> None:
        self.rules = rules or MusRules.preset("duples")
        self.size = sum(n for _, n in _PIECES)

    def split(self, tensor: npt.NDArray[np.float32]) -> dict[str, npt.NDArray[np.float32]]:
        """Views of the pieces of ``tensor`` by name."""
        out = {}
        k = 0
        for name, n in _PIECES:
            out[name] = tensor[k:k + n]
            k += n
        return out

    def encode(self, view: Mapping[str, Any],
               out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """The tensor of ``view`` (a ``state.view(seat)``), into ``out`` if given."""
        t = np.zeros(self.size, np.float32) if out is None else out
        t[:] = 0.0
        p = self.split(t)
        seat = int(view["seat"])

        def rel(s: int) -> int:
            return (s - seat) % 4

        for c in view.get("hand", []):
            p["hand"][_CARD_INDEX[Card.parse(c)]] = 1.0
        if view["phase"] in _PHASES:
            p["phase"][_PHASES.index(view["phase"])] = 1.0
        if view["to_act"] is not None and view["to_act"] >= 0:
            p["to_act"][rel(view["to_act"])] = 1.0
        p["mano"][rel(view["mano"])] = 1.0
        target = self.rules.target
        p["score"][0] = min(view["score"][seat % 2] / target, 1.0)
        p["score"][1] = min(view["score"][1 - seat % 2] / target, 1.0)
        rounds = _mus_rounds(view)
        p["mus_rounds"][0] = min(rounds / 4, 1.0)
        for who, w in view["words"][-12:]:
            if str(w).startswith("descarte"):
                p["discards"][rel(who)] = (len(str(w).split()) - 1) / 4
        if view["phase"] in ("lances", "end"):
            obs = observe({**view, "hand": view.get("hand", [])}, self.rules)
            for s in obs.pares or ():
                p["pares"][rel(s)] = 1.0
            for s in obs.juego or ():
                p["juego"][rel(s)] = 1.0
            bet = obs.lance_bet
            if bet is not None and view["phase"] == "lances":
                p["lance"][_LANCES.index(bet.lance)] = 1.0
                if bet.bettor >= 0:
                    p["bettor"][rel(bet.bettor)] = 1.0
                for s in bet.refused:
                    p["refused"][rel(s)] = 1.0
                p["stake"][0] = min(bet.stake / 100, 1.0)
                p["stake"][1] = min(bet.stake_before / 100, 1.0)
                p["stake"][2] = float(bet.ordago)
                p["bets"][0] = min(bet.bets / 4, 1.0)
        return t
