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
    if "mus" in legal:  # Mus rounds with discards are common at a real table
        return "mus" if r < 0.8 else "no mus"
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
        conns[sender].act(sena, None)
        # the sender's own view shows it; the others' current views are asked for (an
        # opponent who catches nothing is sent nothing: see test_private_actions.py)
        after = [c.until(lambda m, v=states[sender]["version"]: m["version"] > v, "the seña")
                 if s == sender else None for s, c in enumerate(conns)]
        after = [m if m is not None else c.latest() for m, c in zip(after, conns, strict=True)]
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


def test_a_sena_on_ones_own_turn_leaves_the_turn(server: Server) -> None:
    """A seña is never the turn's word: made by the seat to act, the turn stays with it."""
    tid, people = _four(server, {"senas": "on"})
    conns = [p.connect(tid) for p in people]
    try:
        states = [c.until(lambda m: m["view"] is not None and m["view"]["phase"] == "mus",
                          "the Mus round") for c in conns]
        me = states[0]["view"]["to_act"]
        sena = states[me]["out_of_turn"][0]  # every hand may show one (at least "ciego")
        conns[me].act(sena, states[me]["version"])
        after = conns[me].until(lambda m: m["view"]["senas"], "the seña")
        v = after["view"]
        assert v["to_act"] == me and v["legal"] == states[me]["view"]["legal"]
        assert [e["sena"] for e in v["senas"]] == [sena.split()[1]]
        assert sena not in after["out_of_turn"]  # once per deal of cards
        partner = conns[(me + 2) % 4].until(lambda m: m["view"]["senas"], "the seña")
        assert partner["view"]["senas"][0]["seat"] == me
    finally:
        for c in conns:
            c.close()


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
            # the table at rest after the seña: a person to act (Bixen may have acted
            # before the seña arrived; then the bots play on to Ane or Bixen)
            _, seen = _pump({2: b}, rng, {2: 10**9}, lambda s, m: any(
                e["sena"] == sign and e["seat"] == 0 for e in m["view"]["senas"])
                and m["view"]["to_act"] in (0, 2) and not m["table"]["between_games"])
            before = seen
            while True:  # Ane's own state of that moment
                mine = _state(a)
                if mine["version"] == seen["version"]:
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


# -- no leak in 1,000 random online games ------------------------------------------------------
#
# Random Mus hands at online tables through the server's real message path
# (:class:`TableRuntime`: ``connect``, ``handle_action`` with out-of-turn señas,
# ``broadcast`` with its shared serialised parts, ``random`` bots on their timers, the store
# on SQLite).  People hold 1–4 seats (the test answers their turns with a random legal
# action and now and then makes a seña out of turn); a spectator watches.  Every message
# every connection receives is checked:
#
# * card tokens: while a hand runs, a seat's messages name only cards that seat held (its
#   hand, its own discards) and a spectator's none; with the result, the final hands too —
#   never another seat's discards (nor anything of the stock);
# * the sheet (finished hands only) does not change during a hand;
# * legal actions go only to the seat to act; out-of-turn actions only name señas true
#   of the receiver's own cards;
# * señas: while the hand runs a seat sees its own and its partner's señas and the
#   opponents' ones it caught (``sichtbar``), a spectator none.

LEAK_HANDS = int(__import__("os").environ.get("MUS_LEAK_HANDS", "1000"))
LEAK_TABLES = 100
SENAS_OPTIONS: list[dict[str, Any]] = [{"senas": "on"}, {"senas": "sichtbar", "catch": 0.5},
                                       {}]


def _spanish_re() -> Any:
    import re

    from stammtisch.cards import SPANISH_DECK

    names = sorted((str(c) for c in SPANISH_DECK), key=len, reverse=True)
    return re.compile(r"(?<![A-Za-z0-9])(" + "|".join(names) + r")(?![A-Za-z0-9])")


