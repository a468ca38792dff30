"""What a table does with people who are not there (issue 19): a new game is never dealt in
the name of a person who is away; the creator's away rule (``wait``: the table pauses and
says who is missing since when; ``bot``: a bot plays the seat while at least one person is
at the table); a turn timer that runs out lets a bot make that one move and three in a
row count as away; "Aufstehen" frees the seat, which its player or another person may take
again; a table with no person seated ends after its running game; a table of bots only is
a bounded demonstration.  On SQLite and PostgreSQL (``server``/``db_url``)."""

from __future__ import annotations

import random
import time

import pytest


def _live(server, tid, fn):
    return server.on_loop(lambda: fn(server.runtime(tid)))


def _game_number(server, tid):
    return _live(server, tid, lambda rt: rt.game_number)


def _history_len(server, tid):
    return _live(server, tid, lambda rt: len(rt.game.history))


def _info(player, tid, invite=None):
    r = player.get(f"/api/tables/{tid}", params={"invite": invite} if invite else None)
    assert r.status_code == 200, r.text
    return r.json()


# -- the choice -----------------------------------------------------------------------------
def test_the_away_rule_is_chosen_at_creation_with_defaults_by_visibility(server):
    anna = server.guest("Anna")
    public = anna.create_table(bots=[1, 2, 3])
    private = anna.create_table(public=False, bots=[1, 2, 3])
    info = _info(anna, public["id"])
    assert info["away_rule"] == "bot" and info["bot_takeover"] is True
    info = _info(anna, private["id"])
    assert info["away_rule"] == "wait" and info["bot_takeover"] is False
    assert info["waiting_for"] == [] and info["stand_in_games"] == []
    # either field names the choice; both are stored as ``bot_takeover``
    for body, rule in [({"away_rule": "wait"}, "wait"), ({"away_rule": "bot", "public": False},
                                                         "bot"),
                       ({"bot_takeover": False}, "wait"), ({"bot_takeover": True,
                                                            "away_rule": "bot"}, "bot")]:
        tid = anna.create_table(bots=[1, 2, 3], **body)["id"]
        assert _info(anna, tid)["away_rule"] == rule, body
        assert server.store.table(tid).settings["bot_takeover"] is (rule == "bot")
    for body, named in [({"away_rule": "sometimes"}, "sometimes"),
                        ({"away_rule": 1}, "away_rule"),
                        ({"away_rule": "wait", "bot_takeover": True}, "contradicts")]:
        r = anna.post("/api/tables", json={"turn_timer": 0, **body})
        assert r.status_code == 422, (body, r.text)
        assert r.json()["code"] == "invalid_away_rule" and named in r.json()["message"]


# -- wait -------------------------------------------------------------------------------------
def test_wait_the_table_pauses_and_says_who_is_missing_since_when(db_url, start_server):
    server = start_server(db_url, bot_delay=0.01)
    anna = server.guest("Anna")
    created = anna.create_table(public=False, bots="fill")
    tid, invite = created["id"], created["invite_code"]
    with anna.connect(tid) as a:
        m = a.until_turn(0)
        assert m["table"]["away_rule"] == "wait" and m["table"]["waiting_for"] == []
    before = _history_len(server, tid)
    t0 = time.time()
    server.wait_until(lambda: server.runtime(tid).seats[0].away, "Anna away")
    with server.connect(tid, invite=invite) as watcher:
        m = watcher.until(lambda m: m["table"]["waiting_for"] == [0], "the pause")
        seat = m["table"]["seats"][0]
        assert seat["away"] is True and seat["bot"] is None and seat["name"] == "Anna"
        assert abs(seat["away_since"] / 1000 - t0) < 5
    time.sleep(0.5)
    assert _history_len(server, tid) == before and _game_number(server, tid) == 1
    with anna.connect(tid) as a:
        m = a.until_turn(0)
        assert m["table"]["waiting_for"] == [] and m["table"]["seats"][0]["away"] is False
        assert m["table"]["seats"][0]["away_since"] is None
        end = a.play_game(0, random.Random(3), first=m)
        assert end["table"]["game_number"] == 1
    # between games, away: the next game is not dealt (nobody may ask for it either)
    server.wait_until(lambda: server.runtime(tid).seats[0].away, "Anna away")
    time.sleep(0.3)
    assert _game_number(server, tid) == 1
    assert _live(server, tid, lambda rt: rt.waiting_for()) == [0]
    with anna.connect(tid) as a:
        m = a.latest()
        a.act("next", m["version"])
        a.until(lambda m: m["table"]["game_number"] == 2, "game 2 dealt on her word")


