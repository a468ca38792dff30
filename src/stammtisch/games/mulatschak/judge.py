"""How ``stammtisch simulate`` and ``stammtisch arena`` judge Mulatschak bots.

Mulatschak is every seat for itself and the scores go **down** from 21: a seat's score
change per hand (``delta``) is better the *lower* it is.  Every figure below keeps that
sign: a negative ``advantage`` means bot A did better than bot B.

- :func:`run_arena` (``arena``): duplicate deals.  Each deal (a shuffled deck, the cut
  height, the dealer ``i mod players`` and the bots' random seed, all drawn in order from
  ``random.Random(SEED)``) is played twice from 21 points each: A on the even seats
  (0, 2, …) and B on the odd ones, then swapped.  The cut is part of the deal (said for
  the cutter, never ``klopfen``), so both games hold exactly the same cards.  Per game the
  difference is the mean delta of A's seats minus the mean delta of B's; a deal's
  ``advantage`` sample is the mean of its two games; the 95% CI treats deals as samples.
  Decision times are measured around every ``choose`` call of each bot.  With ``--jobs``
  the deals are played in worker processes; the figures do not depend on it (only the
  times do).
- :func:`run_simulation` (``simulate``): two tables, each a
  :class:`~stammtisch.games.mulatschak.match.MulatschakMatch` of four (21 down to 0, the
  doubling after a folded hand, a new match when one is won), the lineups' seats swapped
  (seat ``s`` of table B holds the bot of seat ``s ^ 1`` of table A), the same shuffle,
  cut and bots' random stream for both tables' hand ``i``.

- :func:`match_lengths`: whole matches (21 down to 0) with one bot at every seat, the
  number of hands each took (folded hands and all-``weiter`` redeals count), to see that
  bot-only matches end.  A match in which every seat is at 5 or less cannot go on:
  nobody may bid (the contract: a score ≤ 5 may only say ``weiter``) and every hand would
  be redealt; the match ends there with the lowest score winning
  (:func:`~stammtisch.games.mulatschak.match.stuck_winners`); ``stuck`` counts matches
  that reach that state at the start of a hand (none since that reading).

The bots never say ``muli`` out of turn (they are asked only on their turn).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from stammtisch.bots import BOTS, Bot
from stammtisch.cards import Card
from stammtisch.engine.core import Say, Shuffle
from stammtisch.errors import StammtischError
from stammtisch.games.mulatschak.match import MulatschakMatch
from stammtisch.games.mulatschak.plugin import load_bots
from stammtisch.games.mulatschak.rules import MulatschakRules
from stammtisch.games.mulatschak.state import DECK, MulatschakState

__all__ = ["BETTER", "JudgeError", "match_lengths", "print_arena", "print_simulation",
           "run_arena", "run_simulation"]

BETTER = "negative (lower scores are better in Mulatschak)"


class JudgeError(StammtischError):
    """A bad argument to the judge (unknown bot, too few deals, a bad seat count)."""


def bot_names() -> list[str]:
    """Mulatschak's own bots and the generic ones."""
    return sorted({*load_bots(), *BOTS})


def _make_bot(name: str) -> Bot:
    own = load_bots()
    if name in own:
        return own[name]()
    if name in BOTS:
        return BOTS[name]()
    raise JudgeError(f"unknown bot {name!r} (known: {', '.join(bot_names())})")


_CACHE: dict[str, Bot] = {}


def _bot(name: str) -> Bot:
    bot = _CACHE.get(name)
    if bot is None:
        bot = _CACHE[name] = _make_bot(name)
    return bot


@dataclass(frozen=True)
class DealTask:
    """One deal: its number, the deck (top first), the cut height, the dealer, the seed."""

    number: int
    deck: tuple[str, ...]
    cut: int
    dealer: int
    bot_seed: int


def draw_deals(seed: int, deals: int, players: int) -> list[DealTask]:
    master = random.Random(seed)
    out = []
    for i in range(deals):
        order = [str(c) for c in DECK]
        master.shuffle(order)
        cut = 1 + master.randrange(32)
        out.append(DealTask(i, tuple(order), cut, i % players, master.getrandbits(64)))
    return out


def _start(rules: MulatschakRules, task: DealTask, scores: Sequence[int],
           doubled: int = 0) -> MulatschakState:
    state = MulatschakState(rules, task.dealer, scores, doubled)
    state.apply(Shuffle(tuple(Card.parse(c) for c in task.deck)))
    state.apply(Say(f"abheben {task.cut}"))
    return state


def _play(state: MulatschakState, seating: Sequence[str], seed: int,
          times: dict[str, list[float]] | None = None) -> None:
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.current_player
        name = seating[seat]
        started = time.perf_counter()
        action = _bot(name).choose(state, rng)
        if times is not None:
            times.setdefault(name, []).append(1000 * (time.perf_counter() - started))
        state.apply(action)  # checked: an illegal action of a bot is an error


