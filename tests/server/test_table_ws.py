"""The table websocket: per-seat views, the check order of actions, error replies for
every bad message, the rate limit, and the chat."""

from __future__ import annotations

import json
import random

from stammtisch.cards import SHORT_DECK


def _two_humans(server):
    """Anna at seat 0, Bob at seat 1, bots at 2 and 3: the game is running."""
    anna, bob = server.guest("Anna"), server.guest("Bob")
    tid = anna.create_table(bots=[2, 3])["id"]
    assert bob.join(tid, 1).status_code == 200
    return tid, anna, bob


def test_every_message_is_the_seats_own_view(server):
    tid, anna, bob = _two_humans(server)
    with anna.connect(tid) as a, bob.connect(tid) as b:
        server.parallel(lambda: a.play_game(0, random.Random(1)),
                        lambda: b.play_game(1, random.Random(2)))
        dealt = server.on_loop(lambda: [[str(c) for c in h] for h in server.runtime(tid)
                                        .game.dealt])
        for conn, seat in ((a, 0), (b, 1)):
            states = [json.loads(t) for t in conn.raw]
            states = [m for m in states if m["type"] == "state"]
            assert len(states) > 20
            for m in states:
                assert m["table"]["you"] == seat
                v = m["view"]
                assert v["seat"] == seat
                assert set(v["hand"]) <= set(dealt[seat])
                assert len(v["hand"]) == v["hand_sizes"][seat]
                if v["to_act"] != seat:
                    assert v["legal"] == []
                if v["result"] is None:  # while the game runs no other hand shows
                    others = {c for s in range(4) if s != seat for c in dealt[s]}
                    played = {t["card"] for t in v["trick"]} | {
                        c["card"] for t in v["tricks_played"] for c in t["cards"]}
                    assert server.leaks(json.dumps(m), others - played) == []
            assert states[-1]["view"]["result"] is not None


def test_check_order_of_actions(server):
    tid, anna, bob = _two_humans(server)
    watcher = server.guest("Watcher")
    with anna.connect(tid) as a, bob.connect(tid) as b, watcher.connect(tid) as w, \
            server.connect(tid) as anon:
        # the table stands still once a human is to act: that one is "me", the other "you"
        first = a.until(lambda m: m["view"] and m["view"]["to_act"] in (0, 1), "a human's turn")
        me, you = (a, b) if first["view"]["to_act"] == 0 else (b, a)
        m = me.until(lambda m: m["version"] == first["version"], "the same state")
        version, hand = m["version"], m["view"]["hand"]
        seat = m["table"]["you"]
        not_mine = next(str(c) for c in SHORT_DECK if str(c) not in hand)
        # 1. spectators (logged in or not): not_seated, whatever else is wrong
        for conn in (w, anon):
            conn.act("garbage!", "old")
            assert conn.error()["code"] == "not_seated"
        # 2. a seated player out of turn: not_your_turn, even with an old version
        you.act(not_mine, version - 5)
        e = you.error()
        assert e["code"] == "not_your_turn" and f"seat {seat}'s turn" in e["message"]
        # 3. the right player with an old version: stale_state, then the current view
        me.act(m["view"]["legal"][0], version - 1)
        e = me.error()
        assert e["code"] == "stale_state"
        follow = me.recv()  # right after the error
        assert follow["type"] == "state" and follow["version"] == version
        assert follow["view"]["hand"] == hand and follow["view"]["to_act"] == seat
        # 4. the right version, an illegal action: illegal_action with the reason
        me.act(not_mine, version)
        e = me.error()
        assert e["code"] == "illegal_action" and e["message"], e
        # 5. text that is no action at all: invalid_action
        for bad in ("xyz!", "cut:abc", 42, None, ["EO"], {"card": "EO"}):
            me.act(bad, version)
            e = me.error()
            assert e["code"] == "invalid_action", (bad, e)
        # nothing of it changed the table
        assert server.on_loop(lambda: server.runtime(tid).version) == version
        # and the right action goes through
        me.act(m["view"]["legal"][0], version)
        assert me.state()["version"] > version


