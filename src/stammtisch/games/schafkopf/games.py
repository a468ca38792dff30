"""The games of Schafkopf: their words, ranks, trump orders and Laufende thresholds.

>>> g = game_by_word("solo-herz-tout")
>>> g.kind, g.suit, g.tout, g.rank
('solo', <Suit.HERZ: 'H'>, True, 5)
>>> [str(c) for c in order_for("wenz", None).trumps]
['EU', 'GU', 'HU', 'SU']
>>> len(order_for("farbwenz", Suit.GRAS).trumps), len(order_for("sauspiel", None).trumps)
(11, 14)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from stammtisch.cards import GERMAN_SUITS, Card, Rank, Suit
from stammtisch.engine.tricks import TrickOrder

SUIT_WORD = {Suit.EICHEL: "eichel", Suit.GRAS: "gras", Suit.HERZ: "herz",
             Suit.SCHELLEN: "schellen"}
#: the suits whose ace can be called (no Herz: Herz is trump in a Rufspiel)
CALL_SUITS: tuple[Suit, ...] = (Suit.EICHEL, Suit.GRAS, Suit.SCHELLEN)

_OBER = [Card.of(s, Rank.OBER) for s in GERMAN_SUITS]
_UNTER = [Card.of(s, Rank.UNTER) for s in GERMAN_SUITS]
_PLAIN = [Rank.ASS, Rank.ZEHN, Rank.KOENIG, Rank.NEUN, Rank.ACHT, Rank.SIEBEN]
_WITH_OBER = [Rank.ASS, Rank.ZEHN, Rank.KOENIG, Rank.OBER, Rank.NEUN, Rank.ACHT, Rank.SIEBEN]
_WITH_UNTER = [Rank.ASS, Rank.ZEHN, Rank.KOENIG, Rank.UNTER, Rank.NEUN, Rank.ACHT, Rank.SIEBEN]
_BETTEL = [Rank.ASS, Rank.KOENIG, Rank.OBER, Rank.UNTER, Rank.ZEHN, Rank.NEUN, Rank.ACHT,
           Rank.SIEBEN]


@dataclass(frozen=True, slots=True)
class Game:
    """A game that can be named: its word, kind, suit, Tout flag and rank (1–6)."""

    word: str
    kind: str  # sauspiel hochzeit bettel geier wenz solo farbwenz sie
    suit: Suit | None
    tout: bool
    rank: int
    #: Muss-Spiel: the called card is the ten of ``suit`` (``sauspiel-X-zehn``)
    zehn: bool = False

    @property
    def is_partner_game(self) -> bool:
        """Sauspiel and Hochzeit (and the Muss-Spiel, a Sauspiel): two declarers."""
        return self.kind in ("sauspiel", "hochzeit")

    @property
    def called(self) -> Card | None:
        """The called card of a Sauspiel (the ace, or the ten in ``-zehn``)."""
        if self.kind != "sauspiel" or self.suit is None:
            return None
        return Card.of(self.suit, Rank.ZEHN if self.zehn else Rank.ASS)

    def order(self) -> TrickOrder:
        return order_for(self.kind, self.suit)


def _make_games() -> dict[str, Game]:
    out: dict[str, Game] = {}

    def add(g: Game) -> None:
        out[g.word] = g

    for s in CALL_SUITS:
        add(Game(f"sauspiel-{SUIT_WORD[s]}", "sauspiel", s, False, 1))
    add(Game("hochzeit", "hochzeit", None, False, 1))
    add(Game("bettel", "bettel", None, False, 2))
    add(Game("geier", "geier", None, False, 3))
    add(Game("wenz", "wenz", None, False, 3))
    for s in GERMAN_SUITS:
        add(Game(f"solo-{SUIT_WORD[s]}", "solo", s, False, 4))
    for s in GERMAN_SUITS:
        add(Game(f"farbwenz-{SUIT_WORD[s]}", "farbwenz", s, False, 4))
    for base in list(out.values()):
        if base.rank in (3, 4):
            add(Game(base.word + "-tout", base.kind, base.suit, True, 5))
    add(Game("sie", "sie", None, False, 6))
    return out


#: every game word of the bidding, lowest rank first (the order of the legal actions)
BID_GAMES: dict[str, Game] = _make_games()
#: the words of a Muss-Spiel: a Sauspiel on any callable suit, or on a ten
MUSS_GAMES: dict[str, Game] = {
    **{w: g for w, g in BID_GAMES.items() if g.kind == "sauspiel"},
    **{f"sauspiel-{SUIT_WORD[s]}-zehn": Game(f"sauspiel-{SUIT_WORD[s]}-zehn", "sauspiel", s,
                                              False, 1, zehn=True) for s in CALL_SUITS},
}


def game_by_word(word: str) -> Game | None:
    return BID_GAMES.get(word) or MUSS_GAMES.get(word)


@cache
def order_for(kind: str, suit: Suit | None) -> TrickOrder:
    """The trick order of a game kind (``sauspiel`` also serves Hochzeit, Muss, Ramsch)."""
    if kind in ("sauspiel", "hochzeit", "ramsch", "sie", "solo"):
        trump_suit = suit if kind == "solo" and suit is not None else Suit.HERZ
        trumps = [*_OBER, *_UNTER, *(Card.of(trump_suit, r) for r in _PLAIN)]
        return TrickOrder(trumps, {s: _PLAIN for s in GERMAN_SUITS}, kind)
    if kind == "wenz":
        return TrickOrder(_UNTER, {s: _WITH_OBER for s in GERMAN_SUITS}, kind)
    if kind == "geier":
        return TrickOrder(_OBER, {s: _WITH_UNTER for s in GERMAN_SUITS}, kind)
    if kind == "farbwenz":
        assert suit is not None
        trumps = [*_UNTER, *(Card.of(suit, r) for r in _WITH_OBER)]
        return TrickOrder(trumps, {s: _WITH_OBER for s in GERMAN_SUITS}, kind)
    if kind == "bettel":
        return TrickOrder([], {s: _BETTEL for s in GERMAN_SUITS}, kind)
    raise ValueError(f"no trick order for {kind!r}")


#: the fewest Laufende that count, per game kind (None: never counted)
LAUFENDE_FROM: dict[str, int | None] = {
    "sauspiel": 3, "hochzeit": 3, "solo": 3, "wenz": 2, "geier": 2, "farbwenz": 2,
    "bettel": None, "ramsch": None,
}

#: the normal order (Rufspiel, Hochzeit, Muss-Spiel, Ramsch)
NORMAL = order_for("sauspiel", None)

__all__ = ["BID_GAMES", "CALL_SUITS", "LAUFENDE_FROM", "MUSS_GAMES", "NORMAL", "SUIT_WORD",
           "Game", "game_by_word", "order_for"]
