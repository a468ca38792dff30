"""One hand of Schafkopf, from the deal to the payments (the contract ../specs/schafkopf.md).

Phases: ``shuffle`` (chance; or the hands are given as a :class:`Deal`), ``legen``
(with ``rules.legen``), ``bidding``, ``muss`` (the holder of EO names a Sauspiel),
``hochzeit`` (the others accept or not), ``exchange`` (the acceptor names the card he
gives), ``stossen``, ``play``, ``end``.

Seats are 0–3 clockwise; Vorhand is the dealer's left neighbour.

>>> from stammtisch.cards import cards
>>> s = game_from_hands([cards("EO GO HO SO EU GU HU SU"), cards("EA E10 EK E9 E8 E7 GA G10"),
...     cards("HA H10 HK H9 H8 H7 GK G9"), cards("SA S10 SK S9 S8 S7 G8 G7")], dealer=3)
>>> s.phase, s.current_player, [str(a) for a in s.legal_actions()][-2:]
('bidding', 0, ['solo-schellen-tout', 'sie'])
>>> _ = s.push("sie")
>>> r = s.result()
>>> r["contract"], r["declarer"], r["augen"], r["laufende"], r["payments"]
('sie', 0, [120, 0, 0, 0], 8, [1560, -520, -520, -520])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self

from stammtisch.cards import GERMAN_SUITS, LONG_DECK, Card, Rank, Suit
from stammtisch.engine import tricks
from stammtisch.engine.core import (
    CHANCE,
    TERMINAL,
    Action,
    CachedTurnState,
    Deal,
    Rng,
    Say,
    Shuffle,
    parse_chance,
)
from stammtisch.engine.results import GameResult
from stammtisch.engine.tricks import TrickOrder, TrickPlay, explain_card
from stammtisch.errors import IllegalActionError, InvalidCardError
from stammtisch.games.schafkopf.games import (
    BID_GAMES,
    CALL_SUITS,
    LAUFENDE_FROM,
    MUSS_GAMES,
    NORMAL,
    SUIT_WORD,
    Game,
    order_for,
)
from stammtisch.games.schafkopf.rules import SchafkopfRules

# phases
SHUFFLE = "shuffle"
LEGEN = "legen"
BIDDING = "bidding"
MUSS = "muss"
HOCHZEIT = "hochzeit"
EXCHANGE = "exchange"
STOSSEN = "stossen"
PLAY = "play"
END = "end"

WEITER = Say("weiter")
GUT = Say("gut")
LEGE = Say("lege")
ANNEHMEN = Say("annehmen")

EO = Card.of(Suit.EICHEL, Rank.OBER)
_OBER_UNTER = frozenset(Card.of(s, r) for s in GERMAN_SUITS for r in (Rank.OBER, Rank.UNTER))

#: the keys of :meth:`SchafkopfState.result`, in the contract's order
RESULT_KEYS: tuple[str, ...] = (
    "contract", "declarer", "partner", "trick_winners", "augen", "winner", "schneider",
    "schwarz", "laufende", "multiplier", "payments", "loser",
)


def _plain_of(hand: Sequence[Card], suit: Suit, order: TrickOrder = NORMAL) -> list[Card]:
    """The cards of ``suit`` in ``hand`` that are not trumps in ``order``."""
    return [c for c in hand if c.suit is suit and not order.is_trump(c)]


@dataclass(frozen=True)
class SchafkopfResult(GameResult):
    """A finished Schafkopf hand (``SchafkopfState.final_result()``): exactly the
    contract's result keys, in its order (``replay --json``)."""

    contract: str | None
    declarer: int | None
    partner: int | None
    trick_winners: tuple[int, ...]
    #: Augen per seat
    augen: tuple[int, ...]
    #: ``"declarers"``, ``"opponents"``, ``None`` (a redeal, a Ramsch)
    winner: str | None
    schneider: bool
    schwarz: bool
    laufende: int
    multiplier: int
    #: cents per seat, zero-sum
    payments: tuple[int, ...]
    #: a Ramsch's loser
    loser: int | None


