"""No leak of the partner: in a Rufspiel nobody but the holder of the called ace learns who
holds it before it is played (or the holder's ``re`` reveals it).

1,000 random Schafkopf hands are played at online tables through the server's real message
path (:class:`TableRuntime`: ``connect``, ``handle_action``, ``broadcast`` with its shared
serialised parts, bots on their timers, the store on SQLite): every seat held by a person
has a connection (the test answers its turns with a random legal action, as a random bot
would), a spectator watches, and a lobby subscriber gets every lobby message.  The other
seats are ``random`` bots.  Every message every connection receives is kept and checked:

* card tokens: a message names only the receiver's own cards, cards already played, and
  the called ace in ``called`` — never a card of another hand (the dealt hands come only
  with the result);
* before the reveal, no message to anyone but the holder has a ``partner``, a ``result``
  or the dealt hands, and the Abrechnung sheet does not change during a hand;
* legal actions go only to the seat whose turn it is;
* the seats' part (names, kinds, bot names) is the same in every message of a hand;
* the Stoßen asking order is the declarer's opponents-and-partner from Vorhand, the same
  whoever holds the ace; after a Stoß word the three others are asked clockwise;
* a twin deal in which the called ace and one card of another unseen seat trade places
  gives the declarer, the fourth seat and spectators *identical* views, action by action,
  up to the reveal (or until the twin refuses an action the real hand chose).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

from stammtisch.cards import LONG_DECK, Card
from stammtisch.engine.core import Deal
from stammtisch.games import registry
from stammtisch.persistence.db import Database
from stammtisch.persistence.store import Store
from stammtisch.server.loadtest import run_sync  # works beside Playwright's loop
from stammtisch.server.settings import Settings
from stammtisch.server.tables import Connection, Seat, TableManager, TableRuntime

from .conftest import CARD_RE

HANDS = int(__import__("os").environ.get("LEAK_HANDS", "1000"))
TABLES = 100  # ten hands each: the Abrechnung in every message stays short
ALL_CARDS = {str(c) for c in LONG_DECK}

#: (preset, options) of the tables, in turn
RULES: list[tuple[str, dict[str, Any]]] = [
    ("standard", {}),
    ("anleitung", {}),
    ("standard", {"legen": True}),
    ("standard", {"all_pass": "muss"}),
    ("standard", {"all_pass": "ramsch", "stoss_words": ["kontra", "re", "sup", "hirsch"]}),
    ("anleitung", {"first_lead": "declarer", "davonlaufen": False}),
]


class Capture:
    """One connection's received messages (texts, in order)."""

    def __init__(self, seat: int | None, user_id: int | None) -> None:
        self.seat = seat
        self.texts: list[str] = []

        async def send(msg: dict[str, Any]) -> None:
            self.texts.append(json.dumps(msg, ensure_ascii=False, separators=(",", ":")))

        async def send_text(text: str) -> None:
            self.texts.append(text)

        self.conn = Connection(send=send, user_id=user_id, name=f"U{user_id}",
                               send_text=send_text)

    def last(self) -> dict[str, Any]:
        for text in reversed(self.texts):
            m = json.loads(text)
            if m["type"] == "state":
                return m
        raise AssertionError("no state yet")


async def _settle(rt: TableRuntime, version: int) -> None:
    """Let the table's bot timers run until the table moved on from ``version``."""
    for _ in range(200):
        if rt.version != version:
            return
        await asyncio.sleep(0)
    raise AssertionError(f"the table stayed at version {version}")


async def _play_table(manager: TableManager, t: int, hands: int,
                      out: list[dict[str, Any]]) -> None:
    rng = random.Random(1000 + t)
    preset, options = RULES[t % len(RULES)]
    rules = registry.get("schafkopf").make_rules(preset, **options)
    humans = sorted(rng.sample(range(4), rng.choice([1, 2, 3, 4])))
    users = {i: manager.store.create_user(f"P{t}x{i}", None, True).id for i in humans}
    seats = [Seat(kind="human", user_id=users[i], name=f"P{t}x{i}") if i in humans
             else Seat() for i in range(4)]
    rt = manager.create(name=f"T{t}", creator_id=None, creator_name="", public=True,
                        rules=rules, settings={"turn_timer": 0, "bobbl_limit": None},
                        bot_seats=[i for i in range(4) if i not in humans], bot_name="random",
                        creator_seat=None, seats=seats, game="schafkopf")
    caps = {i: Capture(i, users[i]) for i in humans}
    spectator = Capture(None, None)
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
            if rt.bot_plays(seat):
                await _settle(rt, rt.version)
                continue
            m = caps[seat].last()
            assert m["version"] == rt.version and m["view"]["to_act"] == seat
            legal = m["view"]["legal"]
            assert legal, "the seat to act gets its legal actions"
            await rt.handle_action(caps[seat].conn, _choose(legal, rng), m["version"])
        out.append({"state": g.clone(), "sheet_before": len(rt.match.sheet.hands) - 1,
                    "messages": {key: c.texts[marks[key]:]
                                 for key, c in [*caps.items(), (None, spectator)]}})
    rt.close()


