"""Mus tables (issue 12) on SQLite and PostgreSQL: a table against bots played over the
websocket to the end of its hands (sheet with points, stones and sets; history, record,
replay); the señas option (``match_options``: off / on / sichtbar with ``catch``) checked at
creation; señas sent out of turn reach the partner only — and with ``sichtbar`` the
opponents who catch them, never a spectator; a seña on one's own turn is refused."""

from __future__ import annotations

import random
import time
from typing import Any

from stammtisch.games import registry

from .conftest import Conn, Player, Server


def choose(legal: list[str], rng: random.Random) -> str:
    """A random legal action that plays like a cautious person: small envidos, few
    órdagos (so that hands reach the showdown and sets last several hands)."""
    calm = [a for a in legal if not a.startswith("envido ") and a != "ordago"]
    small = [a for a in legal if a in ("envido 2", "envido 3", "envido 5")]
    r = rng.random()
    if small and r < 0.25:
        return rng.choice(small)
    if "ordago" in legal and r > 0.99:
        return "ordago"
    return rng.choice(calm or legal)


def _mus_table(player: Player, **body: Any) -> dict[str, Any]:
    body.setdefault("bots", "fill")
    body.setdefault("bot", "random")
    return player.create_table(game="mus", **body)


def _play_hand(ws: Conn, seat: int, rng: random.Random, timeout: float = 60.0,
               first: dict[str, Any] | None = None) -> dict[str, Any]:
    """Answer ``seat``'s turns until the hand is over; the first state showing the end."""
    deadline = time.monotonic() + timeout
    m = first
    while True:
        if m is None:
            m = ws.state(max(0.01, deadline - time.monotonic()))
        v = m["view"]
        if m["table"]["between_games"] and v and v["result"]:
            return m
        if v and v["to_act"] == seat and v["legal"] and m["version"] > ws.last_acted:
            ws.last_acted = m["version"]
            ws.act(choose(v["legal"], rng), m["version"])
        m = None


def test_a_mus_table_is_played_against_bots(server: Server) -> None:
    anna = server.guest("Anna")
    t = _mus_table(anna, options={"target": 20}, match_options={"senas": "on"})
    info = anna.get(f"/api/tables/{t['id']}").json()
    assert info["game"] == "mus" and info["rules_options"]["target"] == 20
    rng = random.Random(12)
    with anna.connect(t["id"]) as ws:
        first = ws.until(lambda m: m["view"] is not None, "the first hand")
        v = first["view"]
        assert v["game"] == "mus" and len(v["hand"]) == 4 and v["senas_mode"] == "on"
        assert v["mano"] == (v["dealer"] - 1) % 4  # counterclockwise: Mano is on the right
        end = _play_hand(ws, 0, rng, first=first)
        v = end["view"]
        result = v["result"]
        assert set(result) >= {"final_hands", "score", "set_winner", "lances", "status"}
        sheet = end["table"]["sheet"]
        assert sheet["kind"] == "mus" and sheet["count"] == 1 and sheet["target"] == 20
        row = sheet["hands"][-1]
        assert row["score"] == result["score"] or result["set_winner"] is not None
        for p in (0, 1):  # the points as the stones of a Mus table
            assert sheet["amarracos"][p] * 5 + sheet["piedras"][p] == sheet["score"][p]
        assert [e["lance"] for e in row["report"]][:3] == ["grande", "chica", "pares"]
        # the next hand: the deal passes counterclockwise (the last Mano deals)
        ws.act("next", end["version"])
        nxt = ws.until(lambda m: m["table"]["game_number"] == 2 and m["view"] is not None,
                       "the second hand")
        assert nxt["view"]["dealer"] == v["mano"]
        end2 = _play_hand(ws, 0, rng, first=nxt)
        assert end2["table"]["sheet"]["count"] == 2
    games = anna.get("/api/me/games").json()["games"]
    gid = min(games, key=lambda g: g["number"])["id"]
    detail = anna.get(f"/api/games/{gid}").json()
    rec = detail["record"]
    assert rec["game"] == "mus" and rec["actions"]
    out = registry.get("mus").replay_record(rec)  # the record replays to the same result
    assert out["score"] == detail["result"]["score"]
    assert out["status"] == detail["result"]["status"]
    r = anna.get(f"/api/games/{gid}/record")
    assert r.status_code == 200 and "mus-" in r.headers["content-disposition"]
    assert anna.get(f"/replay/{gid}").status_code == 200


def test_the_senas_option_is_checked_at_creation(server: Server) -> None:
    anna = server.guest("Anna")
    for bad in ({"senas": "laut"}, {"senas": "sichtbar", "catch": 2}, {"catch": "x"},
                {"nonsense": 1}):
        r = anna.post("/api/tables", json={"game": "mus", "turn_timer": 0, "bots": "fill",
                                           "match_options": bad})
        assert r.status_code == 400 and r.json()["code"] == "invalid_match_options", (bad, r.text)
    t = _mus_table(anna, match_options={"senas": "sichtbar", "catch": 0.5})
    assert server.runtime(t["id"]).settings["match_options"] == {"senas": "sichtbar",
                                                                "catch": 0.5}


