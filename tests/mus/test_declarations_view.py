"""Pares and Juego are declared when their lance comes (issue 19): a seat's view — what
the table sends it, and what the bots decide on — names who holds Pares only from the
Pares lance on and who holds Juego only from the Juego (or Punto) lance on; once the hand
is over both are there."""

from __future__ import annotations

from stammtisch.cards import SPANISH_DECK, Card
from stammtisch.engine.core import Say
from stammtisch.games.mus.bots.equity import observe
from stammtisch.games.mus.rules import MusRules
from stammtisch.games.mus.state import MusState

R = MusRules()


def _cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def _deal(*hands: str) -> MusState:
    """Dealer 0: Mano is seat 3; hands of seats 0, 1, 2, 3."""
    cards = [_cards(h) for h in hands]
    used = {c for h in cards for c in h}
    return MusState.from_deal(R, 0, (0, 0), cards, [c for c in SPANISH_DECK if c not in used])


def _play(state: MusState, *words: str) -> MusState:
    for w in words:
        state.apply(Say(w))
    return state


# every seat holds pares; seats 0 (R R 7 7 = 34) and 1 (C C C 4 = 34) hold Juego
ALL_PARES = ("OR CR O7 C7", "OC CC PC B4", "O5 C5 P6 B7", "OS CS P4 B1")
VIEWERS = (0, 1, 2, 3, None)


def _declared(state: MusState) -> list[tuple[bool, bool]]:
    return [("pares" in state.view(s), "juego" in state.view(s)) for s in VIEWERS]


def test_nothing_is_declared_during_grande_and_chica() -> None:
    s = _play(_deal(*ALL_PARES), "no mus")
    assert (s.phase, s.lance) == ("lances", "grande")
    assert _declared(s) == [(False, False)] * 5
    _play(s, *["paso"] * 4)
    assert s.lance == "chica"
    assert _declared(s) == [(False, False)] * 5
    # the seat to act decides on what it may know: nothing of the others' Pares or Juego
    obs = observe(s.view(s.current_player), R)
    assert obs.pares is None and obs.juego is None
    assert obs.lance_bet is not None and obs.lance_bet.lance == "chica"


def test_pares_at_its_lance_juego_at_its_lance() -> None:
    s = _play(_deal(*ALL_PARES), "no mus", *["paso"] * 8)
    assert s.lance == "pares"
    for seat in VIEWERS:
        v = s.view(seat)
        assert v["pares"] == [0, 1, 2, 3] and "juego" not in v, seat
    obs = observe(s.view(s.current_player), R)
    assert obs.pares == [0, 1, 2, 3] and obs.juego is None
    assert obs.lance_bet is not None and obs.lance_bet.lance == "pares"
    _play(s, *["paso"] * 4)
    assert s.lance == "juego"
    for seat in VIEWERS:
        v = s.view(seat)
        assert v["pares"] == [0, 1, 2, 3] and v["juego"] == [0, 1], seat
    _play(s, "paso", "paso")
    assert s.phase == "end"
    assert all(s.view(seat)["juego"] == [0, 1] for seat in VIEWERS)


def test_a_lance_without_betting_still_declares_on_the_way() -> None:
    # only seats 3 and 1 (one pair) hold pares: no betting in Pares, straight on to
    # Juego (seat 0: 5 6 R C = 31, seat 1: S S S 4 = 34, seat 3: R R C 1 = 31) — by then
    # both declarations are known
    s = _play(_deal("O5 C6 PR BC", "OS CS PS B4", "O4 C5 P6 B7", "OR CR OC C1"),
              "no mus", *["paso"] * 8)
    assert s.lance == "juego" and s.status["pares"] == "no_bet"
    v = s.view(2)
    assert v["pares"] == [1, 3] and v["juego"] == [0, 1, 3]


def test_an_ordago_in_grande_shows_everything_at_the_end() -> None:
    s = _play(_deal(*ALL_PARES), "no mus", "ordago", "quiero")
    assert s.phase == "end"
    for seat in VIEWERS:
        v = s.view(seat)
        assert v["pares"] == [0, 1, 2, 3] and v["juego"] == [0, 1]
