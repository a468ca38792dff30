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
