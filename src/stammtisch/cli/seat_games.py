"""``simulate`` and ``arena`` for games scored per seat (Schafkopf): payments, not pairs.

A game whose description has no ``pair_statistics`` but a match and results with
``payments`` (one signed amount per seat, zero-sum: Schafkopf's cents) is judged by what
each lineup's seats were paid.  Partnerships change from hand to hand, so there are no
pair points and no Bobbl; the match's sheet is the Abrechnung (each seat's balance).

- :func:`run_seat_simulation` (``simulate``): every deal at two tables, the lineups' seats
  swapped (seat ``s`` of table B holds the bot of seat ``s ^ 1`` of table A), the same
  shuffle and the same bots' random stream at both; the margin (cents per game of the
  first lineup over the second) has a 95% CI over the deals.
- :func:`run_seat_arena` (``arena``): duplicate deals: the same hands and dealer twice,
  bot A at seats 0 and 2 and then at seats 1 and 3 (the games played with
  :func:`stammtisch.cli.arena.play_deal`, in worker processes with ``--jobs``, then booked
  through the matches in order).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rich.console import Console
from rich.progress import Progress

from stammtisch.cards import Card
from stammtisch.engine.core import CHANCE, TERMINAL, Deal, GameState
from stammtisch.games import registry

__all__ = ["print_seat_arena", "print_seat_simulation", "run_seat_arena",
           "run_seat_simulation"]


class _Lineup:
    def __init__(self, bots: list[str]) -> None:
        self.bots = bots
        self.cents = 0
        self.declarer_games = 0
        self.declarer_wins = 0
        self.stoss = 0

    def to_json(self, games: int) -> dict[str, Any]:
        return {"bots": self.bots, "cents": self.cents,
                "cents_per_game": self.cents / games if games else 0.0,
                "declarer_games": self.declarer_games,
                "declarer_win_rate": (self.declarer_wins / self.declarer_games
                                      if self.declarer_games else None),
                "stoss": self.stoss}


def _book(state: GameState, lineup_of_seat: list[int], lineups: list[_Lineup],
          contracts: Counter[str]) -> int:
    """Add one finished game to the statistics; the first lineup's cents minus the
    second's."""
    r = state.result()
    assert r is not None
    contracts[str(r["contract"] or "redeal")] += 1
    diff = 0
    for seat, pay in enumerate(r["payments"]):
        lu = lineup_of_seat[seat]
        lineups[lu].cents += pay
        diff += pay if lu == 0 else -pay
    declarer = r.get("declarer")
    if declarer is not None and r.get("winner") is not None:
        lu = lineups[lineup_of_seat[declarer]]
        lu.declarer_games += 1
        if r["winner"] == "declarers":
            lu.declarer_wins += 1
    for entry in getattr(state, "stoss", [])[:1]:
        lineups[lineup_of_seat[entry[0]]].stoss += 1
    return diff


def _ci95(margins: list[float], mean: float) -> list[float] | None:
    if len(margins) < 2:
        return None
    half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins))
    return [mean - half, mean + half]


