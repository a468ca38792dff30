"""JSON API of the tournament manager (Muckturniere): ``/api/tournaments/…``.

The organiser's routes need a logged-in user who owns the tournament (state-changing
ones also the CSRF header ``X-CSRF-Token``).  The phone at a table uses its link's
``?token=…`` instead of a login and sees and enters only its table's current round.
The live ranking is public.

Errors: ``{"code", "message"}`` with 422 for bad input (the message names it), 409
``conflict`` when the entity changed since the client read it (send the entity's
``expected_version``), 404 for unknown ids, 403 for someone else's tournament or a
wrong table token.

The routes are plain functions: FastAPI runs them in its thread pool, so several desks
and phones are served at the same time (the store keeps their changes apart).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Body, Depends, HTTPException, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from stammtisch.persistence.tournament_store import TournamentStore
from stammtisch.server.auth import CsrfUser, CurrentUser, RequiredUser
from stammtisch.tournament.service import NotFoundError, TournamentService
from stammtisch.tournament.settings import ConflictError, TournamentError

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])

R = TypeVar("R")
_service_guard = threading.Lock()


def error(status: int, code: str, message: str) -> HTTPException:
    return HTTPException(status, detail={"code": code, "message": message})


def service_of(request: Request) -> TournamentService:
    """The app's tournament service (made on first use from the app's database)."""
    state = request.app.state
    svc: TournamentService | None = getattr(state, "tournament_service", None)
    if svc is None:
        with _service_guard:
            svc = getattr(state, "tournament_service", None)
            if svc is None:
                seed = getattr(getattr(state, "settings", None), "seed", None)
                svc = TournamentService(TournamentStore(state.db), seed=seed)
                state.tournament_service = svc
    return svc


Service = Annotated[TournamentService, Depends(service_of)]


def call(fn: Callable[..., R], *args: Any, **kwargs: Any) -> R:
    """Run a service call; its errors become the API's error answers."""
    try:
        return fn(*args, **kwargs)
    except NotFoundError as e:
        raise error(404, e.code, str(e)) from None
    except ConflictError as e:
        raise error(409, "conflict", str(e)) from None
    except TournamentError as e:
        raise error(422, e.code, str(e)) from None


def owned(svc: TournamentService, tid: str, user: CurrentUser) -> None:
    info = call(svc.info, tid)
    if info.owner_user_id != user.id:
        raise error(403, "not_owner", f"tournament {tid!r} is not yours")


def _require_json(request: Request) -> None:
    if not request.headers.get("content-type", "").startswith("application/json"):
        raise error(415, "json_required", "send application/json")


JSON_ONLY = [Depends(_require_json)]


