"""Hints: ``{"type": "hint", "version": V}`` on one's turn in the card play, at tables
created with ``allow_hints`` — answered from the asker's own view by the PIMC bot."""

from __future__ import annotations

import json


def _to_my_card(conn, seat):
    """Answer the bidding and doubling (weiter/gut) until ``seat`` is to play a card."""
    while True:
        m = conn.until_turn(seat, timeout=30)
        v = m["view"]
        if v["phase"] == "play":
            return m
        word = "weiter" if "weiter" in v["legal"] else "gut" if "gut" in v["legal"] else None
        conn.act(word or v["legal"][0], m["version"])


def test_a_hint_on_my_turn_in_the_card_play(sqlite_server):
    server = sqlite_server
    anna = server.guest("Anna")
    tid = anna.create_table(bots="fill", allow_hints=True)["id"]
    with anna.connect(tid) as a:
        m = _to_my_card(a, 0)
        v = m["view"]
        a.send({"type": "hint", "version": m["version"]})
        hint = a.recv_type("hint", timeout=30)
        assert hint["version"] == m["version"]
        assert hint["card"] in v["legal"]
        assert set(hint["values"]) == set(v["legal"])
        assert all(0 <= x <= 120 for x in hint["values"].values())
        # nothing of the hidden hands in it
        dealt = server.on_loop(lambda: [[str(c) for c in h]
                                        for h in server.runtime(tid).game.dealt])
        others = {c for s in (1, 2, 3) for c in dealt[s]}
        assert server.leaks(a.raw[-1], others) == []
        # the same question gets the same answer; a stale version is refused
        a.send({"type": "hint", "version": m["version"]})
        assert a.recv_type("hint", timeout=30) == hint
        a.send({"type": "hint", "version": m["version"] - 1})
        assert a.error()["code"] == "stale_state"
        # the hint is advice only: the game goes on with the card played
        a.act(hint["card"], m["version"])
        after = a.until(lambda x: x["version"] > m["version"], "the card played")
        assert hint["card"] not in after["view"]["hand"]


def test_hints_only_where_allowed_and_on_ones_turn(sqlite_server):
    server = sqlite_server
    anna, bob = server.guest("Anna"), server.guest("Bob")
    tid = anna.create_table(bots="fill")["id"]
    with anna.connect(tid) as a:
        m = a.until_turn(0, timeout=30)
        a.send({"type": "hint", "version": m["version"]})
        assert a.error()["code"] == "hints_disabled"
    tid = anna.create_table(bots=[2, 3], allow_hints=True)["id"]
    assert bob.join(tid, 1).status_code == 200
    with anna.connect(tid) as a, bob.connect(tid) as b, server.connect(tid) as watcher:
        first = a.until(lambda m: m["view"] and m["view"]["to_act"] in (0, 1), "a human's turn")
        me, you = (a, b) if first["view"]["to_act"] == 0 else (b, a)
        version = first["version"]
        if first["view"]["phase"] != "play":
            me.send({"type": "hint", "version": version})
            assert me.error()["code"] == "no_hint"  # the bidding: no hints
        you.send({"type": "hint", "version": version})
        assert you.error()["code"] == "not_your_turn"
        watcher.send({"type": "hint", "version": version})
        assert watcher.error()["code"] == "not_seated"
        assert not any(json.loads(t)["type"] == "hint" for t in you.raw + watcher.raw)
