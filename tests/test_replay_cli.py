"""``stammtisch replay [--json] FILE...`` through typer's CliRunner."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stammtisch.cli.main import app

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_NAMES = sorted(p.name.removesuffix(".json") for p in GOLDEN.glob("*.json")
                      if not p.name.endswith(".expected.json"))
EXAMPLE_LINE = ('{"contract":"muck","declarer":0,"kontra":true,"trick_winners":[0,0,0,0,0,0],'
                '"augen":[120,0],"tricks":[6,0],"winner":0,"score":8}')


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def expected_line(name: str) -> str:
    data = json.loads((GOLDEN / f"{name}.expected.json").read_text(encoding="utf-8"))
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def lines(output: str) -> list[str]:
    return output.splitlines()


def bad_record(tmp_path: Path, name: str, change: dict[str, object]) -> Path:
    rec = json.loads((GOLDEN / "wenz_seat3.json").read_text(encoding="utf-8"))
    rec.update(change)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    return path


def test_the_exact_json_line_of_the_example_record(runner: CliRunner) -> None:
    result = runner.invoke(app, ["replay", "--json", str(GOLDEN / "muck_kontra_schwarz.json")])
    assert result.exit_code == 0, result.output
    assert result.output == EXAMPLE_LINE + "\n"


def test_every_golden_record_one_line_per_file_in_order(runner: CliRunner) -> None:
    files = [str(GOLDEN / f"{name}.json") for name in GOLDEN_NAMES]
    result = runner.invoke(app, ["replay", "--json", *files])
    assert result.exit_code == 0, result.output
    assert lines(result.output) == [expected_line(name) for name in GOLDEN_NAMES]
    # and in another order, another order of lines
    result = runner.invoke(app, ["replay", "--json", *reversed(files)])
    assert lines(result.output) == [expected_line(name) for name in reversed(GOLDEN_NAMES)]


def test_bad_files_give_error_lines_and_exit_1_after_all_lines(
    runner: CliRunner, tmp_path: Path
) -> None:
    not_higher = bad_record(tmp_path, "not_higher",
                            {"calls": ["weiter", "wenz", "muck", "weiter"]})
    short = bad_record(tmp_path, "short", {"plays": []})
    missing = tmp_path / "missing.json"
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json", encoding="utf-8")
    good = GOLDEN / "wenz_seat3.json"
    files = [good, not_higher, short, missing, garbage, GOLDEN / "muck_kontra_schwarz.json"]
    result = runner.invoke(app, ["replay", "--json", *map(str, files)])
    assert result.exit_code == 1
    out = [json.loads(line) for line in lines(result.output)]
    assert len(out) == len(files)
    assert out[0] == json.loads(expected_line("wenz_seat3"))
    assert out[1] == {"error": "call 2 ('muck') by seat 3: muck is not higher than wenz"}
    assert list(out[2]) == ["error"] and out[2]["error"].startswith(
        "plays: the record stops before the game's end (0 plays")
    assert list(out[3]) == ["error"] and "missing.json" in out[3]["error"]
    assert "cannot read" in out[3]["error"]
    assert list(out[4]) == ["error"] and out[4]["error"].startswith("not JSON")
    assert lines(result.output)[5] == EXAMPLE_LINE
    # the error line is compact JSON with the one key "error"
    assert lines(result.output)[1] == (
        '{"error":"call 2 (\'muck\') by seat 3: muck is not higher than wenz"}')


def test_only_bad_files_exit_1(runner: CliRunner, tmp_path: Path) -> None:
    bad = bad_record(tmp_path, "kontra", {"kontra": 3})
    result = runner.invoke(app, ["replay", "--json", str(bad)])
    assert result.exit_code == 1
    assert json.loads(result.output) == {
        "error": "kontra: seat 3 is of the declaring pair (seat 3 declared wenz); only the "
                 "other pair may say Kontra"}


def test_human_output(runner: CliRunner, tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    shutil.copy(GOLDEN / "muck_kontra_schwarz.json", good)
    bad = bad_record(tmp_path, "bad", {"calls": ["weiter", "weiter"]})
    result = runner.invoke(app, ["replay", str(good), str(bad)])
    assert result.exit_code == 1
    first, second = lines(result.output)
    assert first.startswith(f"{good}: muck (seat 0) Kontra; Augen 120:0, Stiche 6:0; pair 0 +8")
    assert second.startswith(f"{bad}: ERROR calls: bidding not finished after 2 call(s)")


def test_unscored_game_human_and_json(runner: CliRunner) -> None:
    path = GOLDEN / "pflichtmuck_60_60.json"
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0
    assert "not scored" in result.output and "pflichtmuck (-)" in result.output
    result = runner.invoke(app, ["replay", "--json", str(path)])
    assert json.loads(result.output)["winner"] is None


def test_replay_needs_a_file(runner: CliRunner) -> None:
    result = runner.invoke(app, ["replay", "--json"])
    assert result.exit_code == 2
