"""``stammtisch simulate`` and ``stammtisch arena`` print exactly what they printed before
the one judge (tests/golden/judge/): the JSON and the text of every game, ``--jobs``, the
progress on stderr, bad input — only the timing fields masked."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent / "golden" / "judge"))
import judge_goldens as goldens

CASES = [(game, case) for game in goldens.GAMES
         for case in json.loads((goldens.HERE / f"{game}.json").read_text("utf-8"))["cases"]]


@pytest.mark.parametrize(("game", "case"), CASES,
                         ids=[f"{game}-{case['name']}" for game, case in CASES])
def test_output_is_the_golden_one(game: str, case: dict[str, Any]) -> None:
    got = {"name": case["name"], **goldens.run(case["args"])}
    assert goldens.mask(got) == goldens.mask(case)


def test_the_mask_blanks_only_times() -> None:
    text = {"args": [], "exit_code": 0, "stdout": "seed 3, 0.1 s, 12 games/s; median 0.2 ms, "
            "p95 None ms (12 decisions) 3 deals", "stderr": ""}
    assert goldens.mask(text)["stdout"] == ("seed 3, <t> s, <rate>; median <t> ms, p95 <t> ms "
                                            "(12 decisions) 3 deals")
    data = {"args": ["--json"], "exit_code": 0, "stderr": "",
            "stdout": json.dumps({"seconds": 1.5, "games": 3, "decision_ms": {
                "a": {"median": 0.1, "p95": 0.2, "max": 0.3, "decisions": 7}}})}
    assert goldens.mask(data)["stdout"] == {"seconds": "<timing>", "games": 3, "decision_ms": {
        "a": {"median": "<timing>", "p95": "<timing>", "max": "<timing>", "decisions": 7}}}