def run_seat_simulation(games: int, seed: int, bot_names: list[str], rules: Any,
                        progress: Progress | None = None,
                        game: str = registry.DEFAULT_GAME) -> dict[str, Any]:
    """Play ``games`` games at two tables (see the module); JSON-ready statistics."""
    desc = registry.get(game)
    assert desc.new_match is not None
    seat_a = ([bot_names[0], bot_names[1]] * 2 if len(bot_names) == 2 else list(bot_names))
    seat_b = [seat_a[s ^ 1] for s in range(4)]
    # lineup 0: the bots of table A's seats 0 and 2
    lineup_a = [0, 1, 0, 1]
    lineup_b = [lineup_a[s ^ 1] for s in range(4)]
    tables = [(seat_a, lineup_a, [registry.make_bot(game, n) for n in seat_a],
               desc.new_match(rules, 0)),
              (seat_b, lineup_b, [registry.make_bot(game, n) for n in seat_b],
               desc.new_match(rules, 0))]
    lineups = [_Lineup([seat_a[0], seat_a[2]]), _Lineup([seat_a[1], seat_a[3]])]
    contracts: Counter[str] = Counter()
    master = random.Random(seed)
    margins: list[float] = []
    played = 0
    task = progress.add_task("simulate", total=games) if progress is not None else None
    started = time.perf_counter()
    while played < games:
        shuffle = None
        bot_seed = 0
        margin = 0
        in_deal = 0
        for _seating, lineup_of_seat, bots, match in tables:
            if played >= games:
                break
            state = match.start_game()
            if shuffle is None:
                shuffle = state.sample_chance(master)
                bot_seed = master.getrandbits(64)
            state.apply(shuffle)
            rng = random.Random(bot_seed)
            while state.current_player not in (TERMINAL, CHANCE):
                state.apply(bots[state.current_player].choose(state, rng))
            match.finish_game()
            margin += _book(state, lineup_of_seat, lineups, contracts)
            played += 1
            in_deal += 1
            if progress is not None and task is not None:
                progress.advance(task)
        margins.append(margin / in_deal)
    elapsed = time.perf_counter() - started
    mean = (lineups[0].cents - lineups[1].cents) / games
    decl = sum(lu.declarer_games for lu in lineups)
    wins = sum(lu.declarer_wins for lu in lineups)
    return {
        "games": games,
        "deals": len(margins),
        "seed": seed,
        "rules": rules.name,
        "bots": seat_a,
        "seatings": [seat_a, seat_b],
        "contracts": dict(sorted(contracts.items(), key=lambda kv: (-kv[1], kv[0]))),
        "declarer_games": decl,
        "declarer_win_rate": wins / decl if decl else None,
        "balances": [t[3].sheet.to_json()["totals"] for t in tables],
        "lineups": [lu.to_json(games) for lu in lineups],
        "margin": mean,
        "ci95": _ci95(margins, mean),
        "seconds": elapsed,
        "games_per_s": games / elapsed if elapsed > 0 else None,
    }


def run_seat_arena(bot_a: str, bot_b: str, deals: int, seed: int, rules: Any, *,
                   jobs: int = 1, progress: Progress | None = None,
                   game: str = registry.DEFAULT_GAME) -> dict[str, Any]:
    """``deals`` duplicate deals of ``bot_a`` against ``bot_b`` (see the module)."""
    from stammtisch.cli.arena import DealTask, play_deal

    desc = registry.get(game)
    assert desc.new_match is not None
    if deals < 1:
        raise ValueError("deals must be at least 1")
    started = time.perf_counter()
    master = random.Random(seed)
    tasks: list[DealTask] = []
    for i in range(deals):
        state = desc.new_state(rules, i % 4, None)
        state.apply_unchecked(state.sample_chance(master))
        dealt = getattr(state, "dealt", None) or getattr(state, "hands")  # noqa: B009
        tasks.append(DealTask(i, tuple(tuple(str(c) for c in h) for h in dealt), i % 4,
                              master.getrandbits(64)))
    matches = [desc.new_match(rules, 0), desc.new_match(rules, 0)]
    # side 0: A at seats 0 and 2; side 1: A at seats 1 and 3 (lineup 0 is A)
    lineup_of_seat = [[0, 1, 0, 1], [1, 0, 1, 0]]
    lineups = [_Lineup([bot_a, bot_a]), _Lineup([bot_b, bot_b])]
    contracts: Counter[str] = Counter()
    margins: list[float] = []
    task_id = progress.add_task("arena", total=deals) if progress is not None else None

    def book(number: int, actions_of_games: list[list[str]]) -> None:
        task = tasks[number]
        margin = 0
        for side, actions in enumerate(actions_of_games):
            state = matches[side].start_game()
            if state.dealer != task.dealer:  # pragma: no cover - the rotation is fixed
                raise RuntimeError("the dealers of the two sides differ")
            state.apply(Deal(tuple(tuple(Card.parse(c) for c in h) for h in task.hands)))
            for text in actions:
                state.apply(state.parse_action(text))
            matches[side].finish_game()
            margin += _book(state, lineup_of_seat[side], lineups, contracts)
        margins.append(margin / 2)
        if progress is not None and task_id is not None:
            progress.advance(task_id)

    args = [(rules, t, bot_a, bot_b, game) for t in tasks]
    if jobs <= 1:
        for a in args:
            book(*play_deal(a))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for number, played in pool.map(play_deal, args, chunksize=1):
                book(number, played)
    elapsed = time.perf_counter() - started
    games = 2 * deals
    mean = statistics.fmean(margins)
    return {
        "a": bot_a,
        "b": bot_b,
        "deals": deals,
        "games": games,
        "mean": mean,
        "ci95": _ci95(margins, mean),
        "seed": seed,
        "rules": rules.name,
        "cents": [lineups[0].cents, lineups[1].cents],
        "stats": [dict(lineups[0].to_json(games), bot=bot_a),
                  dict(lineups[1].to_json(games), bot=bot_b)],
        "balances": [m.sheet.to_json()["totals"] for m in matches],
        "contracts": dict(sorted(contracts.items(), key=lambda kv: (-kv[1], kv[0]))),
        "seconds": elapsed,
    }