def play_deal(args: tuple[Any, ...]) -> tuple[int, list[dict[str, Any]], dict[str, list[float]]]:
    """Both games of one deal: ``args`` = ``(rules, task, a, b, players)``.  Returns the
    deal's number, each game's result and the decision times (ms) by bot name."""
    rules, task, a, b, players = args
    games = []
    times: dict[str, list[float]] = {}
    for swap in (0, 1):
        seating = [a if (s + swap) % 2 == 0 else b for s in range(players)]
        state = _start(rules, task, [21] * players)
        _play(state, seating, task.bot_seed, times)
        result = state.result()
        assert result is not None
        games.append(dict(result))
    return task.number, games, times


class _Stats:
    """What one bot did over the run."""

    def __init__(self, bot: str) -> None:
        self.bot = bot
        self.seat_hands = 0
        self.delta = 0
        self.bids = 0
        self.made = 0
        self.muli = 0
        self.home = 0
        self.no_trick = 0
        self.bid_sum = 0

    def book(self, seat: int, r: Mapping[str, Any]) -> None:
        self.seat_hands += 1
        self.delta += r["delta"][seat]
        if r["bidder"] == seat:
            self.bids += 1
            self.bid_sum += r["bid"]
            self.muli += r["bid"] == 5
            if r["trick_winners"] and r["tricks"][seat] >= r["bid"]:
                self.made += 1
        elif seat in r["home"]:
            self.home += 1
        elif r["trick_winners"] and r["tricks"][seat] == 0:
            self.no_trick += 1

    def to_json(self, times: list[float] | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "bot": self.bot, "seat_hands": self.seat_hands, "delta": self.delta,
            "mean_delta": self.delta / self.seat_hands if self.seat_hands else 0.0,
            "bids": self.bids, "mean_bid": self.bid_sum / self.bids if self.bids else None,
            "made_rate": self.made / self.bids if self.bids else None, "muli": self.muli,
            "home": self.home, "no_trick": self.no_trick}
        if times is not None:
            out["decision_ms"] = _times(times)
        return out


def _times(times: list[float]) -> dict[str, Any]:
    if not times:
        return {"median": None, "p95": None, "max": None, "decisions": 0}
    ordered = sorted(times)
    return {"median": round(statistics.median(ordered), 3),
            "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 3),
            "max": round(ordered[-1], 3), "decisions": len(ordered)}


def _ci95(samples: list[float], mean: float) -> list[float] | None:
    if len(samples) < 2:
        return None
    half = 1.96 * statistics.stdev(samples) / math.sqrt(len(samples))
    return [mean - half, mean + half]


def _check(names: Sequence[str], players: int) -> None:
    for n in names:
        if n not in bot_names():
            raise JudgeError(f"unknown bot {n!r} (known: {', '.join(bot_names())})")
    if not 2 <= players <= 6:
        raise JudgeError(f"players={players}: Mulatschak has 2 to 6")


def run_arena(a: str, b: str, deals: int, seed: int, rules: MulatschakRules, *,
              jobs: int = 1, progress: Any = None, game: str = "mulatschak",
              players: int = 4) -> dict[str, Any]:
    """Duplicate deals of bot ``a`` against bot ``b`` (see the module); JSON-ready."""
    if deals < 1:
        raise JudgeError(f"deals={deals}: must be at least 1")
    _check((a, b), players)
    started = time.perf_counter()
    tasks = draw_deals(seed, deals, players)
    args = [(rules, t, a, b, players) for t in tasks]
    stats = [_Stats(a), _Stats(b)]
    times: dict[int, list[float]] = {0: [], 1: []}
    samples: list[float] = []
    outcomes: Counter[str] = Counter()
    task_id = progress.add_task("arena", total=deals) if progress is not None else None

    def book(games: list[dict[str, Any]], took: dict[str, list[float]]) -> None:
        diffs = []
        for swap, r in enumerate(games):
            outcomes[_outcome(r)] += 1
            sums = [0.0, 0.0]
            counts = [0, 0]
            for seat in range(players):
                who = (seat + swap) % 2  # 0: A's seat
                stats[who].book(seat, r)
                sums[who] += r["delta"][seat]
                counts[who] += 1
            diffs.append(sums[0] / counts[0] - sums[1] / counts[1])
        samples.append(statistics.fmean(diffs))
        if a == b:
            times[0].extend(took.get(a, []))
        else:
            times[0].extend(took.get(a, []))
            times[1].extend(took.get(b, []))
        if progress is not None and task_id is not None:
            progress.advance(task_id)

    if jobs <= 1:
        for x in args:
            book(*play_deal(x)[1:])
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for _, games, took in pool.map(play_deal, args, chunksize=4):
                book(games, took)
    elapsed = time.perf_counter() - started
    advantage = statistics.fmean(samples)
    ci = _ci95(samples, advantage)
    if a == b:
        times[1] = times[0]
    return {
        "game": game, "a": a, "b": b, "players": players, "deals": deals,
        "games": 2 * deals, "seed": seed, "rules": rules.to_json(),
        "seatings": [[a if s % 2 == 0 else b for s in range(players)],
                     [b if s % 2 == 0 else a for s in range(players)]],
        "stats": [stats[0].to_json(times[0]), stats[1].to_json(times[1])],
        "mean_delta": {"a": stats[0].to_json()["mean_delta"],
                       "b": stats[1].to_json()["mean_delta"]},
        "advantage": advantage, "ci95": ci, "better": BETTER,
        "a_better": advantage < 0,
        "significant": ci is not None and (ci[1] < 0 or ci[0] > 0),
        "decision_ms": {"a": _times(times[0]), "b": _times(times[1])},
        "outcomes": dict(sorted(outcomes.items(), key=lambda kv: (-kv[1], kv[0]))),
        "seconds": elapsed, "deals_per_s": deals / elapsed if elapsed > 0 else None,
        "jobs": jobs,
    }