def _choose(legal: list[str], rng: random.Random) -> str:
    """A random legal action, leaning to ``weiter`` and the Sauspiele in the bidding (so
    that many hands are Rufspiele) and to a Stoß now and then."""
    calls = [a for a in legal if a.startswith("sauspiel")]
    r = rng.random()
    if "weiter" in legal:
        if calls and r < 0.45:
            return rng.choice(calls)
        return "weiter" if r < 0.95 else rng.choice(legal)
    if "gut" in legal and len(legal) > 1:
        return "gut" if r < 0.6 else rng.choice([a for a in legal if a != "gut"])
    return rng.choice(legal)


def _walk_keys(obj: Any, key: str) -> list[Any]:
    found = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == key:
                found.append(v)
            found.extend(_walk_keys(v, key))
    elif isinstance(obj, list):
        for v in obj:
            found.extend(_walk_keys(v, key))
    return found


def _played(view: dict[str, Any]) -> set[str]:
    cards = {c["card"] for c in view["trick"]}
    for t in view["tricks_played"]:
        cards.update(c["card"] for c in t["cards"])
    return cards


def _revealed(view: dict[str, Any], holder: int, called: str, stoss_first: str) -> bool:
    return called in _played(view) or any(
        s["seat"] == holder and s["word"] != stoss_first for s in view["stoss"])


def _check_messages(hand: dict[str, Any]) -> dict[str, int]:
    g = hand["state"]
    called = None if g.called is None else str(g.called)
    holder = g.partner if called is not None else None
    first_word = g.rules.stoss_words[0] if g.rules.stoss_words else ""
    counts = {"messages": 0, "hidden_checked": 0}
    hand["parsed"] = {}
    for receiver, texts in hand["messages"].items():
        seats_part = None
        parsed = hand["parsed"][receiver] = []
        for text in texts:
            m = json.loads(text)
            parsed.append(m)
            if m["type"] != "state":
                assert m["type"] == "chat", m
                continue
            counts["messages"] += 1
            v = m["view"]
            assert v is not None and v["game"] == "schafkopf" and v["seat"] == receiver
            # the seats (names, kinds, bots) say the same all hand long
            seats = m["table"]["seats"]
            seats_part = seats_part or seats
            assert seats == seats_part
            # legal actions only to the seat to act
            if v["legal"]:
                assert receiver is not None and v["to_act"] == receiver
            # card tokens: own hand, played cards, the called ace; the rest after the end
            # (the raw text without the random invite code; the rules name no card)
            tokens = set(CARD_RE.findall(text.replace(m["table"]["invite_code"] or "", "")))
            if v["result"] is None:
                allowed = set(v["hand"]) | _played(v) | ({called} if called else set())
                assert tokens <= allowed, (receiver, tokens - allowed)
                assert "dealt" not in v
                # nothing in the table part changes with the hand: the sheet of finished
                # hands only
                assert len(m["table"]["sheet"]["hands"]) == hand["sheet_before"]
            if holder is None or receiver == holder or v["result"] is not None:
                continue
            if v["contract"] is None or not v["contract"].startswith("sauspiel"):
                continue  # before the contract: nothing to hide yet
            if _revealed(v, holder, called, first_word):
                continue
            counts["hidden_checked"] += 1
            assert v["partner"] is None, text
            assert all(p is None for p in _walk_keys(v, "partner")), text
            assert v["result"] is None
    return counts


def _stoss_order(hand: dict[str, Any]) -> bool:
    """The Stoßen asking order of the hand (checked on the spectator's messages)."""
    g = hand["state"]
    if g.declarer is None or g.contract in (None, "ramsch"):
        return False
    vorhand = g.vorhand
    expected = [(vorhand + i) % 4 for i in range(4) if (vorhand + i) % 4 != g.declarer]
    asked: list[int] = []
    seen_versions = set()
    for m in hand["parsed"][None]:
        if m["type"] != "state" or m["version"] in seen_versions:
            continue
        seen_versions.add(m["version"])
        v = m["view"]
        if v["phase"] != "stossen":
            continue
        if v["stoss"]:
            last = v["stoss"][-1]["seat"]
            # after a word the three others are asked clockwise from the speaker's left
            assert v["to_act"] in [(last + i) % 4 for i in (1, 2, 3)]
            break
        asked.append(v["to_act"])
    if not asked:
        return False
    assert asked == expected[:len(asked)], (asked, expected)
    return True


