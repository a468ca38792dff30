"""The sampling bots (PIMC, search, Mus's equity bots) and the hints decide exactly as
recorded in ``tests/golden/bots/*.json`` (see :mod:`bot_goldens`): same seed, same
position, same action — and, where stored, the same averages to the last bit.

By default every case of the cheap bots and every ``STEP``-th case of the PIMC bots is
checked (the whole set takes minutes); ``STAMMTISCH_BOT_GOLDENS=all`` checks every case.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from bot_goldens import GAMES, decide, hint, path

#: by default only every n-th case of these bots is checked (the others: every case)
STEP = {"pimc-fast": 3, "pimc": 6, "pimc-strong": 10}
ALL = os.environ.get("STAMMTISCH_BOT_GOLDENS") == "all"


def _golden(game: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path(game).read_text())
    return data


def _groups() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for game in GAMES:
        for case in _golden(game)["cases"]:
            if (game, case["bot"]) not in out:
                out.append((game, case["bot"]))
    return out


@pytest.mark.parametrize(("game", "bot"), _groups())
def test_decisions_as_recorded(game: str, bot: str) -> None:
    cases = [c for c in _golden(game)["cases"] if c["bot"] == bot]
    if not ALL:
        cases = cases[::STEP.get(bot, 1)]
    assert len(cases) >= 4
    for case in cases:
        got = decide(game, bot, case["position"], case["seed"], "estimates" in case)
        want = {k: case[k] for k in ("decision", "estimates") if k in case}
        assert got == want, (game, bot, case["seed"])


@pytest.mark.parametrize("game", [g for g in GAMES if _golden(g)["hints"]])
def test_hints_as_recorded(game: str) -> None:
    for case in _golden(game)["hints"]:
        assert hint(game, case["position"], case["seed"]) == case["hint"], case["seed"]
