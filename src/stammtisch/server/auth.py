"""Accounts: argon2 password hashes, HttpOnly SameSite session cookies, CSRF tokens,
guests, and the login rate limit."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import math
import os
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import Depends, HTTPException, Request, Response
from sqlalchemy import select
from zxcvbn import zxcvbn
from zxcvbn.matching import RANKED_DICTIONARIES

from stammtisch.persistence.models import User
from stammtisch.persistence.names import name_key, normalise, skeleton
from stammtisch.persistence.store import Store

T = TypeVar("T")

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


@functools.cache
def _stand_in_hash() -> str:
    """A hash of a random secret, made once: a login for a name without a password is
    verified against it, so the answer takes as long as a wrong password for a real
    account and its timing does not tell which names exist."""
    return _hasher.hash(secrets.token_urlsafe(24))


def verify_stand_in(password: str) -> bool:
    """Spend the time of a real verification; always ``False``."""
    verify_password(_stand_in_hash(), password)
    return False


def check_name(name: Any) -> str:
    """The name as stored: NFKC-normalised, whitespace collapsed; 422 ``invalid_name``."""
    if not isinstance(name, str):
        raise HTTPException(422, detail={"code": "invalid_name", "message": "name must be text"})
    if len(name) > 4 * NAME_MAX:
        raise HTTPException(422, detail={
            "code": "invalid_name", "message": f"name must be {NAME_MIN}..{NAME_MAX} characters"})
    clean = normalise(name)
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
    """At most ``limit`` events per ``window`` seconds per key (sliding window).

    Keys idle for a whole window are dropped (swept at most once per window, so the
    dict holds only the keys of the last two windows however many addresses come)."""

    def __init__(self, limit: int, window: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.events: dict[str, deque[float]] = {}
        self._swept = clock()

    def _sweep(self, now: float) -> None:
        self._swept = now
        stale = [k for k, q in self.events.items() if not q or now - q[-1] > self.window]
        for k in stale:
            del self.events[k]

    def hit(self, key: str) -> bool:
        now = self.clock()
        if now - self._swept > self.window:
            self._sweep(now)
        q = self.events.get(key)
        if q is None:
            q = self.events[key] = deque()
        while q and now - q[0] > self.window:
            q.popleft()
        if len(q) >= self.limit:
            return False
        q.append(now)
        return True

    def retry_after(self, key: str) -> int:
        """Whole seconds until ``key`` may try again (at least 1)."""
        q = self.events.get(key)
        if not q:
            return 1
        return max(1, math.ceil(self.window - (self.clock() - q[0])))


def client_address(request: Request) -> str:
    """The client's address as uvicorn saw it (a proxy's ``X-Forwarded-For`` counts only
    when ``forwarded_allow_ips`` names that proxy: see :func:`server.runner.uvicorn_config`)."""
    return request.client.host if request.client else "?"


def _lower_priority() -> None:
    with contextlib.suppress(AttributeError, OSError):  # Linux: the priority is per thread
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(),
                       min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10))


class PasswordWorkers:
    """Argon2 hashing and verification in a bounded thread pool, never on the event loop.

    argon2-cffi releases the GIL while it hashes, so the loop keeps serving the tables.
    At most ``threads`` hashes run at once; beyond ``queue`` waiting jobs a request gets
    ``503 busy`` (with ``Retry-After``) instead of queueing without end.  On Linux the
    pool's threads run at nice +10 (a thread's own priority): on a busy machine the loop
    thread gets the CPU first and a login waits a little longer instead.  Only C code
    that holds no GIL belongs here (a niced thread holding the GIL would stall the loop)."""

    def __init__(self, threads: int = 2, queue: int = 64) -> None:
        self.pool = ThreadPoolExecutor(max(1, threads), thread_name_prefix="stammtisch-argon2",
                                       initializer=_lower_priority)
        #: the Python-heavy checks (zxcvbn, look-alike names): one thread, so at most one
        #: thread besides the loop wants the GIL for them however many requests come
        self.checks = ThreadPoolExecutor(1, thread_name_prefix="stammtisch-checks")
        self.queue = max(1, queue)
        self.waiting = 0
        self._lock = threading.Lock()

    async def check(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.checks, fn, *args)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        with self._lock:
            if self.waiting >= self.queue:
                raise HTTPException(503, detail={"code": "busy",
                                                 "message": "the server is busy; try again"},
                                    headers={"Retry-After": "2"})
            self.waiting += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)
        finally:
            with self._lock:
                self.waiting -= 1

    async def hash(self, password: str) -> str:
        return await self.run(hash_password, password)

    async def verify(self, password_hash: str | None, password: str) -> bool:
        """Whether ``password`` matches; with no hash (an unknown name, a guest) the
        same work is done against a stand-in and the answer is ``False``."""
        if password_hash is None:
            return await self.run(verify_stand_in, password)
        return await self.run(verify_password, password_hash, password)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.checks.shutdown(wait=False, cancel_futures=True)


# -- passwords and look-alike names ---------------------------------------------------------
PASSWORD_MAX = 256
#: zxcvbn's score (0..4) a password needs: 3 is "safely unguessable" for an online attack
#: and a fair margin against an offline one with a slow hash
PASSWORD_MIN_SCORE = 3
#: zxcvbn looks at this many characters (its cost grows with the length; 72 is its limit)
_ZXCVBN_CHARS = 72


def password_problem(password: Any, name: str) -> tuple[str, str] | None:
    """Why ``password`` is refused for an account named ``name``: ``(reason, message)``,
    or None.  Reasons: ``too_short``, ``too_long``, ``contains_name``, ``common`` (in
    zxcvbn's list of common passwords, case and l33t aside), ``guessable`` (zxcvbn score
    below :data:`PASSWORD_MIN_SCORE`)."""
    if not isinstance(password, str) or len(password) < PASSWORD_MIN:
        return "too_short", f"password needs at least {PASSWORD_MIN} characters"
    if len(password) > PASSWORD_MAX:
        return "too_long", f"password may have at most {PASSWORD_MAX} characters"
    key = name_key(password)
    own = name_key(name)
    squeezed = own.replace(" ", "")
    if own in key or (len(squeezed) >= 3 and squeezed in key.replace(" ", "")):
        return "contains_name", "password may not be or contain the name"
    common = RANKED_DICTIONARIES["passwords"]
    if password.casefold() in common or " ".join(key.split()) in common:
        return "common", "password is one of the most common passwords"
    result = zxcvbn(password[:_ZXCVBN_CHARS], user_inputs=[name, *name.split()])
    for match in result.get("sequence", ()):
        if (match.get("dictionary_name") == "passwords"
                and len(match.get("token", "")) == len(password)):
            return "common", "password is one of the most common passwords"
    if result["score"] < PASSWORD_MIN_SCORE:
        warning = result.get("feedback", {}).get("warning") or "easy to guess"
        return "guessable", f"password is too easy to guess ({warning})"
    return None


_skeleton_cached = functools.lru_cache(maxsize=65536)(skeleton)


def look_alike_of(store: Store, name: str) -> str | None:
    """A registered user's name that ``name`` cannot be told apart from (same NFKC case
    fold, or same :func:`~stammtisch.persistence.names.skeleton`), or None.

    Compares against every registered name (their skeletons are cached): fine for the
    user counts of a Stammtisch server; a stored skeleton column would make it a lookup."""
    key, skel = name_key(name), skeleton(name)
    with store.db.session() as s:
        names = s.scalars(select(User.name).where(User.is_guest.is_(False))).all()
    for other in names:
        if name_key(other) == key or _skeleton_cached(other) == skel:
            return other
    return None

