"""How ``stammtisch simulate`` and ``stammtisch arena`` judge Mus bots
(the ``judge`` entry of Mus's game description).

A hand of Mus is judged by its own points: what each pair scored in the hand (the score
after it minus the score before).  A set won by an accepted ``ordago`` adds no points, so
the winner of such a hand is credited with the points it still needed to reach the
target (what winning the set is worth at that score); the losers get nothing.

**Arena** (duplicate): deal ``i`` draws from ``random.Random(SEED)`` a seed for the cards
(the shuffle and every reshuffle of the hand come from one stream seeded with it, so both
games of the deal hold the same cards and draw the same stock), a seed for the bots, the
dealer (``i mod 4``) and a running score to start from (each pair 0 to ``target`` − 1,
so the ordago and the target matter as in a real set).  The deal is played twice: A's
pair on seats 0+2, B's on 1+3, then swapped (the score stays with the seats).  The figure
is the mean over deals of (A's points − B's points) per hand, with a 95% confidence
interval over deals.  ``--jobs`` plays deals in worker processes; the result does not
depend on it.

**Simulate**: the bots (two: per pair; four: per seat) play matches (:class:`MusMatch`:
sets to ``target``, the deal moving counterclockwise) hand after hand until ``games``
hands are played; the statistics are per hand (points by pair, lance statuses, ordagos,
sets and matches won).

Both report each bot's decision time (median and 95th percentile, ms).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from stammtisch.bots import BOTS, Bot
from stammtisch.bots.base import BotFactory
from stammtisch.engine.core import CHANCE, TERMINAL
from stammtisch.errors import StammtischError
from stammtisch.games.mus.match import MusMatch
from stammtisch.games.mus.plugin import load_bots
from stammtisch.games.mus.rules import MusRules
from stammtisch.games.mus.state import LANCES, MusState

__all__ = ["hand_points", "play_hand", "print_arena", "print_simulation", "run_arena",
           "run_simulation"]


class JudgeError(StammtischError):
    """Bad input to the Mus judge (bots, deals, games)."""


def _factories() -> dict[str, BotFactory]:
    return {**BOTS, **load_bots()}


def _check_bots(names: Sequence[str]) -> None:
    known = _factories()
    for n in names:
        if n not in known:
            raise JudgeError(f"unknown bot {n!r} (known: {', '.join(sorted(known))})")


_BOT_CACHE: dict[str, Bot] = {}


def _bot(name: str) -> Bot:
    bot = _BOT_CACHE.get(name)
    if bot is None:
        bot = _BOT_CACHE[name] = _factories()[name]()
    return bot


def hand_points(state: MusState) -> list[int]:
    """The points of a finished hand by pair; an accepted ordago credits its winner with
    the points it still needed to reach the target."""
    result = state.result()
    if result is None:
        raise JudgeError("the hand is not finished")
    points = [result["score"][p] - state.start_score[p] for p in (0, 1)]
    if "ordago" in result["status"].values() and result["set_winner"] is not None:
        w = result["set_winner"]
        points[w] += max(state.rules.target - result["score"][w], 0)
    return points


def play_hand(state: MusState, bots: Sequence[Bot], bot_rng: random.Random,
              chance_rng: random.Random,
              times: dict[str, list[float]] | None = None) -> MusState:
    """Play a hand to its end: the bots by seat, chance (reshuffles) from ``chance_rng``;
    decision times (seconds) by bot name into ``times``."""
    while True:
        seat = state.current_player
        if seat == TERMINAL:
            return state
        if seat == CHANCE:
            state.apply(state.sample_chance(chance_rng))
            continue
        bot = bots[seat]
        t0 = time.perf_counter()
        action = bot.choose(state, bot_rng)
        if times is not None:
            times.setdefault(bot.name, []).append(time.perf_counter() - t0)
        state.apply(action)  # checked: an illegal action of a bot is an error


def _ms(values: Sequence[float]) -> dict[str, float | int]:
    if not values:
        return {"median": 0.0, "p95": 0.0, "decisions": 0}
    ordered = sorted(values)
    return {"median": round(1000 * statistics.median(ordered), 3),
            "p95": round(1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 3),
            "decisions": len(ordered)}


def _ci(samples: Sequence[float]) -> list[float] | None:
    if len(samples) < 2:
        return None
    mean = statistics.fmean(samples)
    half = 1.96 * statistics.stdev(samples) / math.sqrt(len(samples))
    return [mean - half, mean + half]


# -- arena -------------------------------------------------------------------------------
def _deals(seed: int, deals: int, rules: MusRules) -> list[tuple[int, int, int, int, int, int]]:
    """``(number, card seed, bot seed, dealer, score 0, score 1)`` of each deal."""
    master = random.Random(seed)
    out = []
    for i in range(deals):
        out.append((i, master.getrandbits(64), master.getrandbits(64), i % 4,
                    master.randrange(rules.target), master.randrange(rules.target)))
    return out


def play_deal(args: tuple[Any, ...]) -> dict[str, Any]:
    """Both games of one deal (``args``: rules, deal, bot A, bot B): A's margin per hand
    and the statistics of the two games."""
    rules, deal, a, b = args
    _, card_seed, bot_seed, dealer, s0, s1 = deal
    margins = []
    times: dict[str, list[float]] = {}
    status: Counter[str] = Counter()
    ordagos = 0
    points = [0, 0]  # A, B
    for a_pair, seating in ((0, (a, b, a, b)), (1, (b, a, b, a))):
        state = MusState(rules, dealer, (s0, s1))
        chance = random.Random(card_seed)
        state.apply(state.sample_chance(chance))
        play_hand(state, [_bot(n) for n in seating], random.Random(bot_seed), chance, times)
        pts = hand_points(state)
        margins.append(pts[a_pair] - pts[1 - a_pair])
        points[0] += pts[a_pair]
        points[1] += pts[1 - a_pair]
        result = state.result()
        assert result is not None
        for lance, st in result["status"].items():
            status[f"{lance}:{st}"] += 1
        ordagos += "ordago" in result["status"].values()
    return {"margin": sum(margins) / 2, "points": points, "times": times,
            "status": dict(status), "ordagos": ordagos}


def run_arena(a: str, b: str, deals: int, seed: int, rules: MusRules, *, jobs: int = 1,
              progress: Any = None, game: str = "mus") -> dict[str, Any]:
    """``deals`` duplicate deals of bot ``a`` against bot ``b`` (see the module text);
    JSON-ready figures."""
    if not isinstance(deals, int) or deals < 1:
        raise JudgeError(f"deals={deals!r}: must be at least 1")
    if not isinstance(rules, MusRules):
        raise JudgeError(f"rules: not Mus rules ({type(rules).__name__})")
    _check_bots([a, b])
    started = time.perf_counter()
    args = [(rules, d, a, b) for d in _deals(seed, deals, rules)]
    task = progress.add_task("arena", total=deals) if progress is not None else None
    margins: list[float] = []
    times: dict[str, list[float]] = {}
    status: Counter[str] = Counter()
    points = [0, 0]
    ordagos = 0

    def book(out: dict[str, Any]) -> None:
        nonlocal ordagos
        margins.append(out["margin"])
        points[0] += out["points"][0]
        points[1] += out["points"][1]
        for name, ts in out["times"].items():
            times.setdefault(name, []).extend(ts)
        status.update(out["status"])
        ordagos += out["ordagos"]
        if progress is not None and task is not None:
            progress.advance(task)

    if jobs <= 1:
        for arg in args:
            book(play_deal(arg))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for out in pool.map(play_deal, args, chunksize=4):
                book(out)
    hands = 2 * deals
    return {
        "game": game, "a": a, "b": b, "deals": deals, "hands": hands, "seed": seed,
        "rules": rules.to_json(), "jobs": jobs,
        "points_per_hand": statistics.fmean(margins),
        "ci95": _ci(margins),
        "points": points,
        "points_per_hand_by_bot": {"a": points[0] / hands, "b": points[1] / hands},
        "ordagos": ordagos,
        "status": _status_table(status),
        "decision_ms": {name: _ms(ts) for name, ts in sorted(times.items())},
        "seconds": round(time.perf_counter() - started, 3),
    }


def _status_table(counts: Mapping[str, int]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {lance: {} for lance in LANCES}
    for key, n in sorted(counts.items()):
        lance, st = key.split(":")
        out[lance][st] = n
    return out


def print_arena(out: Mapping[str, Any], console: Any) -> None:
    """The arena's figures as text."""
    ci = out["ci95"]
    ci_text = "n/a (one deal)" if ci is None else f"[{ci[0]:+.3f}, {ci[1]:+.3f}]"
    console.print(f"[bold]{out['a']} vs {out['b']}[/bold] (Mus): {out['deals']} deals, "
                  f"{out['hands']} hands (each deal with the pairs' seats swapped), seed "
                  f"{out['seed']}, {out['seconds']:.1f} s")
    console.print(f"  points: {out['a']} {out['points'][0]}, {out['b']} {out['points'][1]}; "
                  f"accepted ordagos {out['ordagos']}")
    for name, ms in out["decision_ms"].items():
        console.print(f"  {name}: decision median {ms['median']:.2f} ms, p95 "
                      f"{ms['p95']:.2f} ms ({ms['decisions']} decisions)")
    console.print(f"[bold]Mean difference {out['a']} − {out['b']}: "
                  f"{out['points_per_hand']:+.3f} points per hand[/bold] (95% CI {ci_text})")


