"""The arena runs that tuned the ``bluff`` bot (docs/bots.md, "Mus"): each named variant
of :class:`~.heuristic.Style` against ``heuristic`` on the same duplicate deals as
``stammtisch arena`` (:mod:`stammtisch.games.mus.statistics`), one process.

``python -m stammtisch.games.mus.bots.tune --deals 400 --seed 7 a05 o60 F2``
prints for each variant the mean points per hand over ``heuristic`` and its 95% CI.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from stammtisch.games.base.judging import play
from stammtisch.games.mus.bots.heuristic import HeuristicBot, MusBot, Style
from stammtisch.games.mus.rules import MusRules
from stammtisch.games.mus.statistics import STATISTICS, hand_points

__all__ = ["VARIANTS", "run"]

#: the variants of the tuning runs (name -> the knobs changed from the heuristic's)
VARIANTS: dict[str, Style] = {
    "b10_a15": Style("b10_a15", bluff_rate=0.10),
    "b25_a15": Style("b25_a15", bluff_rate=0.25),
    "b25_a30": Style("b25_a30", bluff_rate=0.25, assumed_bluff=0.30),
    "b40_a30": Style("b40_a30", bluff_rate=0.40, assumed_bluff=0.30),
    "b0_a30": Style("b0_a30", assumed_bluff=0.30),
    "a05": Style("a05", assumed_bluff=0.05),
    "a00": Style("a00", assumed_bluff=0.0),
    "o60": Style("o60", open_threshold=0.60),
    "o76": Style("o76", open_threshold=0.76),
    "r78": Style("r78", raise_threshold=0.78),
    "r92": Style("r92", raise_threshold=0.92),
    "mp5": Style("mp5", mus_margin=0.5),
    "mm5": Style("mm5", mus_margin=-0.5),
    "L30a15": Style("L30a15", bluff_rate=0.3, bluff_last_only=True),
    "L60a15": Style("L60a15", bluff_rate=0.6, bluff_last_only=True),
    "o60a05": Style("o60a05", open_threshold=0.6, assumed_bluff=0.05),
    "L30o60a05": Style("L30o60a05", open_threshold=0.6, assumed_bluff=0.05, bluff_rate=0.3,
                       bluff_last_only=True),
    "L60o60a05": Style("L60o60a05", open_threshold=0.6, assumed_bluff=0.05, bluff_rate=0.6,
                       bluff_last_only=True),
    "F1": Style("F1", open_threshold=0.6, assumed_bluff=0.05, mus_margin=-0.5,
                bluff_rate=0.3, bluff_last_only=True),
    "F2": Style("F2", open_threshold=0.6, assumed_bluff=0.05, mus_margin=-1.0,
                bluff_rate=0.3, bluff_last_only=True),
    "F3": Style("F3", open_threshold=0.6, assumed_bluff=0.0, mus_margin=-0.5,
                bluff_rate=0.3, bluff_last_only=True),
    "F4": Style("F4", open_threshold=0.6, assumed_bluff=0.05, mus_margin=-0.5,
                bluff_rate=0.6, bluff_last_only=True),
}


def run(name: str, deals: int, seed: int,
        rules: MusRules | None = None) -> tuple[float, float, float]:
    """Variant ``name`` against ``heuristic``: (mean per hand, CI low, CI high)."""
    rules = rules or MusRules.preset("duples")
    bots, master = (MusBot(VARIANTS[name]), HeuristicBot()), random.Random(seed)
    margins = []
    for i in range(deals):
        deal = STATISTICS.draw(rules, master, i, 4, arena=True)
        margin = 0
        for side in (0, 1):  # the variant's pair on seats 0+2, then on 1+3
            state = STATISTICS.start(rules, deal, 4)
            play(state, [bots[(s + side) % 2] for s in range(4)],
                 random.Random(deal.bot_seed), random.Random(deal.chance_seed))
            points = hand_points(state)
            margin += points[side] - points[1 - side]
        margins.append(margin / 2)
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins))
    return mean, mean - half, mean + half


def main() -> None:  # pragma: no cover - a research script
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("variants", nargs="+", choices=sorted(VARIANTS))
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    for name in args.variants:
        t0 = time.perf_counter()
        m, lo, hi = run(name, args.deals, args.seed)
        print(f"{name} {m:+.3f} [{lo:+.3f},{hi:+.3f}] {time.perf_counter() - t0:.0f}s",
              flush=True)


if __name__ == "__main__":  # pragma: no cover
    main()