class _Capture:
    """One connection's received messages (texts, in order)."""

    def __init__(self, user_id: int | None) -> None:
        from stammtisch.server.tables import Connection

        self.texts: list[str] = []

        async def send(msg: dict[str, Any]) -> None:
            import json

            self.texts.append(json.dumps(msg, ensure_ascii=False, separators=(",", ":")))

        async def send_text(text: str) -> None:
            self.texts.append(text)

        self.conn = Connection(send=send, user_id=user_id, name=f"U{user_id}",
                               send_text=send_text)

    def last(self) -> dict[str, Any]:
        import json

        for text in reversed(self.texts):
            m: dict[str, Any] = json.loads(text)
            if m["type"] == "state":
                return m
        raise AssertionError("no state yet")


async def _leak_table(manager: Any, t: int, hands: int, out: list[dict[str, Any]]) -> None:
    import asyncio

    from stammtisch.server.tables import Seat

    rng = random.Random(500 + t)
    rules = registry.get("mus").make_rules("duples", sets=99)
    humans = sorted(rng.sample(range(4), rng.choice([1, 2, 3, 4])))
    users = {i: manager.store.create_user(f"M{t}x{i}", None, True).id for i in humans}
    seats = [Seat(kind="human", user_id=users[i], name=f"M{t}x{i}") if i in humans
             else Seat() for i in range(4)]
    senas = SENAS_OPTIONS[t % len(SENAS_OPTIONS)]
    settings = {"turn_timer": 0, "bobbl_limit": None, **({"match_options": senas} if senas
                                                          else {})}
    rt = manager.create(name=f"T{t}", creator_id=None, creator_name="", public=True,
                        rules=rules, settings=settings,
                        bot_seats=[i for i in range(4) if i not in humans], bot_name="random",
                        creator_seat=None, seats=seats, game="mus")
    caps = {i: _Capture(users[i]) for i in humans}
    spectator = _Capture(None)
    for key, cap in [*caps.items(), (99, spectator)]:
        await rt.connect(1000 * t + key, cap.conn)
    anyone = caps[humans[0]].conn
    for _ in range(hands):
        marks = {key: len(c.texts) for key, c in [*caps.items(), (None, spectator)]}
        await rt.handle_action(anyone, "next", rt.version)
        while True:
            g = rt.game
            assert g is not None
            if g.is_terminal():
                break
            seat = g.current_player
            # a reshuffle of the discards mid-hand (a chance node) is drawn by the table
            assert seat >= 0, "the table stopped at a chance node"
            # now and then a person who is not to act makes a seña
            others = [s for s in humans if s != seat and caps[s].last()["out_of_turn"]]
            if others and rng.random() < 0.2:
                s = rng.choice(others)
                await rt.handle_action(caps[s].conn, rng.choice(caps[s].last()["out_of_turn"]),
                                       None)
                continue
            if rt.bot_plays(seat):
                version = rt.version
                for _ in range(200):
                    if rt.version != version:
                        break
                    await asyncio.sleep(0)
                else:
                    raise AssertionError(f"the table stayed at version {version}")
                continue
            m = caps[seat].last()
            assert m["version"] == rt.version_for(seat) and m["view"]["to_act"] == seat
            await rt.handle_action(caps[seat].conn, choose(m["view"]["legal"], rng),
                                   m["version"])
        out.append({"state": g.clone(), "sheet_count": len(rt.match.sheet.hands) - 1,
                    "ids": [rt.id, rt.invite_code or ""],
                    "messages": {key: c.texts[marks[key]:]
                                 for key, c in [*caps.items(), (None, spectator)]}})
    rt.close()


