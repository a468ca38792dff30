"""A rule-of-thumb Schafkopf bot ("heuristic").

It decides from ``state.view(seat)`` only (through
:func:`~stammtisch.games.schafkopf.bots.sampling.observe`): its own hand, the bids, the
contract, the declarer, the called ace, the partner once the table knows him, the tricks.

- **Legen:** with three or more Ober/Unter among the first four cards.
- **Bidding:** every allowed game is valued for the hand (:func:`game_values`): trumps
  weighted by rank (Ober, Unter, the trump ace and ten), side aces (with their ten),
  suits it is void in.  A Sauspiel needs four trumps and some strength, called on the
  suit where it holds the fewest cards (never the ten alone if it can help it); a Solo
  about six good trumps; Wenz and Geier three of their four trumps (or two with the top
  one) and aces; a Farbwenz like a Solo with the Unter on top; Tout and Sie only when
  every trick is sure; Bettel with nothing above a ten and no long suit without its
  seven; a Hochzeit with one trump and two aces.  It names the game with the best margin
  over its threshold, if that game outranks the standing bid.  In a Muss-Spiel it calls
  its shortest suit.
- **Stoßen:** the defenders say Kontra with a strong hand against the game (trumps with
  two Ober, or aces against a Wenz); the declaring side answers Re only with a hand far
  above the game's threshold.
- **Hochzeit:** accepts with three trumps including an Ober; gives its cheapest card of
  its shortest suit.
- **Play:** the declaring side draws trumps from the top while it holds high trumps; the
  defenders of a Rufspiel "search" the called ace (lead its suit); side aces are cashed;
  a follower takes a trick the other side holds with its cheapest winning card when the
  trick is worth it, schmiert Augen onto a trick its known partner holds safely, and
  throws its cheapest card otherwise.  In a Bettel the declarer plays his highest card
  that still loses; in a Ramsch every seat ducks under the best card when it can.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stammtisch.cards import GERMAN_SUITS, LONG_DECK, Card, Rank
from stammtisch.engine.core import Action, GameState, Rng, Say
from stammtisch.engine.tricks import TRUMP, TrickOrder
from stammtisch.games.schafkopf.bots.sampling import Observation, observe
from stammtisch.games.schafkopf.games import (
    BID_GAMES,
    MUSS_GAMES,
    NORMAL,
    Game,
    order_for,
)
from stammtisch.games.schafkopf.state import SchafkopfState

__all__ = ["HeuristicBot", "game_values", "hand_strength"]

#: thresholds of the hand values (see :func:`hand_strength`)
SAUSPIEL_MIN = 7.0
SOLO_MIN = 14.0
WENZ_MIN = 11.0
FARBWENZ_MIN = 14.0
KONTRA_MIN = 8.0
RE_MARGIN = 5.0

_POWER_WEIGHT = {Rank.OBER: 3.0, Rank.UNTER: 2.0}


def hand_strength(hand: Sequence[Card], order: TrickOrder) -> tuple[float, int]:
    """(value, trump count) of a hand for a game with trick order ``order``.

    Trumps: the top four (Ober in a Solo, Unter in a Wenz) 3 points for the first,
    2.5 for the others, further Ober/Unter 2, the trump ace 1.5, the ten 1.2, other
    trumps 1.  Side suits: an ace 2 (with its ten 3), a void 1 (when holding four or more
    trumps)."""
    trumps = [c for c in hand if order.is_trump(c)]
    value = 0.0
    for c in trumps:
        pos = order.trumps.index(c)
        if pos == 0:
            value += 3.0
        elif pos < 4 and c.rank in (Rank.OBER, Rank.UNTER):
            value += 2.5
        elif c.rank in (Rank.OBER, Rank.UNTER):
            value += 2.0
        elif c.rank is Rank.ASS:
            value += 1.5
        elif c.rank is Rank.ZEHN:
            value += 1.2
        else:
            value += 1.0
    for s in GERMAN_SUITS:
        plain = [c for c in hand if c.suit is s and not order.is_trump(c)]
        ranks = {c.rank for c in plain}
        if Rank.ASS in ranks:
            value += 3.0 if Rank.ZEHN in ranks else 2.0
        elif not plain and len(trumps) >= 4:
            value += 1.0
    return value, len(trumps)


def _bettel_ok(hand: Sequence[Card]) -> bool:
    order = order_for("bettel", None)
    for s in GERMAN_SUITS:
        suit = [c for c in hand if c.suit is s]
        if not suit:
            continue
        top = max(order.power(c) for c in suit)
        low = min(order.power(c) for c in suit)
        if top > order.power(Card.of(s, Rank.ZEHN)) or (len(suit) >= 3 and low > 1):
            return False
    return True


def game_values(hand: Sequence[Card], game: Game) -> float:
    """How far the hand is above its threshold for ``game`` (negative: not playable)."""
    kind = game.kind
    if kind == "sie":
        return 100.0
    if kind == "bettel":
        return 1.0 if _bettel_ok(hand) else -10.0
    if kind == "hochzeit":
        aces = sum(1 for c in hand if c.rank is Rank.ASS and not NORMAL.is_trump(c))
        return aces - 2.0
    order = order_for(kind, game.suit)
    value, n = hand_strength(hand, order)
    if game.tout:
        # every trick sure: the top trumps in a row and nothing that can be beaten
        losers = _losers(hand, order)
        return 5.0 if losers == 0 else -10.0
    if kind == "sauspiel":
        if n < 4:
            return -10.0
        assert game.suit is not None
        called_suit = [c for c in hand if c.suit is game.suit and not NORMAL.is_trump(c)]
        shortness = 0.5 * (3 - len(called_suit))
        return value - SAUSPIEL_MIN + shortness
    if kind == "solo":
        return value - SOLO_MIN if n >= 5 else -10.0
    if kind in ("wenz", "geier"):
        top = order.trumps[0] in hand
        if n < 2 or (n == 2 and not top):
            return -10.0
        return value - WENZ_MIN
    if kind == "farbwenz":
        return value - FARBWENZ_MIN if n >= 5 else -10.0
    return -10.0


def _losers(hand: Sequence[Card], order: TrickOrder) -> int:
    """Cards that can lose a trick, roughly: trumps below the unbroken top sequence when
    the others may hold more trumps, and side cards below an unbroken ace sequence."""
    trumps = [c for c in hand if order.is_trump(c)]
    top = 0
    for c in order.trumps:
        if c in hand:
            top += 1
        else:
            break
    others_trumps = len(order.trumps) - len(trumps)
    losers = 0 if top >= others_trumps or top == len(trumps) else len(trumps) - top
    for s in GERMAN_SUITS:
        plain = sorted((c for c in hand if c.suit is s and not order.is_trump(c)),
                       key=order.power, reverse=True)
        ranked = sorted((c for c in LONG_DECK if plain and order.klass(c) == order.klass(plain[0])),
                        key=order.power, reverse=True)
        for i, c in enumerate(plain):
            if i >= len(ranked) or ranked[i] != c:
                losers += len(plain) - i
                break
    return losers


@dataclass
class _Trick:
    order: TrickOrder
    cards: list[Card]
    leader: int

    def best(self) -> tuple[int, Card] | None:
        if not self.cards:
            return None
        i = self.order.winner(self.cards)
        return (self.leader + i) % 4, self.cards[i]

    def beats(self, card: Card) -> bool:
        """Whether ``card`` would take the trick now."""
        return self.order.winner([*self.cards, card]) == len(self.cards)


class HeuristicBot:
    """Rules of thumb from the seat's own view."""

    name = "heuristic"

    def choose(self, state: GameState, rng: Rng) -> Action:
        actions = list(state.legal_actions())
        if not actions:
            raise ValueError("no legal action: the bot is not to act")
        if len(actions) == 1 or not isinstance(state, SchafkopfState):
            return actions[0] if len(actions) == 1 else actions[rng.randrange(len(actions))]
        seat = state.current_player
        phase = state.phase
        hand = list(state.hands[seat])  # the bot's own hand (its view shows the same)
        if phase == "legen":
            strong = sum(1 for c in hand[:4] if c.rank in (Rank.OBER, Rank.UNTER))
            return _say(actions, "lege" if strong >= 3 else "gut")
        if phase == "bidding":
            return self.bid(actions, hand)
        if phase == "muss":
            return self._muss(actions, hand)
        if phase == "hochzeit":
            trumps = [c for c in hand if NORMAL.is_trump(c)]
            ober = any(c.rank is Rank.OBER for c in trumps)
            return _say(actions, "annehmen" if len(trumps) >= 3 and ober else "gut")
        if phase == "exchange":
            return _cheapest_short(actions, hand)
        if phase == "stossen":
            return self._stoss(state, seat, actions, hand)
        if phase == "play":
            return self.card(state, seat, actions)
        return actions[0]

    # -- bidding ---------------------------------------------------------------------
    def bid(self, actions: Sequence[Action], hand: Sequence[Card]) -> Action:
        best: tuple[float, int, Action] | None = None
        for i, a in enumerate(actions):
            if not isinstance(a, Say) or a.word == "weiter":
                continue
            g = BID_GAMES.get(a.word)
            if g is None:
                continue
            m = game_values(hand, g)
            if m < 0:
                continue
            key = (m + g.rank, i)
            if best is None or key > best[:2]:
                best = (key[0], i, a)
        if best is None:
            return _say(actions, "weiter")
        return best[2]

    def _muss(self, actions: Sequence[Action], hand: Sequence[Card]) -> Action:
        def length(a: Action) -> int:
            g = MUSS_GAMES.get(str(a))
            if g is None or g.suit is None:
                return 99
            return sum(1 for c in hand if c.suit is g.suit and not NORMAL.is_trump(c))
        return min(actions, key=length)

    def _stoss(self, state: SchafkopfState, seat: int, actions: Sequence[Action],
               hand: Sequence[Card]) -> Action:
        word = next((a for a in actions if isinstance(a, Say) and a.word != "gut"), None)
        if word is None or state.game is None:
            return _say(actions, "gut")
        g = state.game
        declaring = seat == state.declarer or (
            g.kind == "sauspiel" and g.called is not None and g.called in hand)
        if g.kind in ("bettel", "sie"):
            return _say(actions, "gut")
        if declaring:
            if seat == state.declarer and game_values(hand, g) >= RE_MARGIN:
                return word
            return _say(actions, "gut")
        order = order_for(g.kind, g.suit)
        value, n = hand_strength(hand, order)
        ober = sum(1 for c in hand if order.is_trump(c) and c.rank is order.trumps[0].rank)
        strong = value >= KONTRA_MIN + (4.0 if not g.is_partner_game else 0.0)
        if strong and ((n >= 4 and ober >= 2) or (g.kind in ("wenz", "geier") and n >= 2)):
            return word
        return _say(actions, "gut")

    # -- play ------------------------------------------------------------------------
    def card(self, state: SchafkopfState, seat: int, actions: Sequence[Action]) -> Action:
        obs = observe(state, seat)
        legal = [a for a in actions if isinstance(a, Card)]
        return self.card_from(obs, legal)

    def card_from(self, obs: Observation, legal: list[Card]) -> Card:
        order = obs.order
        trick = _Trick(order, list(obs.current), obs.leader)
        kind = _kind(obs)
        if kind == "ramsch":
            return _ramsch_card(trick, legal)
        if kind == "bettel":
            return _bettel_card(obs, trick, legal)
        friends = _friends(obs)
        if not trick.cards:
            return _lead(obs, legal, friends, kind)
        return _follow(obs, trick, legal, friends)


