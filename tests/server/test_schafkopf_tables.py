"""Schafkopf tables: rules chosen at creation, a game played against bots to its end, the
Abrechnung, history, record, replay and analysis of a finished Schafkopf game."""

from __future__ import annotations

import random

from stammtisch.games import registry


def _schafkopf_table(player, **body):
    body.setdefault("bots", "fill")
    body.setdefault("bot", "random")
    return player.create_table(game="schafkopf", **body)


def test_a_schafkopf_table_is_played_against_bots(server):
    anna = server.guest("Anna")
    t = _schafkopf_table(anna, preset="standard", rounds=1,
                         options={"tariff": {"rufspiel": 20}, "legen": True})
    info = anna.get(f"/api/tables/{t['id']}").json()
    assert info["game"] == "schafkopf" and info["rules"] == "custom"
    opts = info["rules_options"]
    assert opts["preset"] == "standard" and opts["legen"] is True
    assert opts["tariff"]["rufspiel"] == 20
    with anna.connect(t["id"]) as ws:
        rng = random.Random(5)
        end = ws.play_game(0, rng, timeout=60)
        v = end["view"]
        assert v["game"] == "schafkopf" and v["result"] is not None
        sheet = end["table"]["sheet"]
        assert sheet["kind"] == "abrechnung" and len(sheet["hands"]) == 1
        row = sheet["hands"][0]
        assert row["payments"] == v["result"]["payments"]
        assert row["balance"] == sheet["totals"] == v["result"]["payments"]
        assert sum(sheet["totals"]) == 0
    rt = server.runtime(t["id"])
    assert rt.game_name == "schafkopf"
    games = anna.get("/api/me/games").json()["games"]
    assert games, "the finished game is in the history"
    # the first hand: once Anna's socket is closed a bot takes her seat over and the
    # sitting may finish further hands before this request
    gid = min(games, key=lambda g: g["number"])["id"]
    detail = anna.get(f"/api/games/{gid}").json()
    rec = detail["record"]
    assert rec["game"] == "schafkopf" and "log" not in rec
    # the record replays through the registry to the same result
    out = registry.get("schafkopf").replay_record(rec)
    assert out["payments"] == v["result"]["payments"]
    r = anna.get(f"/api/games/{gid}/record")
    assert r.status_code == 200 and "schafkopf-" in r.headers["content-disposition"]
    assert anna.get(f"/replay/{gid}").status_code == 200


def test_schafkopf_rules_are_checked_at_creation(server):
    anna = server.guest("Anna")
    r = anna.post("/api/tables", json={"game": "schafkopf", "preset": "seefest",
                                       "turn_timer": 0})
    assert r.status_code == 422 and r.json()["code"] == "invalid_rules"
    r = anna.post("/api/tables", json={"game": "schafkopf", "options": {"nonsense": 1},
                                       "turn_timer": 0})
    assert r.status_code == 422 and r.json()["code"] == "invalid_rules"


def test_a_finished_schafkopf_hand_is_analysed(server):
    anna = server.guest("Anna")
    t = _schafkopf_table(anna, rounds=1)
    with anna.connect(t["id"]) as ws:
        ws.play_game(0, random.Random(9), timeout=60)
    (game, *_) = anna.get("/api/me/games").json()["games"]
    r = anna.get(f"/api/games/{game['id']}/analysis")
    assert r.status_code == 200, r.text
    plays = r.json()["plays"]
    result = anna.get(f"/api/games/{game['id']}").json()["result"]
    if result["contract"] not in (None, "ramsch", "sie"):
        assert plays and all("loss" in p for p in plays)


def test_a_bot_takes_over_an_away_schafkopf_player_and_is_marked(sqlite_url, start_server):
    server = start_server(sqlite_url, bot_delay=0.02, auto_next_delay=60)
    anna = server.guest("Anna")
    tid = anna.create_table(game="schafkopf", bots="fill")["id"]  # the game's default bot
    info = anna.get(f"/api/tables/{tid}").json()
    assert {s["bot"] for s in info["seats"][1:]} == {registry.get("schafkopf").default_bot}
    with anna.connect(tid) as a:
        a.until_turn(0)
    # away: a bot plays seat 0 to the end of the hand
    server.wait_until(lambda: (g := server.runtime(tid).game) is not None and g.is_terminal(),
                      "the hand played to its end by bots", timeout=60)
    (game,) = anna.get("/api/me/games").json()["games"]
    assert game["stand_in_seats"] == [0] and game["bot_for_you"] >= 1
    detail = anna.get(f"/api/games/{game['id']}").json()
    actions = detail["record"]["actions"]
    for m in detail["stand_in"]:
        assert m["seat"] == 0 and actions[m["index"]] == [0, m["action"]]


def test_the_sitting_books_each_hand_in_the_abrechnung():
    from stammtisch.engine import play_random

    desc = registry.get("schafkopf")
    sitting = desc.new_match(desc.make_rules("standard", all_pass="ramsch"), 2, 2)
    rng = random.Random(3)
    dealers = []
    while not sitting.is_over():
        hand = sitting.start_game(rng)
        dealers.append(hand.dealer)
        play_random(hand, rng)
        assert sitting.finish_game() is None
    sheet = sitting.sheet.to_json()
    assert dealers == [2, 3, 0, 1, 2, 3, 0, 1] and sheet["count"] == 8
    balance = [0, 0, 0, 0]
    for row in sheet["hands"]:
        balance = [a + b for a, b in zip(balance, row["payments"], strict=True)]
        assert row["balance"] == balance and sum(row["payments"]) == 0
    assert sheet["totals"] == balance and sitting.sheet.finished_bobbl() == []


def test_kreuzbock_rounds_follow_a_ramsch_at_the_table(server):
    from stammtisch.engine import play_random

    anna = server.guest("Anna")
    t = _schafkopf_table(anna, kreuzbock=True, options={"all_pass": "ramsch"})
    rt = server.runtime(t["id"])
    assert server.on_loop(lambda: rt.match.match.kreuzbock) is True
    r = anna.post("/api/tables", json={"kreuzbock": True, "turn_timer": 0})
    assert r.status_code == 422 and r.json()["code"] == "invalid_rules"
    # the table's sitting: everybody passes, a Ramsch, then a Kreuzbock hand
    sitting = rt.desc.new_match(rt.rules, 0, None, kreuzbock=True)
    rng = random.Random(2)
    hand = sitting.start_game(rng)
    for _ in range(4):
        hand.push("weiter")
    play_random(hand, rng)
    sitting.finish_game()
    play_random(sitting.start_game(rng), rng)
    sitting.finish_game()
    assert [h["contract"] for h in sitting.sheet.to_json()["hands"]] == ["ramsch", "kreuzbock"]
