"""One Mulatschak hand as a :class:`~stammtisch.engine.core.GameState` (contract
../specs/mulatschak.md, every phase: Abheben/Klopfen, the deal, Zusammengefallen, the
Stichansage with ``bei mir`` and Muli, the trump, Mitgehen, the Kartentausch forms, the
five tricks and the scoring).

Actions are :class:`~stammtisch.engine.core.Say` words (``abheben 7``, ``klopfen``, ``2``,
``muli``, ``bei mir``, ``weiter``, ``trumpf H``, ``mit``, ``daheim``, ``behalte``,
``tausche E7 G8``, ``sicht E7``, ``sau``, ``sechs``, ``bruecke``, ``nimm``, ``weg``,
``ab E7``, ``weiss nicht``) and cards (played).  A ``muli`` out of turn is applied with
:meth:`MulatschakState.apply_out_of_turn`.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from stammtisch.cards import DOPPELDEUTSCH_DECK, Card, Rank
from stammtisch.engine.core import (
    CHANCE,
    TERMINAL,
    Action,
    GameState,
    Rng,
    Say,
    Shuffle,
    parse_chance,
)
from stammtisch.engine.results import GameResult
from stammtisch.errors import IllegalActionError, InvalidActionError, InvalidCardError
from stammtisch.games.mulatschak.rules import MulatschakRules

DECK: Final = DOPPELDEUTSCH_DECK
RESULT_KEYS: Final = ("folded", "bidder", "bid", "trump", "multiplier", "home",
                      "trick_winners", "tricks", "delta", "scores", "match_winner")
SUITS: Final = ("E", "G", "H", "S")
_ORDER: Final = (Rank.ASS, Rank.KOENIG, Rank.OBER, Rank.UNTER, Rank.ZEHN, Rank.NEUN,
                 Rank.ACHT, Rank.SIEBEN)
_HIGH: Final = (Rank.ASS, Rank.KOENIG, Rank.OBER, Rank.UNTER)
#: cards the stock must still hold for each exchange word (tausche: its count)
PROMISE: Final = {"sicht": 2, "sau": 5, "sechs": 6, "bruecke": 6}
_CARD_WORDS: Final = ("tausche", "sicht", "ab")


def _key(c: Card) -> int:
    return DECK.index(c)


def canonical(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=_key))


def strength(c: Card, trump: str, led: str) -> int:
    """How strong ``c`` is in a trick led in suit ``led`` (0: cannot win)."""
    if c.is_weli:
        return 200 - 1
    if c.suit.letter == trump:
        return 200 if c.rank == Rank.ASS else 190 - _ORDER.index(c.rank)
    if c.suit.letter == led:
        return 100 - _ORDER.index(c.rank)
    return 0


def suit_of(c: Card, trump: str) -> str:
    """The suit ``c`` belongs to in play (the Weli: the trump suit)."""
    return trump if c.is_weli else c.suit.letter


def is_trump(c: Card, trump: str) -> bool:
    return c.is_weli or c.suit.letter == trump


@dataclass(frozen=True)
class MulatschakResult(GameResult):
    """A finished Mulatschak hand (``MulatschakState.final_result()``): exactly the
    contract's result keys, in its order (``replay --json``)."""

    folded: bool
    bidder: int | None
    bid: int | None
    trump: str | None
    multiplier: int
    #: the seats that stayed home
    home: tuple[int, ...]
    trick_winners: tuple[int, ...]
    tricks: tuple[int, ...]
    #: the score change per seat (a Mulatschak score counts down: less is better)
    delta: tuple[int, ...]
    scores: tuple[int, ...]
    #: the seats that won the match with this hand (none: it goes on)
    match_winner: tuple[int, ...]


