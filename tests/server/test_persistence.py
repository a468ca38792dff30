"""Persistence: every action stores the game's record; finished games are in the
player's history and download as issue-2 records that replay to the same result; a new
app on the same database restores every table exactly where it was."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import jsonschema

from stammtisch.engine.core import action_log
from stammtisch.games.mucken.record import replay
from stammtisch.schemas import record_schema
from stammtisch.server.tables import Connection


def test_the_record_grows_action_by_action(server):
    saved: list[tuple[int, dict]] = []
    real_save = server.store.save_game

    def spy(table_id, number, record, finished, result, players, gen=None):
        saved.append((number, json.loads(json.dumps(record))))
        return real_save(table_id, number, record, finished, result, players, gen)

    writer = server.tables.writer  # group commit (PostgreSQL's default): saves go there
    if writer is None:
        server.store.save_game = spy
    else:
        real_queue = writer.save

        async def queue_spy(table_id, number, record, finished, result, players, gen=None):
            saved.append((number, json.loads(json.dumps(record))))
            await real_queue(table_id, number, record, finished, result, players, gen)

        writer.save = queue_spy
    anna = server.guest("Anna")
    tid = anna.create_table(bots="fill")["id"]
    rt = server.runtime(tid)
    rng = random.Random(4)
    rows = []
    mine = server.my_turn(0)
    with anna.connect(tid) as a:
        m = a.until_turn(0)
        for _ in range(8):
            (row,) = server.store.games_of_table(tid)
            live = server.on_loop(lambda: rt.live_record(rt.game))
            assert row.number == 1 and row.finished is False and row.result is None
            assert row.record == live  # the database has the table's state, at rest
            rows.append(row.record)
            a.act(rng.choice(m["view"]["legal"]), m["version"])
            m = a.until(lambda m: mine(m) or m["table"]["between_games"], "a turn or the end")
            if m["table"]["between_games"]:
                break
    logs = [r["log"] for r in rows]
    assert logs[0][0].startswith("shuffle:") and len(logs[0][0].split()) == 24
    for before, after in itertools.pairwise(rows):
        assert len(after["log"]) > len(before["log"])
        assert after["log"][:len(before["log"])] == before["log"]  # it only grows
        assert len(after["calls"]) + len(after["plays"]) > len(before["calls"]) + len(
            before["plays"]) or after["log"][-1].startswith(("cut:", "geben", "klopfen",
                                                               "kontra", "gut", "re"))
        assert after["hands"] == before["hands"] and after["dealer"] == before["dealer"]
    # one save per action: each saved log is one action longer than the one before
    lengths = [len(rec["log"]) for number, rec in saved if number == 1]
    assert lengths == list(range(lengths[0], lengths[0] + len(lengths)))
    assert lengths[0] <= 2  # the first save is right after the shuffle (or the first cut)


def test_finished_games_are_in_the_history_and_download_as_records(server):
    anna, bob = server.guest("Anna"), server.guest("Bob")
    tid = anna.create_table(bots="fill")["id"]
    assert anna.get("/api/me/games").json() == {"games": []}
    with anna.connect(tid) as a:
        end = a.play_game(0, random.Random(9))
        a.act("next", end["version"])
        mine = server.my_turn(0)
        a.until(lambda m: m["table"]["game_number"] == 2 and mine(m), "Anna's turn in game 2")
        # game 2 waits for Anna: it is not finished
        (_, running) = server.store.games_of_table(tid)
        assert running.finished is False and "log" in running.record
        for path in (f"/api/games/{running.public_id}",
                     f"/api/games/{running.public_id}/record", "/api/games/99999/record"):
            r = server.client.get(path)
            assert r.status_code == 404 and r.json()["code"] == "no_game", path
    result = end["view"]["result"]
    (game,) = anna.get("/api/me/games").json()["games"]
    assert game["result"] == result and game["number"] == 1 and game["seat"] == 0
    assert [p["name"] for p in game["players"]] == ["Anna", "Bot 2", "Bot 3", "Bot 4"]
    assert bob.get("/api/me/games").json() == {"games": []}
    assert server.client.get("/api/me/games").status_code == 401

    r = server.client.get(f"/api/games/{game['id']}/record")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    assert r.headers["content-disposition"] == (
        f'attachment; filename="mucken-{tid}-1.json"')
    record = r.json()
    assert "log" not in record
    jsonschema.validate(record, record_schema())
    assert record["hands"] == end["view"]["dealt"]
    state = replay(r.text)
    assert state.result() == result
    detail = server.client.get(f"/api/games/{game['id']}").json()
    assert detail["record"] == record and detail["result"] == result


class Driver:
    """Acts for the human seats through ``TableRuntime.handle_action`` with connections
    that are not sockets: nothing disconnects, so no bot takes a seat over, and the
    table stands still whenever a human is to act."""

    def __init__(self, server, tid: str, players) -> None:
        self.server = server
        self.rt = server.runtime(tid)
        self.conns = {}
        for p in players:
            async def send(_msg):
                return None

            self.conns[self.rt.seat_of(p.id)] = Connection(send=send, user_id=p.id,
                                                           name=p.name, tokens=1e9)

    def at_rest(self):
        def look():
            g = self.rt.game
            if g is None or self.rt.lock.locked():  # (an action's record being committed)
                return None
            if g.is_terminal():
                return ("over", None, self.rt.version)
            seat = g.current_player
            if not self.rt.seats[seat].bot_controlled and not self.rt.timers.tasks:
                return ("turn", seat, self.rt.version)
            return None
        return self.server.wait_until(look, "a human to act")

    def act(self, seat: int, text: str, version: int) -> None:
        self.server.client.portal.call(self.rt.handle_action, self.conns[seat], text, version)

    def play(self, rng: random.Random, until) -> None:
        while True:
            what, seat, version = self.at_rest()
            if until(self.rt):
                return
            if what == "over":
                self.act(min(self.conns), "next", version)
                continue
            legal = self.server.on_loop(lambda s=seat: self.rt.game.view(s)["legal"])
            self.act(seat, rng.choice(legal), version)


def _snapshot(server, tid):
    def look():
        rt = server.runtime(tid)
        g = rt.game
        return {
            "game_number": rt.game_number, "status": rt.status,
            "seats": [s.to_json() for s in rt.seats],
            "dealer": g.dealer, "hands": [[str(c) for c in h] for h in g.hands],
            "to_act": g.current_player, "phase": g.phase,
            "trick": [str(c) for c in g.tricks.current], "winners": list(g.tricks.winners),
            "log": action_log(g), "sheet": rt.match.sheet.to_json(),
            "next_dealer": rt.match.dealer, "factor": g.factor,
            "views": [g.view(s) for s in (0, 1, 2, 3, None)],
            "record": rt.live_record(g),
        }
    return server.on_loop(look)


def test_a_restart_restores_the_table_exactly(db_url, start_server):
    server = start_server(db_url, auto_next_delay=60)
    anna, bob = server.guest("Anna"), server.guest("Bob")
    tid = anna.create_table(bots=[1, 3])["id"]
    assert bob.join(tid, 2).status_code == 200
    driver = Driver(server, tid, [anna, bob])
    rng = random.Random(21)
    # the first game to its end, the second into the card play
    driver.play(rng, lambda rt: rt.game_number == 2 and len(rt.game.tricks.winners) >= 2
                and rt.game.tricks.current)
    before = _snapshot(server, tid)
    assert before["phase"] == "play" and before["to_act"] in (0, 2) and before["trick"]
    assert before["sheet"]["bobbl"][0]["entries"], "game 1 is on the sheet"
    server.stop()

    again = start_server(db_url, auto_next_delay=60)
    assert _snapshot(again, tid) == before
    assert again.runtime(tid).version == 1
    seat = before["to_act"]
    player = (anna if seat == 0 else bob).on(again)
    with player.connect(tid) as ws:
        first = ws.recv()
        assert first["type"] == "state" and first["view"] == before["views"][seat]
        assert first["table"]["game_number"] == 2
        ws.act(first["view"]["legal"][0], first["version"])
        assert ws.state()["version"] == 2
    # and the game goes on to its end (Anna is away now: a bot plays for her)
    Driver(again, tid, [anna, bob]).play(rng, lambda rt: rt.game.is_terminal())
    rows = again.store.games_of_table(tid)
    assert [r.number for r in rows[:2]] == [1, 2] and rows[1].finished
    assert replay(rows[1].record).result() == rows[1].result



def test_a_finished_game_has_a_double_dummy_analysis(sqlite_server: Any) -> None:
    """GET /api/games/{id}/analysis: per card the value before and after (issue 5)."""
    anna = sqlite_server.guest("Anna")
    table = anna.create_table(bots="fill", bobbl_limit=1)
    with anna.connect(table["id"]) as ws:
        def finished(msg: dict[str, Any]) -> bool:
            view = msg.get("view") or {}
            if view.get("legal") and view.get("to_act") == view.get("seat"):
                ws.act(view["legal"][0], msg["version"])
            return bool(msg["table"].get("between_games"))

        ws.until(finished, "the first game's end", timeout=30)
    games = anna.get("/api/me/games").json()["games"]
    assert games
    r = anna.get(f"/api/games/{games[0]['id']}/analysis")
    assert r.status_code == 200, r.text
    plays = r.json()["plays"]
    record = anna.get(f"/api/games/{games[0]['id']}/record").json()
    assert [p["card"] for p in plays] == record["plays"]
    assert all(p["loss"] >= 0 for p in plays)
    assert anna.get("/api/games/999999/analysis").status_code == 404
