"""Same-run ratio of random play-outs: this checkout's ``src`` against an older one.

Usage (from the repository root)::

    git archive a4c4741 src | tar -x -C /tmp/old          # the commit to compare with
    .venv/bin/python benchmarks/playout_ratio.py --old /tmp/old/src --seconds 3 --rounds 4

Each measurement is a fresh process that imports ``stammtisch`` from one of the two trees
and plays random games through the checked public API (``legal_actions`` / ``apply``, the
same loop for both trees) and, where the game has one, through its fast path, for
``--seconds`` each.  The old and the new tree run alternately (old, new, new, old, …), so
that other load on the machine falls on both alike; the figure compared is actions (or
card plays on the fast path) per second of the process's CPU time, and the ratio is
new / old of the medians (above 1: the new tree is faster).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

GAMES = ("mucken", "schafkopf", "mulatschak", "mus")

#: what one measuring process runs (argv: game, seconds)
CHILD = r"""
import json, random, sys, time
from stammtisch.engine.core import CHANCE, TERMINAL
from stammtisch.games import registry

game, seconds = sys.argv[1], float(sys.argv[2])
desc = registry.get(game)
rules = desc.make_rules(desc.default_preset)


def api(rng):
    state = desc.new_state(rules, api.dealer & 3, None)
    api.dealer += 1
    steps = 0
    while True:
        player = state.current_player
        if player == TERMINAL:
            return steps
        if player == CHANCE:
            state.apply_unchecked(state.sample_chance(rng))
            continue
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        steps += 1


api.dealer = 0


def run(playout, seconds):
    rng = random.Random(0)
    done = games = 0
    cpu0 = time.process_time()
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        done += playout(rng)
        games += 1
    return done / (time.process_time() - cpu0), games


out = {}
run(api, min(0.3, seconds / 5))
out["api_actions_per_cpu_s"], out["api_games"] = run(api, seconds)
fast = getattr(desc, "fast_playout", None)
if fast is not None:
    prepare = getattr(desc, "prepare_fast_playout", None)
    if prepare is not None:
        prepare(rules)
    fast_run = lambda rng, d=[0]: (d.__setitem__(0, d[0] + 1), fast(rules, d[0] & 3, rng))[1]
    run(fast_run, min(0.3, seconds / 5))
    out["fast_card_plays_per_cpu_s"], out["fast_games"] = run(fast_run, seconds)
print(json.dumps(out))
"""


def measure(src: Path, game: str, seconds: float) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED="0")
    done = subprocess.run([sys.executable, "-c", CHILD, game, str(seconds)], env=env,
                          check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, required=True, help="the older tree's src/")
    parser.add_argument("--new", type=Path, default=Path(__file__).parents[1] / "src")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=4, help="pairs of runs per game")
    args = parser.parse_args()
    report = {}
    for game in args.games.split(","):
        runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
        for r in range(args.rounds):
            order = ("old", "new") if r % 2 == 0 else ("new", "old")
            for which in order:
                runs[which].append(measure(getattr(args, which), game, args.seconds))
        row = {}
        for key in runs["new"][0]:
            if not key.endswith("_per_cpu_s"):
                continue
            old = statistics.median(x[key] for x in runs["old"])
            new = statistics.median(x[key] for x in runs["new"])
            row[key] = {"old": round(old), "new": round(new), "ratio": round(new / old, 3)}
        report[game] = row
        print(game, json.dumps(row), flush=True)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
