"""One set of translations (``server/static/i18n/<lang>.json``) for the browser UI and
the terminal; ``stammtisch play --lang`` speaks German or English from it."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from types import ModuleType

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import stammtisch.cli.play_session as shell_module
import stammtisch.games.mucken.presenter as play_module
from stammtisch.cli.main import app
from stammtisch.i18n import LANGUAGES, Translator, default_language, strings
from stammtisch.server import Settings, create_app

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "stammtisch" / "server" / "static"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def test_every_language_has_the_same_keys_and_placeholders() -> None:
    de, en = strings("de"), strings("en")
    assert set(de) == set(en)
    for key in de:
        assert set(PLACEHOLDER.findall(de[key])) == set(PLACEHOLDER.findall(en[key])), key


def test_files_are_flat_objects_of_texts() -> None:
    for lang in LANGUAGES:
        data = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        assert data and all(isinstance(k, str) and isinstance(v, str) for k, v in data.items())


def test_the_ui_reads_the_shared_files_and_keeps_no_copy() -> None:
    js = (STATIC / "js" / "i18n.js").read_text(encoding="utf-8")
    assert "../i18n/${code}.json" in js
    for key in ("auth.login", "table.your_turn", "sheet.title"):
        assert f'"{key}"' not in js  # the texts live only in the JSON files


def test_the_server_serves_the_translations(tmp_path: Path) -> None:
    client = TestClient(create_app(Settings(database_url=f"sqlite:///{tmp_path / 'db'}")))
    for lang in LANGUAGES:
        r = client.get(f"/static/i18n/{lang}.json")
        assert r.status_code == 200
        assert r.json() == strings(lang)


@pytest.mark.parametrize("env,lang", [
    ({"LANG": "de_DE.UTF-8"}, "de"), ({"LANG": "de"}, "de"), ({"LANG": "C.UTF-8"}, "en"),
    ({}, "en"), ({"LANG": "en_US.UTF-8"}, "en"), ({"LC_ALL": "de_AT.UTF-8", "LANG": "C"}, "de"),
    ({"LC_MESSAGES": "en_GB", "LANG": "de_DE"}, "en"), ({"LC_ALL": "", "LANG": "de_CH"}, "de"),
])
def test_default_language_from_the_locale(env: dict[str, str], lang: str) -> None:
    assert default_language(env) == lang


def test_translator_fills_parameters_and_falls_back_to_german() -> None:
    t = Translator("en")
    assert t("play.cuts", name="Hans", n=7) == "Hans cuts 7 cards."
    assert Translator("de")("play.cuts", name="Hans", n=7) == "Hans hebt 7 Karten ab."
    t.texts = {}  # a key missing in English: the German text, as in the UI
    assert t("play.cuts.du", n=3) == "Du hebst 3 Karten ab."
    with pytest.raises(KeyError):
        t("no.such.key")


# -- the terminal session ---------------------------------------------------------------

GERMAN_MARKERS = re.compile(
    r"[äöüßÄÖÜ„]|\b(und|oder|von|der|die|das|ist|nicht|Karten|Spiel|Deine|Sitzung|gibt|"
    r"mischt|hebt|Trumpf|Geber|Paare|gegen|Eingabe|Möglich|Gewonnen|Punkte|Ergebnis|"
    r"Spieler|Ansage|bedienen|Stapel|Bisher|Laufender|gewinnen|verlieren|zuerst|bekommen)\b")
#: game terms that stay German in English, and the bots' names
ALLOWED = re.compile(r"Hänger|Brille|Schwarz\w*|Schneider\w*|schwarz\w*|schneider\w*|"
                     r"Muss-Spiel|Regelverstoß|eingeworfen|Einwerfen|Pflichtmuck|Sie\b|"
                     r"kartet aus|Auskarten")


def german_words(text: str) -> list[str]:
    return [m.group(0) for m in GERMAN_MARKERS.finditer(ALLOWED.sub("", text))]


def run_play(*args: str, env: dict[str, str | None] | None = None,
             input: str = "xx\nq\nn\n?\nl\nz\n" + "1\n" * 4000) -> str:
    runner = CliRunner(env=env or {"LC_ALL": None, "LC_MESSAGES": None, "LANG": "C.UTF-8"})
    result = runner.invoke(app, ["play", "--seed", "3", "--bots", "random", *args], input=input)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


def test_english_session_has_no_german_but_the_game_terms() -> None:
    out = run_play("--lang", "en")
    assert german_words(out) == []
    for text in ("Your cards:", "Score sheet", "Result of game 1", "Really quit? (y/n)",
                 "No Stich has been played yet.", "● Bobbl 1!", "Session over"):
        assert text in out, text
    for term in ("weiter", "Kontra", "Bobbl", "Tore", "Augen", "Stich"):
        assert term in out, term


def test_english_hotseat_and_auskarten_pairs_have_no_german() -> None:
    out = run_play("--lang", "en", "--humans", "0,2", "-o", "auskarten_pairs=true",
                   "-o", "bobbl_target=6", "--bobbl", "1")
    assert german_words(out) == []
    assert "New seating (clockwise)" in out and "Cards of Player" in out


def test_the_language_follows_the_locale() -> None:
    german = run_play(env={"LC_ALL": None, "LC_MESSAGES": None, "LANG": "de_DE.UTF-8"},
                      input="1\n" * 30)
    english = run_play(env={"LC_ALL": None, "LC_MESSAGES": None, "LANG": "C.UTF-8"},
                       input="1\n" * 30)
    assert "Deine Karten:" in german and "Your cards:" not in german
    assert "Your cards:" in english and "Deine Karten:" not in english
    assert "Your cards:" in run_play("--lang", "en", env={"LANG": "de_DE.UTF-8",
                                                          "LC_ALL": None}, input="1\n" * 30)


def test_unknown_language_is_a_usage_error() -> None:
    result = CliRunner().invoke(app, ["play", "--lang", "fr"], input="")
    assert result.exit_code == 2
    assert "choose de or en" in " ".join(result.output.replace("│", " ").split())


@pytest.mark.parametrize("module", [play_module, shell_module], ids=["mucken", "shell"])
def test_play_module_prints_no_text_of_its_own(module: ModuleType) -> None:
    """Every text the session prints comes from the translations: no string literal of
    Mucken's presenter or the shell (outside docstrings and the sets of input words)
    reads German."""
    tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant):
            skip.add(id(body[0].value))  # a docstring
        if isinstance(node, ast.Set):  # QUIT_WORDS, YES, ...: words people type
            skip.update(id(e) for e in node.elts)
    found = [(n.lineno, n.value) for n in ast.walk(tree)
             if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skip
             and german_words(n.value)]
    assert found == []
