"""The rules' option schema (``GamePlugin.options``), one parser for the CLI, REST and lobby.

Over every registered game:

- the schema covers every init field of the rules class (but the preset's name) and
  each option's source sentence stands in its row of docs/rules/<game>.md;
- each preset's values read back through ``parse_json`` give the preset;
- ``parse_text`` of a value's text form and ``parse_json`` of its JSON form give the same
  rules, or the same ``RulesError`` (hypothesis);
- a value the option refuses is a ``RulesError`` naming the option, whatever the JSON or
  the text; an unknown option is listed with the known ones;
- ``make_rules`` goes through the schema; the error texts of ``stammtisch play -o``'s
  golden transcripts come out of ``parse_text`` unchanged;
- ``GET /api/games/{game}/options`` serves the schema, ``404 unknown_game`` otherwise.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stammtisch.errors import RulesError
from stammtisch.games import registry
from stammtisch.games.base import OptionSpec, RulesSchema

ROOT = Path(__file__).resolve().parents[2]
GAMES = registry.names()
#: a rules class's init field that names its preset (not an option)
PRESET_FIELD = "preset_name"
PROPERTY = settings(max_examples=150, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def _schema(game: str) -> RulesSchema[Any]:
    return registry.get(game).options


def _outcome(build: Any) -> tuple[str, Any]:
    """``("rules", rules)`` or ``("error", message)`` (a ``RulesError``)."""
    try:
        return "rules", build()
    except RulesError as e:
        return "error", str(e)


# -- one truth: the rules class and the docs ---------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_the_schema_covers_every_option_of_the_rules_class(game: str) -> None:
    desc = registry.get(game)
    schema = desc.options
    fields = [f.name for f in dataclasses.fields(desc.rules_class) if f.init]
    assert [n for n in fields if n != PRESET_FIELD] == list(schema.names)
    assert schema.presets.keys() == desc.presets.keys()
    assert schema.default_preset == desc.default_preset
    # the plug-in's presets and make_rules are the schema's (one parser for every way in)
    assert desc.presets is schema.presets
    for preset in schema.presets:
        assert desc.make_rules(preset) == schema.make_rules(preset) == schema.presets[preset]


def _rows(game: str) -> dict[str, str]:
    """The docs' option table: option name -> its row (whitespace collapsed)."""
    rows: dict[str, str] = {}
    for line in (ROOT / "docs" / "rules" / f"{game}.md").read_text("utf-8").splitlines():
        m = re.match(r"\| `(\w+)` \|", line)
        if m and m.group(1) not in rows:
            rows[m.group(1)] = " ".join(line.split())
    return rows


@pytest.mark.parametrize("game", GAMES)
def test_each_source_sentence_stands_in_the_docs(game: str) -> None:
    rows = _rows(game)
    doc = (ROOT / "docs" / "rules" / f"{game}.md").read_text("utf-8")
    for spec in _schema(game).options:
        assert spec.name in rows, f"docs/rules/{game}.md has no row for {spec.name}"
        if not spec.source:
            assert spec.seed is None
            continue
        row = rows[spec.name]
        same = re.search(r"as `(\w+)`", row)  # "as `cut_min`": the sentence is there
        text = row + (rows[same.group(1)] if same else "")
        assert " ".join(spec.source.split()) in text, (spec.name, spec.source)
        assert spec.seed is not None and (f"[{spec.seed}]" in doc or f"seed {spec.seed}" in doc)


@pytest.mark.parametrize("game", GAMES)
def test_each_preset_reads_back_from_its_values(game: str) -> None:
    schema = _schema(game)
    out = schema.to_json()
    assert json.loads(json.dumps(out)) == out
    assert [o["name"] for o in out["options"]] == list(schema.names)
    for preset, rules in schema.presets.items():
        values = schema.defaults(preset)
        assert schema.parse_json(preset, values) == rules
        assert all(o["default"][preset] == values[o["name"]] for o in out["options"])
        items = [f"{o.name}={o.to_text(values[o.name])}" for o in schema.options]
        assert schema.parse_text(preset, items) == rules


# -- text and JSON give the same rules -------------------------------------------------
_WORD = st.from_regex(r"[a-z][a-z-]{0,7}", fullmatch=True)
_TEXT = st.from_regex(r"[A-Za-z0-9]{1,6}", fullmatch=True)


