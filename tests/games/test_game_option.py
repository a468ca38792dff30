"""``--game`` on every command, ``replay`` dispatching on the record's ``game`` key."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stammtisch.cli.main import app
from stammtisch.engine.core import play_random
from stammtisch.games import registry


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def _record(game: str, seed: int) -> dict:
    desc = registry.get(game)
    state = play_random(desc.new_random_state(seed), random.Random(seed))
    return desc.record_of(state)


def test_replay_dispatches_on_the_records_game(runner: CliRunner, tmp_path: Path) -> None:
    files = []
    for i, game in enumerate(["mucken", "schafkopf", "mucken"]):
        path = tmp_path / f"{i}.json"
        path.write_text(json.dumps(_record(game, i)), encoding="utf-8")
        files.append(str(path))
    skat = tmp_path / "skat.json"
    skat.write_text(json.dumps({**_record("mucken", 5), "game": "skat"}), encoding="utf-8")
    result = runner.invoke(app, ["replay", "--json", *files, str(skat)])
    assert result.exit_code == 1
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert "payments" in lines[1] and "payments" not in lines[0]
    for i, game in enumerate(["mucken", "schafkopf", "mucken"]):
        desc = registry.get(game)
        assert lines[i] == desc.replay_record(json.dumps(_record(game, i)))
    assert lines[3] == {"error": "unknown game 'skat' (known: mucken, mulatschak, mus, schafkopf)"}
    human = runner.invoke(app, ["replay", files[1]]).output
    assert "payments" in human and "ERROR" not in human


def test_replay_game_option_reads_records_without_the_key(runner, tmp_path) -> None:
    rec = _record("mucken", 3)
    del rec["game"]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    ok = runner.invoke(app, ["replay", "--json", "--game", "mucken", str(path)])
    assert ok.exit_code == 0, ok.output
    bad = runner.invoke(app, ["replay", "--game", "skat", str(path)])
    assert bad.exit_code == 2 and "unknown game 'skat'" in bad.output


@pytest.mark.parametrize(("args", "message"), [
    (["play", "--game", "skat"], "unknown game 'skat'"),
    (["bench", "solver", "--game", "skat", "--deals", "1"], "unknown game 'skat'"),
])
def test_a_game_without_the_part_says_so(runner: CliRunner, args: list[str],
                                         message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.replace("│", " ").split())


def test_the_default_game_is_mucken(runner: CliRunner, tmp_path: Path) -> None:
    a = runner.invoke(app, ["simulate", "--games", "4", "--seed", "1", "--bots",
                            "random,random", "--json"])
    b = runner.invoke(app, ["simulate", "--game", "mucken", "--games", "4", "--seed", "1",
                            "--bots", "random,random", "--json"])
    assert a.exit_code == b.exit_code == 0
    strip = lambda out: {k: v for k, v in json.loads(out).items()  # noqa: E731
                         if k not in ("seconds", "games_per_s")}
    assert strip(a.output) == strip(b.output)
    rec = tmp_path / "m.json"
    rec.write_text(json.dumps(_record("mucken", 2)), encoding="utf-8")
    out = runner.invoke(app, ["analyze", "--json", str(rec)])
    assert out.exit_code == 0 and json.loads(out.output)
    sk = tmp_path / "s.json"
    sk.write_text(json.dumps(_record("schafkopf", 2)), encoding="utf-8")
    out = runner.invoke(app, ["analyze", "--json", str(sk)])
    assert out.exit_code == 0, out.output
    assert isinstance(json.loads(out.output), list)


def test_bench_solver_takes_schafkopf(runner: CliRunner) -> None:
    out = runner.invoke(app, ["bench", "solver", "--game", "schafkopf", "--deals", "1",
                              "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["by_contract"]


def test_bench_playout_takes_any_game_with_a_fast_path(runner: CliRunner) -> None:
    for game in registry.names():
        if registry.get(game).fast_playout is None:
            continue
        out = runner.invoke(app, ["bench", "playout", "--game", game, "--seconds", "0.02",
                                  "--json"])
        assert out.exit_code == 0, out.output
        figures = json.loads(out.output)
        assert figures["api_card_plays"] > 0 and figures["fast_card_plays"] > 0