def _four(server: Server, senas: dict[str, Any]) -> tuple[str, list[Player]]:
    """A Mus table of four people (seats 0–3), started."""
    people = [server.guest(n) for n in ("Ane", "Bixen", "Cris", "Dani")]
    t = people[0].create_table(game="mus", bots=[], match_options=senas)
    for seat, p in enumerate(people[1:], start=1):
        r = p.join(t["id"], seat)
        assert r.status_code == 200, r.text
    return t["id"], people


def _sena_round(server: Server, senas: dict[str, Any]) -> dict[str, Any]:
    """Four people at a Mus table; in the first Mus round a seat that is not to act makes
    a seña; returns every connection's state after it (and the spectator's)."""
    tid, people = _four(server, senas)
    conns = [p.connect(tid) for p in people]
    spectator = server.connect(tid)
    try:
        states = [c.until(lambda m: m["view"] is not None and m["view"]["phase"] == "mus",
                          "the Mus round") for c in conns]
        to_act = states[0]["view"]["to_act"]
        sender = next(s for s in range(4) if s != to_act and states[s]["out_of_turn"])
        sena = states[sender]["out_of_turn"][0]
        assert sena.startswith("seña ")
        # every seat gets its own señas only (they name what its cards hold)
        for s in range(4):
            assert all(x.startswith("seña ") for x in states[s]["out_of_turn"])
        # a seña on one's own turn is not taken as the turn's word
        if states[to_act]["out_of_turn"]:
            conns[to_act].act(states[to_act]["out_of_turn"][0], states[to_act]["version"])
            assert conns[to_act].error()["code"] in ("illegal_action", "invalid_action")
        conns[sender].act(sena, None)
        after = [c.until(lambda m, v=states[0]["version"]: m["version"] > v, "the seña")
                 for c in conns]
        seen = spectator.latest()
        return {"sender": sender, "sena": sena.split()[1], "after": after, "spectator": seen,
                "runtime": server.runtime(tid)}
    finally:
        for c in (*conns, spectator):
            c.close()


def test_a_sena_reaches_the_partner_only(server: Server) -> None:
    out = _sena_round(server, {"senas": "on"})
    sender, sena = out["sender"], out["sena"]
    partner = (sender + 2) % 4
    for seat, m in enumerate(out["after"]):
        senas = m["view"]["senas"]
        if seat in (sender, partner):
            assert [(e["seat"], e["sena"], e.get("caught")) for e in senas] == [
                (sender, sena, None)], (seat, senas)
        else:
            assert senas == [], (seat, senas)
    assert out["spectator"]["view"]["senas"] == []
    g = out["runtime"].game
    assert [(e.seat, e.sign, e.seen_by) for e in g.senas] == [(sender, sena, ())]


def test_sichtbar_senas_are_caught_by_the_opponents(server: Server) -> None:
    out = _sena_round(server, {"senas": "sichtbar", "catch": 1.0})
    sender, sena = out["sender"], out["sena"]
    for seat, m in enumerate(out["after"]):
        (entry,) = m["view"]["senas"]
        assert entry["seat"] == sender and entry["sena"] == sena
        assert entry.get("caught", False) is (seat % 2 != sender % 2)
    assert out["spectator"]["view"]["senas"] == []


def test_nobody_catches_with_catch_zero(server: Server) -> None:
    out = _sena_round(server, {"senas": "sichtbar", "catch": 0})
    sender = out["sender"]
    for seat, m in enumerate(out["after"]):
        assert len(m["view"]["senas"]) == (1 if seat % 2 == sender % 2 else 0)


# -- kill -9 -------------------------------------------------------------------------------

def _pump(socks: dict[int, Any], rng: random.Random, last: dict[int, int],
          stop: Any, timeout: float = 60.0) -> tuple[int, dict[str, Any]]:
    """Read both people's sockets, answer their turns, until ``stop(seat, state)``."""
    import json

    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, "no state to stop at in time"
        for seat, ws in socks.items():
            try:
                m = json.loads(ws.recv(timeout=0.02))
            except TimeoutError:
                continue
            if m["type"] != "state":
                assert m["type"] != "error", m
                continue
            if stop(seat, m):
                return seat, m
            v, tbl = m["view"], m["table"]
            if m["version"] <= last[seat]:
                continue
            if tbl["between_games"] and v and v["result"]:
                last[seat] = m["version"]
                ws.send(json.dumps({"type": "action", "action": "next",
                                    "version": m["version"]}))
            elif v and v["to_act"] == seat and v["legal"] and not tbl["between_games"]:
                last[seat] = m["version"]
                ws.send(json.dumps({"type": "action", "action": choose(v["legal"], rng),
                                    "version": m["version"]}))