def _say(actions: Sequence[Action], word: str) -> Action:
    for a in actions:
        if isinstance(a, Say) and a.word == word:
            return a
    return actions[0]


def _cheapest_short(actions: Sequence[Action], hand: Sequence[Card]) -> Action:
    def key(a: Action) -> tuple[int, int]:
        assert isinstance(a, Card)
        n = sum(1 for c in hand if c.suit is a.suit and not NORMAL.is_trump(c))
        return (a.augen, n)
    return min(actions, key=key)


def _kind(obs: Observation) -> str:
    if obs.contract == "ramsch":
        return "ramsch"
    from stammtisch.games.schafkopf.games import game_by_word

    g = game_by_word(obs.contract) if obs.contract else None
    return g.kind if g is not None else "ramsch"


def _friends(obs: Observation) -> set[int]:
    """The seats the bot knows to be on its side (itself included)."""
    seat = obs.seat
    d = obs.declarer
    if d is None:
        return {seat}
    partner = obs.partner
    if obs.called is not None and obs.called in obs.hand:
        return {seat, d}  # the holder knows he plays with the declarer
    declaring = {d} | ({partner} if partner is not None else set())
    if seat in declaring:
        return declaring
    if obs.called is not None and partner is None:
        return {seat}  # a defender of a Rufspiel does not know his partner yet
    return {s for s in range(4) if s not in declaring}


