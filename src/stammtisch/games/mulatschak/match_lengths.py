"""Whole Mulatschak matches of bots, to see that bot-only matches end
(:func:`match_lengths`, docs/bots.md)."""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from typing import Any

from stammtisch.bots import BOTS
from stammtisch.games.base.judging import JudgeError, play
from stammtisch.games.mulatschak.match import NO_BID_AT, MulatschakMatch
from stammtisch.games.mulatschak.plugin import load_bots
from stammtisch.games.mulatschak.rules import MulatschakRules

__all__ = ["match_lengths"]


def match_lengths(bot: str, players: int, seeds: Sequence[int], rules: MulatschakRules,
                  cap: int = 300, start: int = 21) -> dict[str, Any]:
    """One match per seed with ``bot`` at all ``players`` seats (the shuffles and the
    bots' random stream from ``random.Random(seed)``; the bots cut or knock themselves):
    the hands each match took (``cap`` if it had not ended by then), whether it
    ``ended`` and whether it got ``stuck`` at the start of a hand — every seat at 5 or
    less: nobody may bid, and the match ends there with the lowest score winning
    (:func:`~stammtisch.games.mulatschak.match.stuck_winners`).  ``start``: every
    seat's score at the start (21)."""
    factories = {**BOTS, **load_bots()}
    if cap < 1:
        raise JudgeError(f"cap={cap}: must be at least 1")
    if bot not in factories:
        raise JudgeError(f"unknown bot {bot!r} (known: {', '.join(sorted(factories))})")
    seated = [factories[bot]()] * players
    rows: list[dict[str, Any]] = []
    for seed in seeds:
        rng = random.Random(seed)
        match = MulatschakMatch(rules, players, start=start)
        hands = 0
        stuck = False
        while not match.is_over() and hands < cap:
            if all(s <= NO_BID_AT for s in match.scores):
                stuck = True
                break
            state = match.start_hand(rng)
            play(state, seated, random.Random(rng.getrandbits(64)))
            match.finish_hand(state)
            hands += 1
        rows.append({"seed": seed, "hands": hands, "ended": match.is_over(), "stuck": stuck,
                     "scores": list(match.scores)})
    ended = [r["hands"] for r in rows if r["ended"]]
    return {"bot": bot, "players": players, "cap": cap, "matches": rows,
            "ended": len(ended), "stuck": sum(r["stuck"] for r in rows),
            "median_hands": statistics.median(ended) if ended else None,
            "max_hands": max(ended) if ended else None}