class SchafkopfState(CachedTurnState):
    """A single hand of Schafkopf.  Create with the rules and the dealer's seat."""

    game_name = "schafkopf"
    num_seats = 4

    def __init__(self, rules: SchafkopfRules | None = None, dealer: int = 0) -> None:
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < 4:
            raise IllegalActionError(f"dealer={dealer!r}: must be a seat 0..3", "invalid")
        self.rules = rules if rules is not None else SchafkopfRules.preset("standard")
        self.dealer = dealer
        self._phase = SHUFFLE
        self._player = CHANCE
        self._legal: list[Action] | None = None
        self.history: list[tuple[int, Action]] = []
        self.hands: list[list[Card]] = [[], [], [], []]
        self.dealt: tuple[tuple[Card, ...], ...] = ()
        # Legen
        self.lege_seats: list[int] = []
        self._legen_asked = 0
        # bidding
        self.bids: list[tuple[int, str]] = []
        self.standing: Game | None = None
        self.bidder: int | None = None
        # the contract
        self.game: Game | None = None
        self.contract: str | None = None
        self.declarer: int | None = None
        self.muss = False
        self.redealt = False
        self.called: Card | None = None
        self._partner: int | None = None  # hidden in a Rufspiel until the called card is played
        self.called_played = False
        self.gesucht = False
        # Hochzeit
        self.hochzeit_answers: list[tuple[int, str]] = []
        self.acceptor: int | None = None
        self._exchange: tuple[Card, Card] | None = None  # (card given, trump received)
        # Stoßen
        self.stoss: list[tuple[int, str]] = []
        self._ask: list[int] = []
        #: the side (:meth:`_stoss_side`) that said the last Stoß word
        self._last_side: object = None
        # play
        self.order: TrickOrder = NORMAL
        self.tricks = TrickPlay(4, (dealer + 1) % 4)
        self.start_hands: tuple[tuple[Card, ...], ...] = ()
        self._result: dict[str, Any] | None = None

    # -- engine contract (phase, current_player, legal_actions: CachedTurnState) ----------
    @property
    def vorhand(self) -> int:
        return (self.dealer + 1) % 4

    @property
    def partner(self) -> int | None:
        """The partner of the declarer (Sauspiel, Muss-Spiel: the holder of the called
        card; Hochzeit: the acceptor).  Internal knowledge; views show
        :meth:`public_partner`."""
        return self._partner

    def public_partner(self) -> int | None:
        """The partner as everybody at the table knows him: in a Rufspiel only once the
        called card has been played."""
        if self.game is not None and self.game.kind == "hochzeit":
            return self._partner
        return self._partner if self.called_played else None

    @property
    def multiplier(self) -> int:
        return int(2 ** (len(self.lege_seats) + len(self.stoss)))

    def clone(self) -> Self:
        s = type(self).__new__(type(self))
        s.__dict__.update(self.__dict__)
        s._legal = None
        s.history = list(self.history)
        s.hands = [list(h) for h in self.hands]
        s.lege_seats = list(self.lege_seats)
        s.bids = list(self.bids)
        s.hochzeit_answers = list(self.hochzeit_answers)
        s.stoss = list(self.stoss)
        s._ask = list(self._ask)
        s.tricks = self.tricks.clone()
        s._result = None if self._result is None else dict(self._result)
        return s

    def _compute_legal(self) -> list[Action]:
        ph = self._phase
        seat = self._player
        if ph == PLAY:
            return self._legal_cards(seat)
        if ph == LEGEN:
            return [LEGE, GUT]
        if ph == BIDDING:
            out: list[Action] = [WEITER]
            floor = self.standing.rank if self.standing is not None else 0
            out.extend(say for say, g in _allowed_bids(self.rules)
                       if g.rank > floor and self._bid_problem(seat, g) is None)
            return out
        if ph == MUSS:
            return [Say(w) for w in self._muss_words(seat)]
        if ph == HOCHZEIT:
            if any(not NORMAL.is_trump(c) for c in self.hands[seat]):
                return [ANNEHMEN, GUT]
            return [GUT]
        if ph == EXCHANGE:
            return [c for c in NORMAL.sorted(self.hands[seat]) if not NORMAL.is_trump(c)]
        if ph == STOSSEN:
            if self._may_stoss(seat):
                return [Say(self.rules.stoss_words[len(self.stoss)]), GUT]
            return [GUT]
        return []

    # -- bidding facts ------------------------------------------------------------
    def _is_allowed(self, g: Game) -> bool:
        if g.tout and not self.rules.allows("tout"):
            return False
        return self.rules.allows(g.kind)

    def _may_bid(self, seat: int, g: Game) -> bool:
        if not self._is_allowed(g):
            return False
        return self._bid_problem(seat, g) is None

    def _bid_problem(self, seat: int, g: Game) -> str | None:
        hand = self.hands[seat]
        if g.kind == "sauspiel":
            assert g.suit is not None
            if Card.of(g.suit, Rank.ASS) in hand:
                return f"seat {seat} holds the {g.suit.german_name} ace itself"
            if not _plain_of(hand, g.suit):
                return f"seat {seat} holds no {g.suit.german_name} card that is not a trump"
        elif g.kind == "hochzeit":
            n = sum(1 for c in hand if NORMAL.is_trump(c))
            if n != 1:
                return f"a Hochzeit needs exactly one trump, seat {seat} holds {n}"
        elif g.kind == "sie" and not set(hand) >= _OBER_UNTER:
            return f"a Sie needs all four Ober and all four Unter, seat {seat} lacks some"
        return None

    def _muss_words(self, seat: int) -> list[str]:
        """The Sauspiele the Muss-Spieler may name (empty: the hand is redealt)."""
        hand = self.hands[seat]
        callable_ = [s for s in CALL_SUITS
                     if Card.of(s, Rank.ASS) not in hand and _plain_of(hand, s)]
        if callable_:
            return [f"sauspiel-{SUIT_WORD[s]}" for s in callable_]
        if not all(Card.of(s, Rank.ASS) in hand for s in CALL_SUITS):
            # Renonce: the ace of a suit he does not hold
            return [f"sauspiel-{SUIT_WORD[s]}" for s in CALL_SUITS if not _plain_of(hand, s)]
        return [f"sauspiel-{SUIT_WORD[s]}-zehn" for s in CALL_SUITS
                if Card.of(s, Rank.ZEHN) not in hand]

    def _declaring_side(self, seat: int) -> bool:
        return seat == self.declarer or (self._partner is not None and seat == self._partner)

    def _stoss_side(self, seat: int) -> object:
        """The side ``seat`` speaks for in the Stoß round (here: the declaring side or not;
        Kreuzbock: its pair)."""
        return self._declaring_side(seat)

    def _may_stoss(self, seat: int) -> bool:
        if not self.stoss:
            return not self._declaring_side(seat)
        return self._stoss_side(seat) != self._last_side

    # -- play facts ---------------------------------------------------------------
    def _called_active_for(self, seat: int) -> bool:
        c = self.called
        return c is not None and not self.gesucht and c in self.hands[seat]

    def _legal_cards(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        order = self.order
        current = self.tricks.current
        led = current[0] if current else None
        # order.legal(hand, led), inlined: follow the led class if possible
        if led is None:
            base: list[Card] = list(hand)
        else:
            klass = order._klass
            k = klass[led.index]
            base = [c for c in hand if klass[c.index] == k] or list(hand)
        rank = _SORT_RANK_OF.get(order)
        base.sort(key=(rank if rank is not None else _sort_rank(order)).__getitem__)
        called = self.called
        if called is None or self.gesucht or called not in hand:  # _called_active_for
            return list(base)
        suit_cards = _plain_of(hand, called.suit, order)
        if led is None:
            if self.rules.davonlaufen and len(suit_cards) >= 4:
                return list(base)
            return [c for c in base if c is called or c not in suit_cards]
        if order.klass(led) == order.klass(called):
            return [called]
        if len(self.tricks.winners) < 7 and len(base) > 1:
            return [c for c in base if c is not called]
        return list(base)

    # -- chance -------------------------------------------------------------------
    def is_chance_outcome(self, action: Action) -> bool:
        if self._phase != SHUFFLE:
            return False
        if isinstance(action, Shuffle):
            return len(action.order) == 32 and set(action.order) == set(LONG_DECK)
        if isinstance(action, Deal):
            return deal_problem(action.hands) is None
        return False

    def sample_chance(self, rng: Rng) -> Action:
        order = list(LONG_DECK)
        rng.shuffle(order)
        return Shuffle(tuple(order))

    def parse_action(self, text: str) -> Action:
        t = text.strip()
        chance = parse_chance(t)
        if chance is not None:
            return chance
        low = t.lower()
        if low in _KNOWN_WORDS or low in self.rules.stoss_words:
            return Say(low)
        try:
            return Card.parse(t)
        except InvalidCardError:
            return Say(low)

    def explain_illegal(self, action: Action) -> str:
        ph = self._phase
        seat = self._player
        if ph == SHUFFLE:
            if isinstance(action, Deal):
                return f"not a deal: {deal_problem(action.hands)}"
            return "chance must shuffle or deal now"
        if ph == PLAY:
            return self._explain_card(seat, action)
        if not isinstance(action, Say):
            if ph == EXCHANGE:
                if action not in self.hands[seat]:
                    return f"seat {seat} does not hold {action}"
                return f"seat {seat} must give a card that is not a trump, not {action}"
            return f"seat {seat} must say a word now, not play {action}"
        word = action.word
        words = " ".join(str(a) for a in self.legal_actions())
        if ph == BIDDING:
            g = BID_GAMES.get(word)
            if g is None:
                return f"{word!r} is not a game (say one of: {words})"
            if not self._is_allowed(g):
                return f"{word} is not among the games of these rules"
            if self.standing is not None and g.rank <= self.standing.rank:
                return (f"{word} does not rank above {self.standing.word} "
                        f"(named by seat {self.bidder})")
            return self._bid_problem(seat, g) or f"{word} is not possible now"
        if ph == MUSS:
            return (f"seat {seat} holds EO and must name a Sauspiel "
                    f"(Muss-Spiel), one of: {words}")
        if ph == HOCHZEIT and word == "annehmen":
            return f"seat {seat} holds only trumps and cannot accept the Hochzeit"
        if ph == STOSSEN and word in self.rules.stoss_words:
            expected = self.rules.stoss_words[len(self.stoss)]
            if word != expected:
                return f"the next Stoß word is {expected!r}, not {word!r}"
            if not self.stoss:
                return (f"seat {seat} is of the declaring side and may not say {word!r}")
            return f"seat {seat} is of the side that said the last word and may not say {word!r}"
        if ph == EXCHANGE:
            return f"seat {seat} must name the card he gives the Hochzeiter, one of: {words}"
        return f"seat {seat} may say {words} now, not {word!r}"

    def _explain_card(self, seat: int, action: Action) -> str:
        led = self.tricks.led
        order = self.order
        why = explain_card(seat, self.hands[seat], action, order, led)
        if why is not None:
            return why
        called = self.called
        if led is not None:
            k = order.klass(led)
            if called is not None and k == order.klass(called):
                return f"seat {seat} holds the called {called} and must play it (gesucht)"
            return (f"seat {seat} may not discard the called {called} on another suit's "
                    "trick before the last trick")
        assert called is not None
        return (f"seat {seat} holds the called {called} and may lead "
                f"{called.suit.german_name} only with it")

    # -- applying ---------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Check ``action`` and apply it (as :meth:`GameState.apply`; a legal action of a
        player goes straight through, everything else takes the general path with its
        errors)."""
        if self._player >= 0:
            legal = self._legal
            if legal is None:
                legal = self._legal = self._compute_legal()
            if action in legal:
                self.apply_unchecked(action)
                return
        super().apply(action)

    def apply_unchecked(self, action: Action) -> None:
        self._legal = None
        ph = self._phase
        seat = self._player
        self.history.append((seat, action))
        if ph == PLAY:
            assert isinstance(action, Card)
            self._play(seat, action)
        elif ph == LEGEN:
            if action == LEGE:
                self.lege_seats.append(seat)
            self._legen_asked += 1
            if self._legen_asked == 4:
                self._phase = BIDDING
                self._player = self.vorhand
            else:
                self._player = (seat + 1) % 4
        elif ph == BIDDING:
            assert isinstance(action, Say)
            self._bid(seat, action.word)
        elif ph == MUSS:
            assert isinstance(action, Say)
            self.bids.append((seat, action.word))
            self.muss = True
            self._set_contract(MUSS_GAMES[action.word], seat)
            self._start_play()
        elif ph == HOCHZEIT:
            self.hochzeit_answers.append((seat, str(action)))
            self._ask.pop(0)
            if action == ANNEHMEN:
                self.acceptor = seat
                self._phase = EXCHANGE
                self._player = seat
            elif self._ask:
                self._player = self._ask[0]
            else:
                self._no_game()
        elif ph == EXCHANGE:
            assert isinstance(action, Card) and self.declarer is not None
            h = self.hands[self.declarer]
            trump = next(c for c in h if NORMAL.is_trump(c))
            h.remove(trump)
            h.append(action)
            self.hands[seat].remove(action)
            self.hands[seat].append(trump)
            self._exchange = (action, trump)
            self._set_contract(BID_GAMES["hochzeit"], self.declarer, partner=seat)
            self._start_stossen()
        elif ph == STOSSEN:
            assert isinstance(action, Say)
            self._stoss(seat, action.word)
        elif ph == SHUFFLE:
            if isinstance(action, Shuffle):
                hands: list[list[Card]] = [[], [], [], []]
                for packet in range(2):
                    for i in range(4):
                        pos = packet * 16 + i * 4
                        hands[(self.dealer + 1 + i) % 4].extend(action.order[pos:pos + 4])
            else:
                assert isinstance(action, Deal)
                hands = [list(h) for h in action.hands]
            self._dealt(hands)
        else:  # pragma: no cover - apply() refuses actions when terminal
            raise IllegalActionError(f"{action}: the hand is over", "game_over")

    def _dealt(self, hands: list[list[Card]]) -> None:
        self.hands = hands
        self.dealt = tuple(tuple(h) for h in hands)
        self._phase = LEGEN if self.rules.legen else BIDDING
        self._player = self.vorhand

    def _bid(self, seat: int, word: str) -> None:
        self.bids.append((seat, word))
        if word != "weiter":
            self.standing = BID_GAMES[word]
            self.bidder = seat
            if self.standing.kind == "sie":
                self._set_contract(self.standing, seat)
                self._finish()
                return
        if seat != self.dealer:
            self._player = (seat + 1) % 4
            return
        g = self.standing
        if g is None:
            self._no_game()
        elif g.kind == "hochzeit":
            assert self.bidder is not None
            self.declarer = self.bidder
            self._ask = [s for s in self._from_vorhand() if s != self.bidder]
            self._phase = HOCHZEIT
            self._player = self._ask[0]
        else:
            assert self.bidder is not None
            self._set_contract(g, self.bidder)
            self._start_stossen()

    def _from_vorhand(self) -> list[int]:
        return [(self.vorhand + i) % 4 for i in range(4)]

    def _set_contract(self, g: Game, declarer: int, partner: int | None = None) -> None:
        self.game = g
        self.contract = g.word
        self.declarer = declarer
        self.order = order_for(g.kind, g.suit)
        self.called = g.called
        if self.called is not None:
            partner = next(s for s in range(4) if self.called in self.hands[s])
        self._partner = partner

    def _no_game(self) -> None:
        rule = self.rules.all_pass
        self.declarer = None
        if rule == "ramsch":
            self.contract = "ramsch"
            self.order = NORMAL
            self._start_play()
            return
        if rule == "muss":
            holder = next(s for s in range(4) if EO in self.hands[s])
            if self._muss_words(holder):
                self._phase = MUSS
                self._player = holder
                return
        self.redealt = True
        self._finish()

    def _start_stossen(self) -> None:
        if not self.rules.stoss_words:
            self._start_play()
            return
        self._ask = [s for s in self._from_vorhand() if s != self.declarer]
        self._phase = STOSSEN
        self._player = self._ask[0]

    def _stoss(self, seat: int, word: str) -> None:
        if word == "gut":
            self._ask.pop(0)
            if self._ask:
                self._player = self._ask[0]
            else:
                self._start_play()
            return
        self.stoss.append((seat, word))
        if len(self.stoss) == len(self.rules.stoss_words):
            self._start_play()
            return
        self._last_side = self._stoss_side(seat)
        self._ask = [(seat + i) % 4 for i in (1, 2, 3)]
        self._player = self._ask[0]

    def _start_play(self) -> None:
        self._phase = PLAY
        self.start_hands = tuple(tuple(h) for h in self.hands)
        leader = self.vorhand
        if self.rules.first_lead == "declarer" and self.declarer is not None:
            leader = self.declarer
        self.tricks = TrickPlay(4, leader)
        self._player = leader

    def _play(self, seat: int, card: Card) -> None:
        t = self.tricks
        called = self.called
        led = t.current[0] if t.current else card
        self.hands[seat].remove(card)
        t.play(card, self.order)
        if called is not None:
            if card is called:
                self.called_played = True
            if not t.current and self.order.klass(led) == self.order.klass(called):
                self.gesucht = True  # the called suit has been led: from now on it is free
        if len(t.winners) == 8:
            self._finish()
        else:
            self._player = t.to_play

    def _finish(self) -> None:
        self._phase = END
        self._player = TERMINAL
        self._result = self._score()

    # -- scoring ------------------------------------------------------------------
    def _score(self) -> dict[str, Any]:
        rules = self.rules
        t = self.tricks
        r: dict[str, Any] = {
            "contract": self.contract,
            "declarer": self.declarer,
            "partner": self._partner,
            "trick_winners": list(t.winners),
            "augen": list(t.augen),
            "winner": None,
            "schneider": False,
            "schwarz": False,
            "laufende": 0,
            "multiplier": self.multiplier,
            "payments": [0, 0, 0, 0],
            "loser": None,
        }
        if self.contract is None:  # redealt
            r["declarer"] = None
            r["partner"] = None
            return r
        if self.contract == "ramsch":
            return self._score_ramsch(r)
        g = self.game
        d = self.declarer
        assert g is not None and d is not None
        if g.kind == "sie":
            r["trick_winners"] = [d] * 8
            r["augen"] = [120 if s == d else 0 for s in range(4)]
            r["winner"] = "declarers"
            r["laufende"] = 8
            v = (rules.tariff_of("solo") + 8 * rules.tariff_of("laufend")) * 4
            r["payments"] = _solo_payments(d, True, v * self.multiplier)
            return r
        party = {d} if self._partner is None else {d, self._partner}
        party_augen = sum(t.augen[s] for s in party)
        party_tricks = sum(1 for w in t.winners if w in party)
        threshold = LAUFENDE_FROM[g.kind]
        laufende = 0
        if threshold is not None:
            laufende = _laufende(self.order, party, self.start_hands)
            laufende = laufende if laufende >= threshold else 0
        r["laufende"] = laufende
        laufend = rules.tariff_of("laufend") * laufende
        if g.tout:
            won = party_tricks == 8
            v = (rules.tariff_of("solo") + laufend) * 2
        elif g.kind == "bettel":
            won = party_tricks == 0
            v = rules.tariff_of("bettel")
        else:
            if self.muss:
                won = party_augen >= 60
                schneider = party_augen >= 90 or party_augen <= 29
            else:
                won = party_augen >= 61
                schneider = party_augen >= 91 or party_augen <= 30
            losing_tricks = 8 - party_tricks if won else party_tricks
            schwarz = losing_tricks == 0
            r["schneider"] = schneider
            r["schwarz"] = schwarz
            base = rules.tariff_of("rufspiel" if g.is_partner_game else "solo")
            v = (base + (rules.tariff_of("schneider") if schneider else 0)
                 + (rules.tariff_of("schwarz") if schwarz else 0) + laufend)
        r["winner"] = "declarers" if won else "opponents"
        v *= self.multiplier
        if g.is_partner_game:
            r["payments"] = [v if (s in party) == won else -v for s in range(4)]
        else:
            r["payments"] = _solo_payments(d, won, v)
        return r

    def _score_ramsch(self, r: dict[str, Any]) -> dict[str, Any]:
        rules = self.rules
        t = self.tricks
        tricks = [sum(1 for w in t.winners if w == s) for s in range(4)]
        u = rules.tariff_of("ramsch") * 2 ** len(self.lege_seats)
        if rules.ramsch_jungfrau:
            u *= 2 ** sum(1 for n in tricks if n == 0)
        if rules.ramsch_durchmarsch and 8 in tricks:
            w = tricks.index(8)
            r["payments"] = [3 * u if s == w else -u for s in range(4)]
            return r

        def key(s: int) -> tuple[int, int, int, int, int]:
            trumps = [NORMAL.power(c) for c in self.dealt[s] if NORMAL.is_trump(c)]
            return (t.augen[s], tricks[s], len(trumps), max(trumps, default=-1),
                    -((s - self.vorhand) % 4))

        loser = max(range(4), key=key)
        r["loser"] = loser
        r["payments"] = [-3 * u if s == loser else u for s in range(4)]
        return r

    def final_result(self) -> SchafkopfResult | None:
        if self._player != TERMINAL or self._result is None:
            return None
        r = self._result
        return SchafkopfResult(
            contract=r["contract"], declarer=r["declarer"], partner=r["partner"],
            trick_winners=tuple(r["trick_winners"]), augen=tuple(r["augen"]),
            winner=r["winner"], schneider=r["schneider"], schwarz=r["schwarz"],
            laufende=r["laufende"], multiplier=r["multiplier"],
            payments=tuple(r["payments"]), loser=r["loser"])

    def returns(self) -> list[float]:
        """The payments in cents per seat (zero-sum); zeros until terminal."""
        if self._player != TERMINAL or self._result is None:
            return [0, 0, 0, 0]
        return list(self._result["payments"])

    def teams(self) -> list[tuple[int, ...]]:
        """The declarer's side (with the partner of a Rufspiel or Hochzeit) and the
        others; each seat alone when there is no declarer (Ramsch, a redeal) or no
        game yet."""
        declarer = self.declarer if self.contract not in (None, "ramsch") else None
        if declarer is None:
            return [(s,) for s in range(4)]
        side = tuple(sorted({declarer} if self._partner is None
                            else {declarer, self._partner}))
        rest = tuple(s for s in range(4) if s not in side)
        return sorted([side, rest])

    # -- views --------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see; ``None`` is a spectator (no hands at all).

        Hidden: the other hands (only their sizes), the second packet during Legen, the
        cards passed in a Hochzeit (each of the two sees only his own hand), and in a
        Rufspiel who holds the called card until it has been played.
        """
        t = self.tricks
        terminal = self._player == TERMINAL
        if seat is None:
            hand: list[str] = []
        elif self._phase == LEGEN:
            hand = [str(c) for c in NORMAL.sorted(self.hands[seat][:4])]
        else:
            hand = [str(c) for c in self.order.sorted(self.hands[seat])]
        sizes = [4 if self._phase == LEGEN else len(h) for h in self.hands]
        v: dict[str, Any] = {
            "game": "schafkopf",
            "rules": self.rules.to_record(),
            "phase": self._phase,
            "seat": seat,
            "dealer": self.dealer,
            "vorhand": self.vorhand,
            "to_act": None if self._player < 0 else self._player,
            "hand": hand,
            "hand_sizes": sizes,
            "lege": list(self.lege_seats),
            "bids": [{"seat": s, "word": w} for s, w in self.bids],
            "standing": None if self.standing is None else self.standing.word,
            "contract": self.contract,
            "declarer": self.declarer,
            "called": None if self.called is None else str(self.called),
            "partner": self.public_partner(),
            "hochzeit": [{"seat": s, "word": w} for s, w in self.hochzeit_answers],
            "stoss": [{"seat": s, "word": w} for s, w in self.stoss],
            "multiplier": self.multiplier,
            "trick": [{"seat": (t.leader + i) % 4, "card": str(c)}
                      for i, c in enumerate(t.current)],
            "tricks_played": [
                {"leader": lead, "winner": w,
                 "cards": [{"seat": (lead + i) % 4, "card": str(c)} for i, c in enumerate(cs)]}
                for (lead, cs), w in zip(t.tricks, t.winners, strict=True)
            ],
            "tricks_taken": [sum(1 for w in t.winners if w == s) for s in range(4)],
            "legal": ([str(a) for a in self.legal_actions()]
                      if seat is not None and seat == self._player else []),
            "result": self.result() if terminal else None,
        }
        if terminal and len(t.winners) == 8:
            v["dealt"] = [[str(c) for c in h] for h in self.dealt]
        elif terminal and self.contract == "sie":
            v["dealt"] = [[str(c) for c in h] if s == self.declarer else []
                          for s, h in enumerate(self.dealt)]
        return v


