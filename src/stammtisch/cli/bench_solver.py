"""``stammtisch bench solver``: time the double-dummy solver on random Mucken deals.

Each deal is a shuffled short deck dealt 6 cards a seat, a contract drawn among
Muck, Wenz and Geier, the declarer pair 0 (seats 0 and 2) and seat 0 leading.
The solver computes the exact Augen of pair 0 from the first card (value and a
best card); the wall time of every :func:`~stammtisch.analysis.solver.solve`
call is measured (the tables for a trick order are built once per process and
reused, as in any longer-running user of the solver).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from typing import Any

import typer

from stammtisch.analysis.solver import solve
from stammtisch.cli.output import json_line
from stammtisch.errors import StammtischError
from stammtisch.games import registry


def _p95(sorted_values: list[float]) -> float:
    """Nearest-rank 95th percentile of an ascending list."""
    return sorted_values[max(0, math.ceil(0.95 * len(sorted_values)) - 1)]


def run_solver_bench(deals: int, seed: int = 0,
                     game: str = registry.DEFAULT_GAME) -> dict[str, Any]:
    """Solve ``deals`` random deals; timing and node figures as JSON-ready data."""
    if deals < 1:
        raise ValueError("need at least one deal")
    solver_deal = registry.get(game).solver_deal
    if solver_deal is None:
        raise StammtischError(f"{game}: no double-dummy solver")
    rng = random.Random(seed)
    times: list[float] = []
    cpu: list[float] = []
    nodes: list[int] = []
    by_contract: dict[str, list[float]] = {}
    for _ in range(deals):
        kind, order, hands, side = solver_deal(rng)
        t0 = time.perf_counter()
        c0 = time.process_time()
        # a game's own solver rides on its contract object (Schafkopf: the called ace)
        own = getattr(order, "solve", None)
        r = own(hands, 0) if own is not None else solve(order, hands, 0, side)
        cpu.append((time.process_time() - c0) * 1000)
        ms = (time.perf_counter() - t0) * 1000
        times.append(ms)
        nodes.append(r.nodes)
        by_contract.setdefault(kind, []).append(ms)
    ordered = sorted(times)
    return {
        "deals": deals,
        "seed": seed,
        "median_ms": round(statistics.median(times), 2),
        "p95_ms": round(_p95(ordered), 2),
        "mean_ms": round(statistics.fmean(times), 2),
        "max_ms": round(ordered[-1], 2),
        "median_nodes": int(statistics.median(nodes)),
        "mean_nodes": round(statistics.fmean(nodes)),
        "median_cpu_ms": round(statistics.median(cpu), 2),
        "by_contract": {
            k: {"deals": len(v), "median_ms": round(statistics.median(v), 2)}
            for k, v in sorted(by_contract.items(), key=lambda kv: _CONTRACT_ORDER.get(kv[0], 99))
        },
    }


#: report order of the contracts (Mucken's; others follow)
_CONTRACT_ORDER = {"muck": 0, "wenz": 1, "geier": 2, "sauspiel": 3, "solo": 4, "farbwenz": 5,
                   "bettel": 6}


def solver_command(
    game: str = typer.Option(registry.DEFAULT_GAME, "--game",
                             help="The game: " + ", ".join(registry.names()) + "."),
    deals: int = typer.Option(200, "--deals", min=1, help="Random deals to solve."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as one line of JSON."),
    seed: int = typer.Option(0, "--seed", help="Seed of the deals and contracts."),
) -> None:
    """Solve random deals exactly (all hands open) and report the time per deal."""
    try:
        result = run_solver_bench(deals, seed, game)
    except StammtischError as e:
        raise typer.BadParameter(str(e), param_hint="--game") from None
    if as_json:
        typer.echo(json_line(result))
        return
    per = "  ".join(f"{k} {v['median_ms']} ms ({v['deals']})"
                    for k, v in result["by_contract"].items())
    typer.echo(
        f"{result['deals']} deals (seed {seed}), full deal from the first card, pair 0 declares\n"
        f"  time ms   median {result['median_ms']}  p95 {result['p95_ms']}  "
        f"mean {result['mean_ms']}  max {result['max_ms']}  (CPU median "
        f"{result['median_cpu_ms']})\n"
        f"  nodes     median {result['median_nodes']}  mean {result['mean_nodes']}\n"
        f"  contract  {per}")
