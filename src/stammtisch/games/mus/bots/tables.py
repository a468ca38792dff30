"""Tables of Mus hands by rank multiset, shared by the bots.

In Mus the suits never matter: a hand is a multiset of 4 ranks (with 8 reyes there are 8
rank classes, R/3 and 1/2 merged; with 4 reyes 10).  So every lance key is computed once
per multiset (330 multisets with 8 reyes, 715 with 4) with the engine's own functions
(:mod:`stammtisch.games.mus.state`) and turned into one integer per lance, higher =
better:

- ``grande`` and ``chica``: the position of the hand in the engine's order;
- ``pares``: 0 without pares, else the position among the pares keys;
- ``juego``: 0 without Juego, else :func:`~stammtisch.games.mus.state.juego_rank`;
- ``punto``: the value sum (only used when nobody has Juego).

:func:`static_value` is a hand's expected points from the lances against three random
hands (no betting: the en-paso point, the Pares/Juego bonuses, the Punto bonus), estimated
once per multiset with a fixed seed; :func:`discard_values` is the exact expected
:func:`static_value` after each discard, the draw enumerated over the multisets of unseen
ranks with their hypergeometric weights.

>>> from stammtisch.games.mus.rules import MusRules
>>> t = tables_for(MusRules.preset("duples"))
>>> len(t.info), t.classes
(330, (12, 11, 10, 7, 6, 5, 4, 1))
>>> best = t.info[(12, 12, 12, 1)]; best.juego, best.pares_bonus   # 31 and medias
(8, 2)
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from stammtisch.cards import SPANISH_DECK, Card
from stammtisch.games.mus.rules import MusRules
from stammtisch.games.mus.state import (
    chica_key,
    grande_key,
    juego_rank,
    juego_value,
    pares_key,
    rank_of,
)

__all__ = ["HandInfo", "Tables", "discard_values", "ranks_of", "static_value", "tables_for"]

#: a hand as its ranks, sorted high to low
Ranks = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandInfo:
    """One rank multiset's lance values (higher is better) and bonuses."""

    ranks: Ranks
    grande: int
    chica: int
    pares: int
    juego: int
    punto: int
    pares_bonus: int
    juego_bonus: int


@dataclass(frozen=True)
class Tables:
    """The lance tables of one rules' rank classes."""

    reyes: int
    #: the rank classes, high to low
    classes: tuple[int, ...]
    #: rank class -> cards of it in the deck
    deck_counts: dict[int, int]
    #: sorted ranks -> its values
    info: dict[Ranks, HandInfo]
    #: single-hand percentile by lance (the share of the eligible hands it beats)
    percentile: dict[str, dict[Ranks, float]]


def ranks_of(hand: Sequence[Card], rules: MusRules) -> Ranks:
    """A hand's sorted ranks (high to low)."""
    return tuple(sorted((rank_of(c, rules) for c in hand), reverse=True))


def _cards_for(ranks: Ranks, rules: MusRules) -> list[Card]:
    """Real cards with the given ranks (for the engine's key functions)."""
    pool = list(SPANISH_DECK)
    out: list[Card] = []
    for r in ranks:
        c = next(c for c in pool if rank_of(c, rules) == r)
        pool.remove(c)
        out.append(c)
    return out


def _multisets(classes: Sequence[int], counts: dict[int, int], k: int) -> list[Ranks]:
    out = []
    for combo in itertools.combinations_with_replacement(classes, k):
        c = Counter(combo)
        if all(n <= counts[r] for r, n in c.items()):
            out.append(tuple(sorted(combo, reverse=True)))
    return out


def _weight(ranks: Ranks, counts: dict[int, int]) -> int:
    """How many card sets have these ranks (a product of binomials)."""
    w = 1
    for r, n in Counter(ranks).items():
        w *= math.comb(counts.get(r, 0), n)
    return w


@cache
def tables_for(rules: MusRules) -> Tables:
    """The tables of ``rules`` (only ``reyes`` matters; cached)."""
    return _tables(rules.reyes, rules)


