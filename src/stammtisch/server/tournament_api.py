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
from urllib.parse import quote

from fastapi import APIRouter, Body, Depends, HTTPException, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from stammtisch.persistence.tournament_store import TournamentStore
from stammtisch.server.auth import CsrfUser, CurrentUser, RequiredUser
from stammtisch.tournament import pdf, qr
from stammtisch.tournament.service import NotFoundError, TournamentService, table_token
from stammtisch.tournament.settings import ConflictError, TournamentError

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])

R = TypeVar("R")
_service_guard = threading.Lock()


def error(status: int, code: str, message: str, reason: str = "",
          params: dict[str, object] | None = None) -> HTTPException:
    """An error answer: ``{"code", "message"}`` (English, for API clients), and for the
    pages' own wording ``reason`` (which refusal of the code it is) and ``params`` (its
    variable parts), when there are such."""
    detail: dict[str, object] = {"code": code, "message": message}
    if reason:
        detail["reason"] = reason
    if params:
        detail["params"] = params
    return HTTPException(status, detail=detail)


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
        raise error(404, e.code, str(e), e.reason, e.params) from None
    except ConflictError as e:
        # ``conflict`` names the entity and both versions, for the pages' own wording
        raise HTTPException(409, detail={"code": "conflict", "message": str(e),
                                         "conflict": e.detail}) from None
    except TournamentError as e:
        raise error(422, e.code, str(e), e.reason, e.params) from None


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


class PresentIn(In):
    present: bool
    expected_version: int | None = None


class RequestIn(In):
    source: str = Field(min_length=1, max_length=40)
    accept: bool
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


@router.post("/{tid}/entrants/{entrant}/present", dependencies=JSON_ONLY)
def set_present(svc: Service, tid: str, entrant: str, body: PresentIn,
                user: CsrfUser) -> dict[str, Any]:
    """Mark an entrant present or absent (before the start, or between rounds)."""
    owned(svc, tid, user)
    return call(svc.set_present, tid, user.name, entrant, body.present, body.expected_version)


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


@router.post("/{tid}/bobbl/{round_}/{table}/{index}/request", dependencies=JSON_ONLY)
def settle_request(svc: Service, tid: str, round_: int, table: int, index: int,
                   body: RequestIn, user: CsrfUser) -> dict[str, Any]:
    """Accept or reject a phone's correction request of an agreed Bobbl."""
    owned(svc, tid, user)
    return call(svc.settle_request, tid, user.name, round_, table, index, body.source,
                body.accept, body.expected_version)


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
        raise error(403, "bad_token", f"this link does not open table {table}",
                    params={"table": table})


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
    return call(svc.results_file, tid, user.name)


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


# -- printouts and QR codes -------------------------------------------------------------------
PDF_KINDS = ("score-sheets", "table-cards", "draw-slips", "ranking", "certificates",
             "registration-qr")


def _base_url(request: Request) -> str:
    return str(request.base_url).rstrip("/")


def phone_url(request: Request, tid: str, secret: str, table: int) -> str:
    """The address of a table's phone page (the QR code on its score sheet)."""
    token = table_token(secret, tid, table)
    return f"{_base_url(request)}/turnier/{quote(tid, safe='')}/tisch/{table}?token={token}"


def checkin_url(request: Request, tid: str, code: str) -> str:
    """The address in a pre-registration's QR code: the desk with the code to check in (a
    USB scanner types it into the desk's check-in field, which reads the code from it)."""
    return f"{_base_url(request)}/turnier/{quote(tid, safe='')}?checkin={quote(code, safe='')}"


def _pdf(svc: TournamentService, request: Request, tid: str, kind: str, user_name: str,
         round_: int | None, top: int) -> tuple[bytes, str]:
    if kind in ("ranking", "certificates"):
        call(svc.ranking, tid, user_name)  # draws and stores any lot the ranking needs
    t, info = call(svc.load, tid)
    if kind == "score-sheets":
        number = round_ if round_ is not None else len(t.rounds)
        if not t.rounds:
            raise error(422, "not_started", "score sheets: the tournament has not started "
                                            "(no round is seated yet)")
        if not 1 <= number <= len(t.rounds):
            raise error(404, "not_found", f"round={number}: no such round (seated: "
                                          f"{len(t.rounds)})", "no_round", {"round": number})
        data = call(pdf.score_sheets, t, number,
                    lambda n: phone_url(request, tid, info.table_token, n))
        return data, f"spielstandzettel-runde-{number}"
    if kind == "table-cards":
        return call(pdf.table_cards, t), "tischkarten"
    if kind == "draw-slips":
        return call(pdf.draw_slips, t), "auslosung"
    if kind == "ranking":
        return call(pdf.ranking_list, t), "rangliste"
    if kind == "certificates":
        return call(pdf.certificates, t, top), "urkunden"
    return (call(pdf.registration_qr_sheet, t, lambda c: checkin_url(request, tid, c)),
            "anmeldung-qr")


@router.get("/{tid}/pdf/{kind}")
def pdf_document(svc: Service, request: Request, tid: str, kind: str, user: RequiredUser,
                 round_: Annotated[int | None, Query(alias="round", ge=1, le=50)] = None,
                 top: Annotated[int, Query(ge=1, le=100)] = 3) -> Response:
    """A printout as PDF: ``score-sheets`` (of ``?round=``, default the current one),
    ``table-cards``, ``draw-slips``, ``ranking``, ``certificates`` (the first ``?top=``
    places) or ``registration-qr`` (check-in codes of the pre-registrations)."""
    owned(svc, tid, user)
    if kind not in PDF_KINDS:
        raise error(404, "not_found", f"no printout {kind!r} (known: {', '.join(PDF_KINDS)})",
                    "no_printout")
    data, name = _pdf(svc, request, tid, kind, user.name, round_, top)
    return Response(data, media_type="application/pdf", headers={
        "Content-Disposition": f'attachment; filename="muckturnier-{tid}-{name}.pdf"',
        "Cache-Control": "no-store"})


@router.get("/{tid}/tables/{table}/qr.svg")
def table_qr(svc: Service, request: Request, tid: str, table: int,
             user: RequiredUser) -> Response:
    """The QR code of a table's phone page (SVG)."""
    owned(svc, tid, user)
    count = len(call(svc.table_links, tid))
    if not 1 <= table <= count:
        raise error(404, "not_found", f"no table {table} (tables: 1..{count})", "no_table_qr",
                    {"table": table, "count": count})
    info = call(svc.info, tid)
    return Response(qr.qr_svg(phone_url(request, tid, info.table_token, table)),
                    media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


@router.get("/{tid}/clock")
def clock(svc: Service, tid: str) -> dict[str, Any]:
    """The current round and its clock (public, for the projector)."""
    t, info = call(svc.load, tid)
    out: dict[str, Any] = {"name": t.settings.name, "rounds": t.settings.rounds,
                           "round": len(t.rounds) or None, "clock": None,
                           "time_limit_minutes": t.settings.time_limit_minutes,
                           "tournament_version": info.version}
    if t.rounds:
        rnd = t.rounds[-1]
        limit = t.settings.time_limit_minutes * 60
        ends = rnd.started_at + limit if rnd.started_at is not None and limit else None
        out["clock"] = {"started_at": rnd.started_at, "ends_at": ends, "closed": rnd.closed,
                        "remaining": None if ends is None else max(0.0, ends - svc.clock())}
    return out