def _leak_play(tmp_path: Any, n_hands: int, n_tables: int) -> list[dict[str, Any]]:
    from stammtisch.persistence.db import Database
    from stammtisch.persistence.store import Store
    from stammtisch.server.loadtest import run_sync
    from stammtisch.server.settings import Settings
    from stammtisch.server.tables import TableManager

    db = Database(f"sqlite:///{tmp_path / 'mus_leak.sqlite3'}")
    db.migrate()
    settings = Settings(database_url=db.url, bot_delay=0, auto_next_delay=0, seed=13,
                        action_rate=1e9, action_burst=10**9)
    manager = TableManager(Store(db), settings)
    hands: list[dict[str, Any]] = []

    async def main() -> None:
        for t in range(n_tables):
            await _leak_table(manager, t, n_hands // n_tables, hands)

    run_sync(main())
    manager.close()
    db.dispose()
    return hands


def _check_hand(hand: dict[str, Any], card_re: Any) -> dict[str, int]:
    import json

    from stammtisch.cards import Card
    from stammtisch.games.mus.senas import true_signs

    g = hand["state"]
    final = [{str(c) for c in h} for h in g.hands]
    held = [set(final[s]) for s in range(4)]
    for who, action in g.history:
        if who >= 0 and str(action).startswith("descarte "):
            held[who].update(str(action).split()[1:])
    everything = set().union(*final)
    made = [(e.seat, e.sign, set(e.seen_by)) for e in g.senas]
    counts = {"messages": 0, "senas_checked": 0, "discards_hidden": 0}
    for receiver, texts in hand["messages"].items():
        previous: dict[str, Any] | None = None
        for text in texts:
            m = json.loads(text)
            if m["type"] != "state":
                assert m["type"] == "chat", m
                continue
            counts["messages"] += 1
            # a new version alone would tell that something happened (a seña among the
            # others): every state a receiver gets differs from its last in more than that
            same = previous is not None and {**m, "version": 0} == {**previous, "version": 0}
            assert not same, (receiver, m["version"])
            previous = m
            v = m["view"]
            assert v is not None and v["game"] == "mus" and v.get("seat") == receiver
            assert v["legal"] == [] or v["to_act"] == receiver, (receiver, v["to_act"])
            # the view and the out-of-turn actions (the table part holds no cards but the
            # sheet of finished hands, checked below not to change during a hand)
            scan = json.dumps([v, m["out_of_turn"]], ensure_ascii=False)
            tokens = set(card_re.findall(scan))
            if v.get("result") is None:
                assert m["table"]["sheet"]["count"] == hand["sheet_count"]
                allowed = set() if receiver is None else held[receiver]
                if receiver is not None:
                    assert set(v["hand"]) <= held[receiver]
                    for w in v["words"]:
                        if w[1].startswith("descarte ") and w[0] != receiver:
                            assert len(w[1].split()) == 2 and w[1].split()[1].isdigit(), w
                            counts["discards_hidden"] += 1
            else:
                allowed = everything | (set() if receiver is None else held[receiver])
            assert tokens <= allowed, (receiver, sorted(tokens - allowed))
            assert " by " not in "".join(m["out_of_turn"])  # never a seña's log form
            if receiver is not None and m["out_of_turn"]:
                hand_now = [Card.parse(c) for c in v["hand"]]
                true = set(true_signs(hand_now, g.rules))
                assert {x.split()[1] for x in m["out_of_turn"]} <= true
            if v.get("result") is not None:
                continue
            for e in v.get("senas", []):
                counts["senas_checked"] += 1
                assert receiver is not None, e
                mine = e["seat"] % 2 == receiver % 2
                caught = any(s == e["seat"] and sign == e["sena"] and receiver in seen
                             for s, sign, seen in made)
                assert mine or (caught and e.get("caught")), (receiver, e)
    return counts


def test_the_mus_leak_checks_catch_leaks(tmp_path: Any, monkeypatch: Any) -> None:
    """The checks have teeth: a view that shows every seña to everybody, one that names
    the other seats' discarded cards, and a table that sends everybody a new version for
    every seña are all caught."""
    from stammtisch.games.mus.state import MusState

    card_re = _spanish_re()
    real_visible = MusState.visible_senas
    real_word = MusState._public_word

    def all_senas(self: MusState, seat: int | None) -> list[dict[str, Any]]:
        out = real_visible(self, 0) + real_visible(self, 1)
        return out + [e for e in real_visible(self, 2) if e not in out]

    def open_discards(self: MusState, seat: int, who: int, action: Any) -> str | None:
        word = real_word(self, seat, who, action)
        return str(action) if word is not None and word.startswith("descarte ") else word

    from stammtisch.server.live.table import LiveTable

    def everybody_told(self: LiveTable, seat: int | None) -> int:
        return int(self.version)

    for owner, name, patch in ((MusState, "visible_senas", all_senas),
                               (MusState, "_public_word", open_discards),
                               (LiveTable, "version_for", everybody_told)):
        real = getattr(owner, name)
        monkeypatch.setattr(owner, name, patch)
        hands = _leak_play(tmp_path / name, 60, 6)
        monkeypatch.setattr(owner, name, real)
        caught = 0
        for hand in hands:
            try:
                _check_hand(hand, card_re)
            except AssertionError:
                caught += 1
        assert caught >= 3, (name, caught)


def test_no_leak_in_1000_online_mus_games(tmp_path: Any) -> None:
    started = time.monotonic()
    hands = _leak_play(tmp_path, LEAK_HANDS, LEAK_TABLES)
    assert len(hands) == LEAK_HANDS
    card_re = _spanish_re()
    totals = {"messages": 0, "senas_checked": 0, "discards_hidden": 0, "senas_made": 0,
              "caught": 0, "showdowns": 0}
    for hand in hands:
        for k, n in _check_hand(hand, card_re).items():
            totals[k] += n
        g = hand["state"]
        totals["senas_made"] += len(g.senas)
        totals["caught"] += sum(1 for e in g.senas if e.seen_by)
        totals["showdowns"] += not g.stopped
    scale = LEAK_HANDS / 1000
    # the test has teeth: many messages, señas made and checked, discards hidden
    assert totals["senas_made"] >= 300 * scale and totals["caught"] >= 50 * scale, totals
    assert totals["senas_checked"] >= 1000 * scale, totals
    assert totals["discards_hidden"] >= 1000 * scale, totals
    assert totals["messages"] >= 20000 * scale, totals
    print(totals, f"{time.monotonic() - started:.1f} s")


def test_a_reshuffle_mid_hand_does_not_stop_the_table(sqlite_server: Server) -> None:
    """Four people say ``mus`` and discard four cards each: the second round's draws need
    more than the 8 cards left in the stock, so the discards are reshuffled mid-hand; the
    table must go on to the next Mus round."""
    people = [sqlite_server.guest(n) for n in ("Ane", "Bixen", "Cris", "Dani")]
    tid = people[0].create_table(game="mus", bots=[])["id"]
    for seat, p in enumerate(people[1:], start=1):
        assert p.join(tid, seat).status_code == 200
    conns = [p.connect(tid) for p in people]
    try:
        rounds = 0
        m = conns[0].latest()
        while rounds < 2:
            v = m["view"]
            seat = v["to_act"]
            assert seat >= 0, f"the table stopped at a chance node (phase {v['phase']})"
            mine = conns[seat].latest()
            legal = mine["view"]["legal"]
            action = "mus" if "mus" in legal else next(
                (a for a in legal if a.startswith("descarte ") and len(a.split()) == 5), None)
            assert action is not None, legal
            rounds += action.startswith("descarte ") and seat == (v["dealer"]) % 4
            conns[seat].act(action, mine["version"])
            m = conns[0].until(lambda x, ver=mine["version"]: x["version"] > ver, "the move")
        assert m["view"]["phase"] == "mus" and m["view"]["to_act"] >= 0
    finally:
        for c in conns:
            c.close()