def test_game_over_after_the_game_and_after_the_match(db_url, start_server):
    server = start_server(db_url, auto_next_delay=60)
    anna = server.guest("Anna")
    watcher = server.guest("Watcher")
    # the first game with points ends the match: target 1, one Bobbl
    tid = anna.create_table(bots="fill", bobbl_limit=1, options={"bobbl_target": 1})["id"]
    rng = random.Random(5)
    with anna.connect(tid) as a, watcher.connect(tid) as w:
        while True:
            end = a.play_game(0, rng)
            if end["table"]["match_over"]:
                break
            # between games: an action is game_over until someone says "next"
            a.act(end["view"]["legal"][0] if end["view"]["legal"] else "weiter",
                  end["version"])
            assert a.error()["code"] == "game_over"
            a.act("next", end["version"])
            a.last_acted = -1
        assert end["table"]["status"] == "finished" or server.runtime(tid).status == "finished"
        v = end["version"]
        for action, version in (("weiter", v), ("EO", v - 3), ("next", v), ("next", 0)):
            a.act(action, version)
            e = a.error()
            assert e["code"] == "game_over", (action, version, e)
        w.act("weiter", v)  # the spectator check comes first
        assert w.error()["code"] == "not_seated"
    assert server.store.table(tid).status == "finished"
    assert tid not in [t["id"] for t in server.tables.lobby_list()]


def test_no_bad_message_is_dropped(server):
    anna = server.guest("Anna")
    tid = anna.create_table(bots="fill")["id"]
    with anna.connect(tid) as a:
        version = a.until_turn(0)["version"]
        bad = [
            "not json", "", "[1, 2]", "42", '"text"', "null", "{broken",
            json.dumps({"no": "type"}), json.dumps({"type": "dance"}),
            json.dumps({"type": 7}), json.dumps({"type": "action"}),
            json.dumps({"type": "action", "action": "??", "version": version}),
            json.dumps({"type": "chat"}), json.dumps({"type": "chat", "text": "   "}),
            json.dumps({"type": "chat", "text": 5}),
        ]
        for text in bad:
            a.send(text)
        a.ws.send_bytes(b'{"type": "ping"}')  # a binary frame is refused, not a crash
        a.send({"type": "ping"})
        errors = []
        while True:
            m = a.recv()
            assert m["type"] != "websocket.close", m
            if m["type"] == "pong":
                break
            if m["type"] == "error":
                errors.append(m)
        assert len(errors) == len(bad) + 1
        codes = [e["code"] for e in errors]
        assert codes[:7] == ["bad_message"] * 7
        assert codes[7:10] == ["bad_message"] * 3
        assert codes[10:12] == ["invalid_action"] * 2
        assert codes[12:15] == ["invalid_chat"] * 3
        assert codes[15] == "bad_message"
        assert all(e["message"] for e in errors)
        # the socket still works
        a.send({"type": "sync"})
        assert a.state()["table"]["you"] == 0


def test_rate_limit(db_url, start_server):
    server = start_server(db_url, action_burst=5, action_rate=0.01)
    anna = server.guest("Anna")
    tid = anna.create_table(bots="fill")["id"]
    with anna.connect(tid) as a:
        m = a.until_turn(0)
        for _ in range(8):
            a.act("weiter", m["version"] - 1)  # stale: refused, but counted
        codes = []
        while len(codes) < 8:
            r = a.recv()
            if r["type"] == "error":
                codes.append(r["code"])
        assert codes == ["stale_state"] * 5 + ["rate_limited"] * 3
        a.send({"type": "chat", "text": "hallo"})
        assert a.error()["code"] == "rate_limited"
        # a right action is refused too until the bucket refills
        a.act(m["view"]["legal"][0], m["version"])
        assert a.error()["code"] == "rate_limited"
    assert server.store.chat(tid) == []