# -- simulate ------------------------------------------------------------------------------
def run_simulation(games: int, seed: int, bots: Sequence[str], rules: MusRules,
                   progress: Any = None, game: str = "mus") -> dict[str, Any]:
    """``games`` hands of Mus in matches (two bots: per pair; four: per seat)."""
    if not isinstance(games, int) or games < 1:
        raise JudgeError(f"games={games!r}: must be at least 1")
    if not isinstance(rules, MusRules):
        raise JudgeError(f"rules: not Mus rules ({type(rules).__name__})")
    names = list(bots)
    if len(names) == 2:
        names = [names[0], names[1], names[0], names[1]]
    if len(names) != 4:
        raise JudgeError(f"bots: give two (one per pair) or four (one per seat), not "
                         f"{len(names)}")
    _check_bots(names)
    started = time.perf_counter()
    master = random.Random(seed)
    seated = [_bot(n) for n in names]
    task = progress.add_task("simulate", total=games) if progress is not None else None
    match = MusMatch(rules, 0)
    matches_won = [0, 0]
    sets_won = [0, 0]
    points = [0, 0]
    margins: list[float] = []
    status: Counter[str] = Counter()
    ordagos = 0
    times: dict[str, list[float]] = {}
    for _ in range(games):
        if match.is_over():
            winner = match.winner()
            assert winner is not None
            matches_won[winner] += 1
            match = MusMatch(rules, match.dealer)
        state = match.start_game()
        chance = random.Random(master.getrandbits(64))
        state.apply(state.sample_chance(chance))
        play_hand(state, seated, random.Random(master.getrandbits(64)), chance, times)
        pts = hand_points(state)
        points[0] += pts[0]
        points[1] += pts[1]
        margins.append(pts[0] - pts[1])
        result = match.finish_game()
        if result["set_winner"] is not None:
            sets_won[result["set_winner"]] += 1
        for lance, st in result["status"].items():
            status[f"{lance}:{st}"] += 1
        ordagos += "ordago" in result["status"].values()
        if progress is not None and task is not None:
            progress.advance(task)
    if match.is_over():
        winner = match.winner()
        assert winner is not None
        matches_won[winner] += 1
    elapsed = time.perf_counter() - started
    return {
        "game": game, "games": games, "hands": games, "seed": seed, "bots": names,
        "rules": rules.to_json(),
        "points": points,
        "points_per_hand": [points[0] / games, points[1] / games],
        "margin": statistics.fmean(margins),
        "ci95": _ci(margins),
        "sets_won": sets_won,
        "matches_won": matches_won,
        "ordagos": ordagos,
        "status": _status_table(status),
        "decision_ms": {name: _ms(ts) for name, ts in sorted(times.items())},
        "seconds": round(elapsed, 3),
        "hands_per_s": round(games / elapsed, 2) if elapsed > 0 else None,
    }