def _outcome(r: Mapping[str, Any]) -> str:
    if r["folded"]:
        return "zusammengefallen"
    if r["bidder"] is None:
        return "weiter (redeal)"
    if not r["trick_winners"]:
        return "all home"
    made = r["tricks"][r["bidder"]] >= r["bid"]
    name = "muli" if r["bid"] == 5 else f"bid {r['bid']}"
    return f"{name} {'made' if made else 'lost'}"


def print_arena(out: Mapping[str, Any], console: Any) -> None:
    """The human form of :func:`run_arena`'s figures."""
    ci = out["ci95"]
    ci_text = "n/a (one deal)" if ci is None else f"[{ci[0]:+.3f}, {ci[1]:+.3f}]"
    console.print(f"[bold]{out['a']} vs {out['b']}[/bold]: {out['deals']} deals at "
                  f"{out['players']} seats, {out['games']} games (each deal with the seats "
                  f"swapped), seed {out['seed']}, {out['seconds']:.1f} s")
    for s in out["stats"]:
        rate = s["made_rate"]
        t = s["decision_ms"]
        console.print(
            f"  {s['bot']}: mean score change {s['mean_delta']:+.3f} per seat and hand, "
            f"bid {s['bids']}× (made {'-' if rate is None else f'{100 * rate:.1f}%'}), "
            f"Muli {s['muli']}, home {s['home']}, no trick {s['no_trick']}; decision "
            f"median {t['median']} ms, p95 {t['p95']} ms")
    verdict = "A better" if out["a_better"] else "B better or equal"
    sig = "significant" if out["significant"] else "not significant"
    console.print(f"[bold]Advantage {out['a']} − {out['b']}: {out['advantage']:+.3f} points "
                  f"per hand[/bold] (95% CI {ci_text}; {out['better']}: {verdict}, {sig})")


def run_simulation(games: int, seed: int, bots: Sequence[str], rules: MulatschakRules,
                   progress: Any = None, game: str = "mulatschak") -> dict[str, Any]:
    """``games`` hands at two tables of four with the lineups swapped (see the module)."""
    if games < 1:
        raise JudgeError(f"games={games}: must be at least 1")
    names = list(bots)
    if len(names) == 2:
        names = names * 2
    if len(names) != 4:
        raise JudgeError(f"{','.join(bots)}: give two bots (seats 0+2, 1+3) or four")
    _check(names, 4)
    seat_a = names
    seat_b = [seat_a[s ^ 1] for s in range(4)]
    lineup_of = [[0, 1, 0, 1], [1, 0, 1, 0]]
    tables = [MulatschakMatch(rules, 4), MulatschakMatch(rules, 4)]
    stats = [_Stats("+".join(sorted({seat_a[0], seat_a[2]}))),
             _Stats("+".join(sorted({seat_a[1], seat_a[3]})))]
    matches_won = [0.0, 0.0]
    matches = 0
    outcomes: Counter[str] = Counter()
    master = random.Random(seed)
    margins: list[float] = []
    played = 0
    task_id = progress.add_task("simulate", total=games) if progress is not None else None
    started = time.perf_counter()
    while played < games:
        order = [str(c) for c in DECK]
        master.shuffle(order)
        cut = 1 + master.randrange(32)
        bot_seed = master.getrandbits(64)
        diffs = []
        for t, table in enumerate(tables):
            if played >= games:
                break
            if table.is_over():
                matches += 1
                for w in table.winners:
                    matches_won[lineup_of[t][w]] += 1 / len(table.winners)
                table = tables[t] = MulatschakMatch(rules, 4, table.dealer)
            task = DealTask(played, tuple(order), cut, table.dealer, bot_seed)
            state = _start(rules, task, table.scores, table.doubled)
            _play(state, seat_a if t == 0 else seat_b, bot_seed)
            r = table.finish_hand(state)
            outcomes[_outcome(r)] += 1
            sums = [0.0, 0.0]
            for seat in range(4):
                lu = lineup_of[t][seat]
                stats[lu].book(seat, r)
                sums[lu] += r["delta"][seat]
            diffs.append((sums[0] - sums[1]) / 2)
            played += 1
            if progress is not None and task_id is not None:
                progress.advance(task_id)
        margins.append(statistics.fmean(diffs))
    for t, table in enumerate(tables):
        if table.is_over():
            matches += 1
            for w in table.winners:
                matches_won[lineup_of[t][w]] += 1 / len(table.winners)
    elapsed = time.perf_counter() - started
    margin = statistics.fmean(margins)
    ci = _ci95(margins, margin)
    return {
        "game": game, "games": games, "deals": len(margins), "seed": seed,
        "rules": rules.to_json(), "bots": seat_a, "seatings": [seat_a, seat_b],
        "lineups": [{**s.to_json(), "bots": [seat_a[i], seat_a[i + 2]],
                     "matches_won": matches_won[i]} for i, s in enumerate(stats)],
        "matches_finished": matches,
        "outcomes": dict(sorted(outcomes.items(), key=lambda kv: (-kv[1], kv[0]))),
        "margin": margin, "ci95": ci, "better": BETTER, "first_better": margin < 0,
        "seconds": elapsed, "games_per_s": games / elapsed if elapsed > 0 else None,
    }


