"""Trick-taking, reusable by every trick game (Mucken, Schafkopf, Mulatschak).

A :class:`TrickOrder` says, for one contract, which cards are trump and how
cards rank; :class:`TrickPlay` keeps the cards on the table, the tricks taken
and who leads.  Neither knows bidding, pairs or scoring: the game modules do.

>>> from stammtisch.cards import cards, Suit, Rank
>>> order = TrickOrder(cards("EU GU HU SU"), {s: [Rank.ASS, Rank.ZEHN, Rank.KOENIG,
...     Rank.OBER, Rank.NEUN] for s in (Suit.EICHEL, Suit.GRAS, Suit.HERZ, Suit.SCHELLEN)})
>>> [str(c) for c in order.legal(cards("EO SU HA"), cards("EA")[0])]
['EO']
>>> order.winner(cards("EA EO SU E10"))
2
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from stammtisch.cards import Card, Rank, Suit

#: the follow class of trumps (suits use 0..7, their enum position)
TRUMP = 8
_SUIT_CLASS = {s: i for i, s in enumerate(Suit)}


class TrickOrder:
    """Trumps (highest first) and the rank order of the plain suits (highest first)."""

    __slots__ = ("_klass", "_power", "name", "trumps")

    def __init__(
        self,
        trumps: Sequence[Card],
        suit_orders: Mapping[Suit, Sequence[Rank]],
        name: str = "",
    ) -> None:
        self.name = name
        self.trumps: tuple[Card, ...] = tuple(trumps)
        size = len(Card._by_index)
        self._klass: list[int] = [-1] * size
        self._power: list[int] = [-1] * size
        n = len(self.trumps)
        for i, c in enumerate(self.trumps):
            self._klass[c.index] = TRUMP
            self._power[c.index] = 100 + n - i
        trump_set = set(self.trumps)
        for suit, ranks in suit_orders.items():
            m = len(ranks)
            for i, r in enumerate(ranks):
                c = Card.of(suit, r)
                if c in trump_set:
                    continue
                self._klass[c.index] = _SUIT_CLASS[suit]
                self._power[c.index] = m - i

    def is_trump(self, card: Card) -> bool:
        return self._klass[card.index] == TRUMP

    def klass(self, card: Card) -> int:
        """The follow class: :data:`TRUMP` or the card's suit number."""
        return self._klass[card.index]

    def power(self, card: Card) -> int:
        """Rank within its class (trumps above everything)."""
        return self._power[card.index]

    def legal(
        self, hand: Sequence[Card], led: Card | None, *, must_trump: bool = False
    ) -> list[Card]:
        """Cards of ``hand`` that may be played to a trick led by ``led``.

        Follow the led class (trump counts as a suit of its own); if that is
        impossible any card may be played, or with ``must_trump`` any trump if
        one is held (Stichzwang).
        """
        if led is None:
            return list(hand)
        klass = self._klass
        k = klass[led.index]
        follow = [c for c in hand if klass[c.index] == k]
        if follow:
            return follow
        if must_trump:
            trumps = [c for c in hand if klass[c.index] == TRUMP]
            if trumps:
                return trumps
        return list(hand)

    def winner(self, trick: Sequence[Card]) -> int:
        """Position (0 = the lead) of the card that takes ``trick``."""
        klass = self._klass
        power = self._power
        best = 0
        lead_class = klass[trick[0].index]
        best_trump = lead_class == TRUMP
        best_power = power[trick[0].index]
        for i in range(1, len(trick)):
            ci = trick[i].index
            kc = klass[ci]
            if kc == TRUMP:
                if not best_trump or power[ci] > best_power:
                    best, best_power, best_trump = i, power[ci], True
            elif not best_trump and kc == lead_class and power[ci] > best_power:
                best, best_power = i, power[ci]
        return best

    def sort_key(self, card: Card) -> tuple[int, int]:
        """Key that sorts a hand as players hold it: trumps high to low, then suits."""
        k = self._klass[card.index]
        return (-1 if k == TRUMP else k, -self._power[card.index])

    def sorted(self, hand: Iterable[Card]) -> list[Card]:
        return sorted(hand, key=self.sort_key)


def deal_problem(hands: Sequence[Sequence[Card]], deck: Collection[Card], size: int,
                 deck_name: str) -> str | None:
    """Why ``hands`` are not a deal of four hands of ``size`` cards from ``deck`` (each
    card once), or ``None`` if they are; ``deck_name`` words a card not in it."""
    if len(hands) != 4:
        return f"need 4 hands, got {len(hands)}"
    seen: dict[Card, int] = {}
    cards = set(deck)
    for seat, hand in enumerate(hands):
        if len(hand) != size:
            return f"hand {seat} has {len(hand)} cards, needs {size}"
        for c in hand:
            if c not in cards:
                return f"hand {seat}: {c} is not {deck_name}"
            if c in seen:
                return f"hand {seat}: {c} is dealt twice (also in hand {seen[c]})"
            seen[c] = seat
    return None


#: the name of a trick class in the errors (a suit's German name, or "Trumpf")
CLASS_NAME: dict[int, str] = {**{i: s.german_name for i, s in enumerate(Suit)}, TRUMP: "Trumpf"}


def explain_card(seat: int, hand: Sequence[Card], action: object, order: TrickOrder,
                 led: Card | None) -> str | None:
    """Why ``action`` is not a card ``seat`` may play by the rules every trick game here
    shares — a word instead of a card, a card not in ``hand``, not following the led
    class though ``hand`` holds one — or ``None`` when it breaks none of them."""
    if not isinstance(action, Card):
        return f"seat {seat} must play a card now, not say {action}"
    if action not in hand:
        return f"seat {seat} does not hold {action}"
    if led is not None:
        k = order.klass(led)
        must = [c for c in hand if order.klass(c) == k]
        if must and action not in must:
            return (f"seat {seat} must follow {CLASS_NAME[k]}, holds "
                    + " ".join(str(c) for c in order.sorted(must)))
    return None


class TrickPlay:
    """The cards on the table: current trick, finished tricks, who takes them."""

    __slots__ = ("augen", "current", "leader", "num_seats", "tricks", "winners")

    def __init__(self, num_seats: int, leader: int) -> None:
        self.num_seats = num_seats
        self.leader = leader
        self.current: list[Card] = []
        self.tricks: list[tuple[int, tuple[Card, ...]]] = []  # (leader, cards)
        self.winners: list[int] = []
        self.augen = [0] * num_seats

    def clone(self) -> TrickPlay:
        t = TrickPlay.__new__(TrickPlay)
        t.num_seats = self.num_seats
        t.leader = self.leader
        t.current = list(self.current)
        t.tricks = list(self.tricks)
        t.winners = list(self.winners)
        t.augen = list(self.augen)
        return t

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.current)) % self.num_seats

    @property
    def led(self) -> Card | None:
        return self.current[0] if self.current else None

    def play(self, card: Card, order: TrickOrder) -> int | None:
        """Put ``card`` on the table; returns the trick's winner when it completes."""
        self.current.append(card)
        if len(self.current) < self.num_seats:
            return None
        trick = tuple(self.current)
        winner = (self.leader + order.winner(trick)) % self.num_seats
        self.tricks.append((self.leader, trick))
        self.winners.append(winner)
        self.augen[winner] += sum(c.augen for c in trick)
        self.current = []
        self.leader = winner
        return winner

    @property
    def last_trick(self) -> tuple[int, tuple[Card, ...]] | None:
        return self.tricks[-1] if self.tricks else None
