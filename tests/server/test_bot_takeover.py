"""Bots playing a person's seat (issue 9, item 13): every action a bot takes for a seat a
person held is marked in the game and shown in the history and the game detail; the
table's owner decides whether a bot takes over at all; a seat whose player stays away
longer than the table's ``away_timeout`` is released."""

from __future__ import annotations

import random
import time


def _history(server, tid):
    return server.on_loop(lambda: list(server.runtime(tid).game.history))


def test_actions_a_bot_takes_for_a_person_are_marked_in_history_and_detail(
        sqlite_url, start_server):
    server = start_server(sqlite_url, bot_delay=0.05, auto_next_delay=60)
    anna = server.guest("Anna")
    created = anna.create_table(bots="fill")
    tid = created["id"]
    table = anna.get(f"/api/tables/{tid}").json()
    assert table["bot_takeover"] is True and table["away_timeout"] == 300  # the defaults
    with anna.connect(tid) as a:
        a.until_turn(0)
        before = len(_history(server, tid))
    server.wait_until(lambda: any(seat == 0 for seat, _ in
                                  server.runtime(tid).game.history[before:]),
                      "a bot acting for seat 0")
    with anna.connect(tid) as a:
        end = a.play_game(0, random.Random(5))
    assert end["view"]["result"] is not None
    (game,) = anna.get("/api/me/games").json()["games"]
    assert game["bot_for_you"] >= 1 and game["stand_in_seats"] == [0]
    detail = anna.get(f"/api/games/{game['id']}").json()
    assert detail["you"] == 0
    marks = detail["stand_in"]
    assert len(marks) == game["bot_for_you"] and all(m["seat"] == 0 for m in marks)
    record = detail["record"]
    assert record["meta"]["stand_in"] == marks and "log" not in record
    for m in marks:
        if "play" in m:
            assert record["plays"][m["play"]] == m["action"]
        elif "call" in m:
            assert record["calls"][m["call"]] == m["action"]
    # the bots' own seats are not marked (nobody was standing in for a person there)
    assert {m["seat"] for m in marks} == {0}


def test_without_bot_takeover_the_game_waits_for_the_player(sqlite_url, start_server):
    # issue 19: a turn timer that runs out lets a bot make that one move (also at a table
    # that waits for those away); the table waits once the player is away
    server = start_server(sqlite_url, bot_delay=0.02, auto_next_delay=60)
    anna = server.guest("Anna")
    tid = anna.create_table(bots="fill", bot_takeover=False, turn_timer=1)["id"]
    with anna.connect(tid) as a:
        m = a.until_turn(0)
        assert m["table"]["bot_takeover"] is False and m["table"]["away_rule"] == "wait"
        before = len(_history(server, tid))
        # the turn timer runs out: a bot makes that one move, the seat stays hers
        timed = a.until(lambda m: m["table"]["seats"][0]["timed_out"], "the timeout", 5)
        assert timed["table"]["seats"][0]["bot"] is None
        assert [s for s, _ in _history(server, tid)[before:]].count(0) == 1
    server.wait_until(lambda: server.runtime(tid).seats[0].away, "the seat marked away")
    server.wait_until(lambda: server.runtime(tid).game.current_player == 0
                      and not server.runtime(tid).timers.tasks, "her turn, the table waits")
    before = len(_history(server, tid))
    time.sleep(0.3)
    assert len(_history(server, tid)) == before  # still Anna's turn, nobody played it
    with anna.connect(tid) as a:
        m = a.until_turn(0)
        a.act(m["view"]["legal"][0], m["version"])
        assert a.state()["version"] > m["version"]


def test_a_seat_away_longer_than_away_timeout_is_released(sqlite_url, start_server):
    server = start_server(sqlite_url, bot_delay=0.05, auto_next_delay=60, away_timeout=60)
    anna = server.guest("Anna")
    tid = anna.create_table(bots="fill", away_timeout=1)["id"]
    with anna.connect(tid) as a:
        assert a.until_turn(0)["table"]["away_timeout"] == 1
    server.wait_until(lambda: server.runtime(tid).seats[0].away, "the seat marked away")
    t0 = time.monotonic()
    server.wait_until(lambda: server.runtime(tid).seats[0].kind == "empty",
                      "the seat released", timeout=5)
    assert time.monotonic() - t0 > 0.5
    assert server.store.table(tid).seats[0]["kind"] == "empty"
    lobby = anna.get("/api/tables").json()["tables"]
    assert [t["free"] for t in lobby if t["id"] == tid] == [[0]]
    # Anna may sit down again; the server's default applies to tables without a value
    assert anna.join(tid, 0).status_code == 200
    tid2 = anna.create_table(bots="fill")["id"]
    assert anna.get(f"/api/tables/{tid2}").json()["away_timeout"] == 60
