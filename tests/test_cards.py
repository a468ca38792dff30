"""Cards: notation, Augen, decks, identity."""

from __future__ import annotations

import copy
import pickle

import pytest

from stammtisch.cards import (
    DOPPELDEUTSCH_DECK,
    LONG_DECK,
    SHORT_DECK,
    SPANISH_DECK,
    Card,
    Rank,
    Suit,
    card,
    cards,
    format_cards,
)
from stammtisch.errors import InvalidCardError, ParseError, StammtischError

DECKS = {
    "short": SHORT_DECK,
    "long": LONG_DECK,
    "doppeldeutsch": DOPPELDEUTSCH_DECK,
    "spanish": SPANISH_DECK,
}
ALL_CARDS = sorted({c for deck in DECKS.values() for c in deck})


@pytest.mark.parametrize("name", DECKS)
def test_every_card_of_every_deck_round_trips(name: str) -> None:
    deck = DECKS[name]
    for c in deck:
        text = str(c)
        assert Card.parse(text) is c
        assert card(text) is c
        assert repr(c) == f"Card({text!r})"
        assert Card.of(c.suit, c.rank) is c
        assert Card.from_index(c.index) is c


@pytest.mark.parametrize(
    ("name", "size", "unique"),
    [("short", 24, 24), ("long", 32, 32), ("doppeldeutsch", 33, 33), ("spanish", 40, 40)],
)
def test_deck_sizes_and_no_duplicates(name: str, size: int, unique: int) -> None:
    deck = DECKS[name]
    assert len(deck) == size
    assert len(set(deck)) == unique
    assert len({str(c) for c in deck}) == unique


def test_card_indexes_are_unique_across_all_decks() -> None:
    assert len({c.index for c in ALL_CARDS}) == len(ALL_CARDS)


def test_short_deck_is_a_10_k_o_u_9_in_four_suits() -> None:
    assert format_cards(SHORT_DECK[:6]) == "EA E10 EK EO EU E9"
    assert {c.rank for c in SHORT_DECK} == {
        Rank.ASS, Rank.ZEHN, Rank.KOENIG, Rank.OBER, Rank.UNTER, Rank.NEUN}
    assert {c.suit for c in SHORT_DECK} == {Suit.EICHEL, Suit.GRAS, Suit.HERZ, Suit.SCHELLEN}


def test_long_deck_adds_eight_and_seven() -> None:
    extra = set(LONG_DECK) - set(SHORT_DECK)
    assert {str(c) for c in extra} == {"E8", "E7", "G8", "G7", "H8", "H7", "S8", "S7"}


def test_doppeldeutsch_deck_is_the_long_deck_and_the_weli() -> None:
    assert DOPPELDEUTSCH_DECK[:32] == LONG_DECK
    weli = DOPPELDEUTSCH_DECK[32]
    assert str(weli) == "S6" and weli.is_weli
    assert not any(c.is_weli for c in LONG_DECK)
    assert Card.parse("W") is weli
    assert Card.parse("weli") is weli


def test_spanish_cards_notation() -> None:
    assert str(Card.of(Suit.OROS, Rank.UNO)) == "O1"
    assert str(Card.of(Suit.COPAS, Rank.SEIS)) == "C6"
    assert str(Card.of(Suit.ESPADAS, Rank.SIETE)) == "P7"
    assert str(Card.of(Suit.BASTOS, Rank.REY)) == "BR"
    assert Card.parse("os").rank is Rank.SOTA
    assert Card.parse("cc").rank is Rank.CABALLO
    # a Spanish 6 is not the Weli, and a Spanish 7 not a German Sieben
    assert Card.parse("O6").rank is Rank.SEIS
    assert Card.parse("B7").rank is Rank.SIETE
    assert all(c.augen == 0 for c in SPANISH_DECK)


@pytest.mark.parametrize("c", ALL_CARDS, ids=str)
def test_parse_is_case_insensitive_and_strips(c: Card) -> None:
    text = str(c)
    assert Card.parse(text.lower()) is c
    assert Card.parse(text.swapcase()) is c
    assert Card.parse(f"  {text.lower()} ") is c


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("X9", "unknown suit 'X'"),
        ("E11", "unknown rank '11'"),
        ("H1", "unknown rank '1'"),
        ("", "empty"),
        ("   ", "empty"),
        ("EOO", "unknown rank 'OO'"),
        ("E6", "unknown rank '6'"),
    ],
)
def test_invalid_card_is_a_typed_error_naming_the_text(text: str, why: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        Card.parse(text)
    message = str(info.value)
    assert repr(text) in message
    assert why in message
    assert info.value.code == "invalid_card"
    assert isinstance(info.value, ParseError)
    assert isinstance(info.value, StammtischError)
    assert isinstance(info.value, ValueError)


def test_non_text_is_an_invalid_card() -> None:
    with pytest.raises(InvalidCardError, match="42"):
        Card.parse(42)  # type: ignore[arg-type]


def test_card_of_unknown_combination() -> None:
    with pytest.raises(InvalidCardError):
        Card.of(Suit.HERZ, Rank.SECHS)  # only the Schellen-Sechs (Weli) exists


def test_augen_values_and_sums() -> None:
    expected = {Rank.ASS: 11, Rank.ZEHN: 10, Rank.KOENIG: 4, Rank.OBER: 3, Rank.UNTER: 2,
                Rank.NEUN: 0, Rank.ACHT: 0, Rank.SIEBEN: 0, Rank.SECHS: 0}
    for c in DOPPELDEUTSCH_DECK:
        assert c.augen == expected[c.rank]
    assert sum(c.augen for c in SHORT_DECK) == 120
    assert sum(c.augen for c in LONG_DECK) == 120
    assert Card.parse("EO").augen == 3


def test_identity_interning() -> None:
    eo = Card.parse("EO")
    assert Card.parse("eo") is eo
    assert cards("EO GO")[0] is eo
    assert copy.copy(eo) is eo
    assert copy.deepcopy([eo])[0] is eo
    assert pickle.loads(pickle.dumps(eo)) is eo
    assert {eo: 1}[Card.parse(" EO ")] == 1


def test_cards_helper_and_format() -> None:
    hand = cards("EO h10 s9")
    assert format_cards(hand) == "EO H10 S9"
    assert cards(["EO", "H10", "S9"]) == hand
    assert cards("") == ()
    with pytest.raises(InvalidCardError, match="'Q9'"):
        cards("EO Q9")


def test_cards_sort_by_index() -> None:
    assert sorted(cards("S9 EO EA")) == list(cards("EA EO S9"))
