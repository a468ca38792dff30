"""Accounts: argon2 password hashes, HttpOnly SameSite session cookies, CSRF tokens,
guests, and the login rate limit."""

from __future__ import annotations

import time
from collections import defaultdict, deque
from dataclasses import dataclass
from typing import Annotated, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import Depends, HTTPException, Request, Response

from stammtisch.persistence.store import Store

SESSION_COOKIE = "stammtisch_session"
CSRF_COOKIE = "stammtisch_csrf"
CSRF_HEADER = "x-csrf-token"
_hasher = PasswordHasher()

NAME_MIN, NAME_MAX = 2, 24
PASSWORD_MIN = 8


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def check_name(name: Any) -> str:
    if not isinstance(name, str):
        raise HTTPException(422, detail={"code": "invalid_name", "message": "name must be text"})
    clean = " ".join(name.split())
    if not NAME_MIN <= len(clean) <= NAME_MAX or not all(ch.isprintable() for ch in clean):
        raise HTTPException(422, detail={
            "code": "invalid_name",
            "message": f"name must be {NAME_MIN}..{NAME_MAX} printable characters"})
    if any(ch in clean for ch in "<>&\"'"):
        raise HTTPException(422, detail={"code": "invalid_name",
                                         "message": "name may not contain < > & \" '"})
    return clean


@dataclass
class CurrentUser:
    id: int
    name: str
    is_guest: bool
    csrf: str
    language: str


def store_of(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def user_from_token(store: Store, token: str | None) -> CurrentUser | None:
    if not token:
        return None
    found = store.session_user(token)
    if found is None:
        return None
    user, csrf = found
    return CurrentUser(user.id, user.name, user.is_guest, csrf, user.language)


def optional_user(request: Request) -> CurrentUser | None:
    return user_from_token(store_of(request), request.cookies.get(SESSION_COOKIE))


def required_user(request: Request) -> CurrentUser:
    user = optional_user(request)
    if user is None:
        raise HTTPException(401, detail={"code": "not_logged_in",
                                         "message": "log in or pick a guest name first"})
    return user


async def csrf_checked_user(request: Request) -> CurrentUser:
    """A logged-in user whose state-changing request carries the session's CSRF token
    (header ``X-CSRF-Token`` for JSON, field ``csrf_token`` for form posts)."""
    user = required_user(request)
    token = request.headers.get(CSRF_HEADER)
    if token is None and request.headers.get("content-type", "").startswith(
            ("application/x-www-form-urlencoded", "multipart/form-data")):
        form = await request.form()
        value = form.get("csrf_token")
        token = value if isinstance(value, str) else None
    if token != user.csrf:
        raise HTTPException(403, detail={"code": "csrf_failed",
                                         "message": "missing or wrong CSRF token"})
    return user


OptionalUser = Annotated[CurrentUser | None, Depends(optional_user)]
RequiredUser = Annotated[CurrentUser, Depends(required_user)]
CsrfUser = Annotated[CurrentUser, Depends(csrf_checked_user)]


def set_login_cookies(response: Response, token: str, csrf: str, secure: bool,
                      days: int) -> None:
    age = days * 86400
    response.set_cookie(SESSION_COOKIE, token, max_age=age, httponly=True, samesite="lax",
                        secure=secure, path="/")
    # readable by the page's script, which echoes it in X-CSRF-Token (double submit)
    response.set_cookie(CSRF_COOKIE, csrf, max_age=age, httponly=False, samesite="strict",
                        secure=secure, path="/")


def clear_login_cookies(response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/")
    response.delete_cookie(CSRF_COOKIE, path="/")


class RateLimiter:
    """At most ``limit`` events per ``window`` seconds per key (sliding window)."""

    def __init__(self, limit: int, window: float = 60.0) -> None:
        self.limit = limit
        self.window = window
        self.events: dict[str, deque[float]] = defaultdict(deque)

    def hit(self, key: str) -> bool:
        now = time.monotonic()
        q = self.events[key]
        while q and now - q[0] > self.window:
            q.popleft()
        if len(q) >= self.limit:
            return False
        q.append(now)
        return True