def _twin(hand: dict[str, Any], rng: random.Random) -> int:
    """Trade the called ace with a card of another unseen seat; compare the views of the
    declarer, the fourth seat and a spectator step by step up to the reveal.  Returns the
    number of steps compared."""
    g = hand["state"]
    if g.called is None or g.declarer is None or g.partner is None:
        return 0
    desc = registry.get("schafkopf")
    d, h = g.declarer, g.partner
    others = [s for s in range(4) if s not in (d, h)]
    x = rng.choice(others)
    observers = [d, *[s for s in others if s != x], None]
    actions = [a for seat, a in g.history if seat >= 0]
    # the reveal: the called ace played, or the holder's answer to a Stoß
    first = g.rules.stoss_words[0] if g.rules.stoss_words else ""
    k = next(i for i, (seat, a) in enumerate((s, a) for s, a in g.history if s >= 0)
             if a == g.called or (seat == h and str(a) in g.rules.stoss_words
                                  and str(a) != first))
    played_by_x = {a for seat, a in [(s, a) for s, a in g.history if s >= 0][:k]
                   if seat == x and isinstance(a, Card)}
    candidates = [c for c in g.dealt[x] if c not in played_by_x]
    if not candidates:  # the ace came in the last trick, after x's last card
        return 0
    # a card of the called suit keeps more of the real hand's plays legal in the twin
    same = [card for card in candidates if card.suit is g.called.suit
            and not g.order.is_trump(card)]
    c = rng.choice(same or candidates)
    dealt = [list(hh) for hh in g.dealt]
    dealt[h] = [c if card == g.called else card for card in dealt[h]]
    dealt[x] = [g.called if card == c else card for card in dealt[x]]
    real = desc.new_state(g.rules, g.dealer, None)
    twin = desc.new_state(g.rules, g.dealer, None)
    real.apply(Deal(tuple(tuple(hh) for hh in g.dealt)))
    twin.apply(Deal(tuple(tuple(hh) for hh in dealt)))
    steps = 0
    for i, a in enumerate(actions[:k]):
        for s in observers:
            rv, tv = real.view(s), twin.view(s)
            assert rv == tv, (s, i, {key: (rv[key], tv[key]) for key in rv
                                     if rv[key] != tv[key]})
        steps += 1
        real.apply(a)
        if a not in twin.legal_actions():
            break  # the real hand chose what the twin's hands do not allow
        twin.apply(a)
    return steps


def _play(tmp_path: Path, n_hands: int, n_tables: int) -> tuple[list[dict[str, Any]],
                                                                 list[str]]:
    """Play ``n_hands`` hands at ``n_tables`` tables; the hands and the lobby's messages."""
    db = Database(f"sqlite:///{tmp_path / 'leak.sqlite3'}")
    db.migrate()
    store = Store(db)
    settings = Settings(database_url=db.url, bot_delay=0, auto_next_delay=0, seed=11,
                        action_rate=1e9, action_burst=10**9)
    manager = TableManager(store, settings)
    lobby: list[str] = []

    async def lobby_send(msg: dict[str, Any]) -> None:
        lobby.append(json.dumps(msg, ensure_ascii=False))

    manager.lobby[1] = lobby_send
    hands: list[dict[str, Any]] = []

    async def main() -> None:
        for t in range(n_tables):
            await _play_table(manager, t, n_hands // n_tables, hands)

    run_sync(main())
    manager.close()
    db.dispose()
    return hands, lobby


def test_the_checks_catch_a_leaking_view(tmp_path: Path, monkeypatch: Any) -> None:
    """The checks have teeth: a view that names the partner at once is caught."""
    from stammtisch.games.schafkopf.state import SchafkopfState

    monkeypatch.setattr(SchafkopfState, "public_partner", lambda self: self.partner)
    hands, _ = _play(tmp_path, 40, 4)
    caught = 0
    for hand in hands:
        try:
            _check_messages(hand)
        except AssertionError:
            caught += 1
    assert caught >= 5, caught


def test_no_leak_of_the_partner_in_1000_online_games(tmp_path: Path) -> None:
    started = time.monotonic()
    hands, lobby = _play(tmp_path, HANDS, TABLES)
    assert len(hands) == HANDS
    for preset, options in RULES:  # the rules' JSON names no card (see the token check)
        rules = registry.get("schafkopf").make_rules(preset, **options)
        assert not CARD_RE.findall(json.dumps(rules.to_json()))

    rng = random.Random(5)
    totals = {"messages": 0, "hidden_checked": 0, "rufspiele": 0, "stoss_orders": 0,
              "twin_steps": 0}
    for hand in hands:
        counts = _check_messages(hand)
        totals["messages"] += counts["messages"]
        totals["hidden_checked"] += counts["hidden_checked"]
        totals["stoss_orders"] += _stoss_order(hand)
        if hand["state"].called is not None:
            totals["rufspiele"] += 1
            totals["twin_steps"] += _twin(hand, rng)
    for text in lobby:  # the lobby: tables, seats, status — no cards, no partner
        assert not CARD_RE.findall(text) and "partner" not in text, text
    # the test has teeth: many Rufspiele, many messages checked before the reveal
    scale = HANDS / 1000
    assert totals["rufspiele"] >= 200 * scale, totals
    assert totals["hidden_checked"] >= 12000 * scale, totals
    assert totals["twin_steps"] >= 3000 * scale, totals
    assert totals["stoss_orders"] >= 500 * scale, totals
    print(totals, f"{time.monotonic() - started:.1f} s")
