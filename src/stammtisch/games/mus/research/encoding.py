"""Mus's research encoding: action ids, observation tensors and strings, for the PettingZoo
environment and OpenSpiel game written once (:mod:`stammtisch.research`).  The 119 ids
(the same for every rules object: the words, ``envido 2`` … ``envido 99``, and a
``descarte`` as a bit mask of the hand in its current order) and the 86 floats of the
tensor are in docs/research.md.

**Bounds** (:class:`Limits`, research only): the engine lets the Mus rounds and the raises
of a lance go on without end; the adapters mask ``mus`` after ``max_mus_rounds`` discard
rounds and every ``envido`` after ``max_bets`` bets in a lance (``ordago``, ``quiero``,
``no quiero`` stay), so a hand has a bounded length (OpenSpiel needs one).  Defaults: 3
discard rounds, 4 bets.  **Rewards** are each seat's pair's points of the hand minus the
other pair's (:func:`~stammtisch.games.mus.statistics.hand_points`: an accepted ordago
credits the winner with the points it still needed), zero-sum.  OpenSpiel places the
shuffle and each reshuffle of the discards one card per chance node.

The observation (:class:`ObservationEncoder`) is built from ``state.view(seat)`` alone,
read through the bots' :func:`~stammtisch.games.mus.bots.equity.observe`, seats relative
to the observer.  The information-state string (perfect recall) lists, in order, the
player's hand whenever it changes and every word as the player heard it (its own discards
by card, the others' by number).

>>> codec = ActionCodec()
>>> codec.num_actions, codec.encode_word("envido 2"), codec.name(103), codec.name(118)
(119, 6, 'envido 99', 'descarte 1111')
>>> ObservationEncoder().size
86
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from stammtisch.cards import SPANISH_DECK, Card
from stammtisch.engine.core import CHANCE, Action, GameState, Say
from stammtisch.errors import IllegalActionError, InvalidActionError
from stammtisch.games.base.encoding import GameEncoding, Layout, ObservationText, Seats, one_hot
from stammtisch.games.mus.bots.equity import observe
from stammtisch.games.mus.rules import MusRules
from stammtisch.games.mus.state import MAX_ENVIDO, MusState
from stammtisch.games.mus.statistics import hand_points

__all__ = ["NUM_ACTIONS", "ActionCodec", "Limits", "MusEncoding", "ObservationEncoder"]

_WORDS = ("mus", "no mus", "paso", "quiero", "no quiero", "ordago")
_ENVIDO0 = 6
_DESCARTE0 = _ENVIDO0 + MAX_ENVIDO - 1  # 104
NUM_ACTIONS = _DESCARTE0 + 15  # 119
_CARD_INDEX = {c: i for i, c in enumerate(SPANISH_DECK)}
_PHASES = ("shuffle", "mus", "discard", "reshuffle", "lances", "end")
_LANCES = ("grande", "chica", "pares", "juego", "punto")

if TYPE_CHECKING:
    from stammtisch.games.base.encoding import FloatArray


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
        if word.startswith("envido ") and 2 <= int(word.split()[1]) <= MAX_ENVIDO:
            return _ENVIDO0 + int(word.split()[1]) - 2
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
        if action_id < _DESCARTE0:
            return Say(self.name(action_id))
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
            bet = observe(state.view(state.current_player), state.rules).lance_bet
            if bet is not None and bet.bets >= limits.max_bets:
                ids = [i for i in ids if not _ENVIDO0 <= i < _DESCARTE0]
        return ids


class ObservationEncoder(Layout):
    """A flat ``float32`` tensor of one seat's view (pieces in the module text)."""

    def __init__(self, rules: MusRules | None = None) -> None:
        self.rules = rules or MusRules.preset("duples")
        super().__init__([(name, (n,)) for name, n in (
            ("hand", 40), ("phase", 6), ("to_act", 4), ("mano", 4), ("score", 2),
            ("mus_rounds", 1), ("discards", 4), ("lance", 5), ("pares", 4), ("juego", 4),
            ("bettor", 4), ("refused", 4), ("stake", 3), ("bets", 1))])

    def encode(self, view: Mapping[str, Any], out: FloatArray | None = None) -> FloatArray:
        """The tensor of ``view`` (a ``state.view(seat)``), into ``out`` if given."""
        t = self.cleared(out)
        p = self.split(t)
        seat = int(view["seat"])
        rel = Seats(seat)
        one_hot(p["hand"], _CARD_INDEX, *map(Card.parse, view.get("hand", [])))
        if view["phase"] in _PHASES:
            p["phase"][_PHASES.index(view["phase"])] = 1.0
        if view["to_act"] is not None and view["to_act"] >= 0:
            p["to_act"][rel[view["to_act"]]] = 1.0
        p["mano"][rel[view["mano"]]] = 1.0
        target = self.rules.target
        p["score"][0] = min(view["score"][seat % 2] / target, 1.0)
        p["score"][1] = min(view["score"][1 - seat % 2] / target, 1.0)
        p["mus_rounds"][0] = min(_mus_rounds(view) / 4, 1.0)
        for who, w in view["words"][-12:]:
            if str(w).startswith("descarte"):
                p["discards"][rel[who]] = (len(str(w).split()) - 1) / 4
        if view["phase"] in ("lances", "end"):
            obs = observe({**view, "hand": view.get("hand", [])}, self.rules)
            one_hot(p["pares"], rel, *(obs.pares or ()))
            one_hot(p["juego"], rel, *(obs.juego or ()))
            bet = obs.lance_bet
            if bet is not None and view["phase"] == "lances":
                p["lance"][_LANCES.index(bet.lance)] = 1.0
                if bet.bettor >= 0:
                    p["bettor"][rel[bet.bettor]] = 1.0
                one_hot(p["refused"], rel, *bet.refused)
                p["stake"][0] = min(bet.stake / 100, 1.0)
                p["stake"][1] = min(bet.stake_before / 100, 1.0)
                p["stake"][2] = float(bet.ordago)
                p["bets"][0] = min(bet.bets / 4, 1.0)
        return t