class MulatschakState(GameState):
    """A Mulatschak hand for ``len(scores)`` (2–6) seats."""

    game_name = "mulatschak"

    def __init__(self, rules: MulatschakRules, dealer: int, scores: Sequence[int],
                 doubled: int = 0) -> None:
        n = len(scores)
        if not 2 <= n <= 6:
            raise IllegalActionError(f"{n} seats: Mulatschak has 2 to 6", "invalid_setup")
        self.rules = rules
        self.num_seats = n
        self.dealer = dealer % n
        self.start_scores = list(scores)
        self.doubled = doubled
        self.history: list[tuple[int, Action]] = []
        self._phase = "shuffle"
        self.deck: tuple[Card, ...] = ()
        self.stock: list[Card] = []
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.revealed: Card | None = None
        self.weli_keeper: int | None = None
        self.klopfen = False
        self.folded = False
        # bidding
        self.bid = 0
        self.holder: int | None = None
        self.passed: set[int] = set()
        self.bid_pos = 0
        self.bid_mode = "normal"
        self.prev_holder: int | None = None
        # after the bidding
        self.trump: str | None = None
        self.weiss_nicht = False
        self.home: list[int] = []
        self.playing: list[int] = []
        self.pending: list[int] = []  # seats still to say mit/daheim or their exchange word
        self.promised = 0
        self.choices: dict[int, str] = {}
        self.give_queue: list[int] = []
        self.shown: list[Card] = []  # cards shown in the exchange (public)
        self.sicht_card: Card | None = None
        self.to_discard = 0
        self.actor: int | None = None  # seat to act in "give" (nimm/weg/ab)
        # play
        self.trick: list[tuple[int, Card]] = []
        self.leader: int | None = None
        self.trick_winners: list[int] = []
        self.tricks_played: list[list[tuple[int, Card]]] = []

    # -- basics -----------------------------------------------------------------
    @property
    def phase(self) -> str:
        return self._phase

    @property
    def order(self) -> list[int]:
        """Seats clockwise from dealer + 1 (the dealer last)."""
        return [(self.dealer + 1 + i) % self.num_seats for i in range(self.num_seats)]

    def _from(self, seat: int) -> list[int]:
        return [(seat + i) % self.num_seats for i in range(self.num_seats)]

    @property
    def cutter(self) -> int:
        return (self.dealer - 1) % self.num_seats

    @property
    def current_player(self) -> int:
        p = self._phase
        if p == "shuffle":
            return CHANCE
        if p == "end":
            return TERMINAL
        if p == "cut":
            return self.cutter
        if p == "bidding":
            if self.bid_mode == "normal":
                return self.order[self.bid_pos]
            if self.bid_mode == "answer":
                assert self.prev_holder is not None
                return self.prev_holder
            return self.dealer
        if p in ("trump", "weiss_ab"):
            assert self.holder is not None
            return self.holder
        if p in ("mitgehen", "exchange"):
            return self.pending[0]
        if p == "give":
            assert self.actor is not None
            return self.actor
        if p == "play":
            return self._next_to_play()
        raise AssertionError(p)

    def _next_to_play(self) -> int:
        assert self.leader is not None
        seats = [s for s in self._from(self.leader) if s in self.playing]
        return seats[len(self.trick)]

    def multiplier(self) -> int:
        return int(2 ** ((self.trump == "H") + self.klopfen + self.doubled))

    # -- legal actions -----------------------------------------------------------
    def legal_actions(self) -> Sequence[Action]:
        p, seat = self._phase, self.current_player
        if seat < 0:
            return []
        words: list[str] = []
        if p == "cut":
            words = [f"abheben {k}" for k in range(1, 33)]
            if self.rules.klopfen:
                words.append("klopfen")
        elif p == "bidding":
            words = self._bid_words(seat)
        elif p == "trump":
            words = [f"trumpf {s}" for s in SUITS]
            if (self.rules.weiss_nicht and self.bid < 5 and self.start_scores[seat] > 3
                    and len(self.stock) >= 7):
                words.append("weiss nicht")
        elif p == "weiss_ab" or (p == "give" and self.to_discard):
            hand = self.hands[seat]
            words = ["ab " + " ".join(str(c) for c in canonical(combo))
                     for combo in itertools.combinations(hand, self.to_discard)]
        elif p == "give":
            words = ["nimm", "weg"]
        elif p == "mitgehen":
            forced = self.trump == "H" or self.bid == 5 or self.start_scores[seat] <= 3
            words = ["mit"] if forced else ["mit", "daheim"]
        elif p == "exchange":
            words = self._exchange_words(seat)
        elif p == "play":
            return list(self._playable(seat))
        return [Say(w) for w in words]

    def _bid_words(self, seat: int) -> list[str]:
        if self.start_scores[seat] <= 5:
            return ["weiter"]
        mode = self.bid_mode
        if mode == "muli_dealer":
            return ["bei mir", "weiter"]
        words = [str(b) for b in range(self.bid + 1, 5)]
        if self.bid < 5:
            words.append("muli")
        dealer_turn = seat == self.dealer and mode in ("normal", "dealer")
        if dealer_turn and self.bid >= 1:
            words.append("bei mir")
        words.append("weiter")
        return words

    def _exchange_words(self, seat: int) -> list[str]:
        if self.start_scores[seat] <= 3:
            return ["behalte"]
        avail = len(self.stock) - self.promised
        hand = self.hands[seat]
        trump = self.trump
        words = ["behalte"]
        for k in range(1, 5):
            if avail >= k:
                words += ["tausche " + " ".join(str(c) for c in canonical(combo))
                          for combo in itertools.combinations(hand, k)]
        if avail >= 2:
            words += [f"sicht {c}" for c in canonical(hand)]
        if avail >= 5 and any(c.suit.letter == trump and c.rank == Rank.ASS for c in hand):
            words.append("sau")
        if avail >= 6:
            words.append("bruecke")
        if avail >= 6 and trump == "S" and Card.parse("S7") in hand:
            words.append("sechs")
        return words

    def _playable(self, seat: int) -> list[Card]:
        hand = canonical(self.hands[seat])
        trump = self.trump
        assert trump is not None
        if not self.trick:
            return list(hand)
        led = suit_of(self.trick[0][1], trump)
        allowed = [c for c in hand if suit_of(c, trump) == led]
        if not allowed:
            allowed = [c for c in hand if is_trump(c, trump)] or list(hand)
        if self.rules.stichzwang:
            best = max(strength(c, trump, led) for _, c in self.trick)
            beating = [c for c in allowed if strength(c, trump, led) > best]
            if beating:
                allowed = beating
        return allowed

    # -- out of turn --------------------------------------------------------------
    def can_say_muli_out_of_turn(self, seat: int) -> bool:
        return (self._phase == "bidding" and 0 <= seat < self.num_seats
                and seat != self.current_player and seat not in self.passed
                and self.bid < 5 and self.start_scores[seat] > 5)

    def out_of_turn_actions(self, seat: int) -> Sequence[Action]:
        """``muli`` while ``seat`` may say it out of turn (see the module)."""
        return (Say("muli"),) if self.can_say_muli_out_of_turn(seat) else ()

    def apply_out_of_turn(self, seat: int, action: Action, rng: Rng | None = None) -> None:
        """A ``muli`` said out of turn by ``seat`` (checked; ``rng`` is not needed)."""
        if action != Say("muli") or not self.can_say_muli_out_of_turn(seat):
            who = self.current_player
            raise IllegalActionError(f"seat {seat}: {action}: not your turn (seat {who} is to "
                                     "act)", "not_your_turn")
        self.history.append((seat, action))
        self.bid, self.holder = 5, seat
        if seat == self.dealer:
            self._end_bidding()
        else:
            self.bid_mode = "muli_dealer"

    # -- applying -------------------------------------------------------------------
    def apply_unchecked(self, action: Action) -> None:
        seat = self.current_player
        self.history.append((seat, action))
        p = self._phase
        if isinstance(action, Shuffle):
            self.deck = tuple(action.order)
            self._phase = "cut"
            return
        if isinstance(action, Card):
            self._play(seat, action)
            return
        assert isinstance(action, Say)
        word = action.word
        head, _, rest = word.partition(" ")
        if p == "cut":
            self._cut(seat, word)
        elif p == "bidding":
            self._bid(seat, word)
        elif p == "trump":
            if word == "weiss nicht":
                self._weiss_nicht(seat)
            else:
                self.trump = rest
                self._start_mitgehen()
        elif p == "weiss_ab":
            for c in _cards(rest):
                self.hands[seat].remove(c)
            self.to_discard = 0
            self._start_mitgehen()
        elif p == "mitgehen":
            self.pending.pop(0)
            if word == "daheim":
                self.home.append(seat)
            if not self.pending:
                self._after_mitgehen()
        elif p == "exchange":
            self._choose(seat, head, rest)
        elif p == "give":
            if head == "ab":
                for c in _cards(rest):
                    self.hands[seat].remove(c)
                self.to_discard = 0
            else:
                assert self.sicht_card is not None
                if word == "weg":
                    self.hands[seat] += self._take(1)
                else:
                    self.hands[seat].append(self.sicht_card)
                self.sicht_card = None
            self._run_give()

    def _cut(self, seat: int, word: str) -> None:
        deck = list(self.deck)
        if word == "klopfen":
            self.klopfen = True
            self.revealed = deck[32]
            if self.revealed.is_weli:
                self.weli_keeper = seat
                deck.pop()
            stock = deck
        else:
            k = int(word.split()[1])
            self.revealed = deck[k - 1]
            stock = deck[k:] + deck[:k]
            if self.revealed.is_weli:
                self.weli_keeper = seat
                stock.remove(self.revealed)
        self.stock = stock
        self._deal()

    def _deal(self) -> None:
        for seat in self.order:
            count = 3
            if seat == self.weli_keeper:
                assert self.revealed is not None
                self.hands[seat].append(self.revealed)
                count = 2
            self.hands[seat] += self._take(count)
        for seat in self.order:
            self.hands[seat] += self._take(2)
        if any(not any(c.is_weli or c.rank in _HIGH for c in h) for h in self.hands):
            self.folded = True
            self._phase = "end"
        else:
            self._phase = "bidding"

    def _take(self, k: int) -> list[Card]:
        out, self.stock = self.stock[:k], self.stock[k:]
        return out

    def _bid(self, seat: int, word: str) -> None:
        mode = self.bid_mode
        value = 5 if word == "muli" else int(word) if word.isdigit() else 0
        if mode == "normal" and seat != self.dealer:
            if value:
                self.bid, self.holder = value, seat
            else:
                self.passed.add(seat)
            self.bid_pos += 1
        elif mode in ("normal", "dealer"):  # the dealer's word
            if value:
                self.bid, self.holder = value, seat
            elif word == "bei mir":
                self._bei_mir()
                return
            else:
                self.passed.add(seat)
            self._end_bidding()
        elif mode == "answer":
            if value:
                self.bid, self.holder = value, seat
                self.bid_mode = "dealer"
            else:
                self.passed.add(seat)
                self._end_bidding()
        else:  # muli_dealer
            if word == "bei mir":
                self.holder = seat
            else:
                self.passed.add(seat)
            self._end_bidding()

    def _bei_mir(self) -> None:
        self.prev_holder, self.holder = self.holder, self.dealer
        if self.bid == 5:
            self._end_bidding()
        else:
            self.bid_mode = "answer"

    def _end_bidding(self) -> None:
        self._phase = "trump" if self.holder is not None else "end"

    def _weiss_nicht(self, seat: int) -> None:
        """"Weiß ich noch nicht": a Brücke before the trump.  Five cards unseen, the
        sixth shown names the trump (so it is a trump: the seventh is shown), and more
        are shown while the last shown card is a trump, as in a Brücke; then ``ab``
        down to five."""
        self.weiss_nicht = True
        self.hands[seat] = self._take(5)
        sixth = self._take(1)[0]
        self.trump = sixth.suit.letter
        shown = [sixth]
        while self.stock and is_trump(shown[-1], self.trump):
            shown += self._take(1)
        self.shown += shown
        self.hands[seat] += shown
        self.to_discard = len(self.hands[seat]) - 5
        self._phase = "weiss_ab"

    def _start_mitgehen(self) -> None:
        assert self.holder is not None
        self.pending = self._from(self.holder)[1:]
        self._phase = "mitgehen"

    def _after_mitgehen(self) -> None:
        assert self.holder is not None
        self.home.sort()
        if len(self.home) == self.num_seats - 1:
            self._phase = "end"
            return
        self.playing = [s for s in self._from(self.holder) if s not in self.home]
        if self.bid == 5:
            self._start_play()
            return
        self.pending = [s for s in self.playing if not (self.weiss_nicht and s == self.holder)]
        self._phase = "exchange"
        if not self.pending:
            self._start_play()

    def _choose(self, seat: int, head: str, rest: str) -> None:
        self.pending.pop(0)
        hand = self.hands[seat]
        if head == "tausche":
            gone = _cards(rest)
            self.promised += len(gone)
        elif head == "sicht":
            gone = _cards(rest)
            self.promised += 2
        elif head == "sau":
            gone = [c for c in hand if not (c.suit.letter == self.trump and c.rank == Rank.ASS)]
            self.promised += 5
        elif head == "sechs":
            gone = [c for c in hand if str(c) != "S7"]
            self.promised += 6
        elif head == "bruecke":
            gone = list(hand)
            self.promised += 6
        else:
            gone = []
        for c in gone:
            hand.remove(c)
        if head != "behalte":
            self.choices[seat] = head
            if head == "tausche":
                self.choices[seat] = f"tausche {len(gone)}"
        if not self.pending:
            order = [s for s in self.playing if s in self.choices]
            self.give_queue = ([s for s in order if self.choices[s] != "bruecke"]
                               + [s for s in order if self.choices[s] == "bruecke"])
            self._phase = "give"
            self._run_give()

    def _run_give(self) -> None:
        """Give cards from the stock top until a seat has to say something."""
        while self.give_queue:
            if self.actor is not None:  # the actor has finished
                self.actor = None
                self.give_queue.pop(0)
                continue
            seat = self.give_queue[0]
            form = self.choices[seat]
            hand = self.hands[seat]
            self.actor = seat
            if form.startswith("tausche"):
                hand += self._take(int(form.split()[1]))
                continue
            if form == "sicht":
                self.sicht_card = self._take(1)[0]
                self.shown.append(self.sicht_card)
                return
            if form in ("sau", "sechs"):
                hand += self._take(5 if form == "sau" else 6)
            else:  # bruecke
                later = sum(1 for s in self.give_queue[1:] if self.choices[s] == "bruecke")
                hand += self._take(5)
                assert self.trump is not None
                while self.stock:
                    card = self._take(1)[0]
                    hand.append(card)
                    self.shown.append(card)
                    if not is_trump(card, self.trump) or len(self.stock) <= 6 * later:
                        break
            self.to_discard = len(hand) - 5
            if self.to_discard > 0:
                return
            self.to_discard = 0
        self.actor = None
        self._start_play()

    def _start_play(self) -> None:
        self.leader = self.holder
        self._phase = "play"

    def _play(self, seat: int, card: Card) -> None:
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < len(self.playing):
            return
        assert self.trump is not None
        led = suit_of(self.trick[0][1], self.trump)
        winner = max(self.trick, key=lambda sc: strength(sc[1], self.trump or "", led))[0]
        self.trick_winners.append(winner)
        self.tricks_played.append(self.trick)
        self.trick = []
        self.leader = winner
        if len(self.trick_winners) == 5:
            self._phase = "end"

    # -- checks ---------------------------------------------------------------------
    def explain_illegal(self, action: Action) -> str:
        seat = self.current_player
        if isinstance(action, Card):
            if self._phase != "play":
                return f"no card is played in phase {self._phase}"
            if action not in self.hands[seat]:
                return f"seat {seat} does not hold {action}"
            legal = " ".join(str(c) for c in self._playable(seat))
            return f"seat {seat} may not play {action} (legal: {legal})"
        texts = [str(a) for a in self.legal_actions()]
        shown = ", ".join(texts[:12]) + (", …" if len(texts) > 12 else "")
        word = action.word if isinstance(action, Say) else str(action)
        reason = self._reason(seat, word)
        return (f"seat {seat}: {word!r} is not legal in phase {self._phase}"
                f"{': ' + reason if reason else ''} (legal: {shown})")

    def _reason(self, seat: int, word: str) -> str:
        p, score = self._phase, self.start_scores[seat]
        if p == "bidding":
            if score <= 5:
                return f"a score of {score} (5 or less) may only say weiter"
            value = 5 if word == "muli" else int(word) if word.isdigit() else None
            if value is not None and value <= self.bid:
                return f"{word} is not greater than the standing bid {self.bid}"
            if word == "bei mir":
                return "only the dealer says bei mir, and only to a standing bid"
        if p == "mitgehen" and word == "daheim":
            why = ("Herz is trump" if self.trump == "H" else "a Muli" if self.bid == 5
                   else f"a score of {score} (3 or less)")
            return f"only mit: {why}"
        if p == "exchange":
            if score <= 3:
                return f"a score of {score} (3 or less) may only say behalte"
            head = word.split(" ")[0]
            if head in ("tausche", "sicht", "sau", "sechs", "bruecke"):
                return (f"the stock holds {len(self.stock) - self.promised} cards not "
                        "promised yet, or the hand does not allow it")
        return ""

    def sample_chance(self, rng: Rng) -> Action:
        order = list(DECK)
        rng.shuffle(order)
        return Shuffle(tuple(order))

    def is_chance_outcome(self, action: Action) -> bool:
        return (self._phase == "shuffle" and isinstance(action, Shuffle)
                and sorted(action.order, key=_key) == list(DECK))

    def clone(self) -> MulatschakState:
        return copy.deepcopy(self)

    def parse_action(self, text: str) -> Action:
        """A word or card as records write it, or a shuffle's text (``shuffle:…``, as
        :func:`~stammtisch.engine.core.action_log` writes it: a table rebuilt from its log)."""
        chance = parse_chance(text) if text.startswith("shuffle:") else None
        return chance if chance is not None else parse_action(text)

    # -- result and views -------------------------------------------------------------
    def final_result(self) -> MulatschakResult | None:
        if self._phase != "end":
            return None
        n = self.num_seats
        played = bool(self.trick_winners)
        m = self.multiplier() if played else int(2 ** (self.klopfen + self.doubled))
        tricks = [self.trick_winners.count(s) for s in range(n)]
        delta = [0] * n
        bidder = None if self.folded else self.holder
        if bidder is not None and not played:  # everybody stayed home
            for s in range(n):
                delta[s] = -self.bid * m if s == bidder else m
        elif bidder is not None and self.bid == 5:
            if tricks[bidder] == 5:
                delta = [-10 * m if s == bidder else 10 * m for s in range(n)]
            else:
                delta[bidder] = 10 * m
                if self.rules.muli_broken == "all":
                    for s in range(n):
                        if s != bidder:
                            delta[s] = -10 * m
                else:
                    breaker = next(w for w in self.trick_winners if w != bidder)
                    delta[breaker] = -10 * m
        elif bidder is not None:
            for s in range(n):
                t = tricks[s]
                if s in self.home:
                    delta[s] = m
                elif s == bidder:
                    delta[s] = -t * m if t >= self.bid else 10 * m
                else:
                    delta[s] = -t * m if t else 5 * m
        scores = [a + d for a, d in zip(self.start_scores, delta, strict=True)]
        return MulatschakResult(
            folded=self.folded,
            bidder=bidder,
            bid=self.bid if bidder is not None else None,
            trump=self.trump if bidder is not None else None,
            multiplier=m,
            home=tuple(sorted(self.home)),
            trick_winners=tuple(self.trick_winners),
            tricks=tuple(tricks),
            delta=tuple(delta),
            scores=tuple(scores),
            match_winner=tuple(match_winner(scores)),
        )

    def returns(self) -> list[float]:
        """The score change of the hand per seat with its sign turned (a Mulatschak score
        counts down to 0, so less is better); zeros until the end."""
        r = self.final_result()
        return [0] * self.num_seats if r is None else [-d for d in r.delta]

    def teams(self) -> list[tuple[int, ...]]:
        """Each seat plays for itself."""
        return [(s,) for s in range(self.num_seats)]

    def public_cards(self) -> list[Card]:
        """The cards everybody has seen, though someone may hold them now: the cut card
        and the cards shown face up in the exchange (``sicht``, a Brücke, ``weiss_nicht``)."""
        return [*([self.revealed] if self.revealed is not None else []), *self.shown]

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "game": self.game_name,
            "phase": self._phase,
            "dealer": self.dealer,
            "seat": seat,
            "to_act": self.current_player,
            "scores": list(self.start_scores),
            "doubled": self.doubled,
            "klopfen": self.klopfen,
            # the cut card was shown to everybody (public even once someone holds it)
            "revealed": str(self.revealed) if self.revealed is not None else None,
            "weli_keeper": self.weli_keeper,
            "hand": ([str(c) for c in canonical(self.hands[seat])] if seat is not None
                     else None),
            "hand_sizes": [len(h) for h in self.hands],
            "stock_size": len(self.stock),
            "bid": self.bid,
            "holder": self.holder,
            "trump": self.trump,
            "home": sorted(self.home),
            # cards shown face up in the exchange (sicht, Brücke, weiss_nicht): public
            "shown": [str(c) for c in self.shown],
            "trick": [[s, str(c)] for s, c in self.trick],
            "tricks_played": [[[s, str(c)] for s, c in t] for t in self.tricks_played],
            "trick_winners": list(self.trick_winners),
            "said": [[s, _said(a.word, s == seat)] for s, a in self.history
                     if isinstance(a, Say) and s >= 0],
            "result": self.result(),
        }


