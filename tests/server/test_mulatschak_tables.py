"""Mulatschak tables (SQLite and PostgreSQL): 2 to 6 seats, ``players`` and
``match_options`` checked at creation (typed 400), the Muli said out of turn over the
websocket (applied, sent to everybody in their own views, ``not_your_turn`` otherwise) and
a restart after ``kill -9`` of the real server that replays an out-of-turn Muli exactly."""

from __future__ import annotations

import json
import os
import random
import signal
from typing import Any

import httpx
import pytest

from stammtisch.games import registry
from stammtisch.server.auth import SESSION_COOKIE

from .test_kill import Served


def _table(player: Any, players: int, **body: Any) -> dict[str, Any]:
    body.setdefault("bots", "fill")
    body.setdefault("bot", "random")
    return player.create_table(game="mulatschak", players=players, **body)


def _answer(conn: Any, m: dict[str, Any], seat: int, rng: random.Random) -> bool:
    """Act for ``seat`` on ``m`` if it is its turn (``next`` between hands)."""
    v = m["view"]
    if m["table"]["between_games"] and not m["table"]["match_over"]:
        if m["version"] > conn.last_acted:
            conn.last_acted = m["version"]
            conn.act("next", m["version"])
            return True
        return False
    if v and v["to_act"] == seat and v["legal"] and m["version"] > conn.last_acted:
        conn.last_acted = m["version"]
        conn.act(rng.choice(v["legal"]), m["version"])
        return True
    return False


def test_tables_for_two_to_six_players(server: Any) -> None:
    anna = server.guest("Anna")
    for n in range(2, 7):
        t = _table(anna, n)
        info = anna.get(f"/api/tables/{t['id']}").json()
        assert info["game"] == "mulatschak" and len(info["seats"]) == n
        assert [s["kind"] for s in info["seats"]] == ["human"] + ["bot"] * (n - 1)
        rt = server.runtime(t["id"])
        assert rt.num_seats == n and rt.match.players == n
        sheet = info["sheet"]
        assert sheet["kind"] == "mulatschak" and sheet["scores"] == [21] * n
        listed = [x for x in anna.get("/api/tables").json()["tables"] if x["id"] == t["id"]]
        assert listed and listed[0]["players"] == n and len(listed[0]["seats"]) == n
    # the presets tell the lobby the seat range
    games = anna.get("/api/presets").json()["games"]
    assert games["mulatschak"]["seats"] == [2, 6] and games["mulatschak"]["tables"]
    assert games["schafkopf"]["seats"] == [4, 4]


def test_a_three_seat_hand_is_played_to_its_end(server: Any) -> None:
    anna = server.guest("Anna")
    t = _table(anna, 3)
    rng = random.Random(3)
    with anna.connect(t["id"]) as ws:
        m = ws.state()
        while not (m["table"]["sheet"]["count"] >= 1):
            _answer(ws, m, 0, rng)
            m = ws.state(30)
        sheet = m["table"]["sheet"]
        row = sheet["hands"][0]
        assert len(row["scores"]) == 3 and sheet["scores"] == row["scores"]
        assert all(s == 21 + d for s, d in zip(row["scores"], row["delta"], strict=True))
        assert m["out_of_turn"] == [] or m["view"]["phase"] == "bidding"
    games = anna.get("/api/me/games").json()["games"]
    assert games
    detail = anna.get(f"/api/games/{min(games, key=lambda g: g['number'])['id']}").json()
    rec = detail["record"]
    assert rec["game"] == "mulatschak" and "log" not in rec and len(rec["scores"]) == 3
    out = registry.get("mulatschak").replay_record(rec)
    assert out["delta"] == row["delta"]
    assert anna.get(f"/replay/{detail['id']}").status_code == 200


@pytest.mark.parametrize("players", [1, 7, 0, -3, "4", True, 4.5, [4], {"n": 4}])
def test_bad_players_are_a_typed_400(server: Any, players: Any) -> None:
    anna = server.guest("Anna")
    r = anna.post("/api/tables", json={"game": "mulatschak", "players": players,
                                       "turn_timer": 0})
    assert r.status_code == 400, r.text
    assert r.json()["code"] == "invalid_players"


