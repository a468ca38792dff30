"""Playing cards as small immutable values with a notation that round-trips.

German (Bavarian/Franconian) cards are written suit letter + rank:
``E`` Eichel, ``G`` Gras (Grün, Laub), ``H`` Herz, ``S`` Schellen and
``A 10 K O U 9 8 7 6``.  The Weli of the 33-card doppeldeutsch deck
(Mulatschak) is the Schellen-Sechs, written ``S6`` (``W`` and ``Weli`` parse too).

Spanish cards (Mus) are written suit letter + rank with the suits
``O`` Oros, ``C`` Copas, ``P`` Espadas, ``B`` Bastos and the ranks
``1``–``7``, ``S`` (Sota), ``C`` (Caballo), ``R`` (Rey).

>>> Card.parse("H10")
Card('H10')
>>> str(Card.parse("eo"))
'EO'
>>> Card.parse("EO").augen
3
>>> Card.parse("X9")
Traceback (most recent call last):
...
stammtisch.errors.InvalidCardError: not a card: 'X9' (unknown suit 'X')

Every card exists exactly once: ``Card.parse("EO") is Card.parse("EO")``, so
cards can be compared by identity and used as dictionary keys cheaply.  Each
card has a small integer ``index`` (unique across all decks) for tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum
from typing import ClassVar

from stammtisch.errors import InvalidCardError


class Suit(Enum):
    """A card suit; the value is its letter in the notation."""

    EICHEL = "E"
    GRAS = "G"
    HERZ = "H"
    SCHELLEN = "S"
    OROS = "O"
    COPAS = "C"
    ESPADAS = "P"
    BASTOS = "B"

    @property
    def letter(self) -> str:
        return str(self.value)

    @property
    def german_name(self) -> str:
        return _SUIT_NAMES[self]

    @property
    def is_german(self) -> bool:
        return self in GERMAN_SUITS


_SUIT_NAMES = {
    Suit.EICHEL: "Eichel",
    Suit.GRAS: "Gras",
    Suit.HERZ: "Herz",
    Suit.SCHELLEN: "Schellen",
    Suit.OROS: "Oros",
    Suit.COPAS: "Copas",
    Suit.ESPADAS: "Espadas",
    Suit.BASTOS: "Bastos",
}

GERMAN_SUITS: tuple[Suit, ...] = (Suit.EICHEL, Suit.GRAS, Suit.HERZ, Suit.SCHELLEN)
SPANISH_SUITS: tuple[Suit, ...] = (Suit.OROS, Suit.COPAS, Suit.ESPADAS, Suit.BASTOS)


class Rank(Enum):
    """A card rank; the value is its text in the notation."""

    ASS = "A"
    ZEHN = "10"
    KOENIG = "K"
    OBER = "O"
    UNTER = "U"
    NEUN = "9"
    ACHT = "8"
    SIEBEN = "7"
    SECHS = "6"
    # Spanish deck
    UNO = "1"
    DOS = "2"
    TRES = "3"
    CUATRO = "4"
    CINCO = "5"
    SEIS = "6s"  # never written; Spanish 6 is written "6" and resolved by suit
    SIETE = "7s"  # never written; Spanish 7 is written "7" and resolved by suit
    SOTA = "S"
    CABALLO = "C"
    REY = "R"

    @property
    def text(self) -> str:
        value = str(self.value)
        return value.rstrip("s") if self in (Rank.SEIS, Rank.SIETE) else value

    @property
    def is_german(self) -> bool:
        return self in GERMAN_RANKS


GERMAN_RANKS: tuple[Rank, ...] = (
    Rank.ASS,
    Rank.ZEHN,
    Rank.KOENIG,
    Rank.OBER,
    Rank.UNTER,
    Rank.NEUN,
    Rank.ACHT,
    Rank.SIEBEN,
    Rank.SECHS,
)
SPANISH_RANKS: tuple[Rank, ...] = (
    Rank.UNO,
    Rank.DOS,
    Rank.TRES,
    Rank.CUATRO,
    Rank.CINCO,
    Rank.SEIS,
    Rank.SIETE,
    Rank.SOTA,
    Rank.CABALLO,
    Rank.REY,
)

_AUGEN = {Rank.ASS: 11, Rank.ZEHN: 10, Rank.KOENIG: 4, Rank.OBER: 3, Rank.UNTER: 2}

_GERMAN_RANK_TEXT = {r.text: r for r in GERMAN_RANKS}
_SPANISH_RANK_TEXT = {r.text: r for r in SPANISH_RANKS}
_SUIT_LETTER = {s.value: s for s in Suit}


class Card:
    """One playing card.  Use :meth:`parse` or :func:`card`; never construct directly."""

    __slots__ = ("_text", "augen", "index", "rank", "suit")

    _all: ClassVar[dict[tuple[Suit, Rank], Card]] = {}
    _by_text: ClassVar[dict[str, Card]] = {}
    _by_index: ClassVar[list[Card]] = []

    suit: Suit
    rank: Rank
    index: int
    augen: int
    _text: str

    def __init__(self, suit: Suit, rank: Rank, index: int) -> None:
        self.suit = suit
        self.rank = rank
        self.index = index
        self.augen = _AUGEN.get(rank, 0) if suit.is_german else 0
        self._text = suit.value + rank.text

    @classmethod
    def of(cls, suit: Suit, rank: Rank) -> Card:
        """The card with this suit and rank."""
        try:
            return cls._all[(suit, rank)]
        except KeyError:
            raise InvalidCardError(f"no card {suit.name} {rank.name}") from None

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse the notation (case-insensitive), e.g. ``EO``, ``h10``, ``S6``, ``OR``."""
        if not isinstance(text, str):
            raise InvalidCardError(f"not a card: {text!r} (expected text such as 'EO')")
        key = text.strip().upper()
        found = cls._by_text.get(key)
        if found is not None:
            return found
        if key in ("W", "WELI"):
            return cls._by_text["S6"]
        if not key:
            raise InvalidCardError(f"not a card: {text!r} (empty)")
        suit = _SUIT_LETTER.get(key[0])
        if suit is None:
            raise InvalidCardError(f"not a card: {text!r} (unknown suit {key[0]!r})")
        raise InvalidCardError(
            f"not a card: {text!r} (unknown rank {key[1:]!r} for {suit.german_name})"
        )

    @classmethod
    def from_index(cls, index: int) -> Card:
        return cls._by_index[index]

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self._text,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    @property
    def is_weli(self) -> bool:
        return self.suit is Suit.SCHELLEN and self.rank is Rank.SECHS


