"""Accounts: register, log in and out (argon2), session and CSRF cookies, CSRF checks,
JSON-only account routes, guests and the login rate limit."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from argon2 import PasswordHasher
from sqlalchemy import select, update
from starlette.websockets import WebSocketDisconnect

from stammtisch.persistence.models import LoginSession, User
from stammtisch.server.auth import CSRF_COOKIE, SESSION_COOKIE

PASSWORD = "Hopfen und Malz"


def _cookie(set_cookies: list[str], name: str) -> str:
    found = [c for c in set_cookies if c.startswith(f"{name}=")]
    assert len(found) == 1, set_cookies
    return found[0]


def _attributes(cookie: str) -> set[str]:
    return {part.strip().lower() for part in cookie.split(";")[1:]}


def test_register_stores_an_argon2_hash_and_sets_the_cookies(server):
    r = server.client.post("/api/register", json={"name": "Anna", "password": PASSWORD})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["name"] == "Anna" and body["guest"] is False and body["csrf"]

    with server.app.state.db.session() as s:
        user = s.scalar(select(User).where(User.id == body["id"]))
    assert user is not None and user.password_hash is not None
    assert user.password_hash.startswith("$argon2id$")
    assert PASSWORD not in user.password_hash
    assert PasswordHasher().verify(user.password_hash, PASSWORD)

    cookies = r.headers.get_list("set-cookie")
    session = _attributes(_cookie(cookies, SESSION_COOKIE))
    assert "httponly" in session and "samesite=lax" in session and "path=/" in session
    csrf = _cookie(cookies, CSRF_COOKIE)
    assert csrf.startswith(f"{CSRF_COOKIE}={body['csrf']};")
    # the page's script reads the CSRF cookie (double submit); it is strictly same-site
    assert "httponly" not in _attributes(csrf) and "samesite=strict" in _attributes(csrf)

    me = server.client.get("/api/me").json()["user"]  # the client's jar holds the cookie
    assert me["name"] == "Anna" and me["guest"] is False and me["csrf"] == body["csrf"]


def test_login_right_and_wrong_password(server):
    server.register("Bernd", PASSWORD)
    r = server.client.post("/api/login", json={"name": "bernd", "password": PASSWORD})
    assert r.status_code == 200 and r.json()["name"] == "Bernd"
    assert r.cookies.get(SESSION_COOKIE)
    server.client.cookies.clear()

    for name, password in (("Bernd", "wrong password"), ("Nobody", PASSWORD),
                           ("Bernd", PASSWORD.upper())):
        r = server.client.post("/api/login", json={"name": name, "password": password})
        assert r.status_code == 401, (name, password, r.text)
        assert r.json()["code"] == "bad_credentials"
        assert SESSION_COOKIE not in r.headers.get("set-cookie", "")
    r = server.client.post("/api/login", json={"name": "Bernd"})
    assert r.status_code == 422 and r.json()["code"] == "invalid_login"


def test_duplicate_name_weak_password_and_bad_names(server):
    server.register("Clara", PASSWORD)
    for name in ("Clara", "clara", "  CLARA "):
        r = server.client.post("/api/register", json={"name": name, "password": PASSWORD})
        assert r.status_code == 409 and r.json()["code"] == "name_taken", r.text
    for password in ("short", "", None, 12345678):
        r = server.client.post("/api/register", json={"name": "Dora", "password": password})
        assert r.status_code == 422 and r.json()["code"] == "weak_password", r.text
    for name in ("", "x", "a" * 25, "<b>Eva</b>", None, 17):
        r = server.client.post("/api/register", json={"name": name, "password": PASSWORD})
        assert r.status_code == 422 and r.json()["code"] == "invalid_name", (name, r.text)
    assert server.client.post("/api/login", json={"name": "Dora", "password": "short"}
                              ).status_code == 401  # nothing was created


def test_logout_needs_csrf_and_ends_the_session(server):
    anna = server.register("Anna", PASSWORD)
    assert anna.get("/api/me").json()["user"]["id"] == anna.id
    r = anna.post("/api/logout", csrf=False)
    assert r.status_code == 403 and r.json()["code"] == "csrf_failed"
    r = anna.post("/api/logout", headers={"x-csrf-token": "forged"})
    assert r.status_code == 403 and r.json()["code"] == "csrf_failed"
    assert anna.get("/api/me").json()["user"] is not None  # still logged in

    r = anna.post("/api/logout")
    assert r.status_code == 200
    cleared = r.headers.get_list("set-cookie")
    assert any(c.startswith(f"{SESSION_COOKIE}=") and "max-age=0" in c.lower() for c in cleared)
    assert anna.get("/api/me").json() == {"user": None}  # the old token is dead
    r = anna.post("/api/tables", json={})
    assert r.status_code == 401 and r.json()["code"] == "not_logged_in"


def test_state_changing_routes_check_the_csrf_token(server):
    anna = server.guest("Anna")
    table = anna.create_table(bots=[1, 2])
    tid = table["id"]
    bob = server.guest("Bob")
    checks = [("/api/tables", {}), (f"/api/tables/{tid}/join", {"seat": 3}),
              (f"/api/tables/{tid}/leave", None), (f"/api/tables/{tid}/bots", {}),
              ("/api/me/language", {"language": "en"}), ("/api/logout", None)]
    for path, body in checks:
        for player in (anna, bob):
            r = player.post(path, json=body, csrf=False)
            assert r.status_code == 403 and r.json()["code"] == "csrf_failed", (path, r.text)
            # another user's token does not do either
            other = bob if player is anna else anna
            r = player.post(path, json=body, headers={"x-csrf-token": other.csrf})
            assert r.status_code == 403 and r.json()["code"] == "csrf_failed", (path, r.text)
    rt = server.runtime(tid)
    assert [s.kind for s in rt.seats] == ["human", "bot", "bot", "empty"]
    # without a session at all it is 401, not 403
    r = server.client.post("/api/tables", json={}, headers={"x-csrf-token": anna.csrf})
    assert r.status_code == 401


def test_form_posts_with_a_csrf_token_field_are_accepted(server):
    anna = server.guest("Anna")
    tid = anna.create_table(bots=[1])["id"]
    form = {"content-type": "application/x-www-form-urlencoded"}
    r = anna.post(f"/api/tables/{tid}/leave", csrf=False, data={"csrf_token": "forged"})
    assert r.status_code == 403 and r.json()["code"] == "csrf_failed"
    r = anna.post(f"/api/tables/{tid}/leave", csrf=False, data={"csrf_token": anna.csrf})
    assert r.status_code == 200 and r.json() == {"left": 0}, r.text
    r = anna.post("/api/logout", csrf=False, data={"csrf_token": anna.csrf}, headers=form)
    assert r.status_code == 200, r.text
    assert anna.get("/api/me").json() == {"user": None}


def test_account_routes_take_json_only(server):
    """A cross-site form can post urlencoded, multipart or text/plain: all refused (415)."""
    server.register("Anna", PASSWORD)
    fields = {"name": "Anna", "password": PASSWORD}
    for path in ("/api/register", "/api/login", "/api/guest"):
        r = server.client.post(path, data=fields)
        assert r.status_code == 415 and r.json()["code"] == "json_required", (path, r.text)
        r = server.client.post(path, files={"name": (None, "Anna")}, data=fields)
        assert r.status_code == 415, (path, r.text)
        r = server.client.post(path, content=f"name=Anna&password={PASSWORD}",
                               headers={"content-type": "text/plain"})
        assert r.status_code == 415, (path, r.text)
        assert SESSION_COOKIE not in r.headers.get("set-cookie", "")
    r = server.client.post("/api/login", json=fields,
                           headers={"content-type": "application/json; charset=utf-8"})
    assert r.status_code == 200


def test_guests(server):
    r = server.client.post("/api/guest", json={"name": "Gustl"})
    assert r.status_code == 200 and r.json()["guest"] is True
    me = server.client.get("/api/me").json()["user"]
    assert me["name"] == "Gustl" and me["guest"] is True
    server.client.cookies.clear()
    # guest names are not reserved, and a guest cannot log in (no password)
    again = server.guest("Gustl")
    assert again.id != me["id"]
    r = server.client.post("/api/login", json={"name": "Gustl", "password": PASSWORD})
    assert r.status_code == 401
    # a registered name stays free for registering
    assert server.register("Gustl", PASSWORD).name == "Gustl"
    r = server.client.post("/api/guest", json={"name": "<script>"})
    assert r.status_code == 422 and r.json()["code"] == "invalid_name"


def test_login_rate_limit(db_url, start_server):
    server = start_server(db_url, login_rate_per_minute=3)
    server.register("Anna", PASSWORD)
    for _ in range(3):
        r = server.client.post("/api/login", json={"name": "Anna", "password": "nope nope"})
        assert r.status_code == 401
    r = server.client.post("/api/login", json={"name": "Anna", "password": "nope nope"})
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"
    # now even the right password waits, also spelled in other case
    for name in ("Anna", "ANNA"):
        r = server.client.post("/api/login", json={"name": name, "password": PASSWORD})
        assert r.status_code == 429, r.text
    # another name is counted on its own
    server.register("Bert", PASSWORD)
    server.client.cookies.clear()
    r = server.client.post("/api/login", json={"name": "Bert", "password": PASSWORD})
    assert r.status_code == 200


def test_an_expired_session_is_no_login(server):
    anna = server.register("Anna", PASSWORD)
    assert anna.get("/api/me").json()["user"]["name"] == "Anna"
    with server.app.state.db.session() as s:
        s.execute(update(LoginSession).values(
            expires_at=datetime.now(UTC) - timedelta(minutes=1)))
    assert anna.get("/api/me").json() == {"user": None}
    r = anna.post("/api/tables", json={})
    assert r.status_code == 401 and r.json()["code"] == "not_logged_in"


def test_websockets_refuse_other_origins(server):
    anna = server.guest("Anna")
    tid = anna.create_table(bots=[1])["id"]
    headers = {"cookie": f"{SESSION_COOKIE}={anna.token}", "origin": "https://evil.example"}
    for path in (f"/ws/tables/{tid}", "/ws/lobby"):
        with pytest.raises(WebSocketDisconnect) as refused:
            server.client.websocket_connect(path, headers=headers).__enter__()
        assert refused.value.code == 4403
    same = {**headers, "origin": "http://testserver"}
    with server.client.websocket_connect(f"/ws/tables/{tid}", headers=same) as ws:
        assert ws.receive_json()["table"]["you"] == 0
