"""What others learn (issue 19), on SQLite and PostgreSQL: a private out-of-turn action
(a Mus seña) changes nothing of what those not entitled to it receive — no message, no
new version, their old version still good for their next action — while the sender and
the partner (and, with ``sichtbar``, an opponent who catches it) see it; a chat message of
only unprintable characters is refused as empty and sent to nobody."""

from __future__ import annotations

import json
import time
from typing import Any

from .conftest import Conn, Server


def _calm(legal: list[str]) -> str:
    """A legal word that keeps the hand going (no órdago, no big bets)."""
    for word in ("mus", "paso", "quiero"):
        if word in legal:
            return word
    return legal[0]


def _mus_table(server: Server, senas: dict[str, Any]) -> tuple[str, Any, Any]:
    """Ane (seat 0) and her opponent Bixen (seat 1) against random bots at 2 and 3."""
    ane, bixen = server.guest("Ane"), server.guest("Bixen")
    tid = ane.create_table(game="mus", bots=[2, 3], bot="random",
                           match_options=senas)["id"]
    assert bixen.join(tid, 1).status_code == 200
    return tid, ane, bixen


def _bixen_to_act_ane_holds_a_sena(a: Conn, b: Conn) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play calm words until Bixen is to act and Ane may make a seña; both states then."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        sa, sb = a.latest(), b.latest()
        if sa["version"] != sb["version"]:
            continue  # (a bot moved between the two questions)
        va, vb = sa["view"], sb["view"]
        if sa["table"]["between_games"] or va is None:
            a.act("next", sa["version"])
        elif vb["to_act"] == 1 and sa["out_of_turn"]:
            return sa, sb
        elif vb["to_act"] == 1:
            b.act(_calm(vb["legal"]), sb["version"])
        elif va["to_act"] == 0:
            a.act(_calm(va["legal"]), sa["version"])
        time.sleep(0.02)
    raise AssertionError("Bixen was never to act while Ane held a seña")


def _states_since(conn: Conn, mark: int) -> list[str]:
    return [t for t in conn.raw[mark:] if json.loads(t)["type"] == "state"]


def test_an_opponent_receives_nothing_when_the_other_pair_signals(server: Server) -> None:
    tid, ane, bixen = _mus_table(server, {"senas": "on"})
    watcher = server.guest("Watcher")
    with ane.connect(tid) as a, bixen.connect(tid) as b, watcher.connect(tid) as w:
        sa, sb = _bixen_to_act_ane_holds_a_sena(a, b)
        sw = w.latest()
        assert sw["version"] == sb["version"] == sa["version"]
        marks = {id(c): len(c.raw) for c in (b, w)}
        sena = sa["out_of_turn"][0]
        a.send({"type": "action", "action": sena, "id": 7})
        mine = a.until(lambda m: m["version"] > sa["version"], "Ane's seña")
        assert [e["sena"] for e in mine["view"]["senas"]] == [sena.split()[1]]
        ack = a.recv_type("ack")
        assert ack == {"type": "ack", "id": 7, "version": mine["version"]}
        # the opponent and the spectator: not a single message; asked, the same state
        # (byte for byte, the version too) as before the seña
        for conn, before in ((b, sb), (w, sw)):
            now = conn.latest()
            assert now == before
            states = _states_since(conn, marks[id(conn)])
            assert len(states) == 1 and json.loads(states[0]) == before, states
        assert b.raw[-2] == b.raw[marks[id(b)] - 2]  # the same text as the last one sent
        # the old version is still Bixen's current one: his word is taken, not refused
        b.act(_calm(sb["view"]["legal"]), sb["version"])
        moved = b.until(lambda m: m["version"] > sb["version"], "Bixen's word")
        assert len(moved["view"]["words"]) > len(sb["view"]["words"])
        assert not [t for t in b.raw[marks[id(b)]:] if json.loads(t)["type"] == "error"]


def test_an_opponent_who_catches_the_sena_is_told(server: Server) -> None:
    tid, ane, bixen = _mus_table(server, {"senas": "sichtbar", "catch": 1.0})
    with ane.connect(tid) as a, bixen.connect(tid) as b:
        sa, sb = _bixen_to_act_ane_holds_a_sena(a, b)
        sena = sa["out_of_turn"][0]
        a.act(sena, None)
        caught = b.until(lambda m: m["version"] > sb["version"], "the caught seña")
        assert [(e["seat"], e["sena"], e["caught"]) for e in caught["view"]["senas"]] == [
            (0, sena.split()[1], True)]
        b.act(_calm(caught["view"]["legal"]), caught["version"])
        b.until(lambda m: m["version"] > caught["version"], "Bixen's word")


def test_a_chat_of_only_unprintable_characters_is_refused(server: Server) -> None:
    tid, ane, bixen = _mus_table(server, {"senas": "off"})
    with ane.connect(tid) as a, bixen.connect(tid) as b:
        b.latest()
        mark = len(b.raw)
        for text in ("\u0000\u0001\u200b", " \u200b\u200e\n ", "\x1b\x7f"):
            a.send({"type": "chat", "text": text})
            e = a.error()
            assert e["code"] == "invalid_chat", (text, e)
        a.send({"type": "chat", "text": "\u200bservus\u0000"})
        assert a.recv_type("chat")["text"] == "servus"
        assert b.recv_type("chat")["text"] == "servus"
        chats = [json.loads(t) for t in b.raw[mark:] if json.loads(t)["type"] == "chat"]
        assert [m["text"] for m in chats] == ["servus"]  # the refused ones reached nobody
    assert [m.text for m in server.store.chat(tid)] == ["servus"]