def test_wait_with_two_players_the_present_one_cannot_deal_for_the_absent(server):
    anna, bert = server.guest("Anna"), server.guest("Bert")
    created = anna.create_table(public=False, bots=[2, 3])
    tid, invite = created["id"], created["invite_code"]
    assert bert.join(tid, 1, invite=invite).status_code == 200
    with anna.connect(tid) as a:
        with bert.connect(tid) as b:
            b.until(lambda m: m["table"]["game_number"] == 1, "the game")
        a.until(lambda m: m["table"]["waiting_for"] == [1], "the table waits for Bert")
        # Bert's seat is not played: the game stops at his turn
        server.wait_until(lambda: (lambda g: g.current_player == 1 or g.is_terminal())(
            server.runtime(tid).game), "Bert's turn", timeout=30)
        v = _history_len(server, tid)
        time.sleep(0.3)
        assert _history_len(server, tid) == v and not _live(
            server, tid, lambda rt: rt.game.is_terminal())
    lobby = server.on_loop(lambda: server.runtime(tid).views.lobby_entry())
    assert lobby["seats"][1] == {"name": "", "kind": "human", "away": True}


# -- bot --------------------------------------------------------------------------------------
def test_bot_a_bot_finishes_only_the_running_game_when_nobody_is_left(server):
    anna = server.guest("Anna")
    tid = anna.create_table(bots="fill")["id"]  # public: Bot übernimmt
    with anna.connect(tid) as a:
        a.until_turn(0)
    server.wait_until(lambda: server.runtime(tid).between_games(), "the bots finish the game",
                      timeout=30)
    time.sleep(0.5)  # auto_next_delay is 0 here: no game is dealt anyway
    assert _game_number(server, tid) == 1
    assert _live(server, tid, lambda rt: rt.waiting_for()) == [0]
    (game,) = anna.get("/api/me/games").json()["games"]
    assert game["bot_for_you"] >= 1 and game["stand_in_seats"] == [0]
    with anna.connect(tid) as a:
        m = a.latest()
        assert m["table"]["stand_in_games"] == [{"game": 1, "seats": [0]}]
        assert m["table"]["waiting_for"] == []
        a.act("next", m["version"])
        a.until(lambda m: m["table"]["game_number"] == 2, "game 2 on her word")


def test_bot_with_a_person_present_the_bot_plays_the_absent_seat_on(server):
    anna, bert = server.guest("Anna"), server.guest("Bert")
    tid = anna.create_table(bots=[2, 3])["id"]
    assert bert.join(tid, 1).status_code == 200
    with anna.connect(tid) as a:
        with bert.connect(tid) as b:
            b.until(lambda m: m["table"]["game_number"] == 1, "the game")
        m = a.until(lambda m: m["table"]["seats"][1]["away"], "Bert away")
        assert m["table"]["seats"][1]["bot"] is not None and m["table"]["waiting_for"] == []
        lobby = anna.get("/api/tables").json()["tables"][0]
        assert lobby["seats"][1] == {"name": "", "kind": "bot", "away": True}
        assert "Bert" not in str(lobby)
        end = a.play_game(0, random.Random(4), first=m, timeout=60)
        a.act("next", end["version"])
        m = a.until(lambda m: m["table"]["game_number"] == 2, "game 2 with a bot for Bert")
        a.play_game(0, random.Random(4), first=m, timeout=60)
    detail = anna.get("/api/me/games").json()["games"]
    assert sorted(g["number"] for g in detail) == [1, 2]
    assert all(g["stand_in_seats"] == [1] for g in detail)