def _said(word: str, own: bool) -> str:
    """A word as ``seat`` may know it: the cards given away face down in the exchange
    (``tausche``, ``sicht``, ``ab``) are known to their owner only; the others learn how
    many (each card written ``?``)."""
    head, *rest = word.split()
    if own or head not in _CARD_WORDS:
        return word
    return " ".join([head, *("?" * len(rest))])


def match_winner(scores: Sequence[int]) -> list[int]:
    """Seats at 0 or less; several: the lowest score (ties shared)."""
    down = [s for s, v in enumerate(scores) if v <= 0]
    if not down:
        return []
    low = min(scores[s] for s in down)
    return [s for s in down if scores[s] == low]


def _cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


_PLAIN = {"klopfen", "1", "2", "3", "4", "muli", "weiter", "bei mir", "mit", "daheim",
          "behalte", "sau", "sechs", "bruecke", "nimm", "weg", "weiss nicht"}


def parse_action(text: str) -> Action:
    """Parse a word or a card exactly as records write them (card lists canonical)."""
    if text in _PLAIN:
        return Say(text)
    head, sep, rest = text.partition(" ")
    if head == "abheben" and rest.isdigit() and str(int(rest)) == rest:
        return Say(text)
    if head == "trumpf" and rest in SUITS:
        return Say(text)
    if head in _CARD_WORDS and rest:
        parts = rest.split(" ")
        try:
            cs = [Card.parse(p) for p in parts]
        except InvalidCardError:
            raise InvalidActionError(f"{text!r}: not a list of cards") from None
        if [str(c) for c in cs] != parts or any(c not in DECK for c in cs):
            raise InvalidActionError(f"{text!r}: cards must be written as in the notation")
        if len(set(cs)) != len(cs):
            raise InvalidActionError(f"{text!r}: a card is repeated")
        if head == "sicht" and len(cs) != 1:
            raise InvalidActionError(f"{text!r}: sicht names one card")
        return Say(head + " " + " ".join(str(c) for c in canonical(cs)))
    if not sep:
        try:
            c = Card.parse(text)
        except InvalidCardError:
            c = None
        if c is not None and str(c) == text and c in DECK:
            return c
    raise InvalidActionError(f"{text!r} is not a word of Mulatschak")


def new_state(rules: MulatschakRules, dealer: int = 0, rng: Rng | None = None,
              scores: Sequence[int] = (21, 21, 21, 21), doubled: int = 0) -> MulatschakState:
    """A fresh hand; with ``rng`` the shuffle is drawn, else it waits at the chance node."""
    state = MulatschakState(rules, dealer, scores, doubled)
    if rng is not None:
        state.apply(state.sample_chance(rng))
    return state


__all__ = ["RESULT_KEYS", "MulatschakState", "match_winner", "new_state", "parse_action"]