def print_simulation(out: Mapping[str, Any], console: Any) -> None:
    """The human form of :func:`run_simulation`'s figures."""
    console.print(f"[bold]{out['games']} hands[/bold] ({out['deals']} deals, each at two "
                  f"tables with the seats swapped), seed {out['seed']}, "
                  f"{out['seconds']:.1f} s; seats (table A): "
                  + ", ".join(f"{s}={n}" for s, n in enumerate(out["bots"])))
    for name, n in out["outcomes"].items():
        console.print(f"  {name}: {n}")
    for lu in out["lineups"]:
        rate = lu["made_rate"]
        console.print(
            f"  lineup {'+'.join(lu['bots'])}: mean score change {lu['mean_delta']:+.3f} "
            f"per seat and hand, bid {lu['bids']}× (made "
            f"{'-' if rate is None else f'{100 * rate:.1f}%'}), matches won "
            f"{lu['matches_won']:g} of {out['matches_finished']}")
    ci = out["ci95"]
    ci_text = "n/a" if ci is None else f"[{ci[0]:+.3f}, {ci[1]:+.3f}]"
    console.print(f"[bold]Margin of the first lineup: {out['margin']:+.3f} points per seat "
                  f"and hand[/bold] (95% CI {ci_text}; {out['better']})")


def match_lengths(bot: str, players: int, seeds: Sequence[int], rules: MulatschakRules,
                  cap: int = 300, start: int = 21) -> dict[str, Any]:
    """One match per seed with ``bot`` at all ``players`` seats (the shuffles and the
    bots' random stream from ``random.Random(seed)``; the bots cut or knock themselves):
    the hands each match took (``cap`` if it had not ended by then), whether it
    ``ended`` and whether it got ``stuck`` (every seat at 5 or less: no seat may bid,
    see the module).  ``start``: every seat's score at the start (21)."""
    if cap < 1:
        raise JudgeError(f"cap={cap}: must be at least 1")
    _check([bot] * players, players)
    rows: list[dict[str, Any]] = []
    for seed in seeds:
        rng = random.Random(seed)
        match = MulatschakMatch(rules, players, start=start)
        hands = 0
        stuck = False
        while not match.is_over() and hands < cap:
            if all(s <= 5 for s in match.scores):
                stuck = True
                break
            order = [str(c) for c in DECK]
            rng.shuffle(order)
            state = MulatschakState(rules, match.dealer, match.scores, match.doubled)
            state.apply(Shuffle(tuple(Card.parse(c) for c in order)))
            _play(state, [bot] * players, rng.getrandbits(64))  # the cutter cuts or knocks
            match.finish_hand(state)
            hands += 1
        rows.append({"seed": seed, "hands": hands, "ended": match.is_over(), "stuck": stuck,
                     "scores": list(match.scores)})
    ended = [r["hands"] for r in rows if r["ended"]]
    return {"bot": bot, "players": players, "cap": cap, "matches": rows,
            "ended": len(ended), "stuck": sum(r["stuck"] for r in rows),
            "median_hands": statistics.median(ended) if ended else None,
            "max_hands": max(ended) if ended else None}
