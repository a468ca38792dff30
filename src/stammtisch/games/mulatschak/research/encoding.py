"""Mulatschak's research encoding (2–6 seats): action ids, observation tensors and strings,
for the PettingZoo environment and OpenSpiel game written once (:mod:`stammtisch.research`).
The 88 ids (the same for every table) and the tensor layout are in docs/research.md.

The engine's words name card sets (``tausche E7 G8``, ``ab HK S9``), far too many to give
each an id.  Here such a word is **chosen card by card**: the ids chosen so far are a
*pending selection* (the same seat stays to act) and the engine's word is applied when
the selection is complete (:func:`action_of`; :class:`Driver` drives a state by ids).
Cards are selected in deck order (:data:`~stammtisch.games.mulatschak.state.DECK`), so
every card set has exactly one sequence of ids: a ``tausche`` starts with its first card
(only cards that can start a legal ``tausche``), goes on with higher cards while a larger
``tausche`` is legal and ends with ``fertig``; ``sicht`` is followed by the card given
away; ``ab C…`` takes the card ids in deck order and is applied with the last one.  **A
Muli out of turn is not offered** (only ``muli`` in turn): a learning agent acts on its
turn only.  OpenSpiel draws the shuffle one card per chance node (the deck, top first).
Rewards are ``returns()``: minus the hand's score change.

The observation (:class:`ObservationEncoder`) is built from ``state.view(seat)`` plus the
cards played in the finished tricks (public at the table) and the seat's own pending
selection — never another seat's hand.  Seats are relative (rows for up to six seats).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from stammtisch.cards import Card
from stammtisch.engine.core import Action, Say
from stammtisch.errors import IllegalActionError, InvalidActionError
from stammtisch.games.base.encoding import GameEncoding, Layout, ObservationText, Seats, one_hot
from stammtisch.games.mulatschak.rules import MulatschakRules
from stammtisch.games.mulatschak.state import DECK, SUITS, MulatschakState, canonical

__all__ = ["MAX_SEATS", "NUM_ACTIONS", "WORDS", "Driver", "MulatschakEncoding",
           "ObservationEncoder", "action_name", "action_of", "legal_ids"]

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

if TYPE_CHECKING:
    from stammtisch.games.base.encoding import FloatArray


def action_name(action: int) -> str:
    """The text of an action id (a card, or a word of :data:`WORDS`)."""
    if not 0 <= action < NUM_ACTIONS:
        raise IllegalActionError(f"action id {action}: not in 0..{NUM_ACTIONS - 1}",
                                 "invalid_action")
    return str(DECK[action]) if action < NUM_CARDS else WORDS[action - NUM_CARDS]


def _text(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in canonical(cards))


def _ab_count(s: MulatschakState) -> int:
    return s.to_discard if s.phase == "weiss_ab" or (s.phase == "give" and s.to_discard) else 0


def selection(state: MulatschakState, pending: Sequence[int]) -> tuple[str | None, list[Card]]:
    """The open selection: ``"tausche"``, ``"sicht"`` or ``None``, and the cards chosen."""
    if pending and not _ab_count(state) and pending[0] == SICHT:
        return "sicht", []
    chosen = [DECK[i] for i in pending]
    return ("tausche" if chosen and not _ab_count(state) else None), chosen


def legal_ids(s: MulatschakState, pending: Sequence[int] = ()) -> list[int]:
    """The legal ids of the seat to act after the ids ``pending`` (sorted; empty at the end)."""
    if s.is_terminal():
        return []
    mode, chosen = selection(s, pending)
    words = {str(a) for a in s.legal_actions()}
    hand = canonical(s.hands[s.current_player]) if s.current_player >= 0 else ()
    k = _ab_count(s)
    if k:
        after = _INDEX[chosen[-1]] if chosen else -1
        need = k - len(chosen)
        return [_INDEX[c] for c in hand
                if _INDEX[c] > after and sum(1 for x in hand if _INDEX[x] > _INDEX[c]) >= need - 1]
    if s.phase == "play":
        return sorted(_INDEX[a] for a in s.legal_actions() if isinstance(a, Card))
    if mode == "sicht":
        return sorted(_INDEX[c] for c in hand if f"sicht {c}" in words)
    if mode == "tausche":
        ids = [_INDEX[c] for c in hand if _INDEX[c] > _INDEX[chosen[-1]]
               and f"tausche {_text([*chosen, c])}" in words]
        return sorted([*ids, FERTIG])
    ids = []
    if s.phase == "exchange":
        ids = [_INDEX[c] for c in hand if f"tausche {c}" in words]
        if any(w.startswith("sicht ") for w in words):
            ids.append(SICHT)
    return sorted([*ids, *(_WORD_ID[w] for w in words if w in _WORD_ID)])


def action_of(s: MulatschakState, ids: Sequence[int]) -> Action | None:
    """The engine action the ids chosen at this node make (``None``: a card added to the
    selection); IllegalActionError if the last id is not legal."""
    *pending, action = ids
    if action not in legal_ids(s, pending):
        raise IllegalActionError(f"action {action} ({action_name(action)}) is not legal now "
                                 f"(phase {s.phase})")
    mode, chosen = selection(s, pending)
    k = _ab_count(s)
    if k:
        return Say(f"ab {_text([*chosen, DECK[action]])}") if len(chosen) + 1 == k else None
    if s.phase == "play":
        return DECK[action]
    if mode == "sicht":
        return Say(f"sicht {DECK[action]}")
    if action == FERTIG:
        return Say(f"tausche {_text(chosen)}")
    if action == SICHT or action < NUM_CARDS:  # a selection starts or goes on
        return None
    return Say(WORDS[action - NUM_CARDS])


@dataclass
class Driver:
    """An engine state and the acting seat's pending selection, driven by ids."""

    state: MulatschakState
    pending: list[int] = field(default_factory=list)

    @property
    def mode(self) -> str | None:
        """``"tausche"``, ``"sicht"`` or ``None`` (no selection, or the cards of an ``ab``)."""
        return selection(self.state, self.pending)[0]

    @property
    def chosen(self) -> list[Card]:
        return selection(self.state, self.pending)[1]

    def clone(self) -> Driver:
        return Driver(self.state.clone(), list(self.pending))

    def legal_ids(self) -> list[int]:
        return legal_ids(self.state, self.pending)

    def apply(self, action: int) -> Action | None:
        """Apply an id (checked); the engine action when one was applied, else ``None``."""
        ids = [*self.pending, action]
        engine_action = action_of(self.state, ids)
        if engine_action is not None:
            self.state.apply(engine_action)
        self.pending = [] if engine_action is not None else ids
        return engine_action


