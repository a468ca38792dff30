"""Issue 8.3: weak passwords and look-alike names are refused, with a stable reason.

Passwords: common ones (zxcvbn's list), ones that are or contain the name, and ones
zxcvbn scores below 3.  Names: NFKC-normalised, unique by their NFKC case fold, and
refused when they look like a registered name in another script (a Cyrillic ``А`` for a
Latin ``A``) — for accounts and guests alike.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from stammtisch.persistence.models import User
from stammtisch.persistence.names import name_key, normalise, skeleton

STRONG = "Hopfen und Malz 1516"


def _register(server, name, password=STRONG):
    r = server.client.post("/api/register", json={"name": name, "password": password})
    server.client.cookies.clear()
    return r


@pytest.mark.parametrize(("password", "reason"), [
    ("password1", "common"),
    ("12345678", "common"),
    ("qwertzuiop", "common"),
    ("P@ssw0rd", "common"),  # l33t spelling of a common one
    ("Kartenspieler", "contains_name"),  # equal to the name, other case
    ("kartenspieler!2024", "contains_name"),
    ("Karten Spieler", "contains_name"),
    ("aaaaaaaaaaaa", "guessable"),
    ("abcdefgh1", "guessable"),
    ("short", "too_short"),
    (None, "too_short"),
    ("x" * 257, "too_long"),
])
def test_weak_passwords_are_refused_with_a_reason(sqlite_server, password, reason):
    r = _register(sqlite_server, "Kartenspieler", password)
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["code"] == "weak_password" and body["reason"] == reason, body
    assert body["message"]
    with sqlite_server.app.state.db.session() as s:
        assert s.scalar(select(User).where(User.name == "Kartenspieler")) is None


def test_a_strong_password_is_taken(sqlite_server):
    assert _register(sqlite_server, "Kartenspieler", "Schellen-Ober sticht 7").status_code == 200


def test_name_keys():
    assert normalise("  Ａｎｎａ   Maria ") == "Anna Maria"
    assert name_key("ANNA") == name_key("Ａｎｎａ") == "anna"
    assert name_key("Straße") == name_key("STRASSE")
    assert skeleton("Аnna") == skeleton("ΑNNA") == skeleton("anna") == "anna"  # Cyrillic, Greek
    assert skeleton("Hаns Рeter") == "hans peter"
    assert skeleton("Jürgen") == "jürgen" != skeleton("Jurgen")  # accents are letters of their own


def test_names_are_nfkc_and_unique_by_case_and_look(server):
    r = _register(server, "Ａｎｎａ")  # full-width letters: stored as plain "Anna"
    assert r.status_code == 200 and r.json()["name"] == "Anna", r.text
    for name, reason in (("anna", "taken"), ("ＡＮＮＡ", "taken"),
                         ("Аnna", "confusable"),  # Cyrillic А
                         ("Αnnα", "confusable"),  # Greek Alpha and alpha
                         ("Ꭺnna", "confusable")):  # Cherokee
        r = _register(server, name)
        assert r.status_code == 409, (name, r.text)
        assert r.json()["code"] == "name_taken" and r.json()["reason"] == reason, (name, r.text)
    # guests cannot pass for a registered user either
    for name, reason in (("ANNA", "taken"), ("Аnna", "confusable")):
        r = server.client.post("/api/guest", json={"name": name})
        assert r.status_code == 409 and r.json()["reason"] == reason, (name, r.text)
    # log in under any width and case
    r = server.client.post("/api/login", json={"name": "ａｎｎａ", "password": STRONG})
    assert r.status_code == 200 and r.json()["name"] == "Anna", r.text
    server.client.cookies.clear()
    # the other direction: the look-alike came first
    assert _register(server, "Воb").status_code == 200  # Cyrillic В and о
    r = _register(server, "Bob")
    assert r.status_code == 409 and r.json()["reason"] == "confusable", r.text
    # names that merely share letters are fine
    assert _register(server, "Annabell").status_code == 200
    assert _register(server, "Jürgen").status_code == 200
    assert _register(server, "Jurgen").status_code == 200


def test_an_unknown_name_costs_the_same_argon2_work_as_a_wrong_password(sqlite_server):
    """No timing oracle: a login for a name that does not exist (or a guest's name) is
    verified against the stand-in hash, as a wrong password for a real account is."""
    from stammtisch.server import auth

    auth._stand_in_hash.cache_clear()
    assert _register(sqlite_server, "Kartenspieler").status_code == 200
    wrong = sqlite_server.client.post("/api/login", json={"name": "Kartenspieler",
                                                           "password": "falsch falsch 1"})
    assert wrong.status_code == 401 and auth._stand_in_hash.cache_info().currsize == 0
    unknown = sqlite_server.client.post("/api/login", json={"name": "Niemand Hier",
                                                             "password": STRONG})
    assert unknown.status_code == 401
    assert unknown.json() == wrong.json()
    # the stand-in hash was made (and verified against): argon2 ran for the unknown name
    assert auth._stand_in_hash.cache_info().currsize == 1
    assert auth.verify_stand_in(STRONG) is False
