"""JSON API: accounts, lobby and tables (finished games and replays: ``games.py``).

Routes are thin: they check input and call the store or the table manager.
State-changing routes need the CSRF token (``X-CSRF-Token`` header, or a
``csrf_token`` form field); the account routes that create a session accept
JSON only, which a cross-site form cannot send.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from stammtisch.errors import RulesError, StammtischError
from stammtisch.games import registry
from stammtisch.games.base import GameDescription
from stammtisch.persistence.names import name_key
from stammtisch.persistence.store import NameTakenError
from stammtisch.server.auth import (
    CsrfUser,
    OptionalUser,
    PasswordWorkers,
    RateLimiter,
    check_name,
    clear_login_cookies,
    client_address,
    look_alike_of,
    password_problem,
    set_login_cookies,
    store_of,
)
from stammtisch.server.bot_names import bot_info, bots_info
from stammtisch.server.live.seats import Seat
from stammtisch.server.live.table import LIMIT_KEY
from stammtisch.server.table_form import (
    AwayRuleError,
    TableIn,
    away_rule_of,
    match_limit,
    rule_options,
    set_flags,
)
from stammtisch.server.tables import TableManager, TableRuntime, default_bot

router = APIRouter(prefix="/api")


def error(status: int, code: str, message: str) -> HTTPException:
    return HTTPException(status, detail={"code": code, "message": message})


def manager_of(request: Request) -> TableManager:
    m: TableManager = request.app.state.tables
    return m


def _require_json(request: Request) -> None:
    if not request.headers.get("content-type", "").startswith("application/json"):
        raise error(415, "json_required", "send application/json")


#: a route dependency: it runs before the body is validated, so any other content type
#: gets 415 (not a 422 about the body's shape)
JSON_ONLY = [Depends(_require_json)]


class Credentials(BaseModel):
    name: Any = None
    password: Any = None


class GuestIn(BaseModel):
    name: Any = None


async def _login_response(request: Request, user_id: int, name: str,
                          guest: bool) -> JSONResponse:
    settings = request.app.state.settings
    store = store_of(request)

    def open_session() -> tuple[str, str, str]:
        token, csrf = store.create_session(user_id, settings.session_days)
        user = store.user(user_id)
        return token, csrf, user.language if user is not None else "de"

    # the store's calls are blocking database work: in a worker thread, not on the loop
    token, csrf, language = await run_in_threadpool(open_session)
    resp = JSONResponse({"id": user_id, "name": name, "guest": guest, "csrf": csrf,
                         "language": language})
    set_login_cookies(resp, token, csrf, settings.secure_cookies, settings.session_days)
    return resp


def passwords_of(request: Request) -> PasswordWorkers:
    workers: PasswordWorkers = request.app.state.passwords
    return workers


def _limited(request: Request, limiter_name: str, key: str, what: str) -> None:
    limiter: RateLimiter = getattr(request.app.state, limiter_name)
    if not limiter.hit(key):
        raise HTTPException(429, detail={"code": "rate_limited",
                                         "message": f"too many {what}; wait a minute"},
                            headers={"Retry-After": str(limiter.retry_after(key))})


async def _check_look_alike(request: Request, name: str) -> None:
    """409 ``name_taken`` when a registered user's name looks the same: reason ``taken``
    (the same NFKC case fold) or ``confusable`` (look-alike letters of another script)."""
    other = await passwords_of(request).check(look_alike_of, store_of(request), name)
    if other is None:
        return
    same = name_key(other) == name_key(name)
    raise HTTPException(409, detail={
        "code": "name_taken", "reason": "taken" if same else "confusable",
        "message": f"name {name!r} is already registered" if same
        else f"name {name!r} looks like the registered name {other!r}"})


@router.post("/register", dependencies=JSON_ONLY)
async def register(request: Request, body: Credentials) -> JSONResponse:
    _limited(request, "register_limiter", client_address(request), "registrations")
    _limited(request, "register_global_limiter", "*", "registrations")
    name = check_name(body.name)
    passwords = passwords_of(request)
    problem = await passwords.check(password_problem, body.password, name)
    if problem is not None:
        reason, message = problem
        raise HTTPException(422, detail={"code": "weak_password", "reason": reason,
                                         "message": message})
    await _check_look_alike(request, name)
    password_hash = await passwords.hash(body.password)
    try:
        user = await run_in_threadpool(store_of(request).create_user, name, password_hash,
                                       False)
    except NameTakenError as e:
        raise HTTPException(409, detail={"code": "name_taken", "reason": "taken",
                                         "message": str(e)}) from None
    return await _login_response(request, user.id, user.name, False)


@router.post("/login", dependencies=JSON_ONLY)
async def login(request: Request, body: Credentials) -> JSONResponse:
    key = f"{client_address(request)}|{name_key(str(body.name)[:100])}"
    _limited(request, "login_limiter", key, "login attempts")
    if not isinstance(body.name, str) or not isinstance(body.password, str):
        raise error(422, "invalid_login", "name and password are required")
    if len(body.name) > 100 or len(body.password) > 1024:
        raise error(401, "bad_credentials", "wrong name or password")
    user = await run_in_threadpool(store_of(request).user_by_name, body.name)
    # an unknown name costs the same argon2 work as a wrong password (no timing oracle)
    if not await passwords_of(request).verify(
            user.password_hash if user is not None else None, body.password) \
            or user is None:
        raise error(401, "bad_credentials", "wrong name or password")
    return await _login_response(request, user.id, user.name, False)


@router.post("/guest", dependencies=JSON_ONLY)
async def guest(request: Request, body: GuestIn) -> JSONResponse:
    name = check_name(body.name)
    await _check_look_alike(request, name)
    user = await run_in_threadpool(store_of(request).create_user, name, None, True)
    return await _login_response(request, user.id, user.name, True)


@router.post("/logout")
async def logout(request: Request, user: CsrfUser) -> JSONResponse:
    from stammtisch.server.auth import SESSION_COOKIE

    token = request.cookies.get(SESSION_COOKIE)
    if token:
        store_of(request).delete_session(token)
    resp = JSONResponse({"ok": True})
    clear_login_cookies(resp)
    return resp


@router.get("/me")
async def me(user: OptionalUser) -> dict[str, Any]:
    if user is None:
        return {"user": None}
    return {"user": {"id": user.id, "name": user.name, "guest": user.is_guest,
                     "csrf": user.csrf, "language": user.language}}


class LanguageIn(BaseModel):
    language: str


@router.post("/me/language")
async def set_language(request: Request, body: LanguageIn, user: CsrfUser) -> dict[str, Any]:
    if body.language not in ("de", "en", "es"):
        raise error(422, "invalid_language", "language must be 'de', 'en' or 'es'")
    store_of(request).set_language(user.id, body.language)
    return {"language": body.language}


@router.get("/presets")
async def presets() -> dict[str, Any]:
    """Mucken's presets and bots (the keys the table form reads), and under ``games`` the
    same for every registered game, with its titles, seats and UI module."""
    # (the docstring is the route's description in /api/openapi.json: kept as it was)
    games = {d.name: _game_info(d) for d in registry.descriptions()}
    default = games[registry.DEFAULT_GAME]
    return {"presets": default["presets"], "bots": default["bots"],
            "bot_info": default["bot_info"], "default_bot": default["default_bot"],
            "games": games}


def _game_info(desc: GameDescription) -> dict[str, Any]:
    bots = registry.bot_names(desc.name)
    return {"title": dict(desc.title), "seats": list(desc.seats),
            "presets": {name: r.to_json() for name, r in desc.presets.items()},
            "default_preset": desc.default_preset,
            "bots": sorted(bots, key=lambda b: (bot_info(b)["strength"], b)),
            "bot_info": bots_info(bots), "default_bot": default_bot(desc.name),
            "ui_module": desc.ui_module, "tables": desc.new_match is not None}


@router.get("/games/{game}/options")
async def game_options(game: str) -> dict[str, Any]:
    """The option schema of ``game``'s rules (``GamePlugin.options.to_json()``): each
    option's type, allowed values, value in each preset and source sentence — what the
    new-table form's fields are built from; ``404 unknown_game`` for another name."""
    try:
        desc = registry.get(game)
    except StammtischError as e:
        raise error(404, "unknown_game", str(e)) from None
    return desc.options.to_json()