# -- the turn timer -----------------------------------------------------------------------------
def test_a_timeout_is_one_bot_move_and_three_in_a_row_are_away(db_url, start_server):
    server = start_server(db_url, bot_delay=0.01)
    anna = server.guest("Anna")
    created = anna.create_table(public=False, bots="fill", turn_timer=1)
    tid = created["id"]
    with anna.connect(tid) as a:
        m = a.until_turn(0)
        before = _history_len(server, tid)
        # one timeout: a bot makes that one move for her, then it is hers again
        m = a.until(lambda m: m["table"]["seats"][0]["timed_out"], "the first timeout", 5)
        assert m["table"]["seats"][0]["away"] is False
        assert _live(server, tid, lambda rt: rt.seats[0].timeouts) == 1
        hist = _live(server, tid, lambda rt: list(rt.game.history))
        assert [s for s, _ in hist[before:]].count(0) >= 1
        marks = _live(server, tid, lambda rt: list(rt.stand_in))
        assert [mk["seat"] for mk in marks] == [0]
        # she acts on her next turn: the count starts again
        m = a.until_turn(0)
        a.act(m["view"]["legal"][0], m["version"])
        server.wait_until(lambda: server.runtime(tid).seats[0].timeouts == 0
                          and not server.runtime(tid).seats[0].timed_out, "the count reset")
        # three in a row: away (this table waits for her; the game stands still)
        m = a.until(lambda m: m["table"]["waiting_for"] == [0], "three timeouts", 20)
        seat = m["table"]["seats"][0]
        assert seat["away"] is True and seat["away_since"] is not None
        assert len(_live(server, tid, lambda rt: rt.stand_in)) >= 4
        # the others play on up to her turn; there no turn timer runs for her now
        server.wait_until(lambda: server.runtime(tid).game.current_player == 0
                          and not server.runtime(tid).timers.tasks, "her turn again", 10)
        n = _history_len(server, tid)
        time.sleep(1.5)
        assert _history_len(server, tid) == n
        # her next action: back
        m = a.latest()
        if m["view"]["to_act"] == 0:
            a.act(m["view"]["legal"][0], m["version"])
        else:
            a.act("next", m["version"])
        a.until(lambda m: not m["table"]["seats"][0]["away"], "back")


# -- Aufstehen -----------------------------------------------------------------------------------
def test_aufstehen_frees_the_seat_and_the_player_or_another_may_sit_down(server):
    anna, bert, cora = server.guest("Anna"), server.guest("Bert"), server.guest("Cora")
    tid = anna.create_table(bots=[2, 3])["id"]
    assert bert.join(tid, 1).status_code == 200
    with anna.connect(tid) as a:
        a.until(lambda m: m["table"]["game_number"] == 1, "the game")
        assert bert.post(f"/api/tables/{tid}/leave").json() == {"left": 1}
        m = a.until(lambda m: m["table"]["seats"][1]["kind"] == "empty", "the free seat")
        assert m["table"]["seats"][1]["name"] == "" and m["table"]["seats"][1]["bot"]
        lobby = anna.get("/api/tables").json()["tables"][0]
        assert lobby["free"] == [1] and "Bert" not in str(lobby)
        assert server.store.table(tid).seats[1]["kind"] == "empty"
        # he sits down again on it (during the game: he plays on from here)
        assert bert.join(tid, 1).status_code == 200
        m = a.until(lambda m: m["table"]["seats"][1]["name"] == "Bert", "Bert back")
        assert m["table"]["seats"][1]["kind"] == "human"
        assert bert.post(f"/api/tables/{tid}/leave").json() == {"left": 1}
        # another person takes it
        assert cora.join(tid, 1).status_code == 200
        a.until(lambda m: m["table"]["seats"][1]["name"] == "Cora", "Cora seated")
        with cora.connect(tid) as c:
            ends = []
            server.parallel(lambda: ends.append(a.play_game(0, random.Random(1), timeout=60)),
                            lambda: ends.append(c.play_game(1, random.Random(2), timeout=60)))
            assert all(e["view"]["result"] is not None for e in ends)


def test_a_table_with_no_person_seated_ends_after_its_running_game(server):
    anna = server.guest("Anna")
    tid = anna.create_table(bots="fill")["id"]
    with anna.connect(tid) as a:
        a.until_turn(0)
        assert anna.post(f"/api/tables/{tid}/leave").json() == {"left": 0}
        m = a.until(lambda m: m["table"]["status"] == "finished", "the end", 30)
        assert m["table"]["game_number"] == 1 and m["table"]["between_games"] is True
        assert m["table"]["closed"] == "nobody_seated" and m["table"]["match_over"] is False
    assert server.store.table(tid).status == "finished"
    assert anna.get("/api/tables").json()["tables"] == []
    r = anna.join(tid, 0)
    assert r.status_code == 409 and r.json()["code"] == "match_over"
    (game,) = anna.get("/api/me/games").json()["games"]
    assert game["seat"] == 0 and game["bot_for_you"] >= 1  # the bot finished it, marked


