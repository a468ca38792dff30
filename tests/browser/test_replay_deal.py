"""The Mulatschak replay starts with the hands as dealt (issue 19: its first step showed an
empty felt).  A guest plays a hand against random bots; the replay's first step shows
every seat's five cards exactly as the engine dealt them from the record's deck and cut,
and no step before the card play shows a card the seat did not hold."""

from __future__ import annotations

import re
from typing import Any

from stammtisch.cards import Card
from stammtisch.engine import records
from stammtisch.engine.core import Shuffle
from stammtisch.games.mulatschak.rules import MulatschakRules
from stammtisch.games.mulatschak.state import MulatschakState

CARD = re.compile(r"^([EGHS])(A|10|K|O|U|9|8|7)$|^S6$")


def _engine_deal(record: dict[str, Any]) -> list[list[str]]:
    """The hands right after the cut, dealt by the engine."""
    rules = records.record_rules(record["rules"], MulatschakRules.from_json)
    state = MulatschakState(rules, record["dealer"], record["scores"], record.get("doubled", 0))
    state.apply(Shuffle(tuple(Card.parse(c) for c in record["deck"])))
    state.apply(state.parse_action(record["actions"][0][1]))
    return [sorted(str(c) for c in h) for h in state.hands]


def _felt_hands(page: Any, seats: int) -> list[list[str]]:
    return [sorted(page.locator(f'.replay-felt .seat[data-seat="{s}"] .open-cards .card')
                   .evaluate_all("els => els.map((e) => e.dataset.card)"))
            for s in range(seats)]


def test_the_mulatschak_replay_starts_with_the_dealt_hands(new_page, ui) -> None:
    page = new_page(viewport={"width": 1366, "height": 768})
    wire = ui.wire(page)
    ui.guest(page, "Deal")
    res = page.evaluate("""() => fetch('/api/tables', {method: 'POST', headers: {
        'Content-Type': 'application/json', 'X-CSRF-Token': decodeURIComponent(
          document.cookie.split('; ').find((c) => c.startsWith('stammtisch_csrf='))
            .split('=')[1])},
        body: JSON.stringify({name: 'Replay', game: 'mulatschak', bots: 'fill', bot: 'random',
                              seat: 0, turn_timer: 0})}).then((r) => r.json())""")
    page.goto(ui.base + res["url"])
    ui.play_until([page], lambda: bool(wire.states and wire.last["table"]["between_games"]
                                        and wire.last["view"]), timeout=90)
    games = page.evaluate("fetch('/api/me/games').then((r) => r.json()).then((d) => d.games)")
    assert games, "no finished game in the history"
    gid = games[0]["id"]
    record = page.evaluate(f"fetch('/api/games/{gid}').then((r) => r.json())")["record"]
    want = _engine_deal(record)
    seats = len(record["scores"])
    assert all(len(h) == 5 for h in want), want
    page.goto(f"{ui.base}/replay/{gid}")
    page.wait_for_selector(".replay-felt .open-cards .card")
    assert _felt_hands(page, seats) == want
    # step on through the words: a seat shows only cards it was dealt until the exchange's
    # last word (then the hands it plays, drawn cards included)
    first_play = next((i for i, (_, w) in enumerate(record["actions"]) if CARD.match(w)),
                      len(record["actions"]) + 1)
    for _ in range(min(first_play - 1, 6)):
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(50)
        shown = _felt_hands(page, seats)
        assert all(set(shown[s]) <= set(want[s]) for s in range(seats)), (shown, want)
    assert page.errors == []