# -- tables --------------------------------------------------------------------------------
@router.get("/tables")
async def list_tables(request: Request) -> dict[str, Any]:
    return {"tables": manager_of(request).lobby_list()}


@router.post("/tables")
async def create_table(request: Request, body: TableIn, user: CsrfUser) -> dict[str, Any]:
    options = rule_options(body)
    try:
        desc = registry.get(body.game)
    except StammtischError as e:
        raise error(422, "unknown_game", str(e)) from None
    if desc.new_match is None:
        raise error(422, "unknown_game", f"{desc.name}: no online tables yet")
    rules = _rules_from(desc, body.preset or desc.default_preset, options)
    bot_name = body.bot or default_bot(desc.name)
    known = registry.bot_names(desc.name)
    if bot_name not in known:
        raise error(422, "unknown_bot", f"unknown bot {bot_name!r} (known: {known})")
    players = _players_of(desc, body.players)
    if body.seat is not None and body.seat >= players:
        raise error(422, "invalid_request", f"seat {body.seat}: the table has seats "
                                            f"0..{players - 1}")
    if body.bots == "fill":
        bot_seats = [i for i in range(players) if i != body.seat]
    elif isinstance(body.bots, list):
        bot_seats = sorted(set(body.bots))
        if any(not 0 <= i < players for i in bot_seats) or body.seat in bot_seats:
            raise error(422, "invalid_seats", f"bot seats must be 0..{players - 1} and not "
                                              "your own seat")
    else:
        raise error(422, "invalid_seats", "bots must be a list of seats or 'fill'")
    name = " ".join(body.name.split()) or "Stammtisch"
    if any(ch in name for ch in "<>"):
        raise error(422, "invalid_name", "table name may not contain < or >")
    turn_timer = body.turn_timer
    if turn_timer is None:
        turn_timer = request.app.state.settings.turn_timer
    away_timeout = body.away_timeout
    if away_timeout is None:
        away_timeout = request.app.state.settings.away_timeout
    try:
        away_rule = away_rule_of(body)
    except AwayRuleError as e:
        raise error(422, "invalid_away_rule", str(e)) from None
    # the match's length in the game's own unit (a number of Bobbl, of rounds …)
    limit = match_limit(body, desc.table)
    settings: dict[str, Any] = {
        "turn_timer": turn_timer, LIMIT_KEY: limit, "allow_hints": body.allow_hints,
        "bot_takeover": away_rule == "bot", "away_timeout": away_timeout}
    m = manager_of(request)
    if body.seat is None and len(bot_seats) == players:
        # bots only: a demonstration table, a few at a time, for a set number of games
        _check_demo(request, m, user.id)
        settings["demo_games"] = request.app.state.settings.demo_games
    match_options = _match_options_of(body.match_options)
    for flag in set_flags(body):  # true/false match options of the games that have them
        if flag not in desc.table.match_flags:
            raise error(422, "invalid_rules", f"{flag}: not a rule of {desc.title['en']}")
        match_options[flag] = True
    _check_match(desc, rules, limit, players, match_options)
    if match_options:
        settings["match_options"] = match_options
    if players != 4:
        settings["players"] = players
    rt = m.create(name=name, creator_id=user.id, creator_name=user.name, public=body.public,
                  rules=rules, settings=settings, bot_seats=bot_seats, bot_name=bot_name,
                  creator_seat=body.seat, game=desc.name)
    await _maybe_start(rt)
    await m.lobby_changed()
    return {"id": rt.id, "invite_code": rt.invite_code,
            "url": f"/t/{rt.id}" + ("" if rt.public else f"?invite={rt.invite_code}")}


