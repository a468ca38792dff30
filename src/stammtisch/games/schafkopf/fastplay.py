"""The unchecked fast path of Schafkopf for benchmarks and bulk play-outs.

:func:`fast_random_playout` plays one random legal hand and makes exactly the random
choices of :func:`stammtisch.engine.core.play_random` on a :class:`SchafkopfState` (the
same shuffle, the same index into the same legal list at every decision), so from the
same seed both play the same hand.  The few words before the play (Legen, bidding,
Hochzeit, Stoßen) go through the state unchecked; the 32 card plays run on card indices
with the trick order's tables (no legality checks, no history, no objects per card).

>>> import random
>>> from stammtisch.games.schafkopf.rules import SchafkopfRules
>>> g = fast_random_playout(SchafkopfRules.preset("standard"), 0, random.Random(1))
>>> g.card_plays, len(g.trick_winners), sum(g.augen)
(32, 8, 120)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from stammtisch.cards import LONG_DECK, Card
from stammtisch.engine.core import TERMINAL, Rng, Shuffle
from stammtisch.engine.tricks import TRUMP
from stammtisch.games.schafkopf.rules import SchafkopfRules
from stammtisch.games.schafkopf.state import PLAY, SchafkopfState

_AUGEN: list[int] = [0] * len(Card._by_index)
for _c in LONG_DECK:
    _AUGEN[_c.index] = _c.augen


@dataclass
class FastGame:
    """What a fast play-out leaves: the state before the first card (its contract,
    declarer, words), the cards played (indices, in order), trick winners and Augen."""

    state: SchafkopfState
    plays: list[int] = field(default_factory=list)
    trick_winners: list[int] = field(default_factory=list)
    augen: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    @property
    def card_plays(self) -> int:
        return len(self.plays)

    def cards(self) -> list[Card]:
        """The cards played, in order."""
        return [Card._by_index[i] for i in self.plays]


def fast_tables(rules: SchafkopfRules) -> object:
    """Nothing to build ahead: the trick orders' tables are cached already."""
    return None


def fast_random_playout(rules: SchafkopfRules, dealer: int, rng: Rng) -> FastGame:
    """One random legal hand, the same as ``play_random`` from the same ``rng``."""
    state = SchafkopfState(rules, dealer)
    order = list(LONG_DECK)
    rng.shuffle(order)
    state.apply_unchecked(Shuffle(tuple(order)))
    randrange = rng.randrange
    while state._phase != PLAY:
        if state._player == TERMINAL:
            return FastGame(state)
        actions = state.legal_actions()
        state.apply_unchecked(actions[randrange(len(actions))])
    return _play_cards(state, rng)


def _play_cards(state: SchafkopfState, rng: Rng) -> FastGame:
    randrange = rng.randrange
    to = state.order
    klass = to._klass
    power = to._power
    sort_key = to.sort_key
    hands = [[c.index for c in sorted(h, key=sort_key)] for h in state.hands]
    called_card = state.called
    called = -1 if called_card is None else called_card.index
    # the called card is a plain card of its suit: its class is the suit's class
    called_klass = -2 if called < 0 else klass[called]
    davon = state.rules.davonlaufen
    gesucht = state.gesucht
    leader = state.tricks.leader
    augen = [0, 0, 0, 0]
    winners: list[int] = []
    plays: list[int] = []
    for trick_no in range(8):
        seat = leader
        led_k = -1
        trick: list[int] = []
        for _ in range(4):
            hand = hands[seat]
            if led_k < 0:
                legal = hand
                if called >= 0 and not gesucht and called in hand:
                    suit_cards = [c for c in hand if klass[c] == called_klass]
                    if not (davon and len(suit_cards) >= 4):
                        legal = [c for c in hand if c == called or klass[c] != called_klass]
            else:
                legal = [c for c in hand if klass[c] == led_k] or hand
                if called >= 0 and not gesucht and called in hand:
                    if led_k == called_klass:
                        legal = [called]
                    elif trick_no < 7 and len(legal) > 1:
                        legal = [c for c in legal if c != called]
            card = legal[randrange(len(legal))]
            hand.remove(card)
            trick.append(card)
            plays.append(card)
            if led_k < 0:
                led_k = klass[card]
            seat = (seat + 1) & 3
        # the trick's winner
        best = 0
        best_trump = led_k == TRUMP
        best_power = power[trick[0]]
        for i in (1, 2, 3):
            ci = trick[i]
            kc = klass[ci]
            if kc == TRUMP:
                if not best_trump or power[ci] > best_power:
                    best, best_power, best_trump = i, power[ci], True
            elif not best_trump and kc == led_k and power[ci] > best_power:
                best, best_power = i, power[ci]
        leader = (leader + best) & 3
        winners.append(leader)
        augen[leader] += _AUGEN[trick[0]] + _AUGEN[trick[1]] + _AUGEN[trick[2]] + _AUGEN[trick[3]]
        if called >= 0 and led_k == called_klass:
            gesucht = True
    return FastGame(state, plays, winners, augen)


__all__ = ["FastGame", "fast_random_playout", "fast_tables"]
