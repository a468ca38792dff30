"""Lobby: creating tables (presets, options, bots, timer), the list, seats, private
tables with invites, spectators, and the lobby websocket."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stammtisch.games.mucken.rules import MuckenRules


def test_create_a_table_with_preset_options_target_timer_and_bots(server):
    anna = server.guest("Anna")
    created = anna.create_table(name="  Seefest   Runde ", preset="wikipedia",
                                options={"doublings": 2, "klopfen": False},
                                bobbl_target=31, turn_timer=45, bots=[2, 3], seat=1)
    assert created["url"] == f"/t/{created['id']}" and created["invite_code"]
    info = anna.get(f"/api/tables/{created['id']}").json()
    assert info["name"] == "Seefest Runde" and info["public"] is True
    assert info["rules"] == "wikipedia" and info["status"] == "open"
    opts = info["rules_options"]
    assert opts["doublings"] == 2 and opts["klopfen"] is False and opts["bobbl_target"] == 31
    assert opts["no_game"] == "einwerfen"  # the rest is the preset's
    assert MuckenRules.from_json({**opts, "preset": "wikipedia"}).bobbl_target == 31
    assert info["turn_timer"] == 45 and info["you"] == 1
    assert [(s["kind"], s["name"]) for s in info["seats"]] == [
        ("empty", ""), ("human", "Anna"), ("bot", "Bot 3"), ("bot", "Bot 4")]
    assert info["invite_code"] == created["invite_code"]  # seated players see the invite
    assert server.client.get(f"/api/tables/{created['id']}").json()["invite_code"] is None
    # the row in the database says the same
    row = server.store.table(created["id"])
    assert row.settings["turn_timer"] == 45 and row.rules["doublings"] == 2
    assert [s["kind"] for s in row.seats] == ["empty", "human", "bot", "bot"]


def test_bots_fill_starts_the_game(server):
    anna = server.guest("Anna")
    tid = anna.create_table(bots="fill", bot="random")["id"]
    info = anna.get(f"/api/tables/{tid}").json()
    assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot", "bot"]
    assert all(s["bot"] == "random" for s in info["seats"][1:])
    assert info["status"] == "playing" and info["game_number"] == 1
    assert server.store.table(tid).status == "playing"
    # a table of bots only (the creator does not sit down) runs by itself
    tid2 = anna.create_table(bots="fill", seat=None, bobbl_limit=1,
                             options={"bobbl_target": 1})["id"]
    server.wait_until(lambda: server.runtime(tid2).status == "finished", "a bots-only match")


def test_invalid_table_requests_name_the_problem(server):
    anna = server.guest("Anna")
    cases = [
        ({"options": {"no_such_option": 1}}, "invalid_rules", "no_such_option"),
        ({"options": {"doublings": 9}}, "invalid_rules", "doublings"),
        ({"options": {"doublings": "many"}}, "invalid_rules", "doublings"),
        ({"options": {"bobbl_target": "21"}}, "invalid_rules", "bobbl_target"),
        ({"options": {"values": {"muck": 5}}}, "invalid_rules", "values"),
        ({"options": {"games": ["muck", "skat"]}}, "invalid_rules", "games"),
        ({"bobbl_target": 0}, "invalid_rules", "bobbl_target"),
        ({"preset": "skat"}, "invalid_rules", "skat"),
        ({"turn_timer": -1}, "invalid_request", "turn_timer"),
        ({"bots": [4]}, "invalid_seats", "bot seats"),
        ({"bots": [0]}, "invalid_seats", "own seat"),
        ({"bots": "all"}, "invalid_seats", "fill"),
        ({"bot": "skynet"}, "unknown_bot", "skynet"),
        ({"name": "<b>Tisch</b>"}, "invalid_name", "<"),
        ({"seat": 4}, "invalid_request", "seat"),
    ]
    for body, code, named in cases:
        r = anna.post("/api/tables", json=body)
        assert r.status_code == 422, (body, r.text)
        assert r.json()["code"] == code and named in r.json()["message"], (body, r.json())
    assert server.tables.lobby_list() == []  # nothing was created


_OPTION_NAMES = sorted(MuckenRules.preset("seefest").to_json())
_JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 40) | st.text(max_size=6),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)


def test_table_options_never_crash_the_server(sqlite_server):
    """Any JSON as an option value gives 200 or a 422 that names the option — never a 500."""
    anna = sqlite_server.guest("Anna")

    @settings(max_examples=60, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.sampled_from([*_OPTION_NAMES, "nope"]), _JSON)
    def check(option, value):
        r = anna.post("/api/tables", json={"options": {option: value}, "public": False})
        assert r.status_code in (200, 422), (option, value, r.text)
        if r.status_code == 422:
            assert r.json()["code"] == "invalid_rules"
            assert option in r.json()["message"], (option, value, r.json())

    check()


def test_lobby_list_seats_join_leave(server):
    anna, bob, cora = server.guest("Anna"), server.guest("Bob"), server.guest("Cora")
    tid = anna.create_table(name="Offen", bots=[2], turn_timer=30, bobbl_target=31)["id"]
    anna.create_table(name="Geheim", public=False)
    tables = server.client.get("/api/tables").json()["tables"]
    assert [t["name"] for t in tables] == ["Offen"]  # private tables are not listed
    (t,) = tables
    assert t["id"] == tid and t["status"] == "open" and t["free"] == [1, 3]
    assert t["seats"] == [{"name": "Anna", "kind": "human"}, {"name": "", "kind": "empty"},
                          {"name": "Bot 3", "kind": "bot"}, {"name": "", "kind": "empty"}]
    assert t["bobbl_target"] == 31 and t["turn_timer"] == 30 and t["rules"] == "seefest"

    assert bob.join(tid, 1).json() == {"seat": 1}
    r = cora.join(tid, 1)
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"
    r = cora.join(tid, 2)  # a bot's seat
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"
    r = bob.join(tid, 3)
    assert r.status_code == 409 and r.json()["code"] == "already_seated"
    r = cora.join("nope", 3)
    assert r.status_code == 404 and r.json()["code"] == "no_table"
    r = cora.post(f"/api/tables/{tid}/join", json={"seat": 7})
    assert r.status_code == 422
    (t,) = server.client.get("/api/tables").json()["tables"]
    assert t["free"] == [3] and t["seats"][1] == {"name": "Bob", "kind": "human"}

    assert bob.post(f"/api/tables/{tid}/leave").json() == {"left": 1}
    r = bob.post(f"/api/tables/{tid}/leave")
    assert r.status_code == 409 and r.json()["code"] == "not_seated"
    (t,) = server.client.get("/api/tables").json()["tables"]
    assert t["free"] == [1, 3]
    assert server.store.table(tid).seats[1]["kind"] == "empty"

    # the last free seats taken: the game starts and the list says so
    assert cora.join(tid, 1).status_code == 200 and bob.join(tid, 3).status_code == 200
    (t,) = server.client.get("/api/tables").json()["tables"]
    assert t["free"] == [] and t["status"] == "playing"
    # only the creator seats bots
    r = bob.post(f"/api/tables/{tid}/bots", json={"seats": "fill"})
    assert r.status_code == 403 and r.json()["code"] == "not_creator"


def test_creator_fills_free_seats_with_bots(server):
    anna = server.guest("Anna")
    tid = anna.create_table()["id"]
    r = anna.post(f"/api/tables/{tid}/bots", json={"seats": [0]})
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"
    assert anna.post(f"/api/tables/{tid}/bots", json={"seats": [2]}).json() == {"bots": [2]}
    assert anna.post(f"/api/tables/{tid}/bots", json={"seats": "fill"}).json() == {
        "bots": [1, 3]}
    assert server.runtime(tid).status == "playing"


def test_leaving_a_running_game_frees_the_seat(server):
    # issue 19: "Aufstehen" frees the seat (a bot finishes the running game, marked); it
    # is no longer a bot's for good under the leaver's name
    anna, bob = server.guest("Anna"), server.guest("Bob")
    tid = anna.create_table(bots=[2, 3])["id"]
    assert bob.join(tid, 1).status_code == 200
    assert server.runtime(tid).status == "playing"
    assert bob.post(f"/api/tables/{tid}/leave").json() == {"left": 1}
    seat = server.runtime(tid).seats[1]
    assert seat.kind == "empty" and seat.user_id is None and seat.name == ""
    assert server.runtime(tid).bot_plays(1)
    assert bob.join(tid, 1).status_code == 200  # and he may sit down again


def _unplayed(server, tid):
    def look():
        g = server.runtime(tid).game
        return {str(c) for hand in g.hands for c in hand}
    return server.on_loop(look)


def test_spectators_see_no_hands(server):
    anna = server.guest("Anna")
    tid = anna.create_table(bots="fill")["id"]
    watcher = server.guest("Watcher")
    with anna.connect(tid) as mine, server.connect(tid) as anonymous, \
            watcher.connect(tid) as spectator:
        first = mine.until_turn(0)  # the bots wait for Anna now: the table stands still
        assert first["view"]["hand"]
        unplayed = _unplayed(server, tid)
        assert len(unplayed) == 24 - len(first["view"]["tricks_played"]) * 4 - len(
            first["view"]["trick"])
        for conn in (anonymous, spectator):
            m = conn.until(lambda m: m["version"] == first["version"], "Anna's turn")
            assert m["table"]["you"] is None and m["view"]["seat"] is None
            assert m["view"]["hand"] == [] and m["view"]["legal"] == []
            assert sum(m["view"]["hand_sizes"]) == len(unplayed)
            assert m["table"]["invite_code"] is None
            for text in conn.raw:
                assert server.leaks(text, unplayed) == [], text
            # spectators cannot act
            conn.act(first["view"]["legal"][0], m["version"])
            assert conn.error()["code"] == "not_seated"
        assert server.on_loop(lambda: server.tables.lobby_list()[0]["spectators"]) == 2


def test_private_tables_need_the_invite(server):
    anna, bob = server.guest("Anna"), server.guest("Bob")
    created = anna.create_table(public=False, bots=[2, 3])
    tid, invite = created["id"], created["invite_code"]
    assert created["url"] == f"/t/{tid}?invite={invite}"

    for who in (bob, server.client):
        r = who.get(f"/api/tables/{tid}")
        assert r.status_code == 403 and r.json()["code"] == "private_table"
    r = bob.join(tid, 1)
    assert r.status_code == 403 and r.json()["code"] == "private_table"
    r = bob.join(tid, 1, invite="wrong")
    assert r.status_code == 403

    with bob.connect(tid) as ws:
        m = ws.recv()
        assert m["type"] == "error" and m["code"] == "private_table"
        assert ws.recv()["type"] == "websocket.close" and ws.closed["code"] == 4403
    with bob.connect(tid, invite="wrong") as ws:
        assert ws.recv()["code"] == "private_table"

    assert anna.get(f"/api/tables/{tid}").status_code == 200  # seated: no invite needed
    assert bob.get(f"/api/tables/{tid}", params={"invite": invite}).status_code == 200
    with bob.connect(tid, invite=invite) as ws:
        m = ws.state()
        assert m["table"]["id"] == tid and m["table"]["you"] is None
    assert bob.join(tid, 1, invite=invite).status_code == 200
    with bob.connect(tid) as ws:  # now seated: the table is his without the invite
        m = ws.state()
        # his seat's view (his cards, none yet while the deck waits for the cut)
        assert m["table"]["you"] == 1 and m["view"] is not None and "hand" in m["view"]
        assert m["view"]["hand"] or m["view"]["phase"] == "cut"
    with server.connect("nope") as ws:
        assert ws.recv()["code"] == "no_table"


def test_lobby_websocket_gets_live_updates(server):
    anna, bob = server.guest("Anna"), server.guest("Bob")
    with server.lobby() as lobby:
        assert lobby.recv() == {"type": "lobby", "tables": []}
        tid = anna.create_table(name="Live", bots=[2])["id"]
        m = lobby.recv_type("lobby")
        (t,) = m["tables"]
        assert t["id"] == tid and t["name"] == "Live" and t["free"] == [1, 3]
        anna.create_table(name="Privat", public=False)
        m = lobby.recv_type("lobby")
        assert [t["name"] for t in m["tables"]] == ["Live"]
        bob.join(tid, 1)
        m = lobby.recv_type("lobby")
        assert m["tables"][0]["free"] == [3]
        assert m["tables"][0]["seats"][1] == {"name": "Bob", "kind": "human"}
        bob.post(f"/api/tables/{tid}/leave")
        m = lobby.recv_type("lobby")
        assert m["tables"][0]["free"] == [1, 3]
        # every message is JSON text of the lobby
        assert all(json.loads(t)["type"] == "lobby" for t in lobby.raw)
