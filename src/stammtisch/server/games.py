"""Finished games: the player's history, a game's detail, record and analysis, the share
link, and the ``/replay/{id}`` page — with who may see which game.

Games are addressed by their opaque ``public_id`` (96 random bits); the integer key of
the ``games`` row never leaves the server, so ids can be neither counted through nor
guessed.  Who may see a finished game (:func:`visible_game`):

- a game of a **public** table: anyone who has its id;
- a game of a **private** table: the table's *members* — its creator, whoever sits at
  it now, and every user (account or guest) who was seated in any of its games — and
  anyone who presents the game's share token (``?share=…``).

Everyone else gets ``404 no_game``, the same answer as for an id that does not exist or
a game that is not finished, so an answer never tells whether a game exists.  The
answers name players by seat, name, kind and bot, never by user id.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.responses import FileResponse

from stammtisch.errors import StammtischError
from stammtisch.persistence.models import GameRow, GameTable
from stammtisch.persistence.store import Store
from stammtisch.server.auth import OptionalUser, RequiredUser, store_of

router = APIRouter()

#: what a public id (and a share token) can look like: URL-safe base64, at most 32
#: characters.  Anything else is not looked up at all (no NUL bytes to the database).
_TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{1,32}")

#: private games must not sit in shared caches (their URL may carry the share token)
_PRIVATE_HEADERS = {"Cache-Control": "private, no-store"}


def _no_game() -> HTTPException:
    """The one answer for unknown, unfinished and not-visible games alike."""
    return HTTPException(404, detail={"code": "no_game", "message": "no such finished game"})


@dataclass
class GameAccess:
    game: GameRow
    table: GameTable | None
    public: bool
    #: the viewer is a member of the (private) table
    member: bool

    @property
    def share_url(self) -> str:
        """The link that opens the game for whoever gets it."""
        url = f"/replay/{self.game.public_id}"
        return url if self.public else f"{url}?share={self.game.share_token}"

    @property
    def headers(self) -> dict[str, str]:
        return {} if self.public else dict(_PRIVATE_HEADERS)


def is_member(store: Store, table: GameTable | None, user_id: int | None) -> bool:
    """Whether ``user_id`` is a member of the table: its creator, seated there now
    (a human seat), or seated in any game played there."""
    if user_id is None or table is None:
        return False
    if table.creator_id == user_id:
        return True
    if any(isinstance(s, dict) and s.get("kind") == "human" and s.get("user_id") == user_id
           for s in table.seats or []):
        return True
    return store.played_at_table(table.id, user_id)


def _share_ok(given: str | None, token: str) -> bool:
    if not given or not _TOKEN_RE.fullmatch(given):
        return False
    return secrets.compare_digest(given.encode(), token.encode())


def visible_game(store: Store, public_id: str, user_id: int | None,
                 share: str | None) -> GameAccess:
    """The finished game ``public_id`` if the viewer may see it; else ``404 no_game``."""
    if not _TOKEN_RE.fullmatch(public_id):
        raise _no_game()
    g = store.game_by_public_id(public_id)
    if g is None or not g.finished:
        raise _no_game()
    table = store.table(g.table_id)
    public = table is not None and bool(table.public)
    member = not public and is_member(store, table, user_id)
    if not (public or member or _share_ok(share, g.share_token)):
        raise _no_game()
    return GameAccess(g, table, public, member)


def public_players(players: list[Any]) -> list[dict[str, Any]]:
    """A game's seats as the API shows them: no user ids."""
    return [{k: p.get(k) for k in ("seat", "name", "kind", "bot")}
            for p in players if isinstance(p, dict)]


def _public_record(record: dict[str, Any]) -> dict[str, Any]:
    """A finished game's record as issue 2 defines it (the shuffle log stays inside)."""
    return {k: v for k, v in record.items() if k != "log"}


def stand_in_of(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The actions a bot took for a person's seat (``meta.stand_in`` of the record,
    written by ``TableRuntime.live_record``)."""
    meta = record.get("meta") if isinstance(record, dict) else None
    marks = meta.get("stand_in") if isinstance(meta, dict) else None
    return [m for m in marks if isinstance(m, dict)] if isinstance(marks, list) else []


def _seat_of(players: list[Any], user_id: int | None) -> int | None:
    if user_id is None:
        return None
    for i, p in enumerate(players or []):
        if isinstance(p, dict) and p.get("kind") == "human" and p.get("user_id") == user_id:
            return i
    return None


def _viewer(user: Any) -> int | None:
    return user.id if user is not None else None


# -- history -----------------------------------------------------------------------------
@router.get("/api/me/games")
async def my_games(request: Request, user: RequiredUser) -> dict[str, Any]:
    """The user's finished games; each with its opaque id and the link to share it."""
    store = store_of(request)
    rows = store.history(user.id)
    tables: dict[str, GameTable | None] = {}
    for g, _ in rows:
        if g.table_id not in tables:
            tables[g.table_id] = store.table(g.table_id)
    out = []
    for g, seat in rows:
        t = tables[g.table_id]
        public = t is not None and bool(t.public)
        access = GameAccess(g, t, public, member=not public)
        marks = stand_in_of(g.record)
        out.append({"id": g.public_id, "game": _game_word(g.record), "table_id": g.table_id,
                    "table_name": t.name if t is not None else g.table_id,
                    "stand_in_seats": sorted({int(m.get("seat", -1)) for m in marks}),
                    "bot_for_you": sum(1 for m in marks if m.get("seat") == seat),
                    "number": g.number, "seat": seat, "public": public,
                    "result": g.result, "players": public_players(g.players),
                    "finished_at": g.finished_at.isoformat() if g.finished_at else None,
                    "share_url": access.share_url})
    return {"games": out}