def test_chat_is_stored_limited_plain_text_and_replayed(db_url, start_server):
    server = start_server(db_url, chat_max_length=40)
    anna, bob = server.guest("Anna"), server.guest("Bob")
    tid = anna.create_table(bots=[2, 3])["id"]
    evil = "<script>alert('x')</script> & <b>"
    with anna.connect(tid) as a, bob.connect(tid) as b, server.connect(tid) as anon:
        a.send({"type": "chat", "text": f"  {evil}  "})
        for conn in (a, b, anon):
            m = conn.recv_type("chat")
            assert m["name"] == "Anna" and m["text"] == evil and m["at"]
            assert "<script>alert('x')</script>" in conn.raw[-1]  # as text, not escaped
            assert "&lt;" not in conn.raw[-1] and "&amp;" not in conn.raw[-1]
        b.send({"type": "chat", "text": "x" * 41})
        e = b.error()
        assert e["code"] == "chat_too_long" and "40" in e["message"]
        b.send({"type": "chat", "text": "y" * 40})
        assert b.recv_type("chat")["text"] == "y" * 40
        b.send({"type": "chat", "text": "Ser\x00vus\x1b[31m"})
        assert b.recv_type("chat")["text"] == "Servus[31m"  # control characters dropped
        anon.send({"type": "chat", "text": "anonym"})
        assert anon.error()["code"] == "not_logged_in"
    rows = server.store.chat(tid)
    assert [(r.name, r.text) for r in rows] == [("Anna", evil), ("Bob", "y" * 40),
                                                ("Bob", "Servus[31m")]
    # the history comes first when a socket connects (a spectator too)
    cora = server.guest("Cora")
    with cora.connect(tid) as c:
        got = [c.recv() for _ in range(4)]
        assert [m["type"] for m in got] == ["chat", "chat", "chat", "state"]
        assert [m["text"] for m in got[:3]] == [evil, "y" * 40, "Servus[31m"]


def test_ping_and_sync(server):
    anna = server.guest("Anna")
    tid = anna.create_table(bots="fill")["id"]
    with anna.connect(tid) as a:
        m = a.until_turn(0)
        a.send({"type": "ping"})
        assert a.recv() == {"type": "pong"}
        a.send({"type": "sync"})
        again = a.recv()
        assert again["type"] == "state" and again["version"] == m["version"]
        assert again["view"] == m["view"]


def test_an_action_with_an_id_is_acknowledged_to_its_sender_alone(server):
    """``"id": N`` on an action: once it is stored and its state sent, the acting
    socket gets ``{"type": "ack", "id": N, "version"}`` (the version of that state); the
    other players get no ack; a bad id is refused before anything is applied."""
    tid, anna, bob = _two_humans(server)
    with anna.connect(tid) as a, bob.connect(tid) as b:
        first = a.until(lambda s: s["view"]["to_act"] in (0, 1), "a person to act",
                        timeout=20)
        me, other = (a, b) if first["view"]["to_act"] == 0 else (b, a)
        m = me.until(lambda s: bool(s["view"]["legal"]), "the legal actions")
        for bad in ("7", -1, 2 ** 31, 1.5, True, [1]):
            me.send({"type": "action", "action": m["view"]["legal"][0],
                     "version": m["version"], "id": bad})
            e = me.error()
            assert e["code"] == "invalid_action" and "id must be an integer" in e["message"]
        assert server.on_loop(lambda: server.runtime(tid).version) == m["version"]
        me.send({"type": "action", "action": m["view"]["legal"][0], "version": m["version"],
                 "id": 41})
        after = me.recv_type("state")
        ack = me.recv_type("ack")
        assert ack == {"type": "ack", "id": 41, "version": after["version"]}
        assert after["version"] > m["version"]
        other.until(lambda s: s["version"] >= after["version"], "the other's update")
        assert not any(json.loads(t)["type"] == "ack" for t in other.raw)