def test_sigkill_mid_mus_hand_with_a_sena_and_restart(db_url: str, tmp_path: Any) -> None:
    """The real server (``stammtisch serve``) is killed with SIGKILL in the middle of a Mus
    hand right after a seña; started again on the same database, the hand stands where it
    stood — cards, words, whose turn, the seña seen by the partner — and is played to its
    end; the record keeps the seña."""
    import json
    import os
    import signal

    import httpx

    from stammtisch.server.auth import SESSION_COOKIE

    from .test_kill import Served, _state

    log = tmp_path / "server.log"
    first = Served(db_url, log)
    servers = [first]
    rng = random.Random(8)
    try:
        tokens = {}
        with httpx.Client(base_url=first.base, timeout=10) as http:
            for seat, name in ((0, "Ane"), (2, "Bixen")):
                r = http.post("/api/guest", json={"name": name})
                assert r.status_code == 200, r.text
                tokens[seat] = (r.cookies[SESSION_COOKIE], r.json()["csrf"])
                http.cookies.clear()
            token, csrf = tokens[0]
            http.cookies.set(SESSION_COOKIE, token)
            r = http.post("/api/tables", json={
                "game": "mus", "bots": [1, 3], "bot": "random", "turn_timer": 0,
                "match_options": {"senas": "on"}}, headers={"x-csrf-token": csrf})
            assert r.status_code == 200, r.text
            tid = r.json()["id"]
            token2, csrf2 = tokens[2]
            http.cookies.clear()
            http.cookies.set(SESSION_COOKIE, token2)
            r = http.post(f"/api/tables/{tid}/join", json={"seat": 2},
                          headers={"x-csrf-token": csrf2})
            assert r.status_code == 200, r.text

        last = {0: -1, 2: -1}
        with first.socket(f"/ws/tables/{tid}", tokens[0][0]) as a, \
                first.socket(f"/ws/tables/{tid}", tokens[2][0]) as b:
            socks = {0: a, 2: b}
            # Bixen (seat 2) is to act and Ane holds a seña: she makes it out of turn
            seat, m = _pump(socks, rng, last, lambda s, m: s == 0 and m["view"]
                            and m["view"]["to_act"] == 2 and m["out_of_turn"]
                            and not m["table"]["between_games"])
            sena = m["out_of_turn"][0]
            a.send(json.dumps({"type": "action", "action": sena}))
            sign = sena.split()[1]
            _, seen = _pump({2: b}, rng, {2: 10**9}, lambda s, m: any(
                e["sena"] == sign and e["seat"] == 0 for e in m["view"]["senas"]))
            before = seen
            while True:  # Ane's own state after the seña (the last one she got)
                mine = _state(a)
                if any(e["sena"] == sign for e in mine["view"]["senas"]):
                    break
            os.kill(first.proc.pid, signal.SIGKILL)
            assert first.proc.wait(10) == -signal.SIGKILL

        second = Served(db_url, log)
        servers.append(second)
        with second.socket(f"/ws/tables/{tid}", tokens[0][0]) as a, \
                second.socket(f"/ws/tables/{tid}", tokens[2][0]) as b:
            ma, mb = _state(a), _state(b)
            for old, new in ((mine, ma), (before, mb)):
                for key in ("hand", "phase", "to_act", "words", "lance", "dealer", "mano",
                            "score", "senas", "legal", "hand_sizes", "stock"):
                    assert new["view"][key] == old["view"][key], key
                assert new["table"]["game_number"] == old["table"]["game_number"]
                assert new["table"]["sheet"] == old["table"]["sheet"]
            number = ma["table"]["game_number"]
            # Ane may not make the same seña again with the same cards
            assert sena not in ma["out_of_turn"]
            last = {0: -1, 2: -1}
            pending = {0: ma, 2: mb}
            for s, m in pending.items():  # answer what is already due
                v = m["view"]
                if v["to_act"] == s and v["legal"]:
                    last[s] = m["version"]
                    socks2 = {0: a, 2: b}
                    socks2[s].send(json.dumps({"type": "action", "version": m["version"],
                                               "action": choose(v["legal"], rng)}))
            _pump({0: a, 2: b}, rng, last, lambda s, m: m["table"]["between_games"]
                  and m["view"] and m["view"]["result"]
                  and m["table"]["game_number"] == number)

        with httpx.Client(base_url=second.base, timeout=10,
                          cookies={SESSION_COOKIE: tokens[0][0]}) as http:
            games = http.get("/api/me/games").json()["games"]
            game = next(g for g in games if g["number"] == number)
            rec = http.get(f"/api/games/{game['id']}").json()["record"]
        assert rec["senas"]["mode"] == "on"
        assert any(e["seat"] == 0 and e["sign"] == sign for e in rec["senas"]["signs"])
        registry.get("mus").replay_record(rec)  # the record with its seña replays
    finally:
        for s in servers:
            s.stop()
