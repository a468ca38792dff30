"""`stammtisch tournament rank` shows the figure each method ranks by (table and JSON)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stammtisch.cli.main import app

runner = CliRunner()

RESULTS = {"name": "Seefest-Mucker", "target": 21,
           "pairs": [{"id": "1", "names": ["Anna", "Bernd"]},
                     {"id": "2", "names": ["Carla", "Dieter"]},
                     {"id": "3", "names": ["Eva", "Franz"]},
                     {"id": "4", "names": ["Gerda", "Hans"]}],
           "bobbl": [{"round": 1, "table": 1, "pairs": ["1", "2"], "points": [21, 13]},
                     {"round": 1, "table": 1, "pairs": ["1", "2"], "points": [13, 21]},
                     {"round": 1, "table": 2, "pairs": ["3", "4"], "points": [21, 13]},
                     {"round": 1, "table": 2, "pairs": ["3", "4"], "points": [17, 12]}],
           "lots": {"1": 0.62, "2": 0.17}}


def rank(tmp_path: Path, *args: str) -> str:
    f = tmp_path / "results.json"
    f.write_text(json.dumps(RESULTS), encoding="utf-8")
    out = runner.invoke(app, ["tournament", "rank", *args, str(f)], terminal_width=120)
    assert out.exit_code == 0, out.output
    return out.stdout


def table(text: str) -> list[list[str]]:
    rows = []
    for line in text.splitlines():
        if line.startswith(("┃", "│")):
            rows.append([c.strip() for c in line.strip("┃│").replace("┃", "│").split("│")])
    return rows


def test_plus_minus_table_shows_its_figure(tmp_path: Path) -> None:
    head, *rows = table(rank(tmp_path, "--method", "plus-minus"))
    assert head[:4] == ["Rang", "Paar", "Namen", "Plus-Minus"]
    # Eva/Franz 38 - 25 = +13; Gerda/Hans -13; the others 34 - 34
    assert [(r[1], r[3]) for r in rows] == [("3", "+13"), ("2", "0"), ("1", "0"), ("4", "-13")]


def test_plus_table_shows_its_figure(tmp_path: Path) -> None:
    head, *rows = table(rank(tmp_path, "--method", "plus"))
    assert head[3] == "Plus"
    assert sorted(r[3] for r in rows) == ["0", "21", "21", "21"]


def test_bobbl_table_shows_its_three_figures(tmp_path: Path) -> None:
    head, *rows = table(rank(tmp_path))
    assert head == ["Rang", "Paar", "Namen", "Bobbl", "Tore", "gegn. Tore", "Los"]
    assert rows[0][:6] == ["1", "3", "Eva / Franz", "1", "17", "13"]


@pytest.mark.parametrize("method,keys", [("bobbl", ["bobbl", "tore", "gegnerische_tore"]),
                                         ("plus", ["plus"]), ("plus-minus", ["plus_minus"])])
def test_json_has_the_figure_of_every_method(tmp_path: Path, method: str,
                                             keys: list[str]) -> None:
    rows = json.loads(rank(tmp_path, "--json", "--method", method))
    for key in keys:
        assert all(isinstance(r[key], int) for r in rows), key
    if method == "plus-minus":
        assert [r["plus_minus"] for r in rows] == [13, 0, 0, -13]