def print_simulation(out: Mapping[str, Any], console: Any) -> None:
    """The simulation's figures as text."""
    b = out["bots"]
    console.print(f"[bold]Mus[/bold]: {out['hands']} hands, seed {out['seed']}, "
                  f"{out['seconds']:.1f} s; seats {', '.join(b)}")
    console.print(f"  points: pair 0 (seats 0+2) {out['points'][0]}, pair 1 (seats 1+3) "
                  f"{out['points'][1]}; sets won {out['sets_won'][0]}:{out['sets_won'][1]}, "
                  f"matches won {out['matches_won'][0]}:{out['matches_won'][1]}, accepted "
                  f"ordagos {out['ordagos']}")
    for lance, counts in out["status"].items():
        console.print(f"  {lance}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    for name, ms in out["decision_ms"].items():
        console.print(f"  {name}: decision median {ms['median']:.2f} ms, p95 "
                      f"{ms['p95']:.2f} ms ({ms['decisions']} decisions)")
    ci = out["ci95"]
    ci_text = "n/a" if ci is None else f"[{ci[0]:+.3f}, {ci[1]:+.3f}]"
    console.print(f"[bold]Margin pair 0 over pair 1: {out['margin']:+.3f} points per "
                  f"hand[/bold] (95% CI {ci_text})")
