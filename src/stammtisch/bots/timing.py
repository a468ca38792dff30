"""Timing a search bot's decisions on random positions (the games' ``bench_decisions``).

Hands are dealt and played by a helper bot (the game's heuristic); each stops at a random
point of its card play and the bot under test chooses there, timed; with ``call_phase``
the first decision of that phase in each hand is timed too.  The positions depend only
on ``seed``, each decision's ``rng`` on the hand's number, so two versions of a bot meet
the same positions.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from stammtisch.bots.base import Bot
from stammtisch.engine.core import GameState

__all__ = ["DecisionTimes", "main", "stats", "time_decisions"]


@dataclass
class DecisionTimes:
    """Wall times in milliseconds: card decisions, first calls."""

    cards: list[float] = field(default_factory=list)
    calls: list[float] = field(default_factory=list)


def _timed(bot: Bot, state: GameState, seed: int) -> float:
    t = time.perf_counter()
    bot.choose(state, random.Random(seed))
    return 1000 * (time.perf_counter() - t)


def time_decisions(bot: Bot, helper: Bot, deal: Callable[[int, random.Random], GameState],
                   positions: int, seed: int, cards: int, *, call_phase: str | None = None,
                   wanted: Callable[[GameState], bool] = lambda state: True) -> DecisionTimes:
    """``positions`` card decisions: hand ``n`` is ``deal(n, rng)``, it stops before a
    random one of its first ``cards`` card plays, and a stop that ended the hand, left one
    legal action or is not ``wanted`` is skipped."""
    rng = random.Random(seed)
    out = DecisionTimes()
    game = 0
    while len(out.cards) < positions:
        state = deal(game, rng)
        stop = rng.randrange(cards)
        played = 0
        first_call = call_phase is not None
        while not state.is_terminal():
            if first_call and state.phase == call_phase:
                first_call = False
                out.calls.append(_timed(bot, state, game))
            if state.phase == "play":
                if played == stop:
                    break
                played += 1
            state.apply(helper.choose(state, rng))
        game += 1
        if state.is_terminal() or not wanted(state) or len(state.legal_actions()) < 2:
            continue
        out.cards.append(_timed(bot, state, game))
    return out


def stats(ms: list[float], digits: int | None = None) -> dict[str, float]:
    """Count, median, p95 (nearest rank), mean and max (rounded to ``digits``)."""
    s = sorted(ms)
    out = {"median_ms": statistics.median(s), "p95_ms": s[max(0, math.ceil(0.95 * len(s)) - 1)],
           "mean_ms": statistics.fmean(s), "max_ms": s[-1]}
    if digits is not None:
        out = {k: round(v, digits) for k, v in out.items()}
    return {"n": len(s), **out}


def main(bench: Callable[[str, int, int], dict[str, Any]], description: str, positions: int,
         argv: Sequence[str] | None = None) -> None:
    """The command line of a game's ``bench_decisions``: ``--bot``, ``--positions``,
    ``--seed``; prints its JSON."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--bot", default="pimc")
    parser.add_argument("--positions", type=int, default=positions)
    parser.add_argument("--seed", type=int, default=0)
    ns = parser.parse_args(argv)
    print(json.dumps(bench(ns.bot, ns.positions, ns.seed)))
