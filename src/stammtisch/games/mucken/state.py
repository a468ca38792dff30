"""One game (one deal) of Mucken, from shuffle to score.

Implements (seeds 000 and 001, every variant an option of :class:`MuckenRules`):
shuffling as chance, Abheben (cut at least once, at most twice, at least three
cards lifted and left; optional Klopfen), dealing 3 + 3 clockwise from the left
of the dealer (4 + 4 with the long deck; all at once after Klopfen), the
bidding with "weiter" and overcalls in rounds, Kontra/Re/Sup/Hirsch, Sie,
trick play with the trumps of Muck, Wenz, Geier and Farbsolo, the no-game
rules (Pflichtmuck, Einwerfen, Muss-Spiel, Ramsch with Stichzwang and
Durchmarsch), a recorded Regelverstoß, and the score of the game.

Not here: the sequence of games (dealer rotation, Einwerfen factors, Bobbl and
Hänger) — see :mod:`stammtisch.games.mucken.match`; Auskarten —
:mod:`stammtisch.games.mucken.auskarten`; the Sechsermuck for six players (no
source gives its rules) is not implemented.

Seats are 0–3 clockwise; pair 0 is seats 0 and 2, pair 1 is seats 1 and 3.

>>> from stammtisch.cards import cards
>>> s = MuckenState(MuckenRules.preset("seefest"), dealer=3)
>>> s.apply(Deal(tuple(cards(h) for h in ["EO GO HO SO EU GU", "HA H10 HK H9 HU SU",
...     "EA E10 EK E9 GA G10", "GK G9 SA S10 SK S9"])))
>>> s.phase, s.current_player
('bidding', 0)
>>> [str(a) for a in s.legal_actions()][:3]
['weiter', 'muck', 'wenz']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stammtisch.cards import GERMAN_SUITS, LONG_DECK, SHORT_DECK, Card, Rank, Suit
from stammtisch.engine.core import (
    CHANCE,
    TERMINAL,
    Action,
    CachedTurnState,
    Cut,
    Deal,
    Rng,
    Say,
    Shuffle,
    parse_chance,
)
from stammtisch.engine.tricks import TrickOrder, TrickPlay, deal_problem, explain_card
from stammtisch.errors import IllegalActionError, InvalidActionError, InvalidCardError
from stammtisch.games.mucken.orders import trick_order
from stammtisch.games.mucken.rules import DOUBLING_WORDS, Bid, MuckenRules
from stammtisch.games.mucken.scoring import (
    MuckenResult,
    Outcome,
    pair_of,
    score_game,
    score_pflichtmuck,
    score_ramsch,
)

WEITER = Say("weiter")
GUT = Say("gut")
KLOPFEN = Say("klopfen")
GEBEN = Say("geben")
RAMSCH = Say("ramsch")

# phases
SHUFFLE = "shuffle"
CUT = "cut"
BIDDING = "bidding"
MUSS = "muss"
DOUBLING = "doubling"
PLAY = "play"
END = "end"



class MuckenState(CachedTurnState):
    """A single Mucken game.  Create with the rules, the dealer's seat and the
    factor that Einwerfen left pending (1 normally)."""

    game_name = "mucken"
    num_seats = 4

    def __init__(self, rules: MuckenRules | None = None, dealer: int = 0, factor: int = 1) -> None:
        if not 0 <= dealer < 4:
            raise IllegalActionError(f"dealer={dealer!r}: must be a seat 0..3", "invalid")
        self.rules = rules if rules is not None else MuckenRules.preset("seefest")
        self.dealer = dealer
        self.factor = factor
        self.deck: tuple[Card, ...] = SHORT_DECK if self.rules.deck == "short" else LONG_DECK
        self._phase = SHUFFLE
        self._player = CHANCE
        self._legal: list[Action] | None = None
        self.history: list[tuple[int, Action]] = []
        # deal
        self.stack: list[Card] = []
        self.cuts: list[int] = []
        self.klopfen = False
        self.hands: list[list[Card]] = [[], [], [], []]
        self.dealt: tuple[tuple[Card, ...], ...] = ()
        # bidding
        self.calls: list[tuple[int, str]] = []
        self.passed: set[int] = set()
        self.holder: int | None = None
        self.bid: Bid | None = None
        self.forced = False
        self.contract = ""  # "" until known: a bid name, pflichtmuck, ramsch, sie, eingeworfen
        # doubling
        self.doublings = 0
        self.doubling_seats: list[int] = []
        self._ask: list[int] = []
        # play
        self.order: TrickOrder = trick_order("muck", self.rules.deck)
        self.tricks = TrickPlay(4, (dealer + 1) % 4)
        self.violation: int | None = None
        self.outcome: Outcome | None = None

    # -- engine contract (phase, current_player, legal_actions: CachedTurnState) ----------
    @property
    def leader(self) -> int:
        return (self.dealer + 1) % 4

    @property
    def cutter(self) -> int:
        return (self.dealer + 3) % 4

    @property
    def declarer(self) -> int | None:
        """The seat that called the game, once the bidding is over."""
        return self.holder if self.bid is not None and self._phase != BIDDING else None

    def clone(self) -> MuckenState:
        s = MuckenState.__new__(MuckenState)
        s.__dict__.update(self.__dict__)
        s._legal = None
        s.history = list(self.history)
        s.stack = list(self.stack)
        s.cuts = list(self.cuts)
        s.hands = [list(h) for h in self.hands]
        s.calls = list(self.calls)
        s.passed = set(self.passed)
        s.doubling_seats = list(self.doubling_seats)
        s._ask = list(self._ask)
        s.tricks = self.tricks.clone()
        return s

    def _compute_legal(self) -> list[Action]:
        ph = self._phase
        if ph == PLAY:
            t = self.tricks
            return list(self.order.legal(
                self.hands[self._player],
                t.current[0] if t.current else None,
                must_trump=self.contract == "ramsch" and self.rules.ramsch_stichzwang,
            ))
        if ph == BIDDING:
            return self._legal_bids()
        if ph == MUSS:
            return [Say(b.name) for b in self.rules.bids]
        if ph == DOUBLING:
            return [Say(DOUBLING_WORDS[self.doublings]), GUT]
        if ph == CUT:
            out: list[Action] = []
            n = len(self.stack)
            if len(self.cuts) < self.rules.cut_max_times:
                last = n - self.rules.cut_min_left
                out.extend(Cut(k) for k in range(self.rules.cut_min, last + 1))
            if len(self.cuts) >= self.rules.cut_min_times:
                out.append(GEBEN)
            if not self.cuts and self.rules.klopfen:
                out.append(KLOPFEN)
            return out
        return []

    def _legal_bids(self) -> list[Action]:
        out: list[Action] = [WEITER]
        rules = self.rules
        current = rules.bid_rank(self.bid) if self.bid is not None else (-1, -1)
        out.extend(Say(b.name) for b in rules.bids if rules.bid_rank(b) > current)
        if (
            rules.ramsch_last_man
            and self.bid is None
            and len(self.calls) == 3
            and self._player == self.dealer
        ):
            out.append(RAMSCH)
        return out

    def is_chance_outcome(self, action: Action) -> bool:
        if self._phase != SHUFFLE:
            return False
        if isinstance(action, Shuffle):
            return len(action.order) == len(self.deck) and set(action.order) == set(self.deck)
        if isinstance(action, Deal):
            return self._deal_problem(action.hands) is None
        return False

    def _deal_problem(self, hands: Sequence[Sequence[Card]]) -> str | None:
        return deal_problem(hands, self.deck, self.rules.hand_size,
                            f"in the {self.rules.deck} deck")

    def sample_chance(self, rng: Rng) -> Action:
        order = list(self.deck)
        rng.shuffle(order)
        return Shuffle(tuple(order))

    def parse_action(self, text: str) -> Action:
        t = text.strip()
        low = t.lower()
        chance = parse_chance(t)
        if chance is not None:
            return chance
        if low.startswith("cut:"):
            try:
                return Cut(int(low[4:]))
            except ValueError:
                raise InvalidActionError(f"not an action: {text!r} (cut needs a number)") from None
        if low.isalpha() and len(low) > 3:
            return Say(low)
        try:
            return Card.parse(t)
        except InvalidCardError:
            if low.isalpha():
                return Say(low)
            raise InvalidActionError(f"not an action: {text!r}") from None

    def explain_illegal(self, action: Action) -> str:
        ph = self._phase
        seat = self._player
        if ph == PLAY:
            why = explain_card(seat, self.hands[seat], action, self.order, self.tricks.led)
            return why if why is not None else f"seat {seat} must trump (Stichzwang)"
        if ph in (BIDDING, MUSS):
            if not isinstance(action, Say):
                return f"seat {seat} must call a game or 'weiter' now"
            word = action.word
            if ph == MUSS and word == "weiter":
                return f"seat {seat} holds {self.rules.muss_card} and must call a game (Muss-Spiel)"
            b = self.rules.bid_by_name(word)
            if b is None:
                if word == "ramsch":
                    return "only the last man may call a Ramsch, after three times 'weiter'"
                return (f"{word!r} is not a game of these rules (games: "
                        + ", ".join(self.rules.bid_names()) + ")")
            assert self.bid is not None
            return f"{word} is not higher than {self.bid.name}"
        if ph == DOUBLING:
            return (f"seat {seat} may say {DOUBLING_WORDS[self.doublings]!r} or 'gut' now, "
                    f"not {action}")
        if ph == CUT:
            if isinstance(action, Cut):
                n = len(self.stack)
                if len(self.cuts) >= self.rules.cut_max_times:
                    return (f"already cut {len(self.cuts)} times "
                            f"(at most {self.rules.cut_max_times})")
                return (f"must lift at least {self.rules.cut_min} and leave at least "
                        f"{self.rules.cut_min_left} of {n} cards")
            if action == GEBEN:
                return f"must cut at least {self.rules.cut_min_times} time(s) first"
            if action == KLOPFEN:
                return "Klopfen is not allowed (or cards were already cut)"
            return f"seat {seat} must cut now"
        if ph == SHUFFLE:
            return "chance must shuffle or deal now"
        return f"{action} is not possible in phase {ph}"

    # -- applying -------------------------------------------------------------
    def apply_unchecked(self, action: Action) -> None:
        self._legal = None
        ph = self._phase
        seat = self._player
        self.history.append((seat, action))
        if ph == PLAY:
            assert isinstance(action, Card)
            self.hands[seat].remove(action)
            t = self.tricks
            t.play(action, self.order)
            if len(t.winners) == self.rules.max_tricks:
                self._finish()
            else:
                self._player = t.to_play
        elif ph == BIDDING:
            assert isinstance(action, Say)
            self._bid(seat, action.word)
        elif ph == MUSS:
            assert isinstance(action, Say)
            self.calls.append((seat, action.word))
            self.bid = self.rules.bid_by_name(action.word)
            self.holder = seat
            self.forced = True
            self._after_bidding()
        elif ph == DOUBLING:
            assert isinstance(action, Say)
            self._double(seat, action.word)
        elif ph == CUT:
            if isinstance(action, Cut):
                self.stack = self.stack[action.count:] + self.stack[: action.count]
                self.cuts.append(action.count)
                if len(self.cuts) >= self.rules.cut_max_times:
                    self._deal_from_stack()
            elif action == KLOPFEN:
                self.klopfen = True
                self._deal_from_stack()
            else:
                self._deal_from_stack()
        elif ph == SHUFFLE:
            if isinstance(action, Shuffle):
                self.stack = list(action.order)
                if self.rules.cut_max_times == 0:
                    self._deal_from_stack()
                else:
                    self._phase = CUT
                    self._player = self.cutter
            else:
                assert isinstance(action, Deal)
                self._start_bidding([list(h) for h in action.hands])
        else:  # pragma: no cover - apply() refuses actions when terminal
            raise IllegalActionError(f"{action}: the game is over", "game_over")

    def _deal_from_stack(self) -> None:
        hands: list[list[Card]] = [[], [], [], []]
        stack = self.stack
        size = self.rules.hand_size
        packets = [size] if self.klopfen else [size // 2, size - size // 2]
        pos = 0
        for packet in packets:
            for i in range(4):
                seat = (self.dealer + 1 + i) % 4
                hands[seat].extend(stack[pos : pos + packet])
                pos += packet
        self._start_bidding(hands)

    def _start_bidding(self, hands: list[list[Card]]) -> None:
        self.hands = hands
        self.dealt = tuple(tuple(h) for h in hands)
        if self.rules.sie:
            for seat, hand in enumerate(hands):
                if _is_sie(hand):
                    self.holder = seat
                    self.contract = "sie"
                    self._finish()
                    return
        self._phase = BIDDING
        self._player = self.leader

    def _bid(self, seat: int, word: str) -> None:
        self.calls.append((seat, word))
        if word == "weiter":
            self.passed.add(seat)
        elif word == "ramsch":
            self._no_game(ramsch=True)
            return
        else:
            bid = self.rules.bid_by_name(word)
            assert bid is not None
            prev = self.holder
            if prev is not None and (
                pair_of(prev) != pair_of(seat) or self.rules.partner_overcall_new_round
            ):
                self.passed = set()
            self.holder = seat
            self.bid = bid
        holder = self.holder
        if holder is None:
            if len(self.passed) == 4:
                self._no_game()
                return
        elif len(self.passed) == 3 and holder not in self.passed:
            self._after_bidding()
            return
        nxt = (seat + 1) % 4
        while nxt in self.passed or nxt == holder:
            nxt = (nxt + 1) % 4
        self._player = nxt

    def _no_game(self, ramsch: bool = False) -> None:
        kind = "ramsch" if ramsch else self.rules.no_game
        if kind == "einwerfen":
            self.contract = "eingeworfen"
            self._finish()
        elif kind == "muss":
            holder = next(s for s in range(4) if Card.parse(self.rules.muss_card) in self.hands[s])
            self._phase = MUSS
            self._player = holder
        else:
            self.contract = kind  # pflichtmuck or ramsch: Muck trumps, no Kontra
            self.order = trick_order("muck", self.rules.deck)
            self._start_play()

    def _after_bidding(self) -> None:
        bid = self.bid
        assert bid is not None and self.holder is not None
        self.contract = bid.name
        self.order = trick_order(bid.kind, self.rules.deck, bid.suit)
        if self.rules.doublings > 0:
            dp = pair_of(self.holder)
            self._ask = sorted((s for s in range(4) if pair_of(s) != dp),
                               key=lambda s: (s - self.leader) % 4)
            self._phase = DOUBLING
            self._player = self._ask[0]
        else:
            self._start_play()

    def _double(self, seat: int, word: str) -> None:
        if word == "gut":
            self._ask.pop(0)
            if self._ask:
                self._player = self._ask[0]
                return
            self._start_play()
            return
        self.doublings += 1
        self.doubling_seats.append(seat)
        if self.doublings >= self.rules.doublings:
            self._start_play()
            return
        # the other pair may answer
        self._ask = sorted((s for s in range(4) if pair_of(s) != pair_of(seat)),
                           key=lambda s: (s - seat) % 4)
        self._player = self._ask[0]

    def _start_play(self) -> None:
        self._phase = PLAY
        self._player = self.leader

    def _finish(self) -> None:
        self._phase = END
        self._player = TERMINAL
        self.outcome = self._score()

    def record_violation(self, seat: int) -> None:
        """A Regelverstoß by ``seat`` (seed 001: "Schwarz verloren"): the game ends
        at once and counts as won schwarz by the other pair."""
        if self.is_terminal():
            raise IllegalActionError(f"Regelverstoß by seat {seat}: the game is over", "game_over")
        if not 0 <= seat < 4:
            raise IllegalActionError(f"Regelverstoß: seat {seat!r} is not a seat 0..3", "invalid")
        if self._phase in (SHUFFLE, CUT):
            raise IllegalActionError(
                f"Regelverstoß by seat {seat}: the cards are not dealt yet", "illegal_action")
        self._legal = None
        self.violation = seat
        if not self.contract:
            self.contract = self.bid.name if self.bid is not None else self.rules.no_game
        self._finish()

    # -- results ----------------------------------------------------------------
    def pair_augen(self) -> list[int]:
        a = self.tricks.augen
        return [a[0] + a[2], a[1] + a[3]]

    def pair_tricks(self) -> list[int]:
        out = [0, 0]
        for w in self.tricks.winners:
            out[w % 2] += 1
        return out

    def _score(self) -> Outcome:
        rules = self.rules
        augen = self.pair_augen()
        tricks = self.pair_tricks()
        if self.violation is not None:
            winner = 1 - pair_of(self.violation)
            if self.bid is not None:
                value = rules.value(self.bid.name, "schwarz") or 0
            elif self.contract == "ramsch":
                value = rules.ramsch_value * (2 if rules.ramsch_double else 1)
            elif self.contract == "pflichtmuck":
                value = rules.pflichtmuck_value
            else:
                value = rules.value(rules.bids[0].name, "schwarz") or 0
            return Outcome(winner, value * 2**self.doublings * self.factor, "schwarz",
                           f"Regelverstoß von Platz {self.violation}")
        c = self.contract
        if c == "eingeworfen":
            return Outcome(None, 0, None, "eingeworfen")
        if c == "sie":
            assert self.holder is not None
            return Outcome(pair_of(self.holder), rules.sie_value * self.factor, "schwarz", "Sie")
        if c == "pflichtmuck":
            tie_card = Card.parse(rules.tie_card)
            holder = next((s for s in range(4) if tie_card in self.dealt[s]), None)
            o = score_pflichtmuck(rules, augen, None if holder is None else pair_of(holder))
        elif c == "ramsch":
            o = score_ramsch(rules, augen, tricks, self.tricks.tricks, self.tricks.winners)
        else:
            assert self.bid is not None and self.holder is not None
            o = score_game(rules, self.bid.name, self.bid.level, pair_of(self.holder), augen,
                           tricks, self.doublings, self.forced)
        if self.factor != 1:
            o = Outcome(o.winner, o.score * self.factor, o.column, o.reason)
        return o

    def final_result(self) -> MuckenResult | None:
        if self._player != TERMINAL:
            return None
        o = self.outcome
        assert o is not None
        return MuckenResult(
            contract=self.contract,
            declarer=self.declarer if self.contract != "sie" else self.holder,
            kontra=self.doublings > 0,
            doublings=self.doublings,
            trick_winners=tuple(self.tricks.winners),
            augen=tuple(self.pair_augen()),
            tricks=tuple(self.pair_tricks()),
            winner=o.winner,
            score=o.score,
            column=o.column,
            reason=o.reason,
            violation=self.violation,
            forced=self.forced,
            factor=self.factor,
        )

    def returns(self) -> list[float]:
        """Points per seat (winners +score, losers -score); zeros until terminal."""
        o = self.outcome
        if o is None or o.winner is None:
            return [0, 0, 0, 0]
        return [o.score if pair_of(s) == o.winner else -o.score for s in range(4)]

    def teams(self) -> list[tuple[int, ...]]:
        """The two pairs, seats 0+2 and 1+3 (a Sie too: the pair shares its points)."""
        return [(0, 2), (1, 3)]

    # -- views ----------------------------------------------------------------------
    def sort_hand(self, hand: Sequence[Card]) -> list[Card]:
        """A hand in the order of the current game (Muck order until a game is known)."""
        return self.order.sorted(hand)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see; ``None`` is a spectator (no hands at all)."""
        t = self.tricks
        cur_leader = t.leader
        last = t.last_trick
        terminal = self._player == TERMINAL
        v: dict[str, Any] = {
            "game": "mucken",
            "rules": self.rules.name,
            "phase": self._phase,
            "seat": seat,
            "dealer": self.dealer,
            "leader": self.leader,
            "to_act": None if self._player < 0 else self._player,
            "hand": [str(c) for c in self.sort_hand(self.hands[seat])] if seat is not None else [],
            "hand_sizes": [len(h) for h in self.hands],
            "cuts": list(self.cuts),
            "klopfen": self.klopfen,
            "calls": [{"seat": s, "call": w} for s, w in self.calls],
            "contract": self.contract or None,
            "declarer": self.declarer,
            "standing_bid": self.bid.name if self.bid is not None else None,
            "bid_holder": self.holder if self.bid is not None else None,
            "doublings": [{"seat": s, "word": DOUBLING_WORDS[i]}
                          for i, s in enumerate(self.doubling_seats)],
            "trick": [{"seat": (cur_leader + i) % 4, "card": str(c)}
                      for i, c in enumerate(t.current)],
            "last_trick": None if last is None else {
                "winner": t.winners[-1],
                "cards": [{"seat": (last[0] + i) % 4, "card": str(c)}
                          for i, c in enumerate(last[1])],
            },
            "tricks_played": [
                {"leader": lead, "winner": w,
                 "cards": [{"seat": (lead + i) % 4, "card": str(c)} for i, c in enumerate(cs)]}
                for (lead, cs), w in zip(t.tricks, t.winners, strict=True)
            ],
            "tricks_taken": self.pair_tricks(),
            "augen_taken": self.pair_augen(),
            "factor": self.factor,
            "legal": ([str(a) for a in self.legal_actions()]
                      if seat is not None and seat == self._player else []),
            "result": self.result() if terminal else None,
        }
        if terminal and not any(self.hands):
            # every card has been played: the deal is public now
            v["dealt"] = [[str(c) for c in h] for h in self.dealt]
        elif terminal and self.contract == "sie":
            # the Sie is laid down on the table; the other hands stay hidden (as after
            # Einwerfen or a Regelverstoß, which end the game with cards unplayed)
            v["dealt"] = [[str(c) for c in h] if s == self.holder else []
                          for s, h in enumerate(self.dealt)]
        return v


def _is_sie(hand: Sequence[Card]) -> bool:
    need = {Card.of(s, Rank.OBER) for s in GERMAN_SUITS}
    need |= {Card.of(Suit.EICHEL, Rank.UNTER), Card.of(Suit.GRAS, Rank.UNTER)}
    return need <= set(hand)


def new_game(rules: MuckenRules | None = None, dealer: int = 0, factor: int = 1) -> MuckenState:
    """A game at its first chance node (shuffle)."""
    return MuckenState(rules, dealer, factor)


def game_from_hands(
    hands: Sequence[Sequence[Card]],
    rules: MuckenRules | None = None,
    dealer: int = 0,
    factor: int = 1,
) -> MuckenState:
    """A game with the given dealt hands, at the start of the bidding."""
    s = MuckenState(rules, dealer, factor)
    s.apply(Deal(tuple(tuple(h) for h in hands)))
    return s


__all__ = ["MuckenState", "game_from_hands", "new_game"]