@cache
def _tables(reyes: int, rules: MusRules) -> Tables:
    counts = Counter(rank_of(c, rules) for c in SPANISH_DECK)
    classes = tuple(sorted(counts, reverse=True))
    hands = _multisets(classes, counts, 4)
    by_cards = {h: _cards_for(h, rules) for h in hands}
    g_order = sorted(hands, key=lambda h: grande_key(by_cards[h], rules))
    c_order = sorted(hands, key=lambda h: chica_key(by_cards[h], rules), reverse=True)
    pk = {h: pares_key(by_cards[h], rules) for h in hands}
    p_keys = sorted({k for k in pk.values() if k is not None})
    info: dict[Ranks, HandInfo] = {}
    g_pos = _positions(g_order, lambda h: grande_key(by_cards[h], rules))
    c_pos = _positions(c_order, lambda h: chica_key(by_cards[h], rules))
    for h in hands:
        k = pk[h]
        v = juego_value(by_cards[h], rules)
        info[h] = HandInfo(
            ranks=h, grande=g_pos[h], chica=c_pos[h],
            pares=0 if k is None else p_keys.index(k) + 1,
            juego=juego_rank(v) if v >= 31 else 0,
            punto=v,
            pares_bonus=0 if k is None else k[0],
            juego_bonus=0 if v < 31 else (3 if v == 31 else 2),
        )
    weights = {h: _weight(h, counts) for h in hands}
    percentile: dict[str, dict[Ranks, float]] = {}
    for lance in ("grande", "chica", "pares", "juego", "punto"):
        elig = [h for h in hands if lance not in ("pares", "juego")
                or getattr(info[h], lance) > 0]
        total = sum(weights[h] for h in elig)
        vals = sorted(elig, key=lambda h: getattr(info[h], lance))
        pct: dict[Ranks, float] = {}
        below = 0
        i = 0
        while i < len(vals):
            j = i
            v0 = getattr(info[vals[i]], lance)
            same = 0
            while j < len(vals) and getattr(info[vals[j]], lance) == v0:
                same += weights[vals[j]]
                j += 1
            for h in vals[i:j]:
                pct[h] = (below + same / 2) / total
            below += same
            i = j
        percentile[lance] = pct
    return Tables(reyes, classes, dict(counts), info, percentile)


def _positions(order: list[Ranks], key: object) -> dict[Ranks, int]:
    """Position in ``order``; equal keys share a position."""
    out: dict[Ranks, int] = {}
    pos = 0
    last: object = None
    for i, h in enumerate(order):
        k = key(h)  # type: ignore[operator]
        if i == 0 or k != last:
            pos = i + 1
            last = k
        out[h] = pos
    return out


def deal_values(info: Sequence[HandInfo], order: Sequence[int]) -> list[tuple[int, int]]:
    """The winner seat and its pair's bonus for each lance of one world: ``info`` by
    seat, ``order`` the seats in playing order from Mano.  Returns ``(winner, bonus)``
    for grande, chica, pares, and the last lance (juego or punto); winner -1: no lance."""
    out: list[tuple[int, int]] = []
    for lance in ("grande", "chica", "pares"):
        best = -1
        bv = 0
        for s in order:
            v = getattr(info[s], lance)
            if v > bv:
                bv = v
                best = s
        bonus = 0
        if lance == "pares" and best >= 0:
            bonus = info[best].pares_bonus + info[(best + 2) % 4].pares_bonus
        out.append((best, bonus))
    best = -1
    bv = 0
    for s in order:
        if info[s].juego > bv:
            bv = info[s].juego
            best = s
    if best >= 0:
        out.append((best, info[best].juego_bonus + info[(best + 2) % 4].juego_bonus))
    else:
        for s in order:
            if info[s].punto > bv:
                bv = info[s].punto
                best = s
        out.append((best, -1))  # -1: punto (bonus from the rules)
    return out


@cache
def _static_values(rules: MusRules) -> dict[Ranks, float]:
    t = tables_for(rules)
    rng = random.Random(f"mus-static-{rules.reyes}-{rules.punto_bonus}")
    deck = [r for r in t.classes for _ in range(t.deck_counts[r])]
    out: dict[Ranks, float] = {}
    samples = 160
    order = [0, 1, 2, 3]
    for h in t.info:
        rest = list(deck)
        for r in h:
            rest.remove(r)
        total = 0.0
        mine = t.info[h]
        for _ in range(samples):
            drawn = rng.sample(rest, 12)
            infos = [mine] + [t.info[tuple(sorted(drawn[4 * i:4 * i + 4], reverse=True))]
                              for i in range(3)]
            # seat 0 is ours, at a random distance from Mano
            k = rng.randrange(4)
            lances = deal_values(infos, order[k:] + order[:k])
            own = (0, 0, mine.pares_bonus,
                   rules.punto_bonus if lances[3][1] < 0 else mine.juego_bonus)
            for (w, _), bonus in zip(lances, own, strict=True):
                if w == 0:
                    total += 1 + bonus
        out[h] = total / samples
    return out


def static_value(ranks: Ranks, rules: MusRules) -> float:
    """A hand's expected points from the lances it wins against three random hands."""
    return _static_values(rules)[ranks]


def discard_values(hand: Ranks, unseen: dict[int, int],
                   rules: MusRules) -> dict[tuple[int, ...], float]:
    """The exact expected :func:`static_value` after discarding each subset of ``hand``
    (positions into ``hand``), drawing from the ``unseen`` rank counts."""
    values = _static_values(rules)
    classes = tables_for(rules).classes
    total = sum(unseen.values())
    out: dict[tuple[int, ...], float] = {}
    draws: dict[int, list[tuple[Ranks, float]]] = {}
    for k in range(1, 5):
        ms = _multisets(classes, unseen, k)
        denom = math.comb(total, k)
        draws[k] = [(m, _weight(m, unseen) / denom) for m in ms]
    for k in range(1, 5):
        for drop in itertools.combinations(range(4), k):
            kept = [hand[i] for i in range(4) if i not in drop]
            ev = 0.0
            for m, p in draws[k]:
                ev += p * values[tuple(sorted((*kept, *m), reverse=True))]
            out[drop] = ev
    return out