_ALLOWED_BIDS: dict[SchafkopfRules, list[tuple[Say, Game]]] = {}
_SORT_RANK: dict[int, tuple[TrickOrder, dict[Card, int]]] = {}
#: the same tables by order (a TrickOrder hashes by identity): the look-up of the play
_SORT_RANK_OF: dict[TrickOrder, dict[Card, int]] = {}


def _allowed_bids(rules: SchafkopfRules) -> list[tuple[Say, Game]]:
    """The game words ``rules`` allow, in the bidding's order (cached per rules: the legal
    actions of the bidding filter only these by rank and hand)."""
    bids = _ALLOWED_BIDS.get(rules)
    if bids is None:
        bids = _ALLOWED_BIDS[rules] = [
            (Say(w), g) for w, g in BID_GAMES.items()
            if (not g.tout or rules.allows("tout")) and rules.allows(g.kind)]
    return bids


def _sort_rank(order: TrickOrder) -> dict[Card, int]:
    """Each card's place in ``order.sort_key``'s order (equal keys, equal places), so a
    hand sorts by a dictionary look-up: the same order as ``order.sorted``."""
    entry = _SORT_RANK.get(id(order))
    if entry is None or entry[0] is not order:
        keys = sorted({order.sort_key(c) for c in LONG_DECK})
        place = {k: i for i, k in enumerate(keys)}
        entry = _SORT_RANK[id(order)] = (order, {c: place[order.sort_key(c)] for c in LONG_DECK})
        _SORT_RANK_OF[order] = entry[1]
    return entry[1]