def _check_demo(request: Request, m: TableManager, user_id: int) -> None:
    """``429 rate_limited`` when the user already runs ``demo_tables`` demonstration
    tables (tables of bots only) that are not finished."""
    most = request.app.state.settings.demo_tables
    running = sum(1 for rt in m.tables.values()
                  if rt.creator_id == user_id and rt.demo_games and rt.status != "finished")
    if running >= most:
        raise HTTPException(429, detail={
            "code": "rate_limited",
            "message": f"at most {most} tables of bots only at a time; wait until one "
                       "has finished"}, headers={"Retry-After": "60"})


#: limits of a table's ``match_options`` (any JSON from the client)
MATCH_OPTIONS_KEYS = 16
MATCH_OPTIONS_CHARS = 2000


def _players_of(desc: GameDescription, value: Any) -> int:
    """The table's seat count: ``value`` (a whole number in the game's ``seats`` range),
    or 4 (the smallest number the game allows if it cannot have four)."""
    low, high = desc.seats
    if value is None:
        return 4 if low <= 4 <= high else low
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise error(400, "invalid_players",
                    f"players={str(value)[:20]!r}: {desc.title['en']} is played by "
                    + (f"{low}" if low == high else f"{low} to {high}"))
    return value


def _match_options_of(value: Any) -> dict[str, Any]:
    """``match_options`` checked for shape and size: an object of at most
    :data:`MATCH_OPTIONS_KEYS` options whose values are scalars or flat lists, at most
    :data:`MATCH_OPTIONS_CHARS` characters as JSON."""
    import json

    if value is None:
        return {}
    bad = None
    if not isinstance(value, dict):
        bad = "must be an object of options"
    elif len(value) > MATCH_OPTIONS_KEYS:
        bad = f"at most {MATCH_OPTIONS_KEYS} options"
    elif "players" in value:
        bad = "players: give it as the table's 'players'"
    else:
        for key, v in value.items():
            items = v if isinstance(v, list) else [v]
            if len(key) > 40 or not all(x is None or isinstance(x, (bool, int, float, str))
                                        for x in items):
                bad = f"{key[:40]!r}: a value must be a number, text, true/false or a list"
                break
        else:
            if len(json.dumps(value)) > MATCH_OPTIONS_CHARS:
                bad = f"at most {MATCH_OPTIONS_CHARS} characters"
    if bad is not None:
        raise error(400, "invalid_match_options", f"match_options: {bad}")
    return dict(value)