class ObservationEncoder(Layout):
    """A flat float32 vector of one seat's view (see the module); :meth:`split` names
    the pieces."""

    def __init__(self) -> None:
        n, m = MAX_SEATS, NUM_CARDS
        super().__init__([
            ("seats", (n,)), ("hand", (m,)), ("played", (n, m)), ("trick", (n, m)),
            ("phase", (len(PHASES),)), ("to_act", (n,)), ("dealer", (n,)), ("scores", (n,)),
            ("bid", (6,)), ("holder", (n,)), ("passed", (n,)), ("trump", (4,)), ("home", (n,)),
            ("tricks_won", (n,)), ("hand_sizes", (n,)), ("stock", (1,)), ("klopfen", (1,)),
            ("doubled", (1,)), ("shown", (m,)), ("revealed", (m,)), ("selection", (m,)),
            ("mode", (2,))])

    def encode(self, driver: Driver, seat: int, *, private: bool = True,
               out: FloatArray | None = None) -> FloatArray:
        """The observation of ``seat`` (``private=False``: without its own hand and
        selection, the public observation)."""
        vec = self.cleared(out)
        p = self.split(vec)
        state = driver.state
        v = state.view(seat)
        n = state.num_seats
        rel = Seats(seat, n)
        p["seats"][:n] = 1.0
        if private:
            one_hot(p["hand"], _INDEX, *map(Card.parse, v["hand"]))
            if state.current_player == seat:
                one_hot(p["selection"], _INDEX, *driver.chosen)
                if driver.mode is not None:
                    p["mode"][0 if driver.mode == "tausche" else 1] = 1.0
        for trick in state.tricks_played:  # public: the cards played in finished tricks
            for s, c in trick:
                p["played"][rel[s], _INDEX[c]] = 1.0
        for s, c in v["trick"]:
            p["trick"][rel[s], _INDEX[Card.parse(c)]] = 1.0
            p["played"][rel[s], _INDEX[Card.parse(c)]] = 1.0
        p["phase"][PHASES.index(v["phase"])] = 1.0
        if v["to_act"] >= 0:
            p["to_act"][rel[v["to_act"]]] = 1.0
        p["dealer"][rel[v["dealer"]]] = 1.0
        for s, score in enumerate(v["scores"]):
            p["scores"][rel[s]] = min(1.0, max(0.0, score / 21))
        p["bid"][min(5, v["bid"])] = 1.0
        one_hot(p["holder"], rel, v["holder"])
        one_hot(p["passed"], rel, *state.passed)
        if v["trump"] is not None:
            p["trump"][SUITS.index(v["trump"])] = 1.0
        one_hot(p["home"], rel, *v["home"])
        for w in v["trick_winners"]:
            p["tricks_won"][rel[w]] += 0.2
        for s, size in enumerate(v["hand_sizes"]):
            p["hand_sizes"][rel[s]] = min(1.0, size / 15)
        p["stock"][0] = v["stock_size"] / NUM_CARDS
        p["klopfen"][0] = float(v["klopfen"])
        p["doubled"][0] = min(1.0, v["doubled"] / 4)
        one_hot(p["shown"], _INDEX, *map(Card.parse, v["shown"]))
        if v["revealed"] is not None:
            one_hot(p["revealed"], _INDEX, Card.parse(v["revealed"]))
        return vec