def _rate(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def print_seat_simulation(out: dict[str, Any], console: Console) -> None:
    a, b = out["lineups"]
    console.print(f"[bold]{out['games']} games[/bold] ({out['deals']} deals, each at two "
                  f"tables with the seats swapped), rules {out['rules']}, seed {out['seed']}")
    console.print(f"Seats (table A): {', '.join(f'{s}={n}' for s, n in enumerate(out['bots']))}")
    console.print("Games: " + ", ".join(f"{k} {v}" for k, v in out["contracts"].items()))
    console.print(f"Declarer win rate: {_rate(out['declarer_win_rate'])} of "
                  f"{out['declarer_games']} games")
    for lu in (a, b):
        console.print(f"  {'+'.join(lu['bots'])}: {lu['cents']:+d} cents "
                      f"({lu['cents_per_game']:+.2f}/game), declared {lu['declarer_games']} "
                      f"(won {_rate(lu['declarer_win_rate'])}), Stoß {lu['stoss']}")
    ci = out["ci95"]
    ci_text = "n/a" if ci is None else f"[{ci[0]:+.2f}, {ci[1]:+.2f}]"
    console.print(f"[bold]Margin {'+'.join(a['bots'])} over {'+'.join(b['bots'])}: "
                  f"{out['margin']:+.2f} cents per game[/bold] (95% CI {ci_text})")


def print_seat_arena(out: dict[str, Any], console: Console) -> None:
    ci = out["ci95"]
    ci_text = "n/a (one deal)" if ci is None else f"[{ci[0]:+.2f}, {ci[1]:+.2f}]"
    console.print(f"[bold]{out['a']} vs {out['b']}[/bold]: {out['deals']} deals, "
                  f"{out['games']} games (each deal with the seats swapped), rules "
                  f"{out['rules']}, seed {out['seed']}, {out['seconds']:.1f} s")
    for s in out["stats"]:
        console.print(f"  {s['bot']}: {s['cents']:+d} cents ({s['cents_per_game']:+.2f}/game), "
                      f"declared {s['declarer_games']} (won {_rate(s['declarer_win_rate'])}), "
                      f"Stoß {s['stoss']}")
    console.print(f"[bold]Mean difference {out['a']} − {out['b']}: {out['mean']:+.2f} cents "
                  f"per game[/bold] (95% CI {ci_text})")
