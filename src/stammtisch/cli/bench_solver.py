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
from stammtisch.cards import SHORT_DECK
from stammtisch.cli.output import json_line
from stammtisch.games.mucken.orders import trick_order

CONTRACTS = ("muck", "wenz", "geier")


def _p95(sorted_values: list[float]) -> float:
    """Nearest-rank 95th percentile of an ascending list."""
    return sorted_values[max(0, math.ceil(0.95 * len(sorted_values)) - 1)]


def run_solver_bench(deals: int, seed: int = 0) -> dict[str, Any]:
    """Solve ``deals`` random deals; timing and node figures as JSON-ready data."""
    if deals < 1:
        raise ValueError("need at least one deal")
    rng = random.Random(seed)
    times: list[float] = []
    cpu: list[float] = []
    nodes: list[int] = []
    by_contract: dict[str, list[float]] = {k: [] for k in CONTRACTS}
    for _ in range(deals):
        kind = rng.choice(CONTRACTS)
        deck = list(SHORT_DECK)
        rng.shuffle(deck)
        hands = [deck[6 * s: 6 * s + 6] for s in range(4)]
        order = trick_order(kind, "short")
        t0 = time.perf_counter()
        c0 = time.process_time()
        r = solve(order, hands, 0, (0, 2))
        cpu.append((time.process_time() - c0) * 1000)
        ms = (time.perf_counter() - t0) * 1000
        times.append(ms)
        nodes.append(r.nodes)
        by_contract[kind].append(ms)
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
            for k, v in by_contract.items() if v
        },
    }


def solver_command(
    deals: int = typer.Option(200, "--deals", min=1, help="Random deals to solve."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as one line of JSON."),
    seed: int = typer.Option(0, "--seed", help="Seed of the deals and contracts."),
) -> None:
    """Solve random Mucken deals exactly (all hands open) and report the time per deal."""
    result = run_solver_bench(deals, seed)
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