# -- one game ------------------------------------------------------------------------------
@router.get("/api/games/{game_id}")
async def game_detail(request: Request, response: Response, game_id: str, user: OptionalUser,
                      share: str | None = None) -> dict[str, Any]:
    a = visible_game(store_of(request), game_id, _viewer(user), share)
    response.headers.update(a.headers)
    g = a.game
    return {"id": g.public_id, "table_id": g.table_id, "number": g.number,
            "public": a.public, "players": public_players(g.players), "result": g.result,
            "record": _public_record(g.record), "share_url": a.share_url,
            "you": _seat_of(g.players, _viewer(user)), "stand_in": stand_in_of(g.record)}


@router.get("/api/games/{game_id}/share")
async def game_share(request: Request, response: Response, game_id: str, user: OptionalUser,
                     share: str | None = None) -> dict[str, Any]:
    """The link that opens the game for anyone who gets it (``?share=`` for a game of a
    private table); for whoever may see the game."""
    a = visible_game(store_of(request), game_id, _viewer(user), share)
    response.headers.update(a.headers)
    return {"id": a.game.public_id, "public": a.public, "url": a.share_url}


@router.get("/api/games/{game_id}/analysis")
async def game_analysis(request: Request, response: Response, game_id: str,
                        user: OptionalUser, share: str | None = None) -> dict[str, Any]:
    """The double-dummy analysis of a finished game: per card the value before and after,
    the Augen it cost its pair and the better cards (``stammtisch analyze``)."""
    from stammtisch.games import registry

    a = visible_game(store_of(request), game_id, _viewer(user), share)
    response.headers.update(a.headers)
    try:
        record = _public_record(a.game.record)
        desc = registry.get(record.get("game", registry.DEFAULT_GAME))
        if desc.analysis is None:
            raise StammtischError(f"{desc.name}: no double-dummy analysis")
        analyze = desc.analysis().analyze
        plays = await asyncio.to_thread(analyze, record)
    except (StammtischError, ImportError) as e:
        raise HTTPException(422, detail={"code": "not_analysable", "message": str(e)}) from None
    return {"id": a.game.public_id, "plays": [p.to_json() for p in plays]}


@router.get("/api/games/{game_id}/record")
async def game_record(request: Request, game_id: str, user: OptionalUser,
                      share: str | None = None) -> Response:
    a = visible_game(store_of(request), game_id, _viewer(user), share)
    g = a.game
    body = json.dumps(_public_record(g.record), ensure_ascii=False, indent=1)
    return Response(body, media_type="application/json", headers={
        **a.headers,
        "Content-Disposition": f'attachment; filename="{_game_word(g.record)}-{g.table_id}-'
                               f'{g.number}.json"'})


def _game_word(record: Any) -> str:
    """The record's game (its registry name, also for a file name; records without
    ``game`` are Mucken's)."""
    from stammtisch.games.registry import DEFAULT_GAME

    game = record.get("game") if isinstance(record, dict) else None
    return game if isinstance(game, str) and game.isalnum() else DEFAULT_GAME


# -- the page ------------------------------------------------------------------------------
INDEX_HTML = Path(str(resources.files("stammtisch.server") / "static")) / "index.html"


@router.get("/replay/{game_id}", include_in_schema=False)
async def replay_page(request: Request, game_id: str, user: OptionalUser,
                      share: str | None = None) -> FileResponse:
    """The UI's page for a game the viewer may see; the same page with status 404
    otherwise (it then shows "no such game").  ``Referrer-Policy: same-origin`` keeps a
    share token in the address from going to other sites."""
    headers = {"Cache-Control": "no-cache", "Referrer-Policy": "same-origin"}
    try:
        a = visible_game(store_of(request), game_id, _viewer(user), share)
    except HTTPException:
        return FileResponse(INDEX_HTML, status_code=404, headers=headers)
    if not a.public:
        headers["Cache-Control"] = "private, no-store"
    return FileResponse(INDEX_HTML, headers=headers)
