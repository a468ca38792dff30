"""One hand of Mus (the contract ../specs/mus.md): the Mus rounds with discards, the four
lances with their betting, the showdown and the result.

Seats are numbered clockwise; Mus is played counterclockwise: after seat ``s`` comes
``s - 1`` (mod 4), Mano is ``dealer - 1``.  Pair 0 = seats 0 and 2, pair 1 = seats 1 and 3.

The seed's worked examples (A = Mano): A holds R 3 C 1, B holds R R S 2 (8 reyes).

>>> from stammtisch.cards import cards
>>> from stammtisch.games.mus.rules import MusRules
>>> r = MusRules.preset("duples")
>>> a, b = cards("OR C3 OC B1"), cards("CR PR OS O2")
>>> grande_key(a, r) > grande_key(b, r)     # two kings each, then Reiter beats Bube
True
>>> chica_key(b, r) < chica_key(a, r)       # one ace each, then Bube is lower than Reiter
True
>>> pares_key(a, r) == pares_key(b, r)      # two kings each: Mano (A) wins the tie
True
>>> juego_value(a, r), juego_value(b, r)    # 10 + 10 + 10 + 1 = 31 each: Mano wins
(31, 31)
>>> sorted((33, 40, 31, 37, 32), key=juego_rank, reverse=True)
[31, 32, 40, 37, 33]

Pares: with two kings each A wins as Mano; „Hätte A z.B. nur ein Reiter-Paar, dann würde
B gewinnen“; duples > medias > par, then the higher pair, then the second pair:

>>> pares_key(cards("OC CC O5 B1"), r) < pares_key(b, r)
True
>>> k = lambda text: pares_key(cards(text), r)
>>> k("OR CR O4 O5") > k("OC CC O4 O5"), k("OR CR PR O5") > k("OC CC PC O5")
(True, True)
>>> k("OR CR O1 C1") > k("OC CC O1 C1"), k("OR CR OC CC") > k("OR CR O1 C1")
(True, True)
>>> k("O4 C4 O5 C5") > k("OR CR PR B7") > k("OR CR O6 B7")   # duples > medias > par
True

The ten cards of one suit with their rank and value (8 reyes: 3 is a king, 2 an ace):

>>> suit = cards("OR O3 OC OS O7 O6 O5 O4 O2 O1")    # high to low
>>> print(" ".join(f"{c}:{rank_of(c, r)}/{card_value(c, r)}" for c in suit))
OR:12/10 O3:12/10 OC:11/10 OS:10/10 O7:7/7 O6:6/6 O5:5/5 O4:4/4 O2:1/1 O1:1/1

Punto (nobody has Juego): the highest value wins, 30 at most, 4 at least:

>>> juego_value(cards("OR CS OC B3"), r), juego_value(cards("O1 C1 P2 B2"), r)
(40, 4)

The worked hands: dealer 0, so Mano A is seat 3, B seat 2, C seat 1 (A's partner), D seat 0.

>>> from stammtisch.engine.core import Say
>>> def deal(d, c, b, a):   # the hands of seats 0 (D), 1 (C), 2 (B), 3 (A)
...     hands = [cards(h) for h in (d, c, b, a)]
...     used = {x for h in hands for x in h}
...     stock = [x for x in SPANISH_DECK if x not in used]
...     return MusState.from_deal(r, 0, (0, 0), hands, stock)
>>> def play(state, *words):
...     for w in words:
...         state.apply(Say(w))
...     return state

The Mus round: after four ``mus`` everybody discards; the first ``no mus`` ends it.

>>> s = deal("O5 C6 P7 BC", "OS CS PS B4", "O4 C5 P6 B7", "OR CR O1 C1")
>>> play(s, "mus", "mus", "mus", "mus").phase
'discard'
>>> play(deal("O5 C6 P7 BC", "OS CS PS B4", "O4 C5 P6 B7", "OR CR O1 C1"), "no mus").lance
'grande'

„Hat Spieler A z.B. zwei Paare und sein Mitspieler C einen Drilling, so erhält das Team
3 + 2 = 5 Zusatzpunkte“ (here only A and C hold pares: no betting in Pares):

>>> s = play(deal("O5 C6 P7 BC", "OS CS PS B4", "O4 C5 P6 B7", "OR CR O1 C1"), "no mus",
...          *["paso"] * 8)
>>> for e in s.showdown_report():
...     print(e["lance"], e["status"], e["winner"], e["points"])
grande paso 3 [0, 1]
chica paso 3 [0, 1]
pares no_bet 3 [0, 5]
juego no_bet 1 [0, 2]

„Hat Spieler A z.B. "31" und sein Mitspieler C "33", so erhält das Team 3 + 2 = 5“:

>>> s = play(deal("O5 C6 B4 BC", "OC PS B7 O6", "O4 C5 P6 P7", "OR CR OS B1"), "no mus",
...          *["paso"] * 8)
>>> [(e["lance"], e["status"], e["points"]) for e in s.showdown_report()][2:]
[('pares', 'no_bet', [0, 1]), ('juego', 'no_bet', [0, 5])]

The seed's betting example (also a record in ``record.py`` and a golden record): A bets
2, B refuses, D raises by 3 to 5, A raises by 6 to 11, D refuses: A's pair scores 5 at
once, the stake before the last bet.

>>> s = play(deal("O7 C7 P6 B5", "CR PR OS O2", "O4 C4 P5 B6", "OR C3 OC B1"), "no mus",
...          "envido 2", "no quiero", "envido 3", "envido 6", "no quiero")
>>> s.score, s.booked
([0, 5], [{'lance': 'grande', 'pair': 1, 'points': 5, 'kind': 'no_querido'}])

„Wird gleich das erste Angebot einer Wette von beiden Gegnern abgelehnt …, so erhält der
Bieter 1 Trostpunkt“:

>>> play(deal("O7 C7 P6 B5", "CR PR OS O2", "O4 C4 P5 B6", "OR C3 OC B1"), "no mus",
...      "envido 2", "no quiero", "no quiero").score
[0, 1]

Órdago: „Falls die Gegner das "Ordago" annehmen, entscheidet die entsprechende Wette sofort
über den Gewinn des Satzes“ — A's ordago in Grande, accepted by B: A's pair wins the set.

>>> s = play(deal("O7 C7 P6 B5", "CR PR OS O2", "O4 C4 P5 B6", "OR C3 OC B1"), "no mus",
...          "ordago", "quiero")
>>> s.is_terminal(), s.set_winner, s.score, s.result()["status"]["grande"]
(True, 1, [0, 0], 'ordago')

``envido N``: N from 2 to :data:`MAX_ENVIDO` (99).  The contract says only N ≥ 2, but the
legal actions must be a finite list; a raise of 99 is more than any set needs (a set is
won at ``target``, 30, and stakes add up over raises), so nothing playable is lost.

>>> legal = play(deal("O7 C7 P6 B5", "CR PR OS O2", "O4 C4 P5 B6", "OR C3 OC B1"),
...              "no mus").legal_actions()
>>> str(legal[1]), str(legal[-2]), str(legal[-1]), len(legal)
('envido 2', 'envido 99', 'ordago', 100)
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Self

from stammtisch.cards import SPANISH_DECK, Card, cards
from stammtisch.engine.core import (
    CHANCE,
    TERMINAL,
    Action,
    Rng,
    Say,
    Shuffle,
    TurnState,
    resolve_chance,
)
from stammtisch.engine.results import GameResult
from stammtisch.errors import IllegalActionError, InvalidActionError, StammtischError
from stammtisch.games.mus import senas as _senas
from stammtisch.games.mus.hands import (
    card_value,
    chica_key,
    grande_key,
    juego_rank,
    juego_value,
    pares_key,
    rank_of,
)
from stammtisch.games.mus.rules import MusRules
from stammtisch.games.mus.senas import OFF, SenaMade, SenasConfig

LANCES: Final = ("grande", "chica", "pares", "juego", "punto")
#: the result object's keys, in the contract's order
RESULT_KEYS: Final = ("final_hands", "score", "set_winner", "lances", "status")
PARES_BONUS: Final = {1: 1, 2: 2, 3: 3}  # par, medias, duples
PARES_NAMES: Final = {1: "par", 2: "medias", 3: "duples"}
#: the largest N of ``envido N`` (the contract says N >= 2 only; a reading: two digits)
MAX_ENVIDO: Final = 99
#: the "seat" of a seña in :attr:`MusState.history` (never a seat, never chance): the
#: entry's word is :meth:`SenaMade.log_word`, so the action log replays it
SENA_LOG: Final = -3
#: phases in which señas may be made
SENA_PHASES: Final = ("mus", "lances")

def _hand_text(hand: Sequence[Card]) -> list[str]:
    return [str(c) for c in hand]


@dataclass(frozen=True)
class MusResult(GameResult):
    """A finished Mus hand (``MusState.final_result()``): exactly the contract's result
    keys, in its order (``replay --json``)."""

    final_hands: tuple[tuple[str, ...], ...]
    #: the set's score per pair after the hand
    score: tuple[int, ...]
    set_winner: int | None
    #: lance -> the pair that won it (``None``: nobody)
    lances: Mapping[str, int | None]
    #: lance -> how it ended (``no_bet``, ``not_reached``, ``quiero`` …)
    status: Mapping[str, str]


class MusState(TurnState):
    """One hand of Mus.  Chance nodes: the shuffle (a :class:`Shuffle` of the 40 cards;
    the first 16 are dealt one at a time from Mano in playing order, the other 24 are the
    stock, top first) and each reshuffle of the discards (a :class:`Shuffle` of them)."""

    game_name = "mus"
    num_seats = 4

    def __init__(self, rules: MusRules, dealer: int = 0,
                 score: tuple[int, int] = (0, 0), senas: SenasConfig | None = None) -> None:
        self.rules = rules
        #: the table's señas (not a rule option: see :mod:`stammtisch.games.mus.senas`)
        self.senas_config: SenasConfig = OFF if senas is None else senas
        #: the señas made so far, in order
        self.senas: list[SenaMade] = []
        #: the record-action count when the seats' current cards were complete (a seña
        #: may be made again after new cards were drawn)
        self._cards_since = 0
        #: every booking of points: {"lance", "pair", "points", "kind"} in order (kind:
        #: ``no_querido``, ``querido``, ``paso``, ``pares``, ``juego``, ``punto``)
        self.booked: list[dict[str, Any]] = []
        #: the stake a refused bet scored, by lance
        self.refused: dict[str, int] = {}
        self.dealer = dealer
        self.mano = (dealer - 1) % 4
        self.start_score: tuple[int, int] = (score[0], score[1])
        self.score: list[int] = list(score)
        self.hands: list[list[Card]] = [[], [], [], []]
        self.dealt: tuple[tuple[Card, ...], ...] = ()
        self.initial_stock: tuple[Card, ...] = ()
        self.stock: list[Card] = []
        #: discards of earlier rounds not yet reshuffled
        self.pool: list[Card] = []
        #: discards of the current round, by seat
        self.discards: list[list[Card]] = [[], [], [], []]
        self.reshuffles: list[tuple[Card, ...]] = []
        self.history: list[tuple[int, Action]] = []
        self._phase = "shuffle"
        self._player = CHANCE
        self._mus_said = 0
        self._draws: list[tuple[int, int]] = []  # (seat, cards still to draw)
        # lances
        self.lance_index = -1
        self.status: dict[str, str] = {}
        self.stakes: dict[str, int] = {}  # accepted stakes
        self._eligible: list[int] = []
        self._passes = 0
        self._bettor = -1
        self._stake = 0
        self._stake_before = 0
        self._ordago = False
        self._refused: set[int] = set()
        self.set_winner: int | None = None
        self.stopped = False

    # -- setup ---------------------------------------------------------------
    @classmethod
    def from_deal(cls, rules: MusRules, dealer: int, score: tuple[int, int],
                  hands: Sequence[Sequence[Card]], stock: Sequence[Card],
                  senas: SenasConfig | None = None) -> MusState:
        """A hand whose cards are given (a record's ``hands`` and ``stock``)."""
        state = cls(rules, dealer, score, senas)
        state._start(tuple(tuple(h) for h in hands), tuple(stock))
        return state

    def _start(self, hands: tuple[tuple[Card, ...], ...], stock: tuple[Card, ...]) -> None:
        self.dealt = hands
        self.initial_stock = stock
        self.hands = [list(h) for h in hands]
        self.stock = list(stock)
        self._phase = "mus"
        self._player = self.mano
        self._mus_said = 0

    def order(self) -> list[int]:
        """The seats in playing order from Mano."""
        return [(self.mano - k) % 4 for k in range(4)]

    def distance(self, seat: int) -> int:
        """Playing-order distance from Mano (ties go to the smaller)."""
        return (self.mano - seat) % 4

    # -- the engine contract ---------------------------------------------------
    @property
    def lance(self) -> str:
        # -1 before the lances, 4 after the last one (the showdown)
        return self._lances()[self.lance_index] if 0 <= self.lance_index < 4 else ""

    def _lances(self) -> tuple[str, str, str, str]:
        last = "juego" if self.has_juego_lance() else "punto"
        return ("grande", "chica", "pares", last)

    def has_juego_lance(self) -> bool:
        return any(juego_value(h, self.rules) >= 31 for h in self.hands)

    def legal_actions(self) -> list[Action]:
        turn = self._player
        if turn < 0:
            return []
        if self._phase == "mus":
            return [Say("mus"), Say("no mus")]
        if self._phase == "discard":
            return [Say("descarte " + " ".join(str(c) for c in combo))
                    for n in range(1, 5) for combo in itertools.combinations(self.hands[turn], n)
                    if self._can_serve(n)]
        bets = [Say(f"envido {n}") for n in range(2, MAX_ENVIDO + 1)] + [Say("ordago")]
        if self._bettor < 0:
            return [Say("paso"), *bets]
        if self._ordago:
            return [Say("quiero"), Say("no quiero")]
        return [Say("quiero"), Say("no quiero"), *bets]

    def _can_serve(self, n: int) -> bool:
        """Whether ``n`` more discards this round can still be drawn (the stock and the
        reshufflable discards of earlier rounds)."""
        asked = sum(len(d) for d in self.discards) + n
        return asked <= len(self.stock) + len(self.pool)

    def explain_illegal(self, action: Action) -> str:
        turn = self._player
        if turn == TERMINAL:
            return "the hand is over"
        if turn == CHANCE:
            return f"chance is to act (phase {self._phase})"
        if not isinstance(action, Say):
            return f"{action} is not a word of phase {self._phase}"
        word = action.word
        if word.startswith(_senas.WORD):
            return f"{word!r}: a seña is made out of turn (apply_out_of_turn), not as a turn"
        if self._phase == "mus":
            return f"{word!r} is not legal in the Mus round (mus or no mus)"
        if self._phase == "discard":
            if word.startswith("descarte "):
                try:
                    named = cards(word.split()[1:])
                except StammtischError:
                    return f"{word!r} names no cards"
                missing = [str(c) for c in named if c not in self.hands[turn]]
                if missing:
                    return f"seat {turn} does not hold {' '.join(missing)}"
                if len(set(named)) != len(named):
                    return "a card is named twice"
                if not self._can_serve(len(named)):
                    return "the stock and the discards cannot serve that many cards"
            return f"{word!r} is not legal now (descarte and 1-4 of seat {turn}'s cards)"
        if self._ordago:
            return f"{word!r}: an ordago can only be answered quiero or no quiero"
        if word.startswith("envido"):
            return f"{word!r}: envido takes a number from 2 to {MAX_ENVIDO}"
        if self._bettor < 0 and word in ("quiero", "no quiero"):
            return f"{word!r}: there is no bet to answer in {self.lance}"
        if self._bettor >= 0 and word == "paso":
            return f"'paso' is not legal: seat {turn} must answer the bet"
        return f"{word!r} is not legal now in {self.lance}"

    def parse_action(self, text: str) -> Action:
        text = text.strip()
        if text.startswith("shuffle:"):
            return Shuffle(cards(text.removeprefix("shuffle:")))
        words = text.split()
        if not words:
            raise InvalidActionError("an empty action")
        if words[0] == "descarte":
            try:
                named = cards(words[1:])
            except StammtischError as e:
                raise InvalidActionError(f"{text!r}: {e}") from None
            if not named:
                raise InvalidActionError(f"{text!r}: descarte names 1-4 cards")
            return Say("descarte " + " ".join(str(c) for c in named))
        if text in ("mus", "no mus", "paso", "quiero", "no quiero", "ordago"):
            return Say(text)
        if words[0] in (_senas.WORD, "sena"):
            logged = _senas.parse_log_word(text)
            if logged is not None:
                seat, sign, seen = logged
                return Say(SenaMade(0, seat, sign, seen).log_word())
            if len(words) == 2 and words[1] in _senas.BY_ID:
                return Say(f"{_senas.WORD} {words[1]}")
            raise InvalidActionError(
                f"{text!r}: a seña is one of {', '.join(_senas.IDS)}")
        if words[0] == "envido" and len(words) == 2 and words[1].isdigit():
            return Say(f"envido {int(words[1])}")
        raise InvalidActionError(f"{text!r} is not a word of Mus")

    # -- chance ----------------------------------------------------------------
    def _chance_cards(self) -> list[Card]:
        return list(SPANISH_DECK) if self._phase == "shuffle" else list(self.pool)

    def sample_chance(self, rng: Rng) -> Action:
        deck = self._chance_cards()
        rng.shuffle(deck)
        return Shuffle(tuple(deck))

    def is_chance_outcome(self, action: Action) -> bool:
        if self._player != CHANCE or not isinstance(action, Shuffle):
            return False
        want = self._chance_cards()
        return len(action.order) == len(want) and set(action.order) == set(want)

    # -- applying ----------------------------------------------------------------
    def apply_unchecked(self, action: Action) -> None:
        self.history.append((self._player, action))
        if isinstance(action, Shuffle):
            if self._phase == "shuffle":
                order = action.order
                hands: list[list[Card]] = [[], [], [], []]
                for i in range(16):
                    hands[self.order()[i % 4]].append(order[i])
                self._start(tuple(tuple(h) for h in hands), tuple(order[16:]))
            else:
                self.reshuffles.append(action.order)
                self.stock = list(action.order)
                self.pool = []
                self._draw()
            return
        assert isinstance(action, Say)
        word = action.word
        seat = self._player
        if self._phase == "mus":
            if word == "no mus":
                self._begin_lances()
            else:
                self._mus_said += 1
                if self._mus_said == 4:
                    self._phase = "discard"
                    self._player = self.mano
                    self.discards = [[], [], [], []]
                else:
                    self._player = (seat - 1) % 4
            return
        if self._phase == "discard":
            named = cards(word.split()[1:])
            self.discards[seat] = list(named)
            self.hands[seat] = [c for c in self.hands[seat] if c not in named]
            if seat == (self.mano + 1) % 4:  # the last in playing order
                self._draws = [(s, len(self.discards[s])) for s in self.order()]
                self._draw()
            else:
                self._player = (seat - 1) % 4
            return
        self._bet(seat, word)

    def _draw(self) -> None:
        while self._draws:
            seat, n = self._draws[0]
            while n:
                if not self.stock:
                    self._phase = "reshuffle"
                    self._draws[0] = (seat, n)
                    self._player = CHANCE
                    return
                self.hands[seat].append(self.stock.pop(0))
                n -= 1
            self._draws.pop(0)
        self._cards_since = self.record_actions()
        for d in self.discards:
            self.pool.extend(d)
        self.discards = [[], [], [], []]
        self._phase = "mus"
        self._player = self.mano
        self._mus_said = 0

    # -- the lances ----------------------------------------------------------------
    def eligible(self, lance: str) -> list[int]:
        """The seats taking part in ``lance``, in playing order."""
        if lance == "pares":
            return [s for s in self.order() if pares_key(self.hands[s], self.rules)]
        if lance == "juego":
            return [s for s in self.order() if juego_value(self.hands[s], self.rules) >= 31]
        return self.order()

    def _begin_lances(self) -> None:
        self._phase = "lances"
        self.lance_index = -1
        self._next_lance()

    def _next_lance(self) -> None:
        while True:
            self.lance_index += 1
            if self.lance_index == 4:
                self._showdown()
                return
            lance = self.lance
            eligible = self.eligible(lance)
            if len({s % 2 for s in eligible}) < 2:
                self.status[lance] = "no_bet"
                continue
            self._eligible = eligible
            self._passes = 0
            self._bettor = -1
            self._stake = 0
            self._stake_before = 0
            self._ordago = False
            self._refused = set()
            self._player = eligible[0]
            return

    def _responder(self) -> int | None:
        for k in range(1, 4):
            s = (self._bettor - k) % 4
            if s % 2 != self._bettor % 2 and s in self._eligible and s not in self._refused:
                return s
        return None

    def _bet(self, seat: int, word: str) -> None:
        lance = self.lance
        if word == "paso":
            self._passes += 1
            if self._passes == len(self._eligible):
                self.status[lance] = "paso"
                self._next_lance()
            else:
                self._player = self._eligible[self._passes]
            return
        if word == "quiero":
            self.status[lance] = "querido"
            if self._ordago:
                self.status[lance] = "ordago"
                winner = self.lance_winner(lance)
                assert winner is not None
                self.set_winner = winner % 2
                self._stop()
                return
            self.stakes[lance] = self._stake
            self._next_lance()
            return
        if word == "no quiero":
            self._refused.add(seat)
            nxt = self._responder()
            if nxt is not None:
                self._player = nxt
                return
            self.status[lance] = "no_querido"
            self.refused[lance] = max(self._stake_before, 1)
            if self._add(self._bettor % 2, max(self._stake_before, 1), lance, "no_querido"):
                self._stop()
                return
            self._next_lance()
            return
        # envido N or ordago: seat is now the bettor
        self._stake_before = self._stake
        if word == "ordago":
            self._ordago = True
        else:
            self._stake += int(word.split()[1])
        self._bettor = seat
        responder = self._responder()
        assert responder is not None
        self._player = responder

    def _add(self, pair: int, points: int, lance: str, kind: str) -> bool:
        """Add points (booked in :attr:`booked`); whether the set ended."""
        self.booked.append({"lance": lance, "pair": pair, "points": points, "kind": kind})
        self.score[pair] += points
        if self.score[pair] >= self.rules.target and self.set_winner is None:
            self.set_winner = pair
            return True
        return False

    def _stop(self) -> None:
        self.stopped = True
        self._finish()

    def _finish(self) -> None:
        self._phase = "end"
        self._player = TERMINAL

    def lance_winner(self, lance: str) -> int | None:
        """The seat holding the best combination for ``lance`` (``None``: nobody
        eligible, or Juego/Punto when it does not apply)."""
        if lance in ("juego", "punto") and (lance == "juego") != self.has_juego_lance():
            return None
        eligible = self.eligible(lance)
        if not eligible:
            return None
        r = self.rules

        def key(s: int) -> Any:
            h = self.hands[s]
            if lance == "grande":
                return grande_key(h, r)
            if lance == "chica":
                return tuple(-v for v in chica_key(h, r))
            if lance == "pares":
                return pares_key(h, r)
            if lance == "juego":
                return juego_rank(juego_value(h, r))
            return juego_value(h, r)

        # eligible is in playing order: max() keeps the first of equals (nearer Mano)
        return max(eligible, key=key)

    def _bonus(self, lance: str, pair: int) -> int:
        r = self.rules
        if lance == "pares":
            total = 0
            for s in (pair, pair + 2):
                k = pares_key(self.hands[s], r)
                if k:
                    total += PARES_BONUS[k[0]]
            return total
        if lance == "juego":
            total = 0
            for s in (pair, pair + 2):
                v = juego_value(self.hands[s], r)
                if v == 31:
                    total += 3
                elif v > 31:
                    total += 2
            return total
        if lance == "punto":
            return r.punto_bonus
        return 1 if self.status.get(lance) == "paso" else 0

    def _showdown(self) -> None:
        for lance in self._lances():
            winner = self.lance_winner(lance)
            if winner is None:
                continue
            pair = winner % 2
            if lance in self.stakes and self._add(pair, self.stakes[lance], lance, "querido"):
                break
            if self.status.get(lance) == "no_querido" and lance in ("grande", "chica"):
                continue
            bonus = self._bonus(lance, pair)
            kind = lance if lance in ("pares", "juego", "punto") else "paso"
            if bonus and self._add(pair, bonus, lance, kind):
                break
        self._finish()

    def betting(self) -> dict[str, Any]:
        """The running lance's betting (public: everybody heard it): ``lance``, ``stake``
        (the bet standing; 0 before a bet), ``before`` (the stake before the last bet:
        what a refusal scores, at least 1), ``bettor`` (seat or ``None``), ``ordago``,
        ``refused`` (seats that said ``no quiero``), ``eligible`` and ``to_act``."""
        if self._phase != "lances":
            return {}
        return {"lance": self.lance, "stake": self._stake, "before": self._stake_before,
                "bettor": None if self._bettor < 0 else self._bettor,
                "ordago": self._ordago, "refused": sorted(self._refused),
                "eligible": list(self._eligible), "to_act": self._player}

    # -- señas (out of turn) -------------------------------------------------------
    def record_actions(self) -> int:
        """How many actions the record's ``actions`` list has so far."""
        return sum(1 for who, _ in self.history if who >= 0)

    def partner(self, seat: int) -> int:
        return (seat + 2) % 4

    def open_senas(self, seat: int) -> list[str]:
        """The señas ``seat`` may make now (ids in palette order; see
        :mod:`stammtisch.games.mus.senas`): señas are on, the phase is a Mus round or the
        lances, the seña is true of the seat's cards and not yet made by it since its last
        draw."""
        if (not self.senas_config.enabled or self._phase not in SENA_PHASES
                or not 0 <= seat < 4 or len(self.hands[seat]) != 4):
            return []
        used = {e.sign for e in self.senas if e.seat == seat and e.after >= self._cards_since}
        return [s for s in _senas.true_signs(self.hands[seat], self.rules) if s not in used]

    def out_of_turn_actions(self, seat: int) -> Sequence[Action]:
        """The señas ``seat`` may make now, as ``seña <id>`` words."""
        return [Say(f"{_senas.WORD} {s}") for s in self.open_senas(seat)]

    def _sena_refusal(self, seat: int, sign: str) -> str | None:
        if not self.senas_config.enabled:
            return "señas are off at this table"
        if not 0 <= seat < 4:
            return f"{seat} is not a seat"
        if sign not in _senas.BY_ID:
            return f"{sign!r} is not a seña ({', '.join(_senas.IDS)})"
        if self._phase not in SENA_PHASES:
            return f"no señas in phase {self._phase}"
        if sign in self.open_senas(seat):
            return None
        if sign in _senas.true_signs(self.hands[seat], self.rules):
            return f"seat {seat} already made the seña {sign} with these cards"
        return f"the seña {sign} is not true of seat {seat}'s cards"

    def apply_out_of_turn(self, seat: int, action: Action, rng: Rng | None = None) -> None:
        """Seat ``seat`` makes a seña (``Say("seña 31")``).  With ``sichtbar`` each
        opponent catches it independently with probability ``catch``, drawn from ``rng``
        in seat order (no ``rng``: nobody catches).  ``IllegalActionError`` and an
        untouched state when it is not allowed now."""
        word = action.word if isinstance(action, Say) else str(action)
        parts = word.split()
        if len(parts) != 2 or parts[0] not in (_senas.WORD, "sena"):
            raise IllegalActionError(
                f"seat {seat}: {action}: not your turn (seat {self._player} is to act)",
                "not_your_turn")
        sign = parts[1]
        why = self._sena_refusal(seat, sign)
        if why is not None:
            raise IllegalActionError(f"seat {seat}: {word}: {why}")
        seen: list[int] = []
        cfg = self.senas_config
        if cfg.mode == "sichtbar" and rng is not None:
            for other in sorted(((seat + 1) % 4, (seat + 3) % 4)):
                if rng.random() < cfg.catch:
                    seen.append(other)
        self._make_sena(seat, sign, tuple(seen))

    def apply_sena(self, seat: int, sign: str, seen_by: Sequence[int]) -> None:
        """A seña with a known outcome (a record's or a log's): checked like
        :meth:`apply_out_of_turn`, and ``seen_by`` must be opponents of ``seat`` (none
        unless ``sichtbar``), in seat order."""
        why = self._sena_refusal(seat, sign)
        if why is None:
            opponents = sorted(((seat + 1) % 4, (seat + 3) % 4))
            if list(seen_by) != sorted(set(seen_by)) or not set(seen_by) <= set(opponents):
                why = (f"seen_by {list(seen_by)} must be opponents of seat {seat} "
                       f"({opponents[0]}, {opponents[1]}) in seat order")
            elif seen_by and self.senas_config.mode != "sichtbar":
                why = f"nobody can catch a seña with señas {self.senas_config.mode!r}"
        if why is not None:
            raise IllegalActionError(f"seat {seat}: seña {sign}: {why}")
        self._make_sena(seat, sign, tuple(seen_by))

    def _make_sena(self, seat: int, sign: str, seen_by: tuple[int, ...]) -> None:
        made = SenaMade(self.record_actions(), seat, sign, seen_by)
        self.senas.append(made)
        self.history.append((SENA_LOG, Say(made.log_word())))

    def apply(self, action: Action) -> None:
        """As :meth:`GameState.apply`; in addition a seña in its log form (``seña 31 by 2
        seen 1``, from :func:`~stammtisch.engine.core.action_log`) is re-applied with its
        recorded outcome, so that a table rebuilt from its log has the same señas."""
        if isinstance(action, Say) and action.word.startswith(_senas.WORD + " "):
            logged = _senas.parse_log_word(action.word)
            if logged is not None:
                seat, sign, seen = logged
                self.apply_sena(seat, sign, seen)
                return
        super().apply(action)

    def apply_as(self, seat: int, action: Action) -> None:
        """As :meth:`GameState.apply_as`; a seña's log form is refused (a seat makes señas
        with :meth:`apply_out_of_turn`, the catches are drawn, never chosen)."""
        if isinstance(action, Say) and action.word.startswith(_senas.WORD):
            raise IllegalActionError(f"seat {seat}: {action}: {self.explain_illegal(action)}")
        super().apply_as(seat, action)

    def visible_senas(self, seat: int | None) -> list[dict[str, Any]]:
        """The señas ``seat`` may know of, each ``{"after", "seat", "sena"}``: its own,
        its partner's, and the opponents' it caught (those with ``"caught": true``); the
        sender is not told whether an opponent caught its seña (at a table you do not
        know).  A spectator (``None``) sees none while the hand runs.  Once the hand is
        over everybody sees every seña with ``seen_by`` (as the record has them)."""
        if self._player == TERMINAL:
            return [{"after": e.after, "seat": e.seat, "sena": e.sign,
                     "seen_by": list(e.seen_by)} for e in self.senas]
        if seat is None:
            return []
        out: list[dict[str, Any]] = []
        for e in self.senas:
            if e.seat in (seat, self.partner(seat)):
                out.append({"after": e.after, "seat": e.seat, "sena": e.sign})
            elif seat in e.seen_by:
                out.append({"after": e.after, "seat": e.seat, "sena": e.sign, "caught": True})
        return out

    # -- the showdown explained ---------------------------------------------------------
    def showdown_report(self) -> list[dict[str, Any]]:
        """The hand lance by lance (finished hands): for each of Grande, Chica, Pares and
        Juego or Punto, ``lance``, ``status``, ``winner`` (seat) and ``pair`` holding the
        best combination, ``best`` (what it is: the ranks; the pares ``combo`` with its
        ranks; the Juego or Punto value), ``stake`` (an accepted bet; for a refused one
        the points it scored), ``points`` ([pair 0, pair 1] booked in this lance),
        ``booked`` (each booking: ``kind`` querido / no_querido / paso / pares / juego /
        punto, pair, points), ``bonus`` (Pares/Juego: each seat of the winner's pair that
        counts, with its combination and points) and ``why`` (a short reason key:
        the status, or ``stopped`` when the hand stopped before the showdown, or
        ``set_over`` when the set ended at an earlier lance of the showdown, for a lance
        whose points were not counted)."""
        result = self.result()
        if result is None:
            return []
        r = self.rules
        out = []
        for lance in self._lances():
            winner = self.lance_winner(lance)
            status = result["status"][lance]
            booked = [dict(b) for b in self.booked if b["lance"] == lance]
            points = [sum(b["points"] for b in booked if b["pair"] == p) for p in (0, 1)]
            entry: dict[str, Any] = {
                "lance": lance, "status": status, "winner": winner,
                "pair": None if winner is None else winner % 2,
                "stake": self.stakes.get(lance, self.refused.get(lance)),
                "points": points, "booked": booked,
            }
            if winner is not None:
                h = self.hands[winner]
                if lance == "grande":
                    entry["best"] = list(grande_key(h, r))
                elif lance == "chica":
                    entry["best"] = list(chica_key(h, r))
                elif lance == "pares":
                    k = pares_key(h, r)
                    assert k is not None
                    entry["best"] = {"combo": PARES_NAMES[k[0]], "ranks": [k[1], k[2]]}
                else:
                    entry["best"] = juego_value(h, r)
                if lance in ("pares", "juego"):
                    entry["bonus"] = self._bonus_detail(lance, winner % 2)
            why = status
            due = winner is not None and status in ("paso", "querido", "no_bet") and (
                lance in self.stakes or self._bonus(lance, winner % 2) > 0)
            if due and not booked:
                # the points were never counted: the hand stopped (a refusal or an ordago
                # ended it) or the set ended at an earlier lance of the showdown
                why = "stopped" if self.stopped else "set_over"
            entry["why"] = why
            out.append(entry)
        return out

    def _bonus_detail(self, lance: str, pair: int) -> list[dict[str, Any]]:
        r = self.rules
        detail = []
        for s in (pair, pair + 2):
            if lance == "pares":
                k = pares_key(self.hands[s], r)
                if k:
                    detail.append({"seat": s, "combo": PARES_NAMES[k[0]],
                                   "points": PARES_BONUS[k[0]]})
            else:
                v = juego_value(self.hands[s], r)
                if v >= 31:
                    detail.append({"seat": s, "value": v, "points": 3 if v == 31 else 2})
        return detail

    # -- outcome and views ---------------------------------------------------------
    def final_result(self) -> MusResult | None:
        if self._player != TERMINAL:
            return None
        applies = "juego" if self.has_juego_lance() else "punto"
        lances: dict[str, int | None] = {}
        status: dict[str, str] = {}
        for lance in LANCES:
            w = self.lance_winner(lance)
            lances[lance] = None if w is None else w % 2
            if lance in ("juego", "punto") and lance != applies:
                status[lance] = "no_bet"
            else:
                status[lance] = self.status.get(lance, "not_reached")
        return MusResult(
            final_hands=tuple(tuple(_hand_text(h)) for h in self.hands),
            score=tuple(self.score),
            set_winner=self.set_winner,
            lances=lances,
            status=status,
        )

    def returns(self) -> list[float]:
        """The points each seat's pair scored in this hand; zeros until terminal."""
        if self._player != TERMINAL:
            return [0, 0, 0, 0]
        gained = [self.score[p] - self.start_score[p] for p in (0, 1)]
        return [gained[s % 2] for s in range(4)]

    def teams(self) -> list[tuple[int, ...]]:
        """The two pairs, seats 0+2 and 1+3."""
        return [(0, 2), (1, 3)]

    def _public_word(self, seat: int, who: int, action: Action) -> str | None:
        if who < 0:
            return None  # chance: the cards are hidden
        text = str(action)
        if text.startswith("descarte ") and who != seat:
            return f"descarte {len(text.split()) - 1}"
        if text.startswith("descarte "):
            return None  # own discards: see "discarded" (only while not reshuffled)
        return text

    def view(self, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": "mus", "phase": self._phase, "dealer": self.dealer, "mano": self.mano,
            "to_act": self._player, "score": list(self.score), "stock": len(self.stock),
            "hand_sizes": [len(h) for h in self.hands],
            "words": [[who, w] for who, a in self.history
                      if (w := self._public_word(-1 if seat is None else seat, who, a))],
            "lance": self.lance,
        }
        # at the table Pares and Juego are declared when their lance comes (``pares sí`` /
        # ``no``), not before: who holds them shows from the lance on (at the end: all)
        if self._phase == "end" or (self._phase == "lances" and self.lance_index >= 2):
            out["pares"] = [s for s in range(4) if pares_key(self.hands[s], self.rules)]
        if self._phase == "end" or (self._phase == "lances" and self.lance_index >= 3):
            out["juego"] = [s for s in range(4)
                            if juego_value(self.hands[s], self.rules) >= 31]
        if seat is not None:
            out["seat"] = seat
            out["hand"] = _hand_text(self.hands[seat])
            out["discarded"] = [str(c) for c in self.discards[seat]]
            if self._player == seat:
                out["legal"] = [str(a) for a in self.legal_actions()]
        if self._player == TERMINAL:
            out["hands"] = [_hand_text(h) for h in self.hands]
            out["result"] = self.result()
        if self.senas_config.enabled:
            out["senas_mode"] = self.senas_config.mode
            out["senas"] = self.visible_senas(seat)
            if seat is not None:
                out["senas_open"] = self.open_senas(seat)
        return out

    def clone(self) -> Self:
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.score = list(self.score)
        new.hands = [list(h) for h in self.hands]
        new.stock = list(self.stock)
        new.pool = list(self.pool)
        new.discards = [list(d) for d in self.discards]
        new.reshuffles = list(self.reshuffles)
        new.history = list(self.history)
        new._draws = list(self._draws)
        new.status = dict(self.status)
        new.stakes = dict(self.stakes)
        new._eligible = list(self._eligible)
        new._refused = set(self._refused)
        new.senas = list(self.senas)
        new.booked = [dict(b) for b in self.booked]
        new.refused = dict(self.refused)
        return new


def new_state(rules: MusRules, dealer: int = 0, rng: Rng | None = None) -> MusState:
    """A fresh hand at 0:0; with ``rng`` the shuffle is drawn at once."""
    state = MusState(rules, dealer)
    if rng is not None:
        resolve_chance(state, rng)
    return state


__all__ = ["LANCES", "RESULT_KEYS", "MusState", "card_value", "chica_key", "grande_key",
           "juego_rank", "juego_value", "new_state", "pares_key", "rank_of"]
