"""The solver driver answers exactly what the two solvers before it answered.

``tests/golden/solver/*.json`` hold random Mucken deals and positions (Muck, Wenz, Geier,
Farbsolo; Augen and tricks; must-trump) and Schafkopf contracts (Rufspiel with the called
ace and ``gesucht``, Solo, Wenz, Geier, Farbwenz, Bettel, Tout) with what the old code
answered: value, nodes searched, best card, each legal card's value, the legal cards,
threshold probes and where a node limit stops the search.  Equal node counts mean the
same search, card for card (the Schafkopf bot's node budget depends on them).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

GOLDEN = Path(__file__).parent / "golden" / "solver"
sys.path.insert(0, str(GOLDEN))

from make_golden import mucken_answer, schafkopf_answer  # noqa: E402


def _cases(name: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads((GOLDEN / name).read_text())
    return cases


def _chunks(name: str, size: int) -> list[tuple[str, int, int]]:
    n = len(_cases(name))
    return [(name, i, min(i + size, n)) for i in range(0, n, size)]


@pytest.mark.parametrize(("name", "lo", "hi"), _chunks("mucken.json", 50))
def test_mucken_answers_equal_the_golden_values(name: str, lo: int, hi: int) -> None:
    cases = _cases(name)
    assert len(cases) == 300
    for i, case in enumerate(cases[lo:hi], lo):
        assert mucken_answer(case) == case["answer"], (i, case)


@pytest.mark.parametrize(("name", "lo", "hi"), _chunks("schafkopf.json", 50))
def test_schafkopf_answers_equal_the_golden_values(name: str, lo: int, hi: int) -> None:
    cases = _cases(name)
    assert len(cases) == 260
    for i, case in enumerate(cases[lo:hi], lo):
        assert schafkopf_answer(case) == case["answer"], (i, case)


def test_the_golden_cases_cover_every_rule() -> None:
    sk = _cases("schafkopf.json")
    assert {c["kind"] for c in sk} == {"sauspiel", "solo", "wenz", "geier", "farbwenz",
                                       "bettel", "tout"}
    ruf = [c for c in sk if c["called"]]
    assert len(ruf) >= 50 and sum(c["gesucht"] for c in ruf) >= 20
    assert sum(not c["davonlaufen"] for c in ruf) >= 10
    assert sum(c["answer"]["limit"]["stopped"] for c in sk) >= 100
    mu = _cases("mucken.json")
    assert {c["kind"] for c in mu} == {"muck", "wenz", "geier", "farbsolo"}
    assert sum(c["must_trump"] for c in mu) >= 20 and sum(c["mode"] == "tricks" for c in mu) >= 30
    assert sum(c["deck"] == "long" for c in mu) >= 10
