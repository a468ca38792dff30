"""Perfect Information Monte Carlo, the loop written once for every game's search bot.

A bot that cannot see the other hands decides on its own view:

1. **sample** worlds consistent with what its seat knows — the game's
   :class:`WorldSampler` (a callable ``rng -> world``);
2. **merge** equal worlds into one with their count as weight (:func:`sample`, optional:
   late in a hand many coincide);
3. **evaluate** every candidate action in each world with all hands open — the game's
   :class:`Evaluator` (Mucken's and Schafkopf's double-dummy solvers, Mulatschak's exact
   play-out of the tricks), which may leave a world out or stop the search (a node budget);
4. **average** per action over the worlds, weighted (:func:`average`), and **choose**
   (:func:`best`): the highest mean utility, ties within a tolerance broken by the mean
   value, then by a preferred action (a heuristic's), then by the order of the actions.

The games keep only their sampler and evaluator.  Everything is deterministic for a given
``rng``: the worlds come from it in a fixed order, the evaluators use none.

>>> import random
>>> worlds = sample(lambda rng: rng.randrange(3), random.Random(4), 6,
...                 key=lambda w: w)
>>> [(w, n) for w, n in worlds]
[(0, 2), (1, 3), (2, 1)]
>>> class Parity:  # action 0 is worth the world's number, action 1 one minus it
...     def evaluate(self, world: int) -> list[tuple[float, float]]:
...         return [(world, 0.0), (1 - world, 0.0)]
...     def exhausted(self, weight: float) -> bool:
...         return False
>>> estimates = average(["a", "b"], worlds, Parity())
>>> [(e.action, round(e.utility, 3)) for e in estimates], best(estimates)
([('a', 0.833), ('b', 0.167)], 'a')
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from stammtisch.bots.sampling import dedupe
from stammtisch.engine.core import Rng

__all__ = ["Estimate", "Evaluator", "WorldSampler", "average", "best", "sample",
           "weighted_mean"]

W = TypeVar("W")
A = TypeVar("A")
W_co = TypeVar("W_co", covariant=True)
W_contra = TypeVar("W_contra", contravariant=True)


class WorldSampler(Protocol[W_co]):
    """One world consistent with what the deciding seat knows, drawn from ``rng``."""

    def __call__(self, rng: Rng, /) -> W_co: ...


class Evaluator(Protocol[W_contra]):
    """The per-game judge of the candidate actions in one world with all hands open."""

    def evaluate(self, world: W_contra, /) -> Sequence[tuple[float, float]] | None:
        """Per candidate action, in their order, ``(utility, value)`` in ``world`` (the
        value: what the game shows beside the utility, e.g. Augen); ``None``: the world
        is left out (too hard to solve in its budget)."""
        ...

    def exhausted(self, weight: float, /) -> bool:
        """Whether to stop before the next world (a budget spent); ``weight``: the total
        weight of the worlds averaged so far."""
        ...


@dataclass(frozen=True, slots=True)
class Estimate(Generic[A]):
    """The weighted means of one candidate action over the worlds."""

    action: A
    utility: float
    value: float


def sample(sampler: WorldSampler[W], rng: Rng, count: int,
           key: Callable[[W], Hashable] | None = None) -> Iterable[tuple[W, int]]:
    """``count`` worlds with weights: with ``key`` all drawn at once and equal ones merged
    (:func:`~stammtisch.bots.sampling.dedupe`); without, drawn one by one as the loop asks
    for them, each of weight 1 (a loop that stops early draws no more)."""
    if key is not None:
        return dedupe([sampler(rng) for _ in range(count)], key)
    return ((sampler(rng), 1) for _ in range(count))


def average(actions: Sequence[A], worlds: Iterable[tuple[W, int]],
            evaluator: Evaluator[W]) -> list[Estimate[A]] | None:
    """The weighted mean utility and value of each action over the worlds the evaluator
    judged (asked before each world whether to stop); ``None`` if it judged none."""
    n = len(actions)
    utility = [0.0] * n
    value = [0.0] * n
    total = 0
    it = iter(worlds)
    while not evaluator.exhausted(total):
        item = next(it, None)
        if item is None:
            break
        world, weight = item
        got = evaluator.evaluate(world)
        if got is None:
            continue
        for i, (u, v) in enumerate(got):
            utility[i] += weight * u
            value[i] += weight * v
        total += weight
    if not total:
        return None
    return [Estimate(a, utility[i] / total, value[i] / total) for i, a in enumerate(actions)]


def best(estimates: Sequence[Estimate[A]], *, tolerance: float = 0.0, by_value: bool = False,
         prefer: Callable[[], A] | None = None) -> A:
    """The action of the highest mean utility.  Ties — within ``tolerance`` — go to the
    highest mean value (``by_value``), then to ``prefer()`` when it is among them (asked
    only when there is a tie), then to the first in the estimates' order."""
    top_u = max(e.utility for e in estimates)
    top = [e for e in estimates if e.utility >= top_u - tolerance]
    if by_value:
        top_v = max(e.value for e in top)
        top = [e for e in top if e.value >= top_v]
    if prefer is not None and len(top) > 1:
        preferred = prefer()
        if any(e.action == preferred for e in top):
            return preferred
    return top[0].action


def weighted_mean(worlds: Iterable[tuple[W, float]],
                  value: Callable[[W], float | None]) -> float | None:
    """The weighted mean of ``value`` over the worlds (a world where it is ``None`` does
    not count); ``None`` if no world counts."""
    acc = 0.0
    total = 0.0
    for world, weight in worlds:
        v = value(world)
        if v is None:
            continue
        acc += weight * v
        total += weight
    return acc / total if total else None
