"""Property: over many random games (bots and humans mixed, the humans answering
through their websockets with random legal actions and now and then an outdated
one), no message a connection receives names a card that another seat still holds.

Every message is checked as raw JSON text against the truth rebuilt from the game's
stored record: the cards in the message's tricks must be the record's first plays,
the seat's own hand must be exactly what the record says it holds then, and no other
card that is not yet played may appear anywhere in the text.
"""

from __future__ import annotations

import json
import random
from typing import Any

from stammtisch.cards import Card
from stammtisch.games.mucken.state import MuckenState

GAMES = 30


def _human(conn, rng: random.Random, timeout: float = 30.0) -> None:
    """Play whatever seat this socket has until the game is over (or watch: no seat)."""
    last = -1
    while True:
        m = conn.state(timeout)
        v, table = m["view"], m["table"]
        if table["between_games"] and v and v["result"]:
            return
        seat = table["you"]
        if v and seat is not None and v["to_act"] == seat and v["legal"] \
                and m["version"] > last:
            if rng.random() < 0.1:  # an outdated action: refused, the current view follows
                conn.act(rng.choice(v["legal"]), m["version"] - 1)
            last = m["version"]
            conn.act(rng.choice(v["legal"]), m["version"])


def _truth(record: dict[str, Any], rules: Any) -> tuple[dict[int, list[set[str]]], list[str],
                                                      set[str]]:
    """From the stored record: every seat's hand after k plays, the plays, the deck."""
    state = MuckenState(rules, record["dealer"], record.get("factor", 1))
    hands: dict[int, list[set[str]]] = {}
    for text in record["log"]:
        state.apply(state.parse_action(text))
        k = sum(1 for _, a in state.history if isinstance(a, Card))
        if state.phase not in ("shuffle", "cut"):
            hands[k] = [{str(c) for c in h} for h in state.hands]
    assert state.is_terminal()
    return hands, list(record["plays"]), {str(c) for c in state.deck}


def _check(server, raw: list[str], truth) -> int:
    hands, plays, deck = truth
    hidden = set(deck)
    checked = 0
    for text in raw:
        m = json.loads(text)
        if m["type"] == "state" and m["view"] is not None:
            v, seat = m["view"], m["table"]["you"]
            assert v["seat"] == seat and m["table"]["game_number"] == 1
            if v["phase"] in ("shuffle", "cut"):
                assert v["hand"] == [] and v["hand_sizes"] == [0, 0, 0, 0]
                hidden = set(deck)
            else:
                seen = [c["card"] for t in v["tricks_played"] for c in t["cards"]] + [
                    c["card"] for c in v["trick"]]
                assert seen == plays[:len(seen)], (seen, plays)
                now = hands[len(seen)]
                own = now[seat] if seat is not None else set()
                assert set(v["hand"]) == own and len(v["hand"]) == len(own)
                assert v["hand_sizes"] == [len(h) for h in now]
                hidden = deck - own - set(seen)
                if v["result"] is not None and v["result"]["contract"] == "sie":
                    hidden = set()  # a Sie is laid down: every card is shown by the rules
        assert server.leaks(text, hidden) == [], (m["type"], text)
        checked += 1
    return checked


def test_no_message_shows_another_seats_unplayed_cards(sqlite_url, start_server):
    server = start_server(sqlite_url, auto_next_delay=3600, action_burst=10_000,
                          action_rate=10_000.0, seed=20240601)
    rng = random.Random(1234)
    total = 0
    contracts = set()
    for _ in range(GAMES):
        humans = sorted(rng.sample(range(4), rng.randint(1, 4)))
        players = [server.guest() for _ in humans]
        tid = players[0].create_table(
            bots=[s for s in range(4) if s not in humans], seat=humans[0],
            preset=rng.choice(["seefest", "wikipedia"]), bot=rng.choice(["heuristic", "random"]))
        tid = tid["id"]
        conns = [server.connect(tid), players[0].connect(tid)]  # a spectator, the creator
        for seat, p in zip(humans[1:], players[1:], strict=True):
            conns.append(p.connect(tid))  # a spectator until the join below
            assert p.join(tid, seat).status_code == 200
        try:
            server.parallel(*[lambda c=c, r=random.Random(rng.random()): _human(c, r)
                              for c in conns], timeout=30)
        finally:
            for c in conns:
                c.close()
        (row,) = server.store.games_of_table(tid)
        assert row.finished
        contracts.add(row.result["contract"])
        truth = _truth(row.record, server.runtime(tid).rules)
        for c in conns:
            total += _check(server, c.raw, truth)
    assert total > GAMES * 4 * 20  # every socket saw the whole game
    assert len(contracts) >= 3, contracts