def test_players_outside_a_fixed_seat_game_and_seats_beyond_the_table(server: Any) -> None:
    anna = server.guest("Anna")
    for game in ("schafkopf", "mucken"):
        r = anna.post("/api/tables", json={"game": game, "players": 3, "turn_timer": 0})
        assert r.status_code == 400 and r.json()["code"] == "invalid_players", r.text
        assert anna.create_table(game=game, players=4, bots="fill", bot="random")
    r = anna.post("/api/tables", json={"game": "mulatschak", "players": 3, "seat": 3,
                                       "turn_timer": 0})
    assert r.status_code == 422 and r.json()["code"] == "invalid_request"
    assert "seat 3" in r.json()["message"]
    r = anna.post("/api/tables", json={"game": "mulatschak", "players": 3, "bots": [1, 4],
                                       "turn_timer": 0})
    assert r.status_code == 422 and r.json()["code"] == "invalid_seats"
    # six seats: seat 5 may be taken
    t = anna.create_table(game="mulatschak", players=6, seat=5, bots=[0, 1, 2, 3],
                          bot="random")
    bert = server.guest("Bert")
    assert bert.join(t["id"], 6).status_code == 422
    assert bert.join(t["id"], 4).status_code == 200


@pytest.mark.parametrize("options", [
    [], "kreuzbock", 5, {"nonsense": 1}, {"players": 3}, {"x": {"deep": {"er": 1}}},
    {f"k{i}": i for i in range(40)}, {"k": "x" * 5000}, {"k": [[1]]},
])
def test_bad_match_options_are_a_typed_400(server: Any, options: Any) -> None:
    anna = server.guest("Anna")
    r = anna.post("/api/tables", json={"game": "mulatschak", "players": 4,
                                       "match_options": options, "turn_timer": 0})
    assert r.status_code == 400, r.text
    assert r.json()["code"] == "invalid_match_options"


def test_match_options_reach_the_match_and_kreuzbock_still_works(server: Any) -> None:
    anna = server.guest("Anna")
    t = anna.create_table(game="schafkopf", match_options={"kreuzbock": True}, bots="fill",
                          bot="random")
    rt = server.runtime(t["id"])
    assert server.on_loop(lambda: rt.match.match.kreuzbock) is True
    t = anna.create_table(game="schafkopf", kreuzbock=True, bots="fill", bot="random")
    rt = server.runtime(t["id"])
    assert server.on_loop(lambda: rt.match.match.kreuzbock) is True
    r = anna.post("/api/tables", json={"game": "schafkopf", "match_options": {"kreuzbock": 3},
                                       "turn_timer": 0})
    assert r.status_code in (200, 400), r.text  # the sitting decides what a value means


def _muli_table(server: Any) -> tuple[str, Any, Any]:
    """Three seats: Anna (0, the dealer), Bert (1, first to bid), a bot (2, the cutter)."""
    anna, bert = server.guest("Anna"), server.guest("Bert")
    t = anna.create_table(game="mulatschak", players=3, bots=[2], bot="random")
    assert bert.join(t["id"], 1).status_code == 200
    return t["id"], anna, bert