def _values(spec: OptionSpec, known: tuple[str, ...] = ()) -> st.SearchStrategy[Any]:
    """JSON values of ``spec``'s type: allowed ones mostly, some refused."""
    if spec.kind == "bool":
        return st.booleans()
    if spec.kind == "int":
        low = (spec.minimum if spec.minimum is not None else 0) - 2
        high = (spec.maximum if spec.maximum is not None else low + 40) + 2
        values: st.SearchStrategy[Any] = st.integers(low, high)
        return values | st.none() if spec.nullable else values
    if spec.kind == "choice":
        bad = st.just("nope") if isinstance(spec.allowed[0], str) else st.just(6)
        return st.sampled_from(spec.allowed) | bad
    if spec.kind == "str":
        return st.sampled_from(["EO", "GU", "H10", "eo"]) | _TEXT
    if spec.kind == "list":
        item = spec.item or OptionSpec(spec.name, "str")
        entries = _WORD if item.kind == "str" else _values(item)
        size = {"min_size": spec.length, "max_size": spec.length} if spec.length else \
            {"max_size": 5}
        return st.lists(entries, **size) | st.lists(entries, max_size=4)
    keys = st.sampled_from([*(spec.allowed or known), "nope"])
    assert spec.item is not None
    return st.dictionaries(keys, _values(spec.item), max_size=4)


def _draw_options(data: st.DataObject, schema: RulesSchema[Any],
                  preset: str) -> dict[str, Any]:
    bids = ()
    rules = schema.presets[preset]
    if hasattr(rules, "bid_names"):  # Mucken's score table is keyed by bid names
        bids = tuple(rules.bid_names())
    names = data.draw(st.lists(st.sampled_from(schema.names), min_size=1, max_size=3,
                               unique=True), label="options")
    return {n: data.draw(_values(schema.option(n), bids), label=n) for n in names}


@pytest.mark.parametrize("game", GAMES)
@PROPERTY
@given(data=st.data())
def test_text_and_json_give_the_same_rules(game: str, data: st.DataObject) -> None:
    schema = _schema(game)
    preset = data.draw(st.sampled_from(sorted(schema.presets)), label="preset")
    options = _draw_options(data, schema, preset)
    items = [f"{n}={schema.option(n).to_text(v)}" for n, v in options.items()]
    by_json = _outcome(lambda: schema.parse_json(preset, options))
    by_text = _outcome(lambda: schema.parse_text(preset, items))
    # the same rules, or both refused (in the rules class's own words where it has them;
    # a few options' ``-o`` text is checked as it is read, as the terminal did)
    assert by_text[0] == by_json[0], (items, options, by_text, by_json)
    if by_json[0] == "rules" or not set(options) & schema.messages.checked_as_text:
        assert by_text == by_json, (items, options)
    assert _outcome(lambda: registry.get(game).make_rules(preset, **options)) == by_json


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 40) | st.text(max_size=6),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)


@pytest.mark.parametrize("game", GAMES)
@PROPERTY
@given(data=st.data())
def test_a_refused_value_names_the_option(game: str, data: st.DataObject) -> None:
    schema = _schema(game)
    spec = schema.option(data.draw(st.sampled_from(schema.names), label="option"))
    value = data.draw(_JSON, label="value")
    try:
        spec.check(value)
    except RulesError:
        with pytest.raises(RulesError, match=re.escape(spec.name)) as e:
            schema.parse_json(schema.default_preset, {spec.name: value})
        assert e.value.args and "Traceback" not in str(e.value)
    else:
        _outcome(lambda: schema.parse_json(schema.default_preset, {spec.name: value}))
    raw = data.draw(st.text(max_size=12), label="text")
    try:
        spec.check(spec.from_text(raw, schema.messages))
    except RulesError:
        with pytest.raises(RulesError, match=re.escape(spec.name)):
            schema.parse_text(schema.default_preset, [f"{spec.name}={raw}"])


@pytest.mark.parametrize("game", GAMES)
def test_unknown_options_and_presets_are_named(game: str) -> None:
    schema = _schema(game)
    with pytest.raises(RulesError, match="nosuch"):  # the rules class's own words (REST)
        schema.parse_json(schema.default_preset, {"nosuch": 1})
    with pytest.raises(RulesError, match="nosuch") as e:
        schema.parse_text(schema.default_preset, ["nosuch=1"])
    assert all(name in str(e.value) for name in schema.names)
    with pytest.raises(RulesError, match="skat"):
        schema.parse_json("skat", {})
    with pytest.raises(RulesError, match="skat"):
        schema.parse_text("skat", [])
    with pytest.raises(RulesError, match="expected"):
        schema.parse_text(schema.default_preset, ["nosuch"])


