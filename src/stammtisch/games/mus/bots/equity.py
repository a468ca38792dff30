"""What one Mus seat knows (from ``state.view(seat)`` only) and its equity per lance.

:func:`observe` reads the view: the seat's hand, Mano, the score, the declarations of
Pares and Juego (public once the lances begin) and the words of the current lance (who
bet, the stake, who refused) — replaying the lance rules of the contract on the public
words.  Keys the view may gain later (señas, for instance) are ignored.

:func:`sample_worlds` deals the cards the seat cannot see (the 40 cards minus its hand;
its earlier discards may have been reshuffled into the stock, so they are not excluded)
to the other three seats, conditioned on the public declarations (every seat's Pares
and Juego flags match the table's).  With few
unseen cards the splits are enumerated instead (exact); otherwise a Metropolis chain over
the deals (swap two cards, keep the swap when the declarations still hold: the uniform
distribution over the consistent deals) gives ``n`` worlds, seeded by the observation.
:func:`lance_equity` is the share of the (weighted) worlds in which the seat's pair wins
a lance, ties to the seat nearer Mano as in the engine.

>>> import random
>>> from stammtisch.games.mus import new_state
>>> from stammtisch.games.mus.rules import MusRules
>>> s = new_state(MusRules.preset("duples"), 0, random.Random(4))
>>> obs = observe(s.view(s.current_player), s.rules)
>>> obs.seat, obs.mano, len(obs.hand), obs.lance_bet is None
(3, 3, 4, True)
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from stammtisch.cards import Card
from stammtisch.games.mus.bots.tables import HandInfo, Ranks, deal_values, ranks_of, tables_for
from stammtisch.games.mus.rules import MusRules

__all__ = ["LanceBet", "Observation", "World", "lance_equity", "observe", "outcomes",
           "sample_worlds"]

LANCE_INDEX = {"grande": 0, "chica": 1, "pares": 2, "juego": 3, "punto": 3}


@dataclass
class LanceBet:
    """The betting of the current lance so far (from the public words)."""

    lance: str
    eligible: list[int]
    bettor: int = -1
    stake: int = 0
    stake_before: int = 0
    ordago: bool = False
    refused: set[int] = field(default_factory=set)
    #: bets and raises made in this lance
    bets: int = 0
    passes: int = 0


@dataclass
class Observation:
    """One seat's knowledge of a Mus hand."""

    seat: int
    mano: int
    hand: list[Card]
    ranks: Ranks
    score: list[int]
    phase: str
    lance: str
    #: seats declared with Pares / with Juego (None before their lance: undeclared)
    pares: list[int] | None
    juego: list[int] | None
    lance_bet: LanceBet | None
    #: the words said in the Mus rounds: (seat, word)
    mus_words: list[tuple[int, str]]

    def order(self) -> list[int]:
        return [(self.mano - k) % 4 for k in range(4)]

    def unseen(self, rules: MusRules) -> dict[int, int]:
        """Rank class -> unseen cards of it (the deck minus the own hand)."""
        counts = dict(tables_for(rules).deck_counts)
        for r in self.ranks:
            counts[r] -= 1
        return counts


def _eligible(lance: str, order: list[int], pares: list[int], juego: list[int]) -> list[int]:
    if lance == "pares":
        return [s for s in order if s in pares]
    if lance == "juego":
        return [s for s in order if s in juego]
    return list(order)


def _replay_lances(order: list[int], pares: list[int], juego: list[int],
                   words: list[tuple[int, str]]) -> LanceBet | None:
    """The betting state of the lance the words lead to (``None``: past the lances)."""
    last = "juego" if juego else "punto"
    it = iter(words)
    for lance in ("grande", "chica", "pares", last):
        eligible = _eligible(lance, order, pares, juego)
        if len({s % 2 for s in eligible}) < 2:
            continue
        bet = LanceBet(lance, eligible)
        done = False
        for seat, word in it:
            if word == "paso":
                bet.passes += 1
                if bet.passes == len(eligible):
                    done = True
            elif word == "quiero":
                done = True
            elif word == "no quiero":
                bet.refused.add(seat)
                if not any(s % 2 != bet.bettor % 2 and s not in bet.refused for s in eligible):
                    done = True
            else:
                bet.stake_before = bet.stake
                if word == "ordago":
                    bet.ordago = True
                else:
                    bet.stake += int(word.split()[1])
                bet.bettor = seat
                bet.bets += 1
            if done:
                break
        if not done:
            return bet
    return None