def test_muli_out_of_turn_over_the_websocket(sqlite_url: str, start_server: Any) -> None:
    server = start_server(sqlite_url, bot_delay=0.05)
    tid, anna, bert = _muli_table(server)
    with anna.connect(tid) as a, bert.connect(tid) as b:
        # until Bert (seat 1) is to bid: Anna (seat 0) may say Muli out of turn
        m = a.state()
        while True:
            v = m["view"]
            if m["table"]["between_games"] and m["version"] > a.last_acted:
                a.last_acted = m["version"]
                a.act("next", m["version"])  # a folded hand: the next one
            elif v and v["phase"] == "bidding" and v["to_act"] == 1:
                break
            m = a.state(20)
        assert m["out_of_turn"] == ["muli"] and "muli" not in v["legal"]
        # a spectator and the seat to act see no out-of-turn action of Anna's
        mb = b.latest()
        assert mb["view"]["to_act"] == 1 and "muli" in mb["view"]["legal"]
        # an ordinary word out of turn: not_your_turn, the state untouched
        a.act("1", m["version"])
        err = a.error()
        assert err["code"] == "not_your_turn"
        # the Muli out of turn (an old version is fine: it is checked against the state)
        a.act("muli", m["version"] - 1)
        ma = a.until(lambda s: s["view"]["holder"] == 0, "Anna holds the Muli")
        assert ma["view"]["bid"] == 5 and ma["out_of_turn"] == []
        # Anna is the dealer: her Muli ends the bidding, she names the trump
        assert ma["view"]["phase"] == "trump" and ma["view"]["to_act"] == 0
        mb = b.until(lambda s: s["view"]["holder"] == 0, "Bert sees Anna's Muli")
        assert mb["view"]["bid"] == 5 and mb["out_of_turn"] == []
        assert [0, "muli"] in mb["view"]["said"]
        assert set(mb["view"]["hand"]).isdisjoint(ma["view"]["hand"])
        # no Muli out of turn any more: not_your_turn
        b.act("muli", mb["version"])
        assert b.error()["code"] == "not_your_turn"
        rt = server.runtime(tid)
        events = server.on_loop(lambda: list(rt.out_of_turn))
        assert [(e["seat"], e["action"]) for e in events] == [(0, "muli")]
        rec = server.on_loop(lambda: rt.live_record(rt.game))
        assert rec["meta"]["out_of_turn"] == events
        assert [0, "muli"] in rec["actions"]


def test_a_bot_seat_says_no_muli_out_of_turn(sqlite_url: str, start_server: Any) -> None:
    """Only people's connections get out-of-turn actions; bots play their turns only, and
    a spectator gets none."""
    server = start_server(sqlite_url)
    anna = server.guest("Anna")
    t = _table(anna, 4)
    rng = random.Random(8)
    with anna.connect(t["id"]) as a, server.connect(t["id"]) as spectator:
        m = a.state()
        while m["table"]["sheet"]["count"] < 2:
            _answer(a, m, 0, rng)
            m = a.state(30)
        rt = server.runtime(t["id"])
        assert server.on_loop(lambda: rt.out_of_turn) == []
        seen = [json.loads(x) for x in spectator.raw]
        assert all(s.get("out_of_turn") == [] for s in seen if s["type"] == "state")