@pytest.mark.parametrize(("game", "items", "text"), [
    ("mucken", ["doublings=2", "games=Muck, Wenz geier", "haenger=ja", "deck=long"],
     {"doublings": 2, "games": ("muck", "wenz", "geier"), "haenger": True, "deck": "long"}),
    ("mucken", ['values={"muck": [2, 3, null]}', "bobbl-target=31"],
     {"values": (("muck", (2, 3, None)),), "bobbl_target": 31}),
    ("schafkopf", ["games=sauspiel,solo", "stoss_words=", "legen=1", "first_lead=declarer",
                   'tariff={"solo": 60}'],
     {"games": ("sauspiel", "solo"), "stoss_words": (), "legen": True,
      "first_lead": "declarer"}),
    ("mulatschak", ["muli_broken=breaker", "klopfen=nein"],
     {"muli_broken": "breaker", "klopfen": False}),
    ("mus", ["reyes=4", "punto_bonus=0"], {"reyes": 4, "punto_bonus": 0}),
])
def test_text_forms(game: str, items: list[str], text: dict[str, Any]) -> None:
    rules = _schema(game).parse_text(_schema(game).default_preset, items)
    assert {k: getattr(rules, k) for k in text} == text


# -- the goldens of ``stammtisch play -o`` ---------------------------------------------
GOLDEN = ROOT / "tests" / "golden" / "terminal"


@pytest.mark.parametrize(("golden", "game", "items", "also_known"), [
    ("err_rules", "mucken", ["bobbl_target=abc"], ()),
    ("err_rules_unknown", "mucken", ["nosuch=1"], ()),
    ("err_rules_values", "mucken", ['values={"muck": 5}'], ()),
    ("err_rules_nojson", "mucken", ["values=nojson"], ()),
    ("err_rules_kv", "mucken", ["justtext"], ()),
    ("err_sk_rules", "schafkopf", ["legen=vielleicht"], ()),
    ("err_sk_kv", "schafkopf", ["legen"], ()),
    ("err_mu_rules", "mulatschak", ["klopfen=vielleicht"], ()),
    ("err_mus_unknown", "mus", ["farbe=1"], ("senas", "catch")),
])
def test_parse_text_words_errors_as_the_play_goldens(golden: str, game: str, items: list[str],
                                                     also_known: tuple[str, ...]) -> None:
    path = GOLDEN / f"{golden}_en.txt"
    if not path.exists():
        pytest.skip(f"{path} is gone")
    expected = path.read_text("utf-8").splitlines()[1].removeprefix("Error: Rules: ")
    schema = _schema(game)
    with pytest.raises(RulesError) as e:
        schema.parse_text(schema.default_preset, items, also_known=also_known)
    assert str(e.value) == expected


# -- REST ------------------------------------------------------------------------------
def test_the_options_endpoint(tmp_path: Path) -> None:
    from stammtisch.server import Settings, create_app

    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}"))
    with TestClient(app) as client:
        for game in GAMES:
            r = client.get(f"/api/games/{game}/options")
            assert r.status_code == 200 and r.json() == _schema(game).to_json()
        r = client.get("/api/games/skat/options")
        assert r.status_code == 404 and r.json()["code"] == "unknown_game"
        assert "skat" in r.json()["message"]


@pytest.mark.parametrize(("game", "options"), [
    ("mus", {"reyes": 6}), ("mucken", {"doublings": "many"}), ("mucken", {"nosuch": 1}),
    ("schafkopf", {"nosuch": True}), ("mulatschak", {"muli_broken": "x"}),
])
def test_the_rest_api_keeps_the_rules_classes_words(game: str,
                                                    options: dict[str, Any]) -> None:
    """Where the rules class itself refuses an input, ``parse_json`` (the REST API) says
    what it said before the schema: the API's answers stay byte-identical."""
    plugin = registry.get(game)
    with pytest.raises(RulesError) as own:
        plugin.rules_class.preset(plugin.default_preset, **options)
    with pytest.raises(RulesError) as schema:
        plugin.options.parse_json(plugin.default_preset, options)
    assert str(schema.value) == str(own.value)
