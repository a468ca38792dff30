"""Trick orders of the Mucken games (seed 000, "Die Spiele") and the generic trick
rules: follow the led class (trump is its own suit), no duty to trump, the highest
trump wins, else the highest card of the led suit."""

from __future__ import annotations

import pytest

from stammtisch.cards import LONG_DECK, SHORT_DECK, Card, Rank, Suit, cards, format_cards
from stammtisch.engine.tricks import TRUMP, TrickOrder, TrickPlay
from stammtisch.games.mucken.orders import muck_rank_order, trick_order


def order_text(order: TrickOrder, deck: tuple[Card, ...]) -> tuple[str, dict[str, str]]:
    """The trumps (highest first) and each plain suit (highest first) as text."""
    trumps = [c for c in order.sorted(deck) if order.is_trump(c)]
    suits: dict[str, str] = {}
    for suit in (Suit.EICHEL, Suit.GRAS, Suit.HERZ, Suit.SCHELLEN):
        plain = [c for c in order.sorted(deck) if c.suit is suit and not order.is_trump(c)]
        if plain:
            suits[suit.value] = format_cards(plain)
    assert format_cards(trumps) == format_cards(order.trumps)
    return format_cards(trumps), suits


def test_muck_trumps_in_order() -> None:
    trumps, suits = order_text(trick_order("muck", "short"), SHORT_DECK)
    assert trumps == "EO GO HO SO EU GU HU SU HA H10 HK H9"
    assert suits == {"E": "EA E10 EK E9", "G": "GA G10 GK G9", "S": "SA S10 SK S9"}


def test_muck_long_deck() -> None:
    trumps, suits = order_text(trick_order("muck", "long"), LONG_DECK)
    assert trumps == "EO GO HO SO EU GU HU SU HA H10 HK H9 H8 H7"
    assert suits["E"] == "EA E10 EK E9 E8 E7"
    assert suits["S"] == "SA S10 SK S9 S8 S7"


def test_wenz_only_unter_and_ober_between_koenig_and_neun() -> None:
    trumps, suits = order_text(trick_order("wenz", "short"), SHORT_DECK)
    assert trumps == "EU GU HU SU"
    assert suits == {
        "E": "EA E10 EK EO E9",
        "G": "GA G10 GK GO G9",
        "H": "HA H10 HK HO H9",
        "S": "SA S10 SK SO S9",
    }


def test_geier_only_ober_and_unter_between_koenig_and_neun() -> None:
    trumps, suits = order_text(trick_order("geier", "short"), SHORT_DECK)
    assert trumps == "EO GO HO SO"
    assert suits["H"] == "HA H10 HK HU H9"
    assert suits["E"] == "EA E10 EK EU E9"


def test_wenz_and_geier_long_deck() -> None:
    _, wenz = order_text(trick_order("wenz", "long"), LONG_DECK)
    assert wenz["G"] == "GA G10 GK GO G9 G8 G7"
    _, geier = order_text(trick_order("geier", "long"), LONG_DECK)
    assert geier["S"] == "SA S10 SK SU S9 S8 S7"


@pytest.mark.parametrize("suit", [Suit.EICHEL, Suit.GRAS, Suit.SCHELLEN])
def test_farbsolo_is_a_muck_with_another_trump_suit(suit: Suit) -> None:
    trumps, suits = order_text(trick_order("farbsolo", "short", suit), SHORT_DECK)
    s = suit.value
    assert trumps == f"EO GO HO SO EU GU HU SU {s}A {s}10 {s}K {s}9"
    assert s not in suits
    assert suits["H"] == "HA H10 HK H9"  # Herz is a plain suit in a Farbsolo


def test_unknown_game_and_solo_without_suit() -> None:
    with pytest.raises(ValueError, match="skat"):
        trick_order("skat", "short")
    with pytest.raises(ValueError, match="suit"):
        trick_order("farbsolo", "short")


def test_trump_is_its_own_follow_class() -> None:
    muck = trick_order("muck", "short")
    assert muck.klass(Card.parse("EO")) == TRUMP
    assert muck.klass(Card.parse("HA")) == TRUMP
    assert muck.klass(Card.parse("EA")) == muck.klass(Card.parse("E9")) != TRUMP
    wenz = trick_order("wenz", "short")
    assert wenz.klass(Card.parse("EO")) == wenz.klass(Card.parse("EA"))
    assert wenz.klass(Card.parse("EU")) == TRUMP


def legal(kind: str, hand: str, led: str | None, **kw: bool) -> str:
    order = trick_order(kind, "short")
    return format_cards(order.legal(cards(hand), Card.parse(led) if led else None, **kw))


def test_wenz_eichel_ober_must_follow_eichel_but_eichel_unter_need_not() -> None:
    # Seed 000: "Ein Eichel-Unter müsste z.B. bei einem Wenz nicht zugegeben werden,
    # wenn Eichel angespielt ist, wohingegen ein Eichel-Ober ... zugegeben werden müsste."
    assert legal("wenz", "EO EU GA", "EA") == "EO"
    assert legal("wenz", "EU GA HO", "EA") == "EU GA HO"
    # in the Muck the Eichel-Ober is trump and need not follow Eichel either
    assert legal("muck", "EO EU GA", "EA") == "EO EU GA"


