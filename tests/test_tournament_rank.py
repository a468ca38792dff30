"""`stammtisch tournament rank`: the seed-001 ranking and its bad inputs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from stammtisch.cli.main import app
from stammtisch.tournament.ranking import ResultsError, parse_results, rank

runner = CliRunner()


def results(bobbl: list[dict[str, Any]], pairs: int = 4, **extra: Any) -> dict[str, Any]:
    return {"name": "Seefest-Mucker", "target": 21,
            "pairs": [{"id": str(i), "names": [f"A{i}", f"B{i}"]} for i in range(1, pairs + 1)],
            "bobbl": bobbl, **extra}


def b(rnd: int, table: int, pa: str, pb: str, x: int, y: int) -> dict[str, Any]:
    return {"round": rnd, "table": table, "pairs": [pa, pb], "points": [x, y]}


def run(tmp_path: Path, data: Any, *args: str) -> Any:
    f = tmp_path / "results.json"
    f.write_text(json.dumps(data), encoding="utf-8")
    return runner.invoke(app, ["tournament", "rank", *args, str(f)])


def test_issue_example_json_keys(tmp_path: Path) -> None:
    data = {"name": "Seefest-Mucker", "target": 21,
            "pairs": [{"id": "1", "names": ["Anna", "Bernd"]},
                      {"id": "2", "names": ["Clara", "Dieter"]}],
            "bobbl": [{"round": 1, "table": 1, "pairs": ["1", "2"], "points": [21, 13]},
                      {"round": 1, "table": 1, "pairs": ["1", "2"], "points": [8, 21]}]}
    out = run(tmp_path, data, "--json")
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)
    # both won one Bobbl; pair 2 scored 13 Tore in its lost Bobbl, pair 1 only 8
    assert [(r["rank"], r["pair"], r["bobbl"], r["tore"], r["gegnerische_tore"], r["los"])
            for r in rows] == [(1, "2", 1, 13, 8, False), (2, "1", 1, 8, 13, False)]


def test_bobbl_before_tore_before_gegnerische_tore() -> None:
    data = results([
        b(1, 1, "1", "2", 21, 20), b(1, 1, "1", "2", 21, 0),   # 1 wins both
        b(1, 2, "3", "4", 21, 5), b(1, 2, "3", "4", 3, 21),    # 3 and 4 one each
        b(2, 1, "1", "3", 10, 21), b(2, 1, "1", "3", 21, 10),
        b(2, 2, "2", "4", 21, 15), b(2, 2, "2", "4", 21, 15),
    ])
    rows = rank(parse_results(data))
    by = {r.pair: r for r in rows}
    assert by["1"].bobbl == 3 and by["1"].tore == 10 and by["1"].gegnerische_tore == 30
    assert by["4"].bobbl == 1 and by["4"].tore == 35
    assert rows[0].pair == "1"
    # 2 and 3 both won 2 Bobbl: Tore decide (2: 20+0 = 20, 3: 3+10 = 13)
    assert [r.pair for r in rows].index("2") < [r.pair for r in rows].index("3")
    assert not any(r.los for r in rows)


def test_gegnerische_tore_fewer_is_better() -> None:
    data = results([b(1, 1, "1", "2", 21, 5), b(1, 1, "1", "2", 7, 21),
                    b(1, 2, "3", "4", 21, 7), b(1, 2, "3", "4", 5, 21)])
    rows = rank(parse_results(data))
    # 1 and 4: one Bobbl won, Tore 7 — gegnerische Tore 5 (pair 1) vs 5 (pair 4): tie -> lot
    # 2 and 3: one Bobbl, Tore 5, gegnerische 7 each
    assert [r.bobbl for r in rows] == [1, 1, 1, 1]
    assert all(r.los for r in rows)
    assert {rows[0].pair, rows[1].pair} == {"1", "4"}


def test_time_limit_both_lose_open_bobbl_and_brille_counts_like_any() -> None:
    data = results([b(1, 1, "1", "2", 15, 12), b(1, 1, "1", "2", 21, 0)], pairs=2)
    rows = {r.pair: r for r in rank(parse_results(data))}
    assert rows["1"].bobbl == 1 and rows["1"].tore == 15 and rows["1"].gegnerische_tore == 0
    assert rows["2"].bobbl == 0 and rows["2"].tore == 12  # the Brille adds 0 Tore, no penalty


def test_lot_is_stable_and_can_be_stored() -> None:
    data = results([b(1, 1, "1", "2", 21, 10), b(1, 1, "1", "2", 10, 21)], pairs=2)
    first = [r.pair for r in rank(parse_results(data))]
    assert first == [r.pair for r in rank(parse_results(data))]
    stored = dict(data, lots={"1": 0.9, "2": 0.1})
    assert [r.pair for r in rank(parse_results(stored))] == ["2", "1"]
    stored = dict(data, lots={"1": 0.1, "2": 0.9})
    assert [r.pair for r in rank(parse_results(stored))] == ["1", "2"]


def test_plus_and_plus_minus_methods() -> None:
    # seed 000: Plus — the winners get the points they reached, the losers none;
    # Plus-Minus — every pair its points minus its opponents' points
    data = results([b(1, 1, "1", "2", 21, 20), b(1, 1, "1", "2", 21, 5),
                    b(1, 2, "3", "4", 10, 21), b(1, 2, "3", "4", 21, 0)], pairs=4)
    plus = {r.pair: r.plus for r in rank(parse_results(data), "plus")}
    assert plus == {"1": 42, "2": 0, "3": 21, "4": 21}
    pm = rank(parse_results(data), "plus-minus")
    assert [(r.pair, r.own - r.minus) for r in pm] == [("1", 17), ("3", 10), ("4", -10),
                                                       ("2", -17)]
    assert pm[0].to_json("plus-minus")["plus_minus"] == 17


@pytest.mark.parametrize(("bobbl", "needle"), [
    ([b(1, 1, "1", "9", 21, 3)], "unknown pair '9'"),
    ([b(1, 1, "1", "1", 21, 3)], "against itself"),
    ([b(1, 1, "1", "2", 21, 22)], "both 21 and 22"),
    ([b(1, 1, "1", "2", 21, -1)], "bobbl[0].points[1]: -1"),
    ([b(1, 1, "1", "2", 21, 3), b(1, 2, "1", "3", 21, 3)], "pair '1' is at table 2 and at table 1"),
])
def test_bad_input_exits_1_naming_the_entry(tmp_path: Path, bobbl: list[Any],
                                            needle: str) -> None:
    out = run(tmp_path, results(bobbl), "--json")
    assert out.exit_code == 1
    assert needle in out.output
    with pytest.raises(ResultsError):
        parse_results(results(bobbl))


def test_unreadable_and_non_json_files(tmp_path: Path) -> None:
    out = runner.invoke(app, ["tournament", "rank", str(tmp_path / "missing.json")])
    assert out.exit_code == 1 and "cannot read" in out.output
    f = tmp_path / "x.json"
    f.write_text("{", encoding="utf-8")
    out = runner.invoke(app, ["tournament", "rank", str(f)])
    assert out.exit_code == 1 and "not JSON" in out.output


def test_table_output_names_the_pairs(tmp_path: Path) -> None:
    out = run(tmp_path, results([b(1, 1, "1", "2", 21, 13)], pairs=2))
    assert out.exit_code == 0
    assert "A1 / B1" in out.output