def observe(view: Mapping[str, Any], rules: MusRules) -> Observation:
    """The seat's knowledge from its view (unknown keys are ignored)."""
    seat = int(view["seat"])
    hand = [Card.parse(c) for c in view["hand"]]
    words = [(int(w[0]), str(w[1])) for w in view["words"]]
    mus_words: list[tuple[int, str]] = []
    lance_words: list[tuple[int, str]] | None = None
    for who, word in words:
        if lance_words is not None:
            lance_words.append((who, word))
        else:
            mus_words.append((who, word))
            if word == "no mus":
                lance_words = []
    mano = int(view["mano"])
    pares = list(view["pares"]) if "pares" in view else None
    juego = list(view["juego"]) if "juego" in view else None
    bet = None
    if lance_words is not None and str(view["phase"]) in ("lances", "end"):
        # Pares and Juego are declared when their lance comes: before it the words lead
        # to Grande or Chica, where they play no part
        bet = _replay_lances([(mano - k) % 4 for k in range(4)], pares or [], juego or [],
                             lance_words)
    return Observation(seat, mano, hand, ranks_of(hand, rules), list(view["score"]),
                       str(view["phase"]), str(view.get("lance", "")), pares, juego, bet,
                       mus_words)


#: one world: the :class:`HandInfo` of each seat
World = tuple[HandInfo, HandInfo, HandInfo, HandInfo]


def _matches(info: HandInfo, seat: int, pares: list[int] | None,
             juego: list[int] | None) -> bool:
    if pares is not None and (info.pares > 0) != (seat in pares):
        return False
    return juego is None or (info.juego > 0) == (seat in juego)