def _check_match(desc: GameDescription, rules: Any, limit: int | None, players: int,
                 options: dict[str, Any]) -> None:
    """Build the match once as the table will (``players`` for games of varying seats):
    ``400 invalid_match_options`` when the game refuses the options."""
    assert desc.new_match is not None
    kwargs = dict(options)
    if desc.seats[0] != desc.seats[1]:
        kwargs["players"] = players
    try:
        desc.new_match(rules, 0, limit, **kwargs)
    except (RulesError, TypeError, ValueError) as e:
        raise error(400, "invalid_match_options", f"match_options: {e}") from None


def _rules_from(desc: GameDescription, preset: str, options: dict[str, Any]) -> Any:
    """The table's rules; a 422 that names the bad option.  The options are any JSON, and
    a wrongly typed value can fail inside the rules' checks with a TypeError, KeyError …
    that does not name it: every failure here is the client's bad input, never a 500."""
    if preset not in desc.presets:
        raise error(422, "invalid_rules",
                    f"unknown {desc.title['en']} preset {preset!r} "
                    f"(known: {', '.join(sorted(desc.presets))})")
    try:
        return desc.make_rules(preset, **options)
    except Exception as e:
        message = str(e) or type(e).__name__
    if not any(key in message for key in options):
        for key, value in options.items():
            try:
                desc.make_rules(preset, **{key: value})
            except Exception as e:
                message = f"{key}={value!r}: {e or type(e).__name__}"
                break
    raise error(422, "invalid_rules", message)


def _table_for(request: Request, table_id: str, invite: str | None,
               user_id: int | None) -> TableRuntime:
    rt = manager_of(request).get(table_id)
    if rt is None:
        raise error(404, "no_table", f"no table {table_id!r}")
    if (not rt.public and invite != rt.invite_code and rt.seat_of(user_id) is None
            and user_id not in rt.stood_up):
        raise error(403, "private_table", "this table is private; use its invite link")
    return rt


