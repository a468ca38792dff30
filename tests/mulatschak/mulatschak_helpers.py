"""Build Mulatschak hands from chosen cards: the deck that deals them, and a state."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from stammtisch.cards import DOPPELDEUTSCH_DECK, Card
from stammtisch.engine.core import Say, Shuffle
from stammtisch.games.mulatschak.rules import MulatschakRules
from stammtisch.games.mulatschak.state import MulatschakState

WELI = Card.parse("S6")


def deck_for(hands: Mapping[int, Sequence[str]], dealer: int, rest: Sequence[str] = (),
             k: int | None = 5) -> list[str]:
    """The deck (top first) that deals ``hands`` after ``abheben k`` (``None``:
    ``klopfen``); ``rest`` starts the stock after the deal.  No Weli is cut or knocked."""
    n = len(hands)
    order = [(dealer + 1 + i) % n for i in range(n)]
    parsed = {s: [Card.parse(c) for c in h] for s, h in hands.items()}
    stock = [c for s in order for c in parsed[s][:3]] + [c for s in order for c in parsed[s][3:]]
    extra = [Card.parse(c) for c in rest]
    fill = [c for c in DOPPELDEUTSCH_DECK if c not in stock and c not in extra]
    fill.sort(key=lambda c: c.is_weli, reverse=True)  # the Weli never at the bottom
    stock += extra + fill
    if k is None:
        return [str(c) for c in stock]
    return [str(c) for c in stock[33 - k:] + stock[:33 - k]]


def state_for(hands: Mapping[int, Sequence[str]], dealer: int, words: Sequence[str] = (),
              *, rest: Sequence[str] = (), scores: Sequence[int] | None = None,
              doubled: int = 0, rules: MulatschakRules | None = None,
              cut: str = "abheben 5") -> MulatschakState:
    """A hand dealt as ``hands`` with ``words`` applied (each checked, in turn)."""
    n = len(hands)
    k = None if cut == "klopfen" else int(cut.split()[1])
    state = MulatschakState(rules or MulatschakRules(), dealer, scores or [21] * n, doubled)
    state.apply(Shuffle(tuple(Card.parse(c) for c in deck_for(hands, dealer, rest, k))))
    state.apply(Say(cut))
    for word in words:
        state.push(word)
    return state


H4 = {0: ["EK", "EO", "G9", "H8", "S8"], 1: ["GA", "GK", "GO", "GU", "E7"],
      2: ["HA", "H7", "S9", "E8", "G8"], 3: ["SA", "SK", "HK", "E9", "EU"]}
