"""A rule-of-thumb Mucken bot ("heuristic").

It decides only from ``state.view(seat)`` — its own hand and what the table
has seen (calls, contract, declarer, the current trick, the tricks played,
hand sizes) — and the house rules, which every player knows.  It never looks
at another seat's hand.

- **Abheben:** a uniformly random legal cut (or "geben"/"klopfen"), drawn with
  exactly one ``rng.randrange`` like the random bot, so that a simulation can
  give two tables the same deal.
- **Ansagen:** every game of the rules is valued for the hand (trumps weighted by
  rank, side aces and their tens, short suits).  It calls the best-fitting game
  above a threshold, raised to schneider/schwarz only with a very strong hand,
  leaves the bid to its partner and overcalls the other pair only with margin.
  In a Muss-Spiel it calls its best plain game; as last man it may call a Ramsch
  with a hand full of low cards.
- **Kontra (and Sup, Hirsch):** only with a strong defensive hand for the
  announced game; Re only when strong as the declarer pair.
- **Spielen:** each legal card is valued by the expected Augen swing of the
  trick — the chance that its side takes the trick (from the unseen cards, the
  hand sizes and the suits a player was seen not to follow) times the Augen on
  the table, minus what the card would be worth later.  That schmiert A/10 onto
  a trick the partner is sure or likely to win, throws low cards otherwise, wins
  tricks with the cheapest card that holds, leads side-suit aces and, on the
  declarer side with several trumps, draws trumps.  In a Ramsch the sign flips:
  it avoids taking Augen, unloads high cards and schmiert onto the opponents'
  tricks.  A Pflichtmuck is played like a Muck.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from math import comb
from typing import Any

from stammtisch.bots.base import settled
from stammtisch.cards import LONG_DECK, SHORT_DECK, Card, Rank
from stammtisch.engine.core import Action, GameState, Rng, Say
from stammtisch.engine.tricks import TRUMP, TrickOrder
from stammtisch.games.mucken.orders import trick_order
from stammtisch.games.mucken.rules import DOUBLING_WORDS, Bid, MuckenRules
from stammtisch.games.mucken.state import MuckenState

# Hand values (see _hand_value): a plain game is called from PLAIN_MIN on, schneider
# from SCHNEIDER_MIN; overcalling the other pair needs OVERCALL_MARGIN more.  Tuned in
# self-play on duplicate deals (seefest): calling with any above-average hand beats waiting
# for a good one (a Pflichtmuck is worth only one point), PLAIN_MIN 9.5 lost 0.2 points
# per game against 7.0; 6.0 to 7.5 and the other values were within noise.
PLAIN_MIN = 7.0
SCHNEIDER_MIN = 13.5
OVERCALL_MARGIN = 0.0
KONTRA_MIN = 10.0
#: in a Ramsch, how often a player who could overtake a trick has to (he ducks if he can)
RAMSCH_FORCED = 0.3


# -- hand evaluation ------------------------------------------------------------------


def _deck(rules: MuckenRules) -> tuple[Card, ...]:
    return SHORT_DECK if rules.deck == "short" else LONG_DECK


def _order_of(rules: MuckenRules, contract: str | None) -> TrickOrder:
    if contract:
        bid = rules.bid_by_name(contract)
        if bid is not None:
            return trick_order(bid.kind, rules.deck, bid.suit)
    return trick_order("muck", rules.deck)


@dataclass(frozen=True, slots=True)
class HandValue:
    """How good a hand is for one game."""

    value: float
    trumps: int
    #: the hand's trumps are the highest ones in a row and everything else is a sure
    #: side-suit winner (an ace, a ten behind its ace …): a candidate for schwarz
    solid: bool


def _hand_value(hand: Sequence[Card], order: TrickOrder, deck: Sequence[Card]) -> HandValue:
    """A points estimate of ``hand`` for the game of ``order``: on the short deck an
    average hand scores 7.0 for a Muck (5.4 for a Wenz), one in ten 10 or more, a hand
    that takes every trick 15 or more."""
    all_trumps = [c for c in order.trumps if c in deck]
    many_trumps = len(all_trumps) > 6  # Muck, Farbsolo: side aces are ruffed early
    value = 0.0
    held = [c for c in all_trumps if c in hand]
    for c in held:
        value += max(1.0, 3.0 - 0.25 * all_trumps.index(c))
    top_run = 0
    while top_run < len(all_trumps) and all_trumps[top_run] in hand:
        top_run += 1
    solid = top_run == len(held) and len(held) >= min(4, len(all_trumps))
    classes: dict[int, list[Card]] = {}
    for c in deck:
        k = order.klass(c)
        if k != TRUMP:
            classes.setdefault(k, []).append(c)
    for suit_cards in classes.values():
        ranked = sorted(suit_cards, key=order.power, reverse=True)
        mine = [c for c in ranked if c in hand]
        if not mine:
            value += 0.5 if len(held) >= 2 else 0.0
            continue
        run = 0
        while run < len(ranked) and ranked[run] in hand:
            run += 1
        if run >= 1:
            value += 1.5 if many_trumps else 2.0
        if run >= 2:
            value += 0.75 if many_trumps else 1.5
        if run >= 3:
            value += 0.5 if many_trumps else 1.0
        if run == 0 and len(mine) >= 2 and mine[0] is ranked[1]:
            value += 0.25  # a guarded ten
        if not many_trumps and run >= 1 and len(mine) > run:
            value += 0.25 * (len(mine) - run)  # length behind the ace
        if run < len(mine):
            solid = False
    return HandValue(value, len(held), solid)


def _bid_fit(hand: Sequence[Card], bid: Bid, rules: MuckenRules,
             plain_min: float = PLAIN_MIN, schneider_min: float = SCHNEIDER_MIN) -> float:
    """How far the hand is above what ``bid`` (kind and level) needs; < 0: too weak."""
    order = trick_order(bid.kind, rules.deck, bid.suit)
    hv = _hand_value(hand, order, _deck(rules))
    need_trumps = 3 if len(order.trumps) > 6 else 1
    if hv.trumps < need_trumps:
        return -99.0
    if bid.level == "plain":
        return hv.value - plain_min
    if bid.level == "schneider":
        return hv.value - schneider_min
    return 0.5 if hv.solid else -99.0


# -- the table as this seat sees it -------------------------------------------------------------


@dataclass
class _Table:
    """What one seat knows during the play."""

    seat: int
    rules: MuckenRules
    order: TrickOrder
    hand: list[Card]
    trick: list[tuple[int, Card]]
    unknown: list[Card]
    voids: list[set[int]] = field(default_factory=lambda: [set(), set(), set(), set()])
    hand_sizes: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    ramsch: bool = False
    declarer: int | None = None
    #: the classes (suit numbers, TRUMP) led so far
    led: set[int] = field(default_factory=set)

    @property
    def partner(self) -> int:
        return (self.seat + 2) % 4

    def higher_unknown(self, card: Card) -> int:
        """Unseen cards that beat ``card`` in its own class."""
        order = self.order
        k = order.klass(card)
        p = order.power(card)
        return sum(1 for u in self.unknown if order.klass(u) == k and order.power(u) > p)

    def p_beats(self, seat: int, top: Card, lead: int) -> float:
        """Chance that ``seat`` (yet to play) holds a card that beats ``top``."""
        h = self.hand_sizes[seat]
        if h <= 0:
            return 0.0
        order = self.order
        void = self.voids[seat]
        pool = [u for u in self.unknown if order.klass(u) not in void]
        n = len(pool)
        if n <= h:
            n = h
        top_trump = order.is_trump(top)
        tp = order.power(top)
        n_lead = sum(1 for u in pool if order.klass(u) == lead) if lead != TRUMP else 0
        if top_trump:
            higher = sum(1 for u in pool if order.is_trump(u) and order.power(u) > tp)
            if higher == 0:
                return 0.0
            if lead == TRUMP:
                return 1.0 - _none(n, higher, h)
            return _none(n, n_lead, h) * (1.0 - _none(n - n_lead, higher, h))
        higher = sum(1 for u in pool if order.klass(u) == lead and order.power(u) > tp)
        trumps = sum(1 for u in pool if order.is_trump(u))
        p = 1.0 - _none(n, higher, h)
        if trumps:
            p += _none(n, n_lead, h) * (1.0 - _none(n - n_lead, trumps, h))
        return min(1.0, p)

    def p_holds(self, top: Card, lead: int, later: Sequence[int]) -> float:
        """Chance that no opponent among ``later`` beats ``top``.  Opponents beat when
        they can; in a Ramsch they duck instead, and overtake mostly when forced."""
        p = 1.0
        willing = RAMSCH_FORCED if self.ramsch else 1.0
        for s in later:
            if (s - self.seat) % 2:
                p *= 1.0 - willing * self.p_beats(s, top, lead)
        return p

    def future_value(self, card: Card) -> float:
        """What keeping ``card`` is worth for the tricks to come (in Augen)."""
        n = self.higher_unknown(card)
        if self.order.is_trump(card):
            return max(3.0, 14.0 / (1 + n))
        return 8.0 / (1 + n)


def _none(n: int, k: int, h: int) -> float:
    """Chance that ``h`` cards drawn from ``n`` miss ``k`` given ones."""
    if k <= 0:
        return 1.0
    if k > n - h:
        return 0.0
    return comb(n - k, h) / comb(n, h)


def _beats(order: TrickOrder, card: Card, top: Card, lead: int) -> bool:
    if order.is_trump(card):
        return not order.is_trump(top) or order.power(card) > order.power(top)
    return (not order.is_trump(top) and order.klass(card) == lead
            and order.power(card) > order.power(top))


def _read_table(state: MuckenState, seat: int, view: dict[str, Any]) -> _Table:
    rules = state.rules
    contract = view["contract"]
    order = _order_of(rules, contract)
    hand = [Card.parse(t) for t in view["hand"]]
    seen: set[Card] = set(hand)
    voids: list[set[int]] = [set(), set(), set(), set()]
    ramsch = contract == "ramsch"
    stichzwang = ramsch and rules.ramsch_stichzwang

    led: set[int] = set()

    def learn(cards_: list[tuple[int, Card]]) -> None:
        if not cards_:
            return
        lead = order.klass(cards_[0][1])
        led.add(lead)
        for s, c in cards_:
            seen.add(c)
            k = order.klass(c)
            if k != lead:
                voids[s].add(lead)
                if stichzwang and k != TRUMP:
                    voids[s].add(TRUMP)

    for t in view["tricks_played"]:
        learn([(e["seat"], Card.parse(e["card"])) for e in t["cards"]])
    trick = [(e["seat"], Card.parse(e["card"])) for e in view["trick"]]
    learn(trick)
    unknown = [c for c in _deck(rules) if c not in seen]
    return _Table(seat, rules, order, hand, trick, unknown, voids, list(view["hand_sizes"]),
                  ramsch, view["declarer"], led)


# -- the bot ---------------------------------------------------------------------------------------


class HeuristicBot:
    """Bids from hand strength, Kontra only with strong defence, plays by expected Augen."""

    name = "heuristic"

    # weights of the card play (in Augen); in self-play on duplicate deals, changing any
    # of them by half moved the result by less than 0.05 points per game
    #: leading a trump on the declarer side to draw the opponents' trumps
    draw_trumps_bonus = 6.0
    #: a defender leading a trump while holding side cards
    defence_trump_malus = 4.0
    #: leading the top card of a side suit nobody has led yet
    fresh_top_bonus = 8.0
    #: how much of the partner's chance to beat a card counts for the pair (he plays
    #: between the opponents)
    partner_share = 0.25

    def __init__(self, plain_min: float = PLAIN_MIN, schneider_min: float = SCHNEIDER_MIN,
                 overcall_margin: float = OVERCALL_MARGIN, kontra_min: float = KONTRA_MIN) -> None:
        self.plain_min = plain_min
        self.schneider_min = schneider_min
        self.overcall_margin = overcall_margin
        self.kontra_min = kontra_min

    def choose(self, state: GameState, rng: Rng) -> Action:
        # Abheben (or a game this bot does not know): any legal action, one draw
        if (forced := settled(state, rng, MuckenState)) is not None:
            return forced
        assert isinstance(state, MuckenState)
        actions = state.legal_actions()
        seat = state.current_player
        view = state.view(seat)
        phase = view["phase"]
        if phase == "play":
            return self._play(state, seat, view, actions)
        if phase in ("bidding", "muss"):
            return self._bid(state, seat, view, actions)
        if phase == "doubling":
            return self._double(state, seat, view, actions)
        return actions[rng.randrange(len(actions))]

    # -- Ansagen -------------------------------------------------------------------------------
    def _bid(self, state: MuckenState, seat: int, view: dict[str, Any],
             actions: Sequence[Action]) -> Action:
        rules = state.rules
        hand = [Card.parse(t) for t in view["hand"]]
        says = [a for a in actions if isinstance(a, Say)]
        bids = [(a, rules.bid_by_name(a.word)) for a in says]
        offers = [(a, b) for a, b in bids if b is not None]
        weiter = next((a for a in says if a.word == "weiter"), None)
        if weiter is None:  # Muss-Spiel: the best plain game
            plain = [(a, b) for a, b in offers if b.level == "plain"] or offers
            return max(plain, key=lambda ab: (self._fit(hand, ab[1], rules),
                                              -rules.bid_rank(ab[1])[1]))[0]
        holder = None
        for call in view["calls"]:
            if call["call"] not in ("weiter", "ramsch"):
                holder = call["seat"]
        if holder is not None and holder % 2 == seat % 2:
            return weiter  # the bid is with the partner
        margin = self.overcall_margin if holder is not None else 0.0
        best: tuple[float, tuple[int, int]] | None = None
        choice: Action = weiter
        for a, b in offers:
            fit = self._fit(hand, b, rules) - margin
            if fit < 0:
                continue
            # the highest level the hand supports; among games the best fit
            key = (float(b.level_index), rules.bid_rank(b))
            score = (key[0] * 100 + fit, key[1])
            if best is None or score > best:
                best = score
                choice = a
        ramsch = next((a for a in says if a.word == "ramsch"), None)
        if choice is weiter and ramsch is not None and _ramsch_hand(hand, rules):
            return ramsch
        return choice

    def _fit(self, hand: Sequence[Card], bid: Bid, rules: MuckenRules) -> float:
        return _bid_fit(hand, bid, rules, self.plain_min, self.schneider_min)

    # -- Kontra, Re, Sup, Hirsch ---------------------------------------------------------------
    def _double(self, state: MuckenState, seat: int, view: dict[str, Any],
                actions: Sequence[Action]) -> Action:
        rules = state.rules
        word_action = next(a for a in actions if isinstance(a, Say) and a.word != "gut")
        gut = next(a for a in actions if isinstance(a, Say) and a.word == "gut")
        assert isinstance(word_action, Say)
        declarer = view["declarer"]
        bid = rules.bid_by_name(view["contract"] or "")
        if declarer is None or bid is None:
            return gut
        hand = [Card.parse(t) for t in view["hand"]]
        order = trick_order(bid.kind, rules.deck, bid.suit)
        hv = _hand_value(hand, order, _deck(rules))
        n_double = DOUBLING_WORDS.index(word_action.word)
        defending = declarer % 2 != seat % 2
        if defending:
            need = self.kontra_min + 3.0 * n_double  # Sup and Hirsch need far more
            if bid.level == "schwarz":
                # one trick beats a schwarz: the top trump or two side aces are enough
                top = next(c for c in order.trumps if c in _deck(rules))
                aces = sum(1 for c in hand if c.rank is Rank.ASS and not order.is_trump(c))
                if (top in hand or aces >= 2) and n_double == 0:
                    return word_action
                return gut
            if bid.level == "schneider":
                need -= 2.0
            return word_action if hv.value >= need and hv.trumps >= 2 else gut
        # the declarer pair answers a Kontra only when clearly strong
        return word_action if hv.value >= self.schneider_min + 2.0 * (n_double - 1) else gut

    # -- Spielen ------------------------------------------------------------------------------
    def _play(self, state: MuckenState, seat: int, view: dict[str, Any],
              actions: Sequence[Action]) -> Action:
        table = _read_table(state, seat, view)
        legal = [a for a in actions if isinstance(a, Card)]
        order = table.order
        trick = table.trick
        later = [(seat + i) % 4 for i in range(1, 4 - len(trick))]
        unknown_augen = sum(c.augen for c in table.unknown)
        avg = unknown_augen / len(table.unknown) if table.unknown else 0.0
        coming = avg * len(later)  # Augen the later players are expected to add
        on_table = sum(c.augen for _, c in trick)
        if trick:
            lead = order.klass(trick[0][1])
            win_pos = order.winner([c for _, c in trick])
            winner, top = trick[win_pos]
        else:
            lead, winner, top = -1, -1, None
        partner_later = table.partner in later
        my_trumps = sum(1 for c in table.hand if order.is_trump(c))
        trump_side = self._trump_side(table, my_trumps)
        unknown_trumps = sum(1 for u in table.unknown if order.is_trump(u))
        best_action: Card = legal[0]
        best_value = float("-inf")
        for c in legal:
            if top is None:
                lead_c = order.klass(c)
                p_us = table.p_holds(c, lead_c, later)
                if partner_later and p_us < 1.0:
                    p_partner = self.partner_share * table.p_beats(table.partner, c, lead_c)
                    if table.ramsch:
                        p_partner *= RAMSCH_FORCED
                    p_us = 1.0 - (1.0 - p_us) * (1.0 - p_partner)
            elif _beats(order, c, top, lead):
                p_us = table.p_holds(c, lead, later)
            elif winner % 2 == seat % 2:
                p_us = table.p_holds(top, lead, later)
            elif partner_later:
                # the partner may still take it (in a Ramsch only when forced)
                share = self.partner_share * (RAMSCH_FORCED if table.ramsch else 1.0)
                p_us = share * table.p_beats(table.partner, top, lead) * table.p_holds(
                    top, lead, [s for s in later if s != table.partner])
            else:
                p_us = 0.0
            stake = on_table + c.augen + coming
            if table.ramsch:
                value = (1.0 - 2.0 * p_us) * stake + 0.8 * table.future_value(c)
            else:
                value = (2.0 * p_us - 1.0) * stake - table.future_value(c)
                if top is None:
                    value += self._lead_bonus(table, c, trump_side, my_trumps, unknown_trumps)
            # ties: keep the lower card
            value -= 0.01 * order.power(c)
            if value > best_value:
                best_value = value
                best_action = c
        return best_action

    @staticmethod
    def _trump_side(table: _Table, my_trumps: int) -> bool:
        """Whether this seat should pull trumps: the declarer pair, or in a Pflichtmuck
        a seat with at least half its cards trumps."""
        if table.declarer is not None:
            return table.declarer % 2 == table.seat % 2
        return not table.ramsch and 2 * my_trumps >= len(table.hand) and my_trumps >= 2

    def _lead_bonus(self, table: _Table, card: Card, trump_side: bool, my_trumps: int,
                    unknown_trumps: int) -> float:
        order = table.order
        is_trump = order.is_trump(card)
        opponents_may_trump = unknown_trumps > 0 and not all(
            TRUMP in table.voids[s] for s in ((table.seat + 1) % 4, (table.seat + 3) % 4))
        if is_trump:
            if trump_side and opponents_may_trump and my_trumps >= 2:
                return self.draw_trumps_bonus  # draw the opponents' trumps
            if not trump_side and my_trumps < len(table.hand):
                return -self.defence_trump_malus  # the defence does not lead trumps
            return 0.0
        bonus = 0.0
        klass = order.klass(card)
        if klass not in table.led and table.higher_unknown(card) == 0:
            bonus += self.fresh_top_bonus  # an ace of a side suit not yet played: cash it
        partner = table.partner
        if klass in table.voids[partner] and TRUMP not in table.voids[partner] and unknown_trumps:
            bonus += 4.0 + 0.3 * card.augen  # the partner can ruff
        return bonus


def _ramsch_hand(hand: Sequence[Card], rules: MuckenRules) -> bool:
    """Few high cards: glad to play a Ramsch."""
    order = trick_order("muck", rules.deck)
    high = sum(1 for c in hand if c.rank in (Rank.OBER, Rank.ASS))
    trumps = sum(1 for c in hand if order.is_trump(c))
    return high == 0 and trumps <= 2