@router.get("/tables/{table_id}")
async def get_table(request: Request, table_id: str, user: OptionalUser,
                    invite: str | None = None) -> dict[str, Any]:
    uid = user.id if user else None
    rt = _table_for(request, table_id, invite, uid)
    return rt.table_info(rt.seat_of(uid), uid)


class JoinIn(BaseModel):
    seat: int = Field(ge=0, le=5)
    invite: str | None = None


async def _maybe_start(rt: TableRuntime) -> None:
    if rt.is_full() and rt.status == "open" and rt.game is None and rt.may_deal() is None:
        async with rt.lock:
            if rt.game is None:
                await rt.start_game()
    else:
        rt.version += 1
        await rt.broadcast()


@router.post("/tables/{table_id}/join")
async def join(request: Request, table_id: str, body: JoinIn, user: CsrfUser) -> dict[str, Any]:
    rt = _table_for(request, table_id, body.invite, user.id)
    if body.seat >= rt.num_seats:
        raise error(422, "invalid_request", f"seat {body.seat}: the table has seats "
                                            f"0..{rt.num_seats - 1}")
    if rt.seat_of(user.id) is not None:
        raise error(409, "already_seated", f"you already sit at seat {rt.seat_of(user.id)}")
    if rt.status == "finished":
        raise error(409, "match_over", "the table's match is over")
    seat = rt.seats[body.seat]
    if seat.kind != "empty":
        raise error(409, "seat_taken", f"seat {body.seat} is taken")
    seat.kind, seat.user_id, seat.name = "human", user.id, user.name
    seat.come_back()
    if rt.status == "open":
        rt.save_table()
        await _maybe_start(rt)
    else:  # a free seat during the match: the player takes it over (a bot played it)
        await rt.seats_changed()
    await manager_of(request).lobby_changed()
    return {"seat": body.seat}


@router.post("/tables/{table_id}/leave")
async def leave(request: Request, table_id: str, user: CsrfUser) -> dict[str, Any]:
    rt = _table_for(request, table_id, None, user.id)
    seat = rt.seat_of(user.id)
    if seat is None:
        raise error(409, "not_seated", "you do not sit at this table")
    # "Aufstehen": the seat is free (during a game a bot finishes it, marked); the
    # player — or another person — may sit down on it until the match ends
    rt.timers.cancel_away(seat)
    rt.seats[seat] = Seat()
    rt.stood_up.add(user.id)
    await rt.seats_changed()
    await rt.referee.end_if_nobody_left()
    await manager_of(request).lobby_changed()
    return {"left": seat}


class BotsIn(BaseModel):
    seats: list[int] | str = "fill"
    bot: str | None = None


@router.post("/tables/{table_id}/bots")
async def add_bots(request: Request, table_id: str, body: BotsIn,
                   user: CsrfUser) -> dict[str, Any]:
    rt = _table_for(request, table_id, None, user.id)
    if rt.creator_id != user.id:
        raise error(403, "not_creator", "only the table's creator may seat bots")
    bot_name = body.bot or default_bot(rt.game_name)
    if bot_name not in registry.bot_names(rt.game_name):
        raise error(422, "unknown_bot", f"unknown bot {bot_name!r}")
    seats = [i for i in range(rt.num_seats) if rt.seats[i].kind == "empty"] \
        if body.seats == "fill" else list(body.seats) if isinstance(body.seats, list) else []
    for i in seats:
        if not 0 <= i < rt.num_seats or rt.seats[i].kind != "empty":
            raise error(409, "seat_taken", f"seat {i} is not free")
    for i in seats:
        s = rt.seats[i]
        s.kind, s.name, s.bot = "bot", f"Bot {i + 1}", bot_name
    rt.save_table()
    await _maybe_start(rt)
    await manager_of(request).lobby_changed()
    return {"bots": seats}


# -- history and records: server/games.py (games are seen by opaque id, with access rules)
