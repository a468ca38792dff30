"""A new game gets an online table from its plug-in alone (docs/architecture.md "Adding a
game"): the toy game of tests/toygame, registered for the test, is played at a table of
the real server over the websocket — views, legal actions, the plain match's score sheet,
the stored records that replay."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stammtisch.games import registry

TOY = Path(__file__).parent.parent / "toygame" / "stichspiel.py"


@pytest.fixture
def toy() -> Iterator[Any]:
    spec = importlib.util.spec_from_file_location("stichspiel_toy_server", TOY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    registry.register(module.PLUGIN)
    yield module
    registry.unregister("stichspiel")


def test_the_toy_game_is_played_at_a_table(server: Any, toy: Any) -> None:
    anna = server.guest("Anna")
    t = anna.create_table(game="stichspiel", bots="fill", bot="random", turn_timer=0)
    info = anna.get(f"/api/tables/{t['id']}").json()
    assert info["game"] == "stichspiel" and len(info["seats"]) == 2
    rng = random.Random(5)
    with anna.connect(t["id"]) as ws:
        m = ws.state()
        acted = 0
        while not m["table"]["sheet"]["rows"]:
            v = m["view"]
            legal = (v or {}).get("legal") or []
            if v and v["to_act"] == 0 and legal and m["version"] > acted:
                acted = m["version"]
                ws.act(rng.choice(legal), m["version"])
            m = ws.state(30)
        sheet = m["table"]["sheet"]
        assert len(sheet["rows"]) == 1 and sum(sheet["totals"]) == 0
    games = anna.get("/api/me/games").json()["games"]
    assert games
    record = anna.get(f"/api/games/{games[0]['id']}").json()["record"]
    assert record["game"] == "stichspiel"
    assert toy.PLUGIN.replay_record(record)["points"] in ([3, 0], [2, 1], [1, 2], [0, 3])
