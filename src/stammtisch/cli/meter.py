"""Counting play-outs in time slices: games, card plays, wall and CPU time (``bench
playout`` and ``bench compare``)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

__all__ = ["Meter", "measure"]


class Meter:
    """Runs one kind of play-out in time slices and adds up games, card plays and time."""

    def __init__(self, playout: Callable[[Any, int, random.Random], int],
                 rules: Any, seed: int) -> None:
        self.playout = playout
        self.rules = rules
        self.rng = random.Random(seed)
        self.games = 0
        self.card_plays = 0
        self.wall = 0.0
        self.cpu = 0.0

    def run(self, seconds: float, batch: int = 16) -> None:
        """Play whole games (``batch`` at a time) for about ``seconds``; the dealer moves on."""
        playout, rules, rng = self.playout, self.rules, self.rng
        games = self.games
        plays = 0
        clock = time.perf_counter
        cpu0 = time.process_time()
        start = clock()
        deadline = start + seconds
        while True:
            for _ in range(batch):
                plays += playout(rules, games & 3, rng)
                games += 1
            now = clock()
            if now >= deadline:
                break
        self.wall += now - start
        self.cpu += time.process_time() - cpu0
        self.card_plays += plays
        self.games = games

    def reset(self) -> None:
        """Forget what was counted (after a warm-up); the random stream goes on."""
        self.games = self.card_plays = 0
        self.wall = self.cpu = 0.0

    def figures(self) -> dict[str, float]:
        return {"games": self.games, "card_plays": self.card_plays, "seconds": self.wall,
                "games_per_s": self.games / self.wall,
                "card_plays_per_s": self.card_plays / self.wall,
                "card_plays_per_cpu_s": self.card_plays / self.cpu if self.cpu > 0 else 0.0}


def measure(
    playout: Callable[[Any, int, random.Random], int],
    rules: Any,
    seconds: float,
    seed: int,
    batch: int = 16,
) -> dict[str, float]:
    """Run ``playout`` for about ``seconds`` in one go."""
    meter = Meter(playout, rules, seed)
    meter.run(seconds, batch)
    return meter.figures()