def test_must_follow_trump_with_any_trump() -> None:
    assert legal("muck", "HA SU EA GK", "EO") == "HA SU"
    assert legal("muck", "H9 EA", "SU") == "H9"
    assert legal("wenz", "HA HO GU", "EU") == "GU"
    # a Herz led in the Wenz is a suit: Herz, not trumps
    assert legal("wenz", "HO GU H9", "HA") == "HO H9"


def test_no_duty_to_trump_and_free_choice_when_void() -> None:
    assert legal("muck", "HA EO GK SA", "EA") == "HA EO GK SA"
    assert legal("muck", "GK SA", "HA") == "GK SA"
    assert legal("muck", "EO GK", None) == "EO GK"


def test_stichzwang_option_forces_a_trump_when_void() -> None:
    assert legal("muck", "HA EO GK SA", "EA", must_trump=True) == "HA EO"
    assert legal("muck", "GK SA", "EA", must_trump=True) == "GK SA"
    assert legal("muck", "E9 HA", "EA", must_trump=True) == "E9"


@pytest.mark.parametrize(
    ("kind", "trick", "winner"),
    [
        ("muck", "EA E10 EK E9", 0),
        ("muck", "E9 E10 EA EK", 2),
        ("muck", "EA H9 E10 EK", 1),  # the lowest trump beats the Ass
        ("muck", "EA H9 SU HA", 2),
        ("muck", "EA H9 SU EO", 3),
        ("muck", "E9 GA SA GK", 0),  # other suits do not count
        ("muck", "HK HA SU H9", 2),
        ("muck", "EU GU HU SU", 0),
        ("wenz", "EO EK HU E9", 2),
        ("wenz", "EK EO E9 EA", 3),
        ("wenz", "HA EU HO H10", 1),  # Herz is plain in a Wenz
        ("wenz", "E9 G9 H9 S9", 0),  # four Neuner: the led suit takes it
        ("wenz", "SU GU HU EU", 3),
        ("geier", "EU EK E9 EA", 3),
        ("geier", "HA HU SO H10", 2),
        ("geier", "EK EU E9 GO", 3),
        ("muck", "E9 G9 S9 H9", 3),
    ],
)
def test_trick_winner(kind: str, trick: str, winner: int) -> None:
    assert trick_order(kind, "short").winner(cards(trick)) == winner


def test_farbsolo_trick_winner() -> None:
    gras = trick_order("farbsolo", "short", Suit.GRAS)
    assert gras.winner(cards("HA G9 H10 HK")) == 1
    assert gras.winner(cards("HA H10 GA SO")) == 3


def test_long_deck_winner_and_power() -> None:
    muck = trick_order("muck", "long")
    assert muck.winner(cards("E7 E8 E9 EK")) == 3
    assert muck.winner(cards("E7 E8 H7 EA")) == 2
    assert muck.power(Card.parse("H7")) > muck.power(Card.parse("EA"))


def test_sorted_hand_trumps_first() -> None:
    muck = trick_order("muck", "short")
    assert format_cards(muck.sorted(cards("S9 HA EA GO SU E10"))) == "GO SU HA EA E10 S9"


def test_trick_play_tracks_leader_winners_and_augen() -> None:
    order = trick_order("muck", "short")
    t = TrickPlay(4, leader=1)
    assert t.to_play == 1 and t.led is None
    for c in cards("EA E10 HA E9"):  # seats 1, 2, 3, 0: seat 3 trumps
        assert t.play(c, order) is None or len(t.winners) == 1
    assert t.winners == [3] and t.leader == 3 and t.current == []
    assert t.augen == [0, 0, 0, 32]
    assert t.last_trick == (1, cards("EA E10 HA E9"))
    c = t.clone()
    c.play(Card.parse("EK"), order)
    assert t.current == [] and c.current == [Card.parse("EK")]
    assert t.to_play == 3 and c.to_play == 0


def test_generic_trick_order_docstring_example() -> None:
    order = TrickOrder(cards("EU GU HU SU"), {s: [Rank.ASS, Rank.ZEHN, Rank.KOENIG, Rank.OBER,
                                                  Rank.NEUN] for s in Suit if s.is_german})
    assert format_cards(order.legal(cards("EO SU HA"), Card.parse("EA"))) == "EO"
    assert order.winner(cards("EA EO SU E10")) == 2


def test_muck_rank_order_for_auskarten() -> None:
    order = muck_rank_order("short")
    assert format_cards(order[:12]) == "EO GO HO SO EU GU HU SU HA H10 HK H9"
    assert format_cards(order[12:]) == "EA GA SA E10 G10 S10 EK GK SK E9 G9 S9"
    assert len(muck_rank_order("long")) == 32