ENCODER = ObservationEncoder()


class MulatschakEncoding(GameEncoding):
    """Mulatschak's :class:`~stammtisch.games.base.encoding.Encoding` for ``players`` seats,
    each hand from ``scores`` (default 21 each)."""

    num_actions = NUM_ACTIONS
    num_cards = max_chance_outcomes = NUM_CARDS
    chance_deck = DECK
    observation_shape: tuple[int, ...] = (ENCODER.size,)
    information_state_strings = False
    zero_sum = False
    max_utility = 40.0  # a Muli's ±10 × 4 with Herz and Klopfen

    def __init__(self, rules: MulatschakRules, players: int = 4,
                 scores: Sequence[int] | None = None) -> None:
        if not 2 <= players <= 6:
            raise ValueError(f"players={players!r}: Mulatschak has 2 to 6")
        self.scores = list(scores) if scores is not None else [21] * players
        if len(self.scores) != players:
            raise ValueError(f"scores={self.scores!r}: one per seat ({players})")
        self.rules, self.num_players = rules, players
        self.params: Mapping[str, int] = {"players": players}
        # the shuffle, the cut, the bidding, trump, mitgehen, the exchange chosen card by
        # card, nimm/weg/ab, the tricks
        self.max_game_length = NUM_CARDS + 20 + 32 * players

    def initial_state(self, dealer: int) -> MulatschakState:
        return MulatschakState(self.rules, dealer, self.scores)

    def player_ids(self, state: MulatschakState, pending: Sequence[int]) -> list[int]:
        return legal_ids(state, pending)

    def player_action(self, state: MulatschakState, ids: Sequence[int]) -> Action | None:
        return action_of(state, ids)

    def player_name(self, index: int) -> str:
        return action_name(index)

    def action_index(self, action: Action, state: MulatschakState) -> int:
        if isinstance(action, Card):
            return _INDEX[action]
        if str(action) in _WORD_ID:
            return _WORD_ID[str(action)]
        raise InvalidActionError(f"{action}: no single id (card sets are chosen card by card)")

    def observation(self, state: MulatschakState, seat: int, pending: Sequence[int] = (), *,
                    private: bool = True, perfect_recall: bool = False,
                    out: FloatArray | None = None) -> FloatArray:
        return ENCODER.encode(Driver(state, list(pending)), seat, private=private, out=out)

    def pieces(self, tensor: FloatArray, *, perfect_recall: bool = False
               ) -> dict[str, FloatArray]:
        return ENCODER.split(tensor)

    def observation_string(self, state: MulatschakState, seat: int, pending: Sequence[int] = (),
                           *, private: bool = True, perfect_recall: bool = False) -> str:
        v: dict[str, Any] = state.view(seat)
        text = ObservationText(f"p{seat}", v["phase"])
        if private:
            text.add("hand", " ".join(v["hand"]))
            text.join("selected", selection(state, pending)[1] if state.current_player == seat
                      else [])
        text.add("sizes", ",".join(str(n) for n in v["hand_sizes"]))
        text.join("said", (f"{p}{w.replace(' ', '_')}" for p, w in v["said"]))
        text.join("played", (f"{p}{c}" for t in state.tricks_played for p, c in t))
        text.join("trick", (f"{p}{c}" for p, c in v["trick"]))
        text.join("shown", v["shown"])
        text.add("to_act", v["to_act"])
        return str(text)
