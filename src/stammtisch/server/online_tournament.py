"""Online tournaments: a tournament round played on the server's tables.

Opening a round creates one private table per tournament table with the drawn
pairs (pair 1 on seats 0 and 2, pair 2 on seats 1 and 3).  Every seat starts with
a bot standing in and a claim link for its player; a player who opens the link
takes the seat.  Each finished Bobbl flows into the tournament at once (no entry
by anybody), flagged when a bot stood in for a player.  The round clock is
enforced: when it runs out, the round's tables stop and the open Bobbl are
lost by both pairs with their points so far as Tore (seed 001, "Zeitlimit").

Duplicate deals (an option when opening the round): every table of the round
plays the same sequence of deals — the shuffle of game k is drawn from a seed
shared by the round, and the cards are dealt without Abheben (a cut would make
the tables' deals differ) — so the ranking measures play more than luck.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from stammtisch.games import registry
from stammtisch.server.auth import CsrfUser, RequiredUser
from stammtisch.server.live.table import LiveTable
from stammtisch.server.tables import Seat, TableManager, TableRuntime, default_bot
from stammtisch.server.tournament_api import error
from stammtisch.tournament.service import TournamentService
from stammtisch.tournament.settings import TournamentError

router = APIRouter(prefix="/api/tournaments")

#: the game of a Muckturnier
GAME = "mucken"


class OnlineRounds:
    """Links tournament rounds to live tables; created by the app at start."""

    def __init__(self, manager: TableManager, service: TournamentService) -> None:
        self.manager = manager
        self.service = service
        self.timers: dict[tuple[str, int], asyncio.TimerHandle] = {}
        manager.on_match_part = self.bobbl_finished

    # -- tables of a round -------------------------------------------------------------
    def tables_of(self, tid: str, round_: int) -> dict[int, TableRuntime]:
        out = {}
        for rt in self.manager.tables.values():
            info = rt.settings.get("tournament")
            if info and info.get("id") == tid and info.get("round") == round_:
                out[int(info["table"])] = rt
        return out

    async def open_round(self, tid: str, round_: int, who: str, *, duplicate: bool,
                         bot: str, creator_id: int | None) -> dict[str, Any]:
        t, _ = self.service.load(tid)
        if not 1 <= round_ <= len(t.rounds):
            raise error(404, "not_found", f"no round {round_} (seated: {len(t.rounds)})",
                         "no_round", {"round": round_})
        if round_ != len(t.rounds):
            raise error(422, "invalid_round", f"round {round_} is not the current round",
                         params={"round": round_})
        if self.tables_of(tid, round_):
            raise error(409, "already_open", f"round {round_} is already open online",
                         params={"round": round_})
        rnd = t.rounds[round_ - 1]
        # a Muckturnier plays Mucken (the registry's, with the tournament's target)
        rules = registry.get(GAME).make_rules("seefest", bobbl_target=t.settings.target)
        if duplicate:
            rules = rules.replace(cut_min_times=0, cut_max_times=0, klopfen=False)
        deal_seed = secrets.token_hex(8) if duplicate else None
        created: dict[int, TableRuntime] = {}
        for table_no, (a, b) in sorted(rnd.tables.items()):
            if b is None:
                continue  # a bye: nobody to play
            players: list[tuple[str, str]] = []  # (entrant, name) by seat 0..3
            side1 = [(e, n) for e in a for n in t.entrants[e].names]
            side2 = [(e, n) for e in b for n in t.entrants[e].names]
            for i in range(2):
                players.append(side1[i])
                players.append(side2[i])
            seats = [Seat(kind="bot", name=name, bot=bot, entrant=entrant,
                          claim=secrets.token_urlsafe(12)) for entrant, name in players]
            settings = {"turn_timer": 60, "bobbl_limit": t.settings.bobbl_per_round,
                        "tournament": {"id": tid, "round": round_, "table": table_no,
                                       "name": t.settings.name},
                        "deal_seed": deal_seed, "auto_start": True}
            rt = self.manager.create(
                name=f"{t.settings.name} · Runde {round_} · Tisch {table_no}",
                creator_id=creator_id, creator_name=who, public=False, rules=rules,
                settings=settings, bot_seats=[], bot_name=bot, creator_seat=None,
                seats=seats, game=GAME)
            created[table_no] = rt
        if rnd.started_at is None:
            self.service.start_clock(tid, who, round_)
        self.arm_clock(tid, round_)
        for rt in created.values():
            async with rt.lock:
                if rt.game is None:
                    await rt.start_game()
        await self.manager.lobby_changed()
        return self.links(tid, round_)

    def links(self, tid: str, round_: int) -> dict[str, Any]:
        tables = []
        for table_no, rt in sorted(self.tables_of(tid, round_).items()):
            tables.append({
                "table": table_no, "table_id": rt.id, "status": rt.status,
                "watch_url": f"/t/{rt.id}?invite={rt.invite_code}",
                "seats": [{"seat": i, "name": s.name, "entrant": s.entrant,
                           "claimed": s.kind == "human",
                           "claim_url": f"/t/{rt.id}?invite={rt.invite_code}&claim={s.claim}"}
                          for i, s in enumerate(rt.seats)],
            })
        return {"round": round_, "tables": tables}

    async def claim(self, table_id: str, token: str, user_id: int, name: str) -> int:
        rt = self.manager.get(table_id)
        if rt is None:
            raise error(404, "no_table", f"no table {table_id!r}")
        for i, s in enumerate(rt.seats):
            if s.claim and secrets.compare_digest(s.claim, token):
                if rt.seat_of(user_id) not in (None, i):
                    raise error(409, "already_seated", "you already sit at this table")
                async with rt.lock:
                    s.kind, s.user_id = "human", user_id
                    s.away = s.timed_out = False
                    rt.save_table()
                    rt.version += 1
                    rt.schedule()
                await rt.broadcast()
                return i
        raise error(403, "bad_claim", "this seat link is not valid")

    # -- results and the clock -----------------------------------------------------------
    async def bobbl_finished(self, rt: LiveTable, bobbl: Any) -> None:
        """A table of a round finished a Bobbl (``TableManager.on_match_part``): its
        result goes into the tournament at once."""
        info = rt.settings.get("tournament")
        if not info or bobbl.winner is None:
            return
        sheet: Any = rt.match.sheet  # a Muckturnier's table: Mucken's score sheet
        index = len(sheet.finished_bobbl()) - 1
        standins = sorted(rt.standins)
        rt.standins.clear()
        try:
            self.service.online_result(
                info["id"], int(info["round"]), int(info["table"]), index,
                winner=1 if bobbl.winner == 0 else 2, loser_points=bobbl.tore,
                standins=standins)
        except TournamentError as e:  # e.g. the round was closed meanwhile
            rt.note = f"Ergebnis nicht übernommen: {e}"

    def arm_clock(self, tid: str, round_: int) -> None:
        t, _ = self.service.load(tid)
        rnd = t.rounds[round_ - 1]
        limit = t.settings.time_limit_minutes * 60
        if rnd.started_at is None or not limit or rnd.closed:
            return
        delay = max(0.0, rnd.started_at + limit - time.time())
        old = self.timers.pop((tid, round_), None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self.timers[(tid, round_)] = loop.call_later(
            delay, lambda: loop.create_task(self.time_up(tid, round_)))

    async def time_up(self, tid: str, round_: int) -> list[str]:
        """Stop the round's tables; open Bobbl are lost by both, their points as Tore."""
        self.timers.pop((tid, round_), None)
        for table_no, rt in sorted(self.tables_of(tid, round_).items()):
            async with rt.lock:
                sheet: Any = rt.match.sheet  # Mucken's score sheet
                done = len(sheet.finished_bobbl())
                current = sheet.current
                if not current.finished and done < rt.settings.get("bobbl_limit", 2):
                    games = [[1 if e.pair == 0 else 2, e.points] for e in current.entries
                             if e.written and e.pair is not None]
                    if games:
                        with contextlib.suppress(TournamentError):
                            self.service.online_result(tid, round_, table_no, done,
                                                       games=games,
                                                       standins=sorted(rt.standins))
                await rt.stop("Die Zeit der Runde ist abgelaufen.")
        closed = self.service.time_up(tid, "server", round_, force=True)
        await self.manager.lobby_changed()
        return list(closed.get("closed", []))

    def resume(self) -> None:
        """After a restart: arm the clocks of the online rounds still running."""
        seen: set[tuple[str, int]] = set()
        for rt in self.manager.tables.values():
            info = rt.settings.get("tournament")
            if info and rt.status != "finished":
                key = (str(info["id"]), int(info["round"]))
                if key not in seen:
                    seen.add(key)
                    with contextlib.suppress(TournamentError, KeyError, IndexError):
                        self.arm_clock(*key)