def _lead(obs: Observation, legal: list[Card], friends: set[int], kind: str) -> Card:
    order = obs.order
    declaring = obs.declarer in friends
    trumps = [c for c in legal if order.is_trump(c)]
    played = obs.played
    if declaring and trumps:
        top_left = [c for c in order.trumps if c not in played and c not in obs.hand]
        mine_high = [c for c in trumps if not top_left or order.power(c) > order.power(top_left[0])]
        if mine_high:
            return max(mine_high, key=order.power)
        if len(trumps) >= 3 or (obs.seat == obs.declarer and kind == "sauspiel"):
            return max(trumps, key=order.power) if len(trumps) >= 4 else \
                min(trumps, key=order.power)
    if not declaring and obs.called is not None and not obs.gesucht:
        suit = [c for c in legal if c.suit is obs.called.suit and not order.is_trump(c)]
        if suit:
            return min(suit, key=lambda c: (c.augen, order.power(c)))
    aces = [c for c in legal if not order.is_trump(c) and _is_top(c, order, played, obs.hand)]
    if aces:
        return max(aces, key=lambda c: c.augen)
    plain = [c for c in legal if not order.is_trump(c)]
    if plain:
        # the shortest suit, a cheap card
        def key(c: Card) -> tuple[int, int, int]:
            n = sum(1 for x in obs.hand if order.klass(x) == order.klass(c))
            return (n, c.augen, order.power(c))
        return min(plain, key=key)
    return min(legal, key=order.power)