class MusEncoding(GameEncoding):
    """Mus's :class:`~stammtisch.games.base.encoding.Encoding`: hands from the score
    ``(score0, score1)``, within ``Limits(max_mus_rounds, max_bets)``."""

    num_actions = NUM_ACTIONS
    num_cards = 0  # no player id names a card (the chance outcomes do)
    max_chance_outcomes = 40
    chance_deck = SPANISH_DECK
    chance_word = "card"

    def __init__(self, rules: MusRules, score0: int = 0, score1: int = 0,
                 max_mus_rounds: int = 3, max_bets: int = 4) -> None:
        if not all(0 <= s < rules.target for s in (score0, score1)):
            raise ValueError(f"score={(score0, score1)}: each from 0 to target - 1")
        self.rules, self.score = rules, (score0, score1)
        self.limits = Limits(max_mus_rounds, max_bets)
        self.params: Mapping[str, int] = {
            "score0": score0, "score1": score1, "max_mus_rounds": max_mus_rounds,
            "max_bets": max_bets}
        self.codec = ActionCodec()
        encoder = ObservationEncoder(rules)
        self.encoders = (encoder, encoder)
        self.observation_shape: tuple[int, ...] = (encoder.size,)
        # accepted stakes in four lances, the bonuses (pares 6, juego 6, punto, the en-paso
        # points) and the credit of an ordago (at most the target)
        self.max_utility = float(4 * MAX_ENVIDO * max_bets + 6 + 6 + rules.punto_bonus + 2
                                 + rules.target)
        # the shuffle; per discard round 4 mus, 4 descarte and at most one reshuffle (24
        # cards); the last Mus round; per lance 3 passes, the bets, two refusals after
        # each, one quiero
        lance = 3 + 3 * (max_bets + 1) + 1
        self.max_game_length = 40 + max_mus_rounds * (8 + 24) + 4 + 4 * lance

    def initial_state(self, dealer: int) -> MusState:
        return MusState(self.rules, dealer, self.score)

    def drawable(self, state: MusState) -> list[int]:
        """The shuffle's cards: the deck, then the discards being reshuffled."""
        cards = SPANISH_DECK if state.phase == "shuffle" else state.pool
        return sorted(_CARD_INDEX[c] for c in cards)

    def player_ids(self, state: MusState, pending: Sequence[int] = ()) -> list[int]:
        return self.codec.legal_ids(state, self.limits)

    def action_index(self, action: Action, state: MusState) -> int:
        return self.codec.encode(action, state)

    def player_action(self, state: MusState, ids: Sequence[int]) -> Action | None:
        if ids[-1] not in self.legal_ids(state):
            raise IllegalActionError(
                f"action id {ids[-1]} ({self.codec.name(ids[-1])}) is not legal now")
        return self.codec.decode(ids[-1], state)

    def player_name(self, index: int) -> str:
        return self.codec.name(index)

    def returns(self, state: MusState) -> list[float]:
        if not state.is_terminal():
            return [0.0] * 4
        pts = hand_points(state)
        diff = float(pts[0] - pts[1])
        return [diff, -diff, diff, -diff]

    def view(self, state: MusState, seat: int, pending: Sequence[int] = (),
             private: bool = True) -> dict[str, Any]:
        """``state.view(seat)``, without the hand during the shuffle or unless ``private``."""
        v: dict[str, Any] = state.view(seat)
        if state.phase == "shuffle" or not private:
            v["hand"] = []
        return v

    def observation_string(self, state: MusState, seat: int, pending: Sequence[int] = (),
                           *, private: bool = True, perfect_recall: bool = False) -> str:
        placed = len(pending) if state.current_player == CHANCE else 0
        if perfect_recall:
            return f"p{seat} placed:{placed if state.phase == 'shuffle' else 0} " + " | ".join(
                self._heard(state, seat, private))
        v = self.view(state, seat)
        text = ObservationText(f"p{seat}", str(v["phase"]))
        text.add("score", f"{v['score'][0]}:{v['score'][1]}")
        text.add("placed", placed, when=state.phase == "shuffle")
        text.add("hand", " ".join(v["hand"]), when=private)
        text.add("lance", v.get("lance"), when=v.get("lance"))
        text.add("words", " ".join(f"{w[0]}:{w[1]}" for w in v["words"][-8:]))
        return str(text)

    def _heard(self, state: MusState, seat: int, private: bool) -> list[str]:
        """Every word as ``seat`` heard it and (``private``) its hand whenever it changed
        to four cards, replayed from the hand's start."""
        replay = MusState(self.rules, state.dealer, state.start_score)
        log = []
        for who, action in state.history:
            before = list(replay.hands[seat])
            replay.apply_unchecked(action)
            if who >= 0:
                word = str(action)
                if word.startswith("descarte ") and (who != seat or not private):
                    word = f"descarte {len(word.split()) - 1}"
                log.append(f"{who}:{word}")
            if private and replay.hands[seat] != before and len(replay.hands[seat]) == 4:
                log.append("h:" + " ".join(str(c) for c in replay.hands[seat]))
        return log