def sample_worlds(obs: Observation, rules: MusRules, n: int, *,
                  unseen: Mapping[int, int] | None = None,
                  exact_limit: int = 50000) -> list[tuple[World, float]]:
    """Worlds consistent with ``obs`` with their weights (summing to 1): all splits of
    the unseen cards when there are at most ``exact_limit`` of them, else ``n`` sampled
    by a Metropolis chain (seeded by the observation itself, so the same knowledge gives
    the same worlds)."""
    t = tables_for(rules)
    counts = dict(obs.unseen(rules) if unseen is None else unseen)
    cards = [r for r in t.classes for _ in range(counts.get(r, 0))]
    others = [s for s in range(4) if s != obs.seat]
    mine = t.info[obs.ranks]

    def world(hands: Sequence[Ranks]) -> World | None:
        infos: list[HandInfo] = [mine, mine, mine, mine]
        for s, h in zip(others, hands, strict=True):
            info = t.info[h]
            if not _matches(info, s, obs.pares, obs.juego):
                return None
            infos[s] = info
        return (infos[0], infos[1], infos[2], infos[3])

    if _splits(len(cards)) <= exact_limit:
        return _enumerate(cards, world)
    rng = random.Random(f"mus-worlds:{obs.seat}:{obs.mano}:{obs.ranks}:{obs.pares}:"
                        f"{obs.juego}:{sorted(counts.items())}")
    flags = [(s, obs.pares, obs.juego) for s in others]

    def ok(slots: list[int], k: int) -> bool:
        seat, pares, juego = flags[k]
        info = t.info[tuple(sorted(slots[4 * k:4 * k + 4], reverse=True))]
        return _matches(info, seat, pares, juego)

    slots = _start(cards, rng, ok)
    if slots is None:  # declarations the sampler cannot meet (not expected): unconditioned
        flags = [(s, None, None) for s in others]
        slots = list(cards)
        rng.shuffle(slots)
    out: list[tuple[World, float]] = []
    m = len(slots)
    thin, burn = 4, 60
    for step in range(burn + thin * n):
        # Metropolis with a symmetric proposal: swap a dealt card with any other card;
        # kept when every declaration still holds (uniform over the consistent deals)
        i = rng.randrange(12)
        j = rng.randrange(m - 1)
        if j >= i:
            j += 1
        if j // 4 != i // 4:
            slots[i], slots[j] = slots[j], slots[i]
            if not (ok(slots, i // 4) and (j >= 12 or ok(slots, j // 4))):
                slots[i], slots[j] = slots[j], slots[i]
        if step >= burn and (step - burn) % thin == thin - 1:
            hands = [tuple(sorted(slots[4 * k:4 * k + 4], reverse=True)) for k in range(3)]
            infos: list[HandInfo] = [mine, mine, mine, mine]
            for s, h in zip(others, hands, strict=True):
                infos[s] = t.info[h]
            out.append(((infos[0], infos[1], infos[2], infos[3]), 1.0))
    return [(w, 1.0 / len(out)) for w, _ in out]


def _start(cards: list[int], rng: random.Random, ok: Any) -> list[int] | None:
    """A first deal meeting the declarations: joint rejection, then seat by seat."""
    slots = list(cards)
    for _ in range(200):
        rng.shuffle(slots)
        if ok(slots, 0) and ok(slots, 1) and ok(slots, 2):
            return slots
    for k in range(3):
        for _ in range(500):
            rest = slots[4 * k:]
            rng.shuffle(rest)
            slots[4 * k:] = rest
            if ok(slots, k):
                break
        else:
            return None
    return slots


def _splits(m: int) -> int:
    from math import comb

    if m < 12:
        raise ValueError(f"{m} unseen cards: three hands need 12")
    return comb(m, 4) * comb(m - 4, 4) * comb(m - 8, 4)


def _enumerate(cards: list[int], world: Any) -> list[tuple[World, float]]:
    """Every split of the cards (as distinct cards) into three hands of 4 (the rest
    undealt), merged by rank multisets."""
    acc: Counter[tuple[Ranks, ...]] = Counter()
    idx = range(len(cards))
    for a in itertools.combinations(idx, 4):
        rest = [i for i in idx if i not in a]
        for b in itertools.combinations(rest, 4):
            rest2 = [i for i in rest if i not in b]
            for c in itertools.combinations(rest2, 4):
                acc[tuple(tuple(sorted((cards[i] for i in h), reverse=True))
                          for h in (a, b, c))] += 1
    out: list[tuple[World, float]] = []
    total = 0
    for hands, k in acc.items():
        w = world(hands)
        if w is not None:
            out.append((w, float(k)))
            total += k
    return [(w, k / total) for w, k in out]


def outcomes(obs: Observation,
             worlds: Sequence[tuple[World, float]]) -> list[list[tuple[int, int]]]:
    """Each world's lance winners and bonuses (:func:`~.tables.deal_values`)."""
    order = obs.order()
    return [deal_values(w, order) for w, _ in worlds]


def lance_equity(obs: Observation, worlds: Sequence[tuple[World, float]],
                 lance: str, weights: Sequence[float] | None = None,
                 results: Sequence[Sequence[tuple[int, int]]] | None = None) -> float:
    """The (weighted) share of the worlds in which the seat's pair wins ``lance``
    (0.0 when the lance does not take place in any of them); ``results``: the worlds'
    :func:`outcomes` if computed already."""
    i = LANCE_INDEX[lance]
    if results is None:
        results = outcomes(obs, worlds)
    won = total = 0.0
    for k, (_, p) in enumerate(worlds):
        if weights is not None:
            p *= weights[k]
        winner, bonus = results[k][i]
        if winner < 0 or (i == 3 and (bonus < 0) != (lance == "punto")):
            continue
        total += p
        if winner % 2 == obs.seat % 2:
            won += p
    return won / total if total else 0.0