def test_a_released_seat_ends_a_table_of_one_person_after_its_game(db_url, start_server):
    server = start_server(db_url, bot_delay=0.01)
    anna = server.guest("Anna")
    tid = anna.create_table(public=False, bots="fill", away_timeout=1)["id"]
    with anna.connect(tid) as a:
        a.until_turn(0)
    # wait: paused for a second, then the seat is free, a bot finishes, the table ends
    server.wait_until(lambda: server.runtime(tid).status == "finished", "the end", 30)
    assert _game_number(server, tid) == 1
    assert server.store.table(tid).seats[0]["kind"] == "empty"


# -- bots only -------------------------------------------------------------------------------------
def test_a_table_of_bots_only_is_a_bounded_demonstration(db_url, start_server):
    server = start_server(db_url, demo_games=2, demo_tables=1, bot_delay=0)
    anna = server.guest("Anna")
    tid = anna.create_table(bots="fill", seat=None, bot="random", bobbl_limit=None)["id"]
    assert _info(anna, tid)["demo_games"] == 2
    r = anna.post("/api/tables", json={"bots": "fill", "seat": None, "turn_timer": 0})
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"
    server.wait_until(lambda: server.runtime(tid).status == "finished", "the demonstration",
                      timeout=60)
    assert _game_number(server, tid) == 2
    assert _info(anna, tid)["closed"] == "demo_done"
    # a table with a free seat is no demonstration: nothing is dealt until someone sits
    tid2 = anna.create_table(bots=[1, 2, 3], seat=None)["id"]
    assert _info(anna, tid2)["demo_games"] is None and _game_number(server, tid2) == 0
    assert anna.post("/api/tables", json={"bots": "fill", "seat": None,
                                          "turn_timer": 0}).status_code == 200


# -- money -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["schafkopf"])
def test_the_money_a_stand_in_game_booked_is_shown_to_its_player(server, game):
    anna = server.guest("Anna")
    tid = anna.create_table(game=game, bots="fill", bot="random")["id"]
    with anna.connect(tid) as a:
        a.until(lambda m: m["table"]["game_number"] == 1, "the hand")
        assert anna.post(f"/api/tables/{tid}/leave").json() == {"left": 0}
        end = a.until(lambda m: m["table"]["status"] == "finished", "the hand played out", 60)
    sheet = end["table"]["sheet"]
    assert end["table"]["stand_in_games"] == [{"game": 1, "seats": [0]}]
    (game_row,) = anna.get("/api/me/games").json()["games"]
    assert game_row["bot_for_you"] >= 1 and game_row["seat"] == 0
    booked = game_row["result"]["payments"][0]
    assert booked == sheet["totals"][0] == sheet["hands"][0]["payments"][0]
    detail = anna.get(f"/api/games/{game_row['id']}").json()
    assert detail["you"] == 0 and detail["result"]["payments"][0] == booked
    assert {m["seat"] for m in detail["stand_in"]} == {0}


# -- every game ---------------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["mucken", "schafkopf", "mulatschak", "mus"])
def test_every_game_a_bot_finishes_only_the_running_game(sqlite_url, start_server, game):
    """The rules are the live table's, not a game's: at each of the four games the only
    person leaves during the first game (Aufstehen), a bot finishes it (marked), no second
    game is dealt and the table ends; the game is in her history with the mark."""
    server = start_server(sqlite_url, bot_delay=0)
    anna = server.guest("Anna")
    tid = anna.create_table(game=game, bots="fill", bot="random")["id"]
    with anna.connect(tid) as a:
        a.until_turn(0, timeout=30)  # her turn: the bot must act for her seat
        assert anna.post(f"/api/tables/{tid}/leave").json() == {"left": 0}
        end = a.until(lambda m: m["table"]["status"] == "finished", "the end", 60)
    assert end["table"]["game_number"] == 1 and end["table"]["closed"] == "nobody_seated"
    assert end["table"]["stand_in_games"] == [{"game": 1, "seats": [0]}]
    (row,) = anna.get("/api/me/games").json()["games"]
    assert row["seat"] == 0 and row["number"] == 1 and row["bot_for_you"] >= 1
    marks = anna.get(f"/api/games/{row['id']}").json()["stand_in"]
    assert len(marks) == row["bot_for_you"] and {m["seat"] for m in marks} == {0}
