"""Issue 9 in the browser: a refusal from the server is shown in the page's language and
never with the server's English ``message`` inside (German pages stay German, English
pages English).  Provoked on the tournament desk (HTTP refusals with ``reason`` and
``params``) and on the table page (websocket errors, one rewritten on its way to the
server, one unknown code for the generic sentence).  Real server, headless Chromium."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

I18N = Path(__file__).resolve().parents[2] / "src" / "stammtisch" / "server" / "static" / "i18n"
#: the desk's label of the time limit (tn.set.time_limit_minutes in tournament_i18n.js)
TIME_LIMIT = {"de": "Zeitlimit pro Runde (Min.)", "en": "Time limit per round (min)"}
#: words that give a language away (not in the other language's texts of these refusals)
ENGLISH = re.compile(r"\b(the|is|not|no|must|need|needs|already|registered|characters|"
                     r"message|pre-registration|whole number|slow down|seat|table)\b", re.I)
GERMAN = re.compile(r"[äöüß„]|\b(der|die|das|ist|nicht|gibt|schon|bitte|Nachricht|"
                    r"Fehler|Zahl|Code|ging)\b")


def _texts(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def _text(lang: str, key: str, **params: object) -> str:
    s = _texts(lang)[key]
    for k, v in params.items():
        s = s.replace("{" + k + "}", str(v))
    return s


def _one_language(lang: str, shown: str, english_message: str) -> None:
    assert english_message not in shown, shown
    if lang == "de":
        assert not ENGLISH.search(shown), shown
    else:
        assert not GERMAN.search(shown), shown


def _organiser(page: Any, server: str, name: str) -> str:
    """A guest is enough to run a tournament (and is not held by the registrations' rate
    limit, which the other browser tests of the session share)."""
    r = page.request.post(f"{server}/api/guest", data={"name": name})
    assert r.ok, r.text()
    return str(r.json()["csrf"])


def _api(page: Any, csrf: str, path: str, body: Any = None) -> Any:
    r = page.request.post(path, data=body if body is not None else {},
                          headers={"X-CSRF-Token": csrf})
    assert r.ok, (path, r.status, r.text())
    return r.json()


def _refused(page: Any, url: str, act: Any) -> dict[str, Any]:
    """Do ``act`` and return the server's refusal to the request to ``url``."""
    with page.expect_response(lambda r: r.url.endswith(url) and r.status >= 400) as answer:
        act()
    body: dict[str, Any] = answer.value.json()
    return body


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_desk_shows_refusals_in_its_language(new_page: Callable[..., Any], server: str,
                                                  lang: str) -> None:
    desk = new_page(viewport={"width": 1366, "height": 900})
    desk.add_init_script(f"localStorage.setItem('stammtisch_lang', '{lang}')")
    csrf = _organiser(desk, server, f"Leitung {lang.upper()}")
    tid = _api(desk, csrf, f"{server}/api/tournaments", {"settings": {"rounds": 2}})["id"]
    api = f"{server}/api/tournaments/{tid}"
    _api(desk, csrf, f"{api}/entrants/import", {"csv": "Anna;Bernd;QR1\nClara;Done;QR2\n"})
    desk.goto(f"{server}/turnier/{tid}#anmeldung")
    toast = desk.locator(".toast-error .toast-text")

    def check_in(code: str) -> None:
        desk.fill("#checkin-code", code)
        desk.locator("form.checkin button[type=submit]").click()

    # an unknown check-in code
    body = _refused(desk, "/check-in", lambda: check_in("QR9"))
    assert (body["code"], body["reason"], body["params"]) == (
        "invalid_tournament", "unknown_code", {"checkin": "QR9"})
    expect(toast.last).to_have_text(_text(lang, "error.invalid_tournament.unknown_code",
                                          checkin="QR9"))
    _one_language(lang, toast.last.inner_text(), body["message"])
    # the same code twice
    check_in("QR1")
    expect(desk.locator("#checkin-code")).to_have_value("")
    body = _refused(desk, "/check-in", lambda: check_in("QR1"))
    assert body["reason"] == "already_registered", body
    expect(toast.last).to_have_text(_text(lang, "error.invalid_tournament.already_registered",
                                          names="Anna & Bernd"))
    _one_language(lang, toast.last.inner_text(), body["message"])

    # round 1: a time limit out of range (past the form's own check), with the form's label
    _api(desk, csrf, f"{api}/check-in", {"code": "QR2"})
    _api(desk, csrf, f"{api}/gaps/close")
    _api(desk, csrf, f"{api}/start")
    desk.goto(f"{server}/turnier/{tid}#runde")
    desk.fill("#time-limit", "900")
    body = _refused(desk, "/settings", lambda: desk.locator(".limit-form").evaluate(
        "f => f.dispatchEvent(new Event('submit', {cancelable: true}))"))
    assert (body["reason"], body["params"]) == (
        "setting_range", {"setting": "time_limit_minutes", "min": 0, "max": 600}), body
    expect(toast.last).to_have_text(_text(lang, "error.invalid_tournament.setting_range",
                                          setting=TIME_LIMIT[lang], min=0, max=600))
    _one_language(lang, toast.last.inner_text(), body["message"])
    assert desk.errors == [], desk.errors


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_table_shows_refusals_in_its_language(new_page: Callable[..., Any], ui: Any,
                                                   lang: str) -> None:
    page = new_page()
    page.add_init_script(f"localStorage.setItem('stammtisch_lang', '{lang}')")
    wire = ui.wire(page)

    # chat lines starting with "@" are rewritten on their way to the server (or answered
    # with a made-up refusal): the page itself only ever sends well-formed messages
    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def to_server(message: Any) -> None:
            try:
                msg = json.loads(message)
            except (TypeError, ValueError):
                msg = {}
            text = msg.get("text", "") if msg.get("type") == "chat" else ""
            if text == "@long":
                server.send(json.dumps({"type": "chat", "text": "x" * 400}))
            elif text == "@garbage":
                server.send("this is not JSON")
            elif text == "@unknown":
                ws.send(json.dumps({"type": "error", "code": "made_up_refusal",
                                    "message": "this is an English message"}))
            else:
                server.send(message)

        ws.on_message(to_server)

    page.route_web_socket(re.compile(r".*/ws/tables/.*"), route)
    ui.guest(page, f"Gast {lang.upper()}")
    ui.create_table(page, name="Fehler")
    expect(page.locator("#chat-input")).to_be_visible()
    # the chat form shows before the table socket is open: wait for its first state, or
    # a line typed now meets "no connection" (seen on a loaded machine)
    for _ in range(200):
        if wire.states:
            break
        page.wait_for_timeout(50)
    assert wire.states, "the table socket sent no state"
    toast = page.locator(".toast-error .toast-text")

    def say(text: str) -> None:
        page.fill("#chat-input", text)
        page.locator(".chat-form button[type=submit]").click()

    for text, code in (("@long", "chat_too_long"), ("@garbage", "bad_message")):
        before = len(wire.errors)
        say(text)
        expect(toast.last).to_have_text(_text(lang, f"error.{code}"))
        assert len(wire.errors) == before + 1 and wire.errors[-1]["code"] == code
        _one_language(lang, toast.last.inner_text(), wire.errors[-1]["message"])
    # a code the page has no text for: the generic sentence, naming the code
    say("@unknown")
    expect(toast.last).to_have_text(_text(lang, "error.generic", code="made_up_refusal"))
    _one_language(lang, toast.last.inner_text(), "this is an English message")
    assert page.errors == [], page.errors
