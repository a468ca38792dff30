"""Issue 8.3 in the browser: a refused password shows its reason, in German and English.

The server answers ``422 {"code": "weak_password", "reason": …}``; the page shows the
translation of ``error.weak_password.<reason>`` (server/static/i18n/<lang>.json).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

I18N = Path(__file__).resolve().parents[2] / "src/stammtisch/server/static/i18n"


def _text(lang: str, key: str) -> str:
    value: str = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))[key]
    return value


@pytest.mark.parametrize(("lang", "name", "password", "reason"), [
    ("de", "Wirtin Resi", "password1", "common"),
    ("de", "Wirtin Resi", "Wirtin Resi 2", "contains_name"),
    ("en", "Landlady Resi", "password1", "common"),
    ("en", "Landlady Resi", "landladyresi!", "contains_name"),
    ("en", "Landlady Resi", "aaaaaaaaaaaa", "guessable"),
])
def test_the_reason_for_a_weak_password_is_shown(server: str, new_page: Any, lang: str,
                                                 name: str, password: str,
                                                 reason: str) -> None:
    page = new_page()
    page.add_init_script(f"localStorage.setItem('stammtisch_lang', '{lang}')")
    page.goto(server + "/")
    expect(page.locator("#register-h")).to_have_text(_text(lang, "auth.register"))
    expect(page.locator("form[aria-labelledby=register-h] small")).to_have_text(
        _text(lang, "auth.password_hint"))
    page.fill("#register-name", name)
    page.fill("#register-password", password)
    with page.expect_response("**/api/register") as answer:
        page.locator("form[aria-labelledby=register-h] button[type=submit]").click()
    body = answer.value.json()
    assert answer.value.status == 422 and body["reason"] == reason, body
    toast = page.locator(".toast-error .toast-text").last
    expect(toast).to_have_text(_text(lang, f"error.weak_password.{reason}"))
    assert page.errors == []  # type: ignore[attr-defined]