def online_of(request: Request) -> OnlineRounds:
    online: OnlineRounds = request.app.state.online
    return online


class OpenIn(BaseModel):
    duplicate: bool = False
    bot: str | None = None


@router.post("/{tid}/online/rounds/{round_}/open")
async def open_round(request: Request, tid: str, round_: int, body: OpenIn,
                     user: CsrfUser) -> dict[str, Any]:
    online = online_of(request)
    _owner(online, tid, user.id)
    try:
        return await online.open_round(tid, round_, user.name, duplicate=body.duplicate,
                                       bot=body.bot or default_bot(GAME), creator_id=user.id)
    except TournamentError as e:
        raise error(422, e.code, str(e), e.reason, e.params) from None


@router.get("/{tid}/online/rounds/{round_}")
async def round_links(request: Request, tid: str, round_: int,
                      user: RequiredUser) -> dict[str, Any]:
    online = online_of(request)
    _owner(online, tid, user.id)
    return online.links(tid, round_)


@router.post("/{tid}/online/rounds/{round_}/time-up")
async def round_time_up(request: Request, tid: str, round_: int,
                        user: CsrfUser) -> dict[str, Any]:
    online = online_of(request)
    _owner(online, tid, user.id)
    if not online.tables_of(tid, round_):
        raise error(404, "not_found", f"round {round_} is not open online", "not_online",
                     {"round": round_})
    return {"closed": await online.time_up(tid, round_)}


class ClaimIn(BaseModel):
    table_id: str = Field(max_length=32)
    token: str = Field(max_length=64)


@router.post("/online/claim")
async def claim_seat(request: Request, body: ClaimIn, user: CsrfUser) -> dict[str, Any]:
    seat = await online_of(request).claim(body.table_id, body.token, user.id, user.name)
    return {"table_id": body.table_id, "seat": seat}


def _owner(online: OnlineRounds, tid: str, user_id: int) -> None:
    try:
        _, info = online.service.load(tid)
    except TournamentError as e:
        raise error(404, "not_found", str(e), e.reason, e.params) from None
    owner = getattr(info, "owner_user_id", None)
    if owner is not None and owner != user_id:
        raise error(403, "not_owner", "only the tournament's organiser may do this")