def _build() -> None:
    index = 0
    for suit in GERMAN_SUITS:
        for rank in GERMAN_RANKS:
            if rank is Rank.SECHS and suit is not Suit.SCHELLEN:
                continue  # the only German six in use is the Weli
            c = Card(suit, rank, index)
            Card._all[(suit, rank)] = c
            Card._by_text[c._text] = c
            Card._by_index.append(c)
            index += 1
    for suit in SPANISH_SUITS:
        for rank in SPANISH_RANKS:
            c = Card(suit, rank, index)
            Card._all[(suit, rank)] = c
            Card._by_text[c._text] = c
            Card._by_index.append(c)
            index += 1


_build()
for _text, _rank in _SPANISH_RANK_TEXT.items():
    # Spanish 6 and 7 share the text of the German ranks; their lookup goes by suit.
    for _suit in SPANISH_SUITS:
        Card._by_text[_suit.value + _text] = Card._all[(_suit, _rank)]
del _text, _rank, _suit


def card(text: str) -> Card:
    """Shorthand for :meth:`Card.parse`."""
    return Card.parse(text)


def cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse several cards: ``cards("EO GO H10")`` or ``cards(["EO", "GO"])``."""
    items = text.split() if isinstance(text, str) else list(text)
    return tuple(Card.parse(t) for t in items)


def format_cards(items: Sequence[Card]) -> str:
    return " ".join(str(c) for c in items)


def german_deck(ranks: Sequence[str]) -> tuple[Card, ...]:
    """The German cards of the given ranks in all four suits, suit by suit."""
    wanted = [_GERMAN_RANK_TEXT[r] for r in ranks]
    return tuple(Card.of(s, r) for s in GERMAN_SUITS for r in wanted)


#: The short deck (kurzes Blatt) of 24 cards: A 10 K O U 9.
SHORT_DECK: tuple[Card, ...] = german_deck(["A", "10", "K", "O", "U", "9"])
#: The long deck (langes Blatt) of 32 cards: A 10 K O U 9 8 7.
LONG_DECK: tuple[Card, ...] = german_deck(["A", "10", "K", "O", "U", "9", "8", "7"])
#: The doppeldeutsch deck of Mulatschak: the long deck and the Weli (33 cards).
DOPPELDEUTSCH_DECK: tuple[Card, ...] = (*LONG_DECK, Card.of(Suit.SCHELLEN, Rank.SECHS))
#: The Spanish deck of 40 cards (Mus): 1–7, Sota, Caballo, Rey in four suits.
SPANISH_DECK: tuple[Card, ...] = tuple(Card.of(s, r) for s in SPANISH_SUITS for r in SPANISH_RANKS)
