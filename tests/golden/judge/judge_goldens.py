"""Golden outputs of ``stammtisch simulate`` and ``stammtisch arena``: for every game, the
JSON (``--json``) and the human text (with the progress on stderr), ``--jobs``, Hänger
and match ends, bad input — byte for byte, for fixed seeds.

Only the timing fields vary between runs: :func:`mask` blanks them (``seconds``, the
rates, the decision times in the JSON; the seconds, rates and decision times in the
text) on both sides of the comparison; everything else must be identical.

Run ``python tests/golden/judge/judge_goldens.py`` to (re)write the JSON files next to
this module — only on purpose: ``tests/test_judge_golden.py`` checks that the commands
still print exactly this.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

HERE = Path(__file__).parent
GAMES = ("mucken", "schafkopf", "mulatschak", "mus")

#: the commands' environment: no locale, a width that wraps no line, no colour
ENV: dict[str, str | None] = {
    "LC_ALL": None, "LC_MESSAGES": None, "LANG": "C.UTF-8", "COLUMNS": "250",
    "LINES": "40", "FORCE_COLOR": None, "NO_COLOR": None, "COLORTERM": None,
    "TERM": "dumb", "TTY_COMPATIBLE": None, "TTY_INTERACTIVE": None,
}

_HAENGER = json.dumps({"preset": "seefest", "haenger": True, "bobbl_target": 5})
_SHORT_MUS = json.dumps({"preset": "duples", "target": 10, "sets": 1})

#: game -> (case name, arguments after the command's name)
CASES: dict[str, list[tuple[str, list[str]]]] = {
    "mucken": [
        ("simulate_json", ["simulate", "--games", "13", "--seed", "3", "--json"]),
        ("simulate_text", ["simulate", "--games", "13", "--seed", "3"]),
        ("simulate_four", ["simulate", "--games", "8", "--seed", "2", "--rules", "wikipedia",
                           "--bots", "heuristic,random,random,heuristic", "--json"]),
        ("simulate_haenger", ["simulate", "--games", "60", "--seed", "2", "--rules", _HAENGER,
                              "--json"]),
        ("simulate_haenger_text", ["simulate", "--games", "60", "--seed", "2", "--rules",
                                   _HAENGER]),
        ("simulate_one", ["simulate", "--games", "1", "--json"]),
        ("arena_json", ["arena", "--bots", "heuristic,random", "--deals", "7", "--seed", "3",
                        "--json"]),
        ("arena_text", ["arena", "--bots", "heuristic,random", "--deals", "7", "--seed", "3"]),
        ("arena_jobs", ["arena", "--bots", "random,heuristic", "--deals", "5", "--seed", "4",
                        "--jobs", "2", "--json"]),
        ("arena_haenger", ["arena", "--bots", "heuristic,random", "--deals", "30", "--seed",
                           "1", "--rules", _HAENGER, "--json"]),
        ("arena_one", ["arena", "--bots", "random,random", "--deals", "1"]),
        ("bad_bot", ["simulate", "--bots", "heuristic,grandmaster"]),
        ("bad_count", ["arena", "--bots", "heuristic"]),
        ("simulate_help", ["simulate", "--help"]),
        ("arena_help", ["arena", "--help"]),
    ],
    "schafkopf": [
        ("simulate_json", ["simulate", "--game", "schafkopf", "--games", "11", "--seed", "4",
                           "--bots", "heuristic,random", "--json"]),
        ("simulate_text", ["simulate", "--game", "schafkopf", "--games", "11", "--seed", "4",
                           "--bots", "heuristic,random"]),
        ("simulate_anleitung", ["simulate", "--game", "schafkopf", "--games", "8", "--seed",
                                "1", "--rules", "anleitung", "--bots",
                                "random,heuristic,heuristic,random", "--json"]),
        ("arena_json", ["arena", "--game", "schafkopf", "--bots", "heuristic,random",
                        "--deals", "5", "--seed", "5", "--json"]),
        ("arena_text", ["arena", "--game", "schafkopf", "--bots", "heuristic,random",
                        "--deals", "5", "--seed", "5"]),
        ("arena_jobs", ["arena", "--game", "schafkopf", "--bots", "random,heuristic",
                        "--deals", "4", "--seed", "2", "--rules", "anleitung", "--jobs", "2",
                        "--json"]),
        ("bad_rules", ["simulate", "--game", "schafkopf", "--rules", "nowhere"]),
    ],
    "mulatschak": [
        ("simulate_json", ["simulate", "--game", "mulatschak", "--games", "41", "--seed", "1",
                           "--bots", "heuristic,random", "--json"]),
        ("simulate_text", ["simulate", "--game", "mulatschak", "--games", "41", "--seed", "1",
                           "--bots", "heuristic,random"]),
        ("simulate_four", ["simulate", "--game", "mulatschak", "--games", "9", "--seed", "2",
                           "--bots", "heuristic,random,random,heuristic", "--json"]),
        ("arena_json", ["arena", "--game", "mulatschak", "--bots", "heuristic,random",
                        "--deals", "6", "--seed", "1", "--json"]),
        ("arena_text", ["arena", "--game", "mulatschak", "--bots", "heuristic,random",
                        "--deals", "6", "--seed", "1"]),
        ("arena_jobs", ["arena", "--game", "mulatschak", "--bots", "random,heuristic",
                        "--deals", "5", "--seed", "3", "--jobs", "2", "--json"]),
        ("bad_bot", ["arena", "--game", "mulatschak", "--bots", "nobody,heuristic"]),
    ],
    "mus": [
        ("simulate_json", ["simulate", "--game", "mus", "--games", "9", "--seed", "1",
                           "--bots", "heuristic,random", "--json"]),
        ("simulate_text", ["simulate", "--game", "mus", "--games", "9", "--seed", "1",
                           "--bots", "heuristic,random"]),
        ("simulate_match", ["simulate", "--game", "mus", "--games", "12", "--seed", "2",
                            "--bots", "heuristic,random,bluff,random", "--rules", _SHORT_MUS,
                            "--json"]),
        ("simulate_match_text", ["simulate", "--game", "mus", "--games", "12", "--seed", "2",
                                 "--bots", "heuristic,random,bluff,random", "--rules",
                                 _SHORT_MUS]),
        ("arena_json", ["arena", "--game", "mus", "--bots", "heuristic,random", "--deals",
                        "4", "--seed", "2", "--json"]),
        ("arena_text", ["arena", "--game", "mus", "--bots", "heuristic,random", "--deals",
                        "4", "--seed", "2"]),
        ("arena_jobs", ["arena", "--game", "mus", "--bots", "bluff,random", "--deals", "3",
                        "--seed", "5", "--jobs", "2", "--json"]),
        ("bad_rules", ["arena", "--game", "mus", "--bots", "heuristic,random", "--rules",
                       '{"reyes": 6}']),
    ],
}

#: JSON keys whose values are times or rates (they vary from run to run)
TIMING_KEYS = frozenset({"seconds", "games_per_s", "deals_per_s", "hands_per_s", "median",
                         "p95", "max"})
#: the same in the human text: "1.2 s", "1,234 games/s", "median 0.5 ms, p95 2.0 ms"
_TEXT_TIMES = [
    (re.compile(r"\d[\d.,]* s\b"), "<t> s"),
    (re.compile(r"(?:< )?\d[\d.,]* (?:games?|hands?|deals?)/s"), "<rate>"),
    (re.compile(r"- games/s"), "<rate>"),
    (re.compile(r"(median|p95) (?:None|\d[\d.]*) ms"), r"\1 <t> ms"),
]


def _mask_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: "<timing>" if k in TIMING_KEYS else _mask_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_mask_json(v) for v in value]
    return value


def mask(case: dict[str, Any]) -> dict[str, Any]:
    """``case`` with its timing fields blanked (see the module)."""
    out = dict(case)
    if "--json" in case["args"] and case["exit_code"] == 0:
        out["stdout"] = _mask_json(json.loads(case["stdout"]))
    else:
        text = case["stdout"]
        for pattern, repl in _TEXT_TIMES:
            text = pattern.sub(repl, text)
        out["stdout"] = text
    return out


def run(args: list[str]) -> dict[str, Any]:
    """One command through the real CLI: its exit code, stdout and stderr."""
    from stammtisch.cli.main import app

    r = CliRunner().invoke(app, args, env=ENV)
    return {"args": args, "exit_code": r.exit_code, "stdout": r.stdout, "stderr": r.stderr}


def write() -> None:
    for game in GAMES:
        cases = [{"name": name, **run(args)} for name, args in CASES[game]]
        (HERE / f"{game}.json").write_text(
            json.dumps({"game": game, "cases": cases}, ensure_ascii=False, indent=1) + "\n",
            encoding="utf-8")
        print(game, len(cases), "cases", file=sys.stderr)


if __name__ == "__main__":
    write()