_KNOWN_WORDS = frozenset({"weiter", "gut", "lege", "annehmen", *BID_GAMES, *MUSS_GAMES})


def _laufende(order: TrickOrder, party: set[int], hands: Sequence[Sequence[Card]]) -> int:
    """How many top trumps of ``order`` the party holding the top one holds in a row."""
    holder = {c: s for s, h in enumerate(hands) for c in h}
    first = holder[order.trumps[0]] in party
    n = 0
    for c in order.trumps:
        if (holder[c] in party) != first:
            break
        n += 1
    return n


def _solo_payments(declarer: int, won: bool, v: int) -> list[int]:
    sign = 1 if won else -1
    return [3 * v * sign if s == declarer else -v * sign for s in range(4)]


def deal_problem(hands: Sequence[Sequence[Card]]) -> str | None:
    """Why ``hands`` are not a deal of the 32 cards, 8 each (None if they are)."""
    return tricks.deal_problem(hands, LONG_DECK, 8, "a card of the 32-card deck")


def new_game(rules: SchafkopfRules | None = None, dealer: int = 0) -> SchafkopfState:
    """A hand at its chance node (the shuffle)."""
    return SchafkopfState(rules, dealer)


def game_from_hands(
    hands: Sequence[Sequence[Card]], rules: SchafkopfRules | None = None, dealer: int = 0
) -> SchafkopfState:
    """A hand with the given dealt hands (the first four cards of each are the first
    packet), at Legen or the bidding."""
    s = SchafkopfState(rules, dealer)
    s.apply(Deal(tuple(tuple(h) for h in hands)))
    return s


__all__ = ["RESULT_KEYS", "SchafkopfState", "deal_problem", "game_from_hands", "new_game"]
