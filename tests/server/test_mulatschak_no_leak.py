"""No leak at Mulatschak tables: 1,000 random online hands at tables of 2 to 6 seats.

The hands are played through the server's real message path (:class:`TableRuntime`:
``connect``, ``handle_action`` with out-of-turn Mulis, ``broadcast`` with its shared
serialised parts, ``random`` bots on their timers, the store on SQLite).  Every seat held
by a person has a connection that answers its turns with a random legal action (and now and
then says Muli out of turn when it is offered); a spectator watches.  Every message every
connection receives is checked against the *live state at the moment it was sent* (the
engine's internals, not the view under test):

* card tokens: a message to a seat names only cards that seat holds or held this hand and
  public cards — the cut card, cards shown in the exchange (``sicht``, Brücke), cards on
  the table; never another seat's hand, the stock, or a card discarded face down;
  a spectator gets public cards only;
* legal actions go only to the seat to act; out-of-turn actions only to seats, and only
  ``muli`` while the bidding runs.

``test_the_checker_catches_a_leaking_view`` proves the checks have teeth: a view that adds
the left neighbour's hand, or the top card of the stock, is caught.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from stammtisch.cards import DOPPELDEUTSCH_DECK
from stammtisch.games import registry
from stammtisch.persistence.db import Database
from stammtisch.persistence.store import Store
from stammtisch.server.loadtest import run_sync
from stammtisch.server.settings import Settings
from stammtisch.server.tables import Connection, Seat, TableManager, TableRuntime

HANDS = int(__import__("os").environ.get("LEAK_HANDS", "1000"))
HANDS_PER_TABLE = 12
CARDS = [str(c) for c in DOPPELDEUTSCH_DECK]
CARD_RE = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(sorted(CARDS, key=len, reverse=True))
                     + r")(?![A-Za-z0-9])")


def _public(g: Any) -> set[str]:
    """The cards everybody has seen so far in hand ``g`` (from the engine's state)."""
    out = {str(c) for c in g.public_cards()}
    out.update(str(c) for _, c in g.trick)
    for trick in g.tricks_played:
        out.update(str(c) for _, c in trick)
    return out


class Capture:
    """One connection: every message with what its receiver may know when it was sent."""

    def __init__(self, seat: int | None, user_id: int | None) -> None:
        self.seat = seat
        self.rt: TableRuntime | None = None
        self.entries: list[tuple[str, set[str], Any]] = []
        self._game: Any = None
        self._held: set[str] = set()
        self._public: set[str] = set()

        async def send(msg: dict[str, Any]) -> None:
            self._keep(json.dumps(msg, ensure_ascii=False, separators=(",", ":")))

        async def send_text(text: str) -> None:
            self._keep(text)

        self.conn = Connection(send=send, user_id=user_id, name=f"U{user_id}",
                               send_text=send_text)

    def _keep(self, text: str) -> None:
        g = self.rt.game if self.rt is not None else None
        if g is not self._game:
            self._game, self._held, self._public = g, set(), set()
        if g is not None:
            if self.seat is not None:
                self._held |= {str(c) for c in g.hands[self.seat]}
            self._public |= _public(g)
        self.entries.append((text, self._held | self._public, g))

    def last(self) -> dict[str, Any]:
        for text, _, _ in reversed(self.entries):
            m = json.loads(text)
            if m["type"] == "state":
                return m
        raise AssertionError("no state yet")


async def _settle(rt: TableRuntime, version: int) -> None:
    for _ in range(500):
        if rt.version != version:
            return
        await asyncio.sleep(0)
    raise AssertionError(f"the table stayed at version {version}")


def _choose(legal: list[str], rng: random.Random) -> str:
    """A random legal action that lets many hands get to the exchange and the play."""
    if "weiter" in legal and rng.random() < 0.5:
        return "weiter"
    if "mit" in legal and rng.random() < 0.7:
        return "mit"
    return rng.choice(legal)


async def _play_table(manager: TableManager, t: int, hands: int,
                      caps_out: list[Capture], stats: dict[str, int]) -> int:
    rng = random.Random(5000 + t)
    n = 2 + t % 5
    desc = registry.get("mulatschak")
    rules = desc.make_rules("salzburg", **({"muli_broken": "breaker"} if t % 3 == 0 else {}))
    humans = sorted(rng.sample(range(n), rng.randint(1, n)))
    users = {i: manager.store.create_user(f"M{t}x{i}", None, True).id for i in humans}
    seats = [Seat(kind="human", user_id=users[i], name=f"M{t}x{i}") if i in humans
             else Seat() for i in range(n)]
    rt = manager.create(name=f"T{t}", creator_id=None, creator_name="", public=True,
                        rules=rules, settings={"turn_timer": 0, "bobbl_limit": None,
                                               "players": n},
                        bot_seats=[i for i in range(n) if i not in humans], bot_name="random",
                        creator_seat=None, seats=seats, game="mulatschak")
    assert rt.num_seats == n
    caps = {i: Capture(i, users[i]) for i in humans}
    spectator = Capture(None, None)
    for key, cap in [*caps.items(), (99, spectator)]:
        cap.rt = rt
        await rt.connect(1000 * t + key, cap.conn)
    anyone = caps[humans[0]].conn
    played = 0
    while played < hands and not rt.match.is_over():
        await rt.handle_action(anyone, "next", rt.version)
        while True:
            g = rt.game
            assert g is not None
            if g.is_terminal():
                break
            # now and then a person says Muli out of turn when it is offered
            if g.phase == "bidding" and rng.random() < 0.08:
                callers = [i for i in humans if rt.out_of_turn_for(i)]
                if callers:
                    await rt.handle_action(caps[rng.choice(callers)].conn, "muli", None)
                    stats["muli_out_of_turn"] += 1
                    continue
            seat = g.current_player
            if rt.bot_plays(seat):
                await _settle(rt, rt.version)
                continue
            m = caps[seat].last()
            assert m["version"] == rt.version and m["view"]["to_act"] == seat
            legal = m["view"]["legal"]
            assert legal, "the seat to act gets its legal actions"
            await rt.handle_action(caps[seat].conn, _choose(legal, rng), m["version"])
        played += 1
        stats["exchanged"] += bool(g.choices)
        stats["played"] += bool(g.trick_winners)
        stats["shown"] += bool(g.shown)
    caps_out.extend([*caps.values(), spectator])
    rt.close()
    return played


def _check(cap: Capture) -> dict[str, int]:
    counts = {"messages": 0, "tokens": 0}
    for text, allowed, _g in cap.entries:
        m = json.loads(text)
        if m["type"] != "state":
            assert m["type"] == "chat", m
            continue
        counts["messages"] += 1
        code = m["table"]["invite_code"]
        tokens = set(CARD_RE.findall(text.replace(code, "") if code else text))
        counts["tokens"] += len(tokens)
        assert tokens <= allowed, (cap.seat, sorted(tokens - allowed), text[:400])
        v = m["view"]
        if v is None:
            continue
        assert v["seat"] == cap.seat
        if v["legal"]:
            assert cap.seat is not None and v["to_act"] == cap.seat, text[:300]
        if m["out_of_turn"]:
            assert cap.seat is not None and m["out_of_turn"] == ["muli"]
            assert v["phase"] == "bidding" and v["to_act"] != cap.seat
    return counts


def _play(tmp_path: Path, n_hands: int) -> tuple[list[Capture], dict[str, int]]:
    db = Database(f"sqlite:///{tmp_path / 'leak.sqlite3'}")
    db.migrate()
    store = Store(db)
    settings = Settings(database_url=db.url, bot_delay=0, auto_next_delay=3600, seed=13,
                        action_rate=1e9, action_burst=10**9)
    manager = TableManager(store, settings)
    caps: list[Capture] = []
    stats = {"hands": 0, "muli_out_of_turn": 0, "exchanged": 0, "played": 0, "shown": 0}

    async def main() -> None:
        t = 0
        while stats["hands"] < n_hands:
            stats["hands"] += await _play_table(
                manager, t, min(HANDS_PER_TABLE, n_hands - stats["hands"]), caps, stats)
            t += 1

    run_sync(main())
    manager.close()
    db.dispose()
    return caps, stats


@pytest.mark.parametrize("leak", ["neighbour", "stock"])
def test_the_checker_catches_a_leaking_view(tmp_path: Path, monkeypatch: Any,
                                            leak: str) -> None:
    from stammtisch.games.mulatschak.state import MulatschakState

    real = MulatschakState.view

    def leaking(self: MulatschakState, seat: int | None) -> dict[str, Any]:
        v = real(self, seat)
        if leak == "neighbour" and seat is not None:
            v["hand"] = sorted(set(v["hand"]) | {str(c) for c in
                                                 self.hands[(seat + 1) % self.num_seats]})
        elif leak == "stock" and self.stock:
            v["next_card"] = str(self.stock[0])
        return v

    monkeypatch.setattr(MulatschakState, "view", leaking)
    caps, _ = _play(tmp_path, 24)
    caught = 0
    for cap in caps:
        try:
            _check(cap)
        except AssertionError:
            caught += 1
    assert caught >= 5, caught


def test_no_leak_in_1000_online_mulatschak_hands(tmp_path: Path) -> None:
    started = time.monotonic()
    caps, stats = _play(tmp_path, HANDS)
    assert stats["hands"] == HANDS
    totals = {"messages": 0, "tokens": 0}
    for cap in caps:
        counts = _check(cap)
        totals["messages"] += counts["messages"]
        totals["tokens"] += counts["tokens"]
    seats = {len(cap.rt.seats) for cap in caps if cap.rt is not None}
    assert seats == {2, 3, 4, 5, 6}
    # the test has teeth: many messages, exchanges, shown cards, played hands and Mulis
    scale = HANDS / 1000
    assert totals["messages"] >= 20000 * scale, totals
    assert stats["exchanged"] >= 150 * scale and stats["shown"] >= 50 * scale, stats
    assert stats["played"] >= 200 * scale and stats["muli_out_of_turn"] >= 20 * scale, stats
    print(totals, stats, f"{time.monotonic() - started:.1f} s")