def _is_top(card: Card, order: TrickOrder, played: set[Card], hand: Sequence[Card]) -> bool:
    """Whether no unseen card of the card's class beats it."""
    k = order.klass(card)
    p = order.power(card)
    return not any(order.klass(c) == k and order.power(c) > p and c not in played
                   and c not in hand for c in LONG_DECK)


def _follow(obs: Observation, trick: _Trick, legal: list[Card], friends: set[int]) -> Card:
    order = obs.order
    best = trick.best()
    assert best is not None
    holder, top = best
    last = len(trick.cards) == 3
    on_table = sum(c.augen for c in trick.cards)
    winners = [c for c in legal if trick.beats(c)]
    if holder in friends:
        safe = last or _is_top(top, order, obs.played, obs.hand)
        if safe:
            # schmieren: the richest card that is not a high trump
            return max(legal, key=lambda c: (c.augen - (5 if order.is_trump(c) and
                                                       c.rank in (Rank.OBER, Rank.UNTER)
                                                       else 0), -order.power(c)))
        return min(legal, key=lambda c: (c.augen, order.power(c)))
    if winners and (on_table >= 10 or last or order.klass(trick.cards[0]) != TRUMP):
        if last:
            return min(winners, key=lambda c: (order.power(c), -c.augen))
        # a winner that holds: the strongest if it is a trump, else the cheapest
        sure = [c for c in winners if _is_top(c, order, obs.played, obs.hand)]
        if sure:
            return min(sure, key=lambda c: (c.augen if not order.is_trump(c) else 0,
                                            order.power(c)))
        return max(winners, key=order.power)
    return min(legal, key=lambda c: (c.augen, order.power(c)))


def _ramsch_card(trick: _Trick, legal: list[Card]) -> Card:
    order = trick.order
    if not trick.cards:
        return min(legal, key=lambda c: (order.power(c), c.augen))
    losing = [c for c in legal if not trick.beats(c)]
    if losing:
        return max(losing, key=lambda c: (c.augen, order.power(c)))
    return max(legal, key=lambda c: (order.power(c), -c.augen))


def _bettel_card(obs: Observation, trick: _Trick, legal: list[Card]) -> Card:
    order = trick.order
    declarer = obs.seat == obs.declarer
    if declarer:
        if not trick.cards:
            return min(legal, key=order.power)
        losing = [c for c in legal if not trick.beats(c)]
        if losing:
            return max(losing, key=order.power)
        return min(legal, key=order.power)
    # the defenders: make the declarer take a trick; keep low cards
    if not trick.cards:
        return min(legal, key=order.power)
    best = trick.best()
    if best is not None and best[0] == obs.declarer:
        losing = [c for c in legal if not trick.beats(c)]
        if losing:
            return max(losing, key=order.power)
    return max(legal, key=order.power)