def test_sigkill_with_an_out_of_turn_muli_in_the_log(db_url: str, tmp_path: Any) -> None:
    log = tmp_path / "server.log"
    first = Served(db_url, log)
    servers = [first]
    rng = random.Random(6)
    try:
        def guest(name: str) -> tuple[str, str]:
            with httpx.Client(base_url=first.base, timeout=10) as http:
                r = http.post("/api/guest", json={"name": name})
                assert r.status_code == 200, r.text
                return r.cookies[SESSION_COOKIE], r.json()["csrf"]

        def post(who: tuple[str, str], path: str, body: dict[str, Any]) -> Any:
            with httpx.Client(base_url=first.base, timeout=10,
                              cookies={SESSION_COOKIE: who[0]}) as http:
                r = http.post(path, json=body, headers={"x-csrf-token": who[1]})
                assert r.status_code == 200, r.text
                return r.json()

        anna, bert = guest("Anna"), guest("Bert")
        tid = post(anna, "/api/tables", {"game": "mulatschak", "players": 3, "bots": [2],
                                         "bot": "random", "turn_timer": 0})["id"]
        post(bert, f"/api/tables/{tid}/join", {"seat": 1})

        def recv_state(ws: Any) -> dict[str, Any]:
            while True:
                m: dict[str, Any] = json.loads(ws.recv(timeout=20))
                if m["type"] == "state":
                    return m

        with first.socket(f"/ws/tables/{tid}", anna[0]) as a, \
                first.socket(f"/ws/tables/{tid}", bert[0]):
            # Bert passes on his turns; when Bert is to bid, Anna says Muli out of turn
            last = -1
            while True:
                m = recv_state(a)
                v = m["view"]
                if m["table"]["between_games"] and m["version"] > last:
                    last = m["version"]
                    a.send(json.dumps({"type": "action", "action": "next",
                                       "version": m["version"]}))
                elif v and v["phase"] == "bidding" and v["to_act"] == 1 \
                        and m["out_of_turn"] == ["muli"]:
                    break
                elif v and v["to_act"] == 0 and v["legal"] and m["version"] > last:
                    last = m["version"]
                    a.send(json.dumps({"type": "action", "action": rng.choice(v["legal"]),
                                       "version": m["version"]}))
            a.send(json.dumps({"type": "action", "action": "muli", "version": m["version"]}))
            while True:
                m = recv_state(a)
                if m["view"]["holder"] == 0 and m["view"]["to_act"] == 0:
                    break
            # Bert leaves (his seat is free; a bot plays it in this hand, issue 19); Anna
            # is to name the trump
            post(bert, f"/api/tables/{tid}/leave", {})
            while True:
                m = recv_state(a)
                if m["table"]["seats"][1]["kind"] == "empty":
                    break
            before = m
            assert before["view"]["phase"] == "trump" and before["view"]["to_act"] == 0
            os.kill(first.proc.pid, signal.SIGKILL)
            assert first.proc.wait(10) == -signal.SIGKILL

        second = Served(db_url, log)
        servers.append(second)
        with second.socket(f"/ws/tables/{tid}", anna[0]) as a:
            m = recv_state(a)
            v, old = m["view"], before["view"]
            assert m["table"]["game_number"] == before["table"]["game_number"]
            for key in ("hand", "phase", "to_act", "bid", "holder", "trump", "said", "dealer",
                        "scores", "hand_sizes", "stock_size", "home", "legal"):
                assert v[key] == old[key], key
            assert [0, "muli"] in v["said"]
            assert m["table"]["sheet"] == before["table"]["sheet"]
            # the hand goes on to its end (Bert's seat is played by a bot while away)
            last = -1
            while not m["table"]["between_games"]:
                v = m["view"]
                if v["to_act"] == 0 and v["legal"] and m["version"] > last:
                    last = m["version"]
                    a.send(json.dumps({"type": "action", "action": rng.choice(v["legal"]),
                                       "version": m["version"]}))
                m = recv_state(a)
            result = m["view"]["result"]
            assert result["bidder"] == 0 and result["bid"] == 5
            assert m["table"]["sheet"]["hands"][-1]["delta"] == result["delta"]
    finally:
        for s in servers:
            s.stop()


def test_a_bot_takes_over_an_away_mulatschak_player_and_is_marked(sqlite_url: str,
                                                                  start_server: Any) -> None:
    server = start_server(sqlite_url, bot_delay=0.01, auto_next_delay=60)
    anna = server.guest("Anna")
    tid = _table(anna, 5)["id"]
    with anna.connect(tid) as a:
        m = a.state()
        while not (m["view"] and m["view"]["to_act"] == 0 and m["view"]["legal"]
                   and not m["table"]["between_games"]):
            if m["table"]["between_games"] and m["version"] > a.last_acted:
                a.last_acted = m["version"]
                a.act("next", m["version"])
            m = a.state(20)
    # away: a bot plays seat 0 to the end of the hand
    server.wait_until(lambda: (g := server.runtime(tid).game) is not None and g.is_terminal(),
                      "the hand played to its end by bots", timeout=60)
    games = anna.get("/api/me/games").json()["games"]
    game = max(games, key=lambda g: g["number"])
    assert game["stand_in_seats"] == [0] and game["bot_for_you"] >= 1
    detail = anna.get(f"/api/games/{game['id']}").json()
    actions = detail["record"]["actions"]
    assert len(detail["players"]) == 5
    for mark in detail["stand_in"]:
        assert mark["seat"] == 0 and actions[mark["index"]] == [0, mark["action"]]