class In(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class CreateIn(In):
    settings: dict[str, Any] = Field(default_factory=dict)


class RegisterIn(In):
    names: list[str]
    paid: bool = False
    helper: bool = False


class CsvIn(In):
    csv: str = Field(max_length=1_000_000)


class CheckInIn(In):
    code: str = Field(max_length=64)


class PaidIn(In):
    paid: bool
    expected_version: int | None = None


class VersionIn(In):
    expected_version: int | None = None


class MoveIn(In):
    table: int
    pos: int


class ClockIn(In):
    at: float | None = None


class TimeUpIn(In):
    force: bool = False


class ResultIn(In):
    games: list[list[int]] | None = Field(default=None, max_length=200)
    winner: int | None = None
    loser_points: int | None = None
    expected_version: int | None = None


class EntryIn(ResultIn):
    source: str = Field(default="desk", min_length=1, max_length=40)
    final: bool = False


class PhoneEntryIn(ResultIn):
    index: int
    side: int | None = None


class ConfirmIn(In):
    source: str = Field(min_length=1, max_length=40)
    expected_version: int | None = None


class CompensateIn(In):
    round: int
    entrant: str
    points: int
    reason: str = Field(max_length=200)


# -- the tournament ------------------------------------------------------------------------
@router.get("")
def my_tournaments(svc: Service, user: RequiredUser) -> dict[str, Any]:
    return {"tournaments": call(svc.tournaments, user.id)}


@router.post("", dependencies=JSON_ONLY)
def create(svc: Service, body: CreateIn, user: CsrfUser) -> dict[str, Any]:
    return call(svc.create, user.name, body.settings, owner_user_id=user.id)


@router.post("/import", dependencies=JSON_ONLY)
def import_json(svc: Service, user: CsrfUser,
                document: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
    """A new tournament from an exported document (``GET …/export.json``)."""
    return call(svc.import_json, user.name, document, owner_user_id=user.id)


@router.get("/{tid}")
def overview(svc: Service, tid: str, user: RequiredUser) -> dict[str, Any]:
    owned(svc, tid, user)
    return call(svc.overview, tid)


@router.post("/{tid}/settings", dependencies=JSON_ONLY)
def change_settings(svc: Service, tid: str, user: CsrfUser,
                    changes: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
    """Change settings (body: the settings to change); after the start only
    ``time_limit_minutes``."""
    owned(svc, tid, user)
    return call(svc.change_settings, tid, user.name, changes)


@router.get("/{tid}/audit")
def audit(svc: Service, tid: str, user: RequiredUser, after: Annotated[int, Query(ge=0)] = 0,
          limit: Annotated[int, Query(ge=1, le=10000)] = 1000) -> dict[str, Any]:
    owned(svc, tid, user)
    return {"audit": call(svc.audit, tid, after=after, limit=limit)}


# -- the desk: registration and the draw --------------------------------------------------
@router.post("/{tid}/entrants", dependencies=JSON_ONLY)
def register(svc: Service, tid: str, body: RegisterIn, user: CsrfUser) -> dict[str, Any]:
    owned(svc, tid, user)
    return call(svc.register, tid, user.name, body.names, paid=body.paid, helper=body.helper)


@router.post("/{tid}/entrants/import", dependencies=JSON_ONLY)
def import_csv(svc: Service, tid: str, body: CsvIn, user: CsrfUser) -> dict[str, Any]:
    owned(svc, tid, user)
    return call(svc.import_csv, tid, user.name, body.csv)


@router.post("/{tid}/check-in", dependencies=JSON_ONLY)
def check_in(svc: Service, tid: str, body: CheckInIn, user: CsrfUser) -> dict[str, Any]:
    owned(svc, tid, user)
    return call(svc.check_in, tid, user.name, body.code)


@router.post("/{tid}/entrants/{entrant}/paid", dependencies=JSON_ONLY)
def set_paid(svc: Service, tid: str, entrant: str, body: PaidIn,
             user: CsrfUser) -> dict[str, Any]:
    owned(svc, tid, user)
    return call(svc.set_paid, tid, user.name, entrant, body.paid, body.expected_version)


@router.post("/{tid}/entrants/{entrant}/withdraw", dependencies=JSON_ONLY)
def withdraw(svc: Service, tid: str, entrant: str, body: VersionIn,
             user: CsrfUser) -> dict[str, Any]:
    owned(svc, tid, user)
    return call(svc.withdraw, tid, user.name, entrant, body.expected_version)


@router.post("/{tid}/entrants/{entrant}/move", dependencies=JSON_ONLY)
def move(svc: Service, tid: str, entrant: str, body: MoveIn, user: CsrfUser) -> dict[str, Any]:
    owned(svc, tid, user)
    return call(svc.move, tid, user.name, entrant, body.table, body.pos)


@router.get("/{tid}/gaps")
def gap_moves(svc: Service, tid: str, user: RequiredUser) -> dict[str, Any]:
    owned(svc, tid, user)
    return call(svc.gap_moves, tid)


@router.post("/{tid}/gaps/close")
def close_gaps(svc: Service, tid: str, user: CsrfUser) -> dict[str, Any]:
    owned(svc, tid, user)
    return call(svc.close_gaps, tid, user.name)


# -- rounds ---------------------------------------------------------------------------------
@router.post("/{tid}/start")
def start(svc: Service, tid: str, user: CsrfUser) -> dict[str, Any]:
    owned(svc, tid, user)
    return call(svc.start, tid, user.name)


@router.post("/{tid}/rounds/next")
def next_round(svc: Service, tid: str, user: CsrfUser) -> dict[str, Any]:
    owned(svc, tid, user)
    return call(svc.next_round, tid, user.name)


@router.post("/{tid}/rounds/{round_}/clock", dependencies=JSON_ONLY)
def start_clock(svc: Service, tid: str, round_: int, body: ClockIn,
                user: CsrfUser) -> dict[str, Any]:
    owned(svc, tid, user)
    return call(svc.start_clock, tid, user.name, round_, body.at)


@router.post("/{tid}/rounds/{round_}/time-up", dependencies=JSON_ONLY)
def time_up(svc: Service, tid: str, round_: int, body: TimeUpIn,
            user: CsrfUser) -> dict[str, Any]:
    owned(svc, tid, user)
    return call(svc.time_up, tid, user.name, round_, force=body.force)


# -- results ------------------------------------------------------------------------------
@router.post("/{tid}/bobbl/{round_}/{table}/{index}/entries", dependencies=JSON_ONLY)
def enter(svc: Service, tid: str, round_: int, table: int, index: int, body: EntryIn,
          user: CsrfUser) -> dict[str, Any]:
    """A Bobbl's result from the desk: ``games`` (``[side, points]`` each, the game that
    reaches the target ends the Bobbl and is not counted) or ``winner`` and
    ``loser_points``; ``final`` accepts it at once (a correction, or over a double entry)."""
    owned(svc, tid, user)
    if body.source.startswith("phone"):
        raise error(422, "invalid_source", f"source={body.source!r}: phone sources are for "
                                           "the tables' phone links")
    return call(svc.enter, tid, user.name, round_, table, index, source=body.source,
                games=body.games, winner=body.winner, loser_points=body.loser_points,
                expected_version=body.expected_version, final=body.final)


@router.post("/{tid}/bobbl/{round_}/{table}/{index}/confirm", dependencies=JSON_ONLY)
def confirm(svc: Service, tid: str, round_: int, table: int, index: int, body: ConfirmIn,
            user: CsrfUser) -> dict[str, Any]:
    owned(svc, tid, user)
    return call(svc.confirm, tid, user.name, round_, table, index, body.source,
                body.expected_version)


@router.post("/{tid}/compensations", dependencies=JSON_ONLY)
def compensate(svc: Service, tid: str, body: CompensateIn, user: CsrfUser) -> dict[str, Any]:
    owned(svc, tid, user)
    return call(svc.compensate, tid, user.name, body.round, body.entrant, body.points,
                body.reason)


# -- the phones at the tables ---------------------------------------------------------------
@router.get("/{tid}/tables/links")
def table_links(svc: Service, tid: str, user: RequiredUser) -> dict[str, Any]:
    """Each table's phone link (for the QR codes on the tables)."""
    owned(svc, tid, user)
    return {"tables": call(svc.table_links, tid)}


def _table_token(svc: TournamentService, tid: str, table: int, token: str | None) -> None:
    if not call(svc.table_access, tid, table, token):
        raise error(403, "bad_token", f"this link does not open table {table}")


@router.get("/{tid}/tables/{table}/sheet")
def table_sheet(svc: Service, tid: str, table: int,
                token: Annotated[str | None, Query(max_length=100)] = None) -> dict[str, Any]:
    _table_token(svc, tid, table, token)
    return call(svc.sheet, tid, table)


@router.post("/{tid}/tables/{table}/entries", dependencies=JSON_ONLY)
def table_entry(svc: Service, tid: str, table: int, body: PhoneEntryIn,
                token: Annotated[str | None, Query(max_length=100)] = None) -> dict[str, Any]:
    """A result from the table's phone (current round; waits for the desk unless phone
    entries are final)."""
    _table_token(svc, tid, table, token)
    return call(svc.phone_enter, tid, table, body.index, side=body.side, games=body.games,
                winner=body.winner, loser_points=body.loser_points,
                expected_version=body.expected_version)


# -- ranking and files -----------------------------------------------------------------------
Method = Literal["bobbl", "plus", "plus-minus"]


@router.get("/{tid}/ranking")
def ranking(svc: Service, tid: str, method: Method | None = None) -> dict[str, Any]:
    """The live ranking (public)."""
    return call(svc.ranking, tid, "ranking (public)", method)


@router.get("/{tid}/results.json")
def results_file(svc: Service, tid: str, user: RequiredUser) -> dict[str, Any]:
    """The results in the format of ``stammtisch tournament rank``."""
    owned(svc, tid, user)
    return call(svc.results_file, tid)


@router.get("/{tid}/export.json")
def export_json(svc: Service, tid: str, user: RequiredUser) -> Response:
    owned(svc, tid, user)
    body = json.dumps(call(svc.export_json, tid), ensure_ascii=False, indent=1)
    return Response(body, media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="muckturnier-{tid}.json"'})


@router.get("/{tid}/export.csv")
def export_csv(svc: Service, tid: str, user: RequiredUser,
               kind: Literal["ranking", "registrations"] = "ranking") -> Response:
    owned(svc, tid, user)
    text = call(svc.export_csv, tid, kind, user.name)
    return Response(text, media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="muckturnier-{tid}-{kind}.csv"'})
