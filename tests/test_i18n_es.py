"""Spanish in the browser UI (issue 12, for Mus above all): ``static/i18n/es.json`` is a
full translation — exactly the keys of ``de.json`` with the same ``{placeholders}`` — so
that a Spanish screen never falls back to German texts; the page loads it and the
language switch offers it; the server stores ``es`` as a user's language.  The Mus texts
exist in German, English and Spanish."""

from __future__ import annotations

import json
import re
from pathlib import Path

from fastapi.testclient import TestClient

from stammtisch.server import Settings, create_app

STATIC = Path(__file__).resolve().parents[1] / "src" / "stammtisch" / "server" / "static"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _load(lang: str) -> dict[str, str]:
    data = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_spanish_has_exactly_the_german_keys_and_placeholders() -> None:
    de, es = _load("de"), _load("es")
    assert sorted(set(de) - set(es)) == []  # untranslated keys
    # beside them only texts the tournament pages add at run time (tournament_i18n.js;
    # "nav.tournaments" is in every page's header)
    tournament = set(re.findall(r'"([\w.]+)":', (STATIC / "js" / "tournament_i18n.js")
                                .read_text(encoding="utf-8")))
    assert sorted(set(es) - set(de) - tournament) == []  # keys nobody uses
    assert es["nav.tournaments"] == "Torneos"
    for key, text in de.items():
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(es[key])), key
    assert all(isinstance(v, str) and v.strip() for v in es.values())


def test_spanish_is_a_translation_not_a_copy() -> None:
    de, en, es = _load("de"), _load("en"), _load("es")
    # whole sentences differ from both other languages (game terms may stay as they are)
    sentences = [k for k, v in de.items() if len(v) > 30 and not k.startswith("mus.sena.")]
    assert len(sentences) > 200
    copied = {k for k in sentences if es[k] in (de[k], en[k])}
    # only game terms and placeholders (Mus's lances are Spanish words in every language)
    assert copied <= {"play.trick_score", "play.trick_score_after", "play.mus.lance_line"}
    assert es["table.your_turn"] == "Te toca" and es["mus.prompt.mus"] == "¿Mus o no hay mus?"


def test_mus_texts_in_three_languages() -> None:
    de, en, es = _load("de"), _load("en"), _load("es")
    mus = [k for k in de if k.startswith("mus.")]
    assert len(mus) > 60
    for key in (*mus, "game.mus", "create.preset.mus.duples"):
        assert key in en and key in es, key
    js = (STATIC / "js" / "table_mus.js").read_text(encoding="utf-8")
    used = set(re.findall(r't\("(mus\.[\w.]+)"', js))
    assert used and used <= set(de), sorted(used - set(de))
    for lance in ("grande", "chica", "pares", "juego", "punto"):
        assert f"mus.lance.{lance}" in de


def test_the_page_loads_and_offers_spanish(tmp_path: Path) -> None:
    i18n = (STATIC / "js" / "i18n.js").read_text(encoding="utf-8")
    assert 'loadStrings("es")' in i18n and 'LANGUAGES = ["de", "en", "es"]' in i18n
    app_js = (STATIC / "js" / "app.js").read_text(encoding="utf-8")
    assert "LANGUAGES.map(" in app_js and "Español" in app_js
    client = TestClient(create_app(Settings(database_url=f"sqlite:///{tmp_path / 'db'}")))
    r = client.get("/static/i18n/es.json")
    assert r.status_code == 200 and r.json() == _load("es")


def test_a_user_may_choose_spanish(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(database_url=f"sqlite:///{tmp_path / 'db'}"))) as client:
        _choose_spanish(client)


def _choose_spanish(client: TestClient) -> None:
    r = client.post("/api/guest", json={"name": "Iñaki"})
    assert r.status_code == 200, r.text
    csrf = r.json()["csrf"]
    r = client.post("/api/me/language", json={"language": "es"}, headers={"x-csrf-token": csrf})
    assert r.status_code == 200 and r.json() == {"language": "es"}
    assert client.get("/api/me").json()["user"]["language"] == "es"
    r = client.post("/api/me/language", json={"language": "fr"}, headers={"x-csrf-token": csrf})
    assert r.status_code == 422 and r.json()["code"] == "invalid_language"
