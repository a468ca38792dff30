"""Words at the table (issue 9, items 12–14), in headless Chromium.

1. The result sentence (result_text.js, used by the table and the replay) names who won,
   why — Augen, schneider, the 60:60 rule, Kontra, Pflichtmuck — and the points, from the
   viewer's side ("Wir"/"Ihr", "Us"/"Them"), in German and in English, never mixed.
2. A guest whose tab closes while it is her turn: a bot plays for her; the game is marked
   in "Meine Spiele" (with the table's name, not its id) and the bot's moves are marked in
   the replay.  The bot picker shows strength names with a description, bots' seats carry
   no "(Bot)" after "Bot 2", and chat times are 24-hour in the German UI even in a browser
   set to en-US.
"""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import expect

SAY = """async ([lang, cases]) => {
  const i18n = await import('/static/js/i18n.js');
  const { describeResult } = await import('/static/js/result_text.js');
  i18n.setLanguage(lang);
  return cases.map(([r, opts]) => describeResult(r, opts));
}"""

NAMES = ["Anna", "Bert", "Cilli", "Done"]
BASE = {"contract": "muck", "declarer": 0, "doublings": 0, "tricks": [3, 3], "factor": 1,
        "forced": False, "column": "plain"}
CASES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    # 60:60, no Kontra: the declarers (Anna & Cilli) lose; seen by Anna and by Bert
    ("tie_lost_us", {**BASE, "augen": [60, 60], "winner": 1, "score": 2, "reason": "verloren"},
     {"my": 0, "names": NAMES}),
    ("tie_lost_them", {**BASE, "augen": [60, 60], "winner": 1, "score": 2,
                       "reason": "verloren"}, {"my": 1, "names": NAMES}),
    # 60:60 after Kontra: the declarers win, doubled
    ("tie_kontra", {**BASE, "augen": [60, 60], "winner": 0, "score": 4, "doublings": 1,
                    "reason": "gewonnen"}, {"my": 0, "names": NAMES}),
    # schneider
    ("schneider", {**BASE, "augen": [95, 25], "winner": 0, "score": 3, "column": "schneider",
                   "reason": "gewonnen"}, {"my": 1, "names": NAMES}),
    # a Pflichtmuck at 60:60 is not scored
    ("pflicht_tie", {**BASE, "contract": "pflichtmuck", "declarer": None, "augen": [60, 60],
                     "winner": None, "score": 0, "column": None,
                     "reason": "60:60 nicht gewertet"}, {"my": 0, "names": NAMES}),
    # a spectator: the pair by its names
    ("spectator", {**BASE, "augen": [40, 80], "winner": 1, "score": 2, "reason": "verloren"},
     {"my": None, "names": NAMES}),
]


def test_result_sentences_name_winner_reason_and_points_from_the_viewers_side(
        new_page, ui) -> None:
    page = new_page()
    page.goto(ui.base + "/")
    args = [[r, o] for _, r, o in CASES]
    de = dict(zip([c[0] for c in CASES], page.evaluate(SAY, ["de", args]), strict=True))
    en = dict(zip([c[0] for c in CASES], page.evaluate(SAY, ["en", args]), strict=True))

    assert de["tie_lost_us"]["verdict"] == "Verloren."
    assert en["tie_lost_us"]["verdict"] == "We lost."
    s = de["tie_lost_us"]["sentence"]
    # the other pair by its names (issue 19: never "ihr gewinnt" under "Verloren.")
    assert "Anna sagt Muck an" in s and "Bert & Done gewinnen" in s and "60:60" in s and "61" in s
    assert s.endswith("2 Punkte für Bert & Done.")
    s = en["tie_lost_us"]["sentence"]
    assert "Anna called Muck" in s and "Bert & Done win" in s and "60:60" in s and "61" in s
    assert s.endswith("2 points to Bert & Done.")
    # Bert (the other pair) sees the same game as won by "us"
    assert de["tie_lost_them"]["verdict"] == "Gewonnen!"
    assert de["tie_lost_them"]["sentence"].endswith("2 Punkte für uns.")
    assert "wir gewinnen" in de["tie_lost_them"]["sentence"]
    assert en["tie_lost_them"]["verdict"] == "We won!"

    s = de["tie_kontra"]["sentence"]
    assert "nach Kontra" in s and "2 Punkte, mit Kontra verdoppelt: 4 Punkte für uns." in s
    assert "doubled by Kontra: 4 points to us." in en["tie_kontra"]["sentence"]
    assert "schneider" in de["schneider"]["sentence"] and "25" in de["schneider"]["sentence"]
    assert de["schneider"]["sentence"].endswith("3 Punkte für Anna & Cilli.")
    assert de["pflicht_tie"]["verdict"] == "Nicht gewertet."
    assert "60:60" in de["pflicht_tie"]["sentence"]
    assert "Keiner bekommt einen Punkt" in de["pflicht_tie"]["sentence"]
    assert "Nobody gets a point" in en["pflicht_tie"]["sentence"]
    assert de["spectator"]["verdict"] == "Bert & Done gewinnen."
    assert en["spectator"]["verdict"] == "Bert & Done win."
    assert "für Bert & Done" in de["spectator"]["sentence"]
    # one language per text
    for said in de.values():
        assert not re.search(r"\b(win|wins|points|to us|to them|needed)\b",
                             said["sentence"] + said["verdict"]), said
    for said in en.values():
        assert not re.search(r"(gewinn|Punkte|für|nötig|Ansager)",
                             said["sentence"] + said["verdict"]), said
    assert page.errors == []


def test_a_bot_playing_for_you_is_marked_and_bots_are_named(new_page, ui) -> None:
    page = new_page(locale="en-US")
    ctx = page.context
    ui.guest(page, "Anna")
    # the bot picker: strength names and a description, no internal names
    options = page.locator("#c-bot option").evaluate_all(
        "els => els.map(e => [e.value, e.textContent])")
    info = page.evaluate("fetch('/api/presets').then((r) => r.json())")
    default = info["default_bot"]
    assert options and all(value != text for value, text in options)
    assert [default, info["bot_info"][default]["name"]["de"]] in options
    if "heuristic" in info["bot_info"]:
        assert ["heuristic", "Stammgast"] in options
    page.select_option("#c-bot", default)
    expect(page.locator("#c-bot-desc")).to_have_text(info["bot_info"][default]["description"]["de"])
    expect(page.locator("#c-away-rule")).to_have_value("bot")  # public: Bot übernimmt
    tid = ui.create_table(page, name="Vertretung")
    # bots' seats: "Bot 2" with its strength, never "Bot 2 (Bot)"
    expect(page.locator(".seat .tag-bot")).to_have_count(3)
    expect(page.locator(".seat .tag-bot").first).to_have_text(
        info["bot_info"][default]["name"]["de"])
    assert "(Bot)" not in page.locator(".felt").inner_text()
    # chat time: 24-hour German time although the browser's locale is en-US
    page.fill("#chat-input", "Servus")
    page.press("#chat-input", "Enter")
    stamp = page.locator(".chat-log time").last
    expect(stamp).to_have_text(re.compile(r"^\d\d:\d\d$"))

    # Anna's tab closes on her turn: a bot plays for her
    wire = ui.wire(page)
    page.reload()
    end = time.monotonic() + 20
    while not (wire.states and wire.last["view"] and wire.last["view"]["to_act"] == 0
               and wire.last["view"]["legal"]):
        assert time.monotonic() < end, "Anna's turn did not come"
        page.wait_for_timeout(40)
    version = wire.last["version"]
    page.close()
    time.sleep(1.0)  # the bots play (0.05 s each), one of them for Anna
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    wire = ui.wire(page)
    page.goto(f"{ui.base}/t/{tid}")
    expect(page.locator(".seat-bottom .name")).to_have_text("Anna")
    _wait(page, lambda: wire.states and wire.last["version"] > version + 1)
    ui.play_until([page], lambda: page.locator(".result").count() > 0)
    expect(page.locator(".result .verdict")).to_have_text(
        re.compile(r"^(Gewonnen!|Verloren\.|Nicht gewertet\.)$"))
    expect(page.locator(".result .result-why")).to_contain_text(re.compile(r"Punkt|Keiner"))

    page.goto(ui.base + "/history")
    row = page.locator(".history-table tbody tr").first
    expect(row).to_have_class(re.compile("bot-for-you"))
    expect(row).to_contain_text("Vertretung")
    assert tid not in row.inner_text()
    expect(row.locator(".bot-for-you-note")).to_contain_text("Ein Bot hat für dich gespielt")
    expect(row.locator(".players .me .bot-mark")).to_have_text("Bot")
    # the replay marks the bot's moves for Anna
    row.locator("a").first.click()
    expect(page.locator(".stand-in-note")).to_contain_text("Anna")
    expect(page.locator(".replay-grid .verdict")).to_have_count(1)
    marked = False
    for _ in range(60):
        text = page.locator(".step-text").inner_text()
        if "Bot für Anna" in text:
            marked = True
            break
        if page.locator("[data-nav=next]").is_disabled():
            break
        page.locator("[data-nav=next]").click()
    assert marked, "no step of the replay names the bot playing for Anna"
    assert page.errors == []


def _wait(page: Any, cond: Any, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out"
        page.wait_for_timeout(30)


def test_the_owner_chooses_bot_takeover_and_time_away(new_page, ui) -> None:
    page = new_page()
    ui.guest(page, "Olga")
    page.select_option("#c-away-rule", "wait")  # the away rule "Warten" (issue 19)
    page.select_option("#c-away", "0")
    expect(page.locator("#c-away option")).to_have_text(
        ["1 Minute", "5 Minuten", "15 Minuten", "60 Minuten", "nie"])
    tid = ui.create_table(page, name="Ohne Vertretung")
    expect(page.locator(".table-head .takeover-off")).to_have_text("kein Bot für Abwesende")
    info = page.evaluate(f"fetch('/api/tables/{tid}').then((r) => r.json())")
    assert info["bot_takeover"] is False and info["away_timeout"] == 0
    page.locator("button[data-lang=en]").click()
    expect(page.locator(".table-head .takeover-off")).to_have_text("no bot for those away")
    assert page.errors == []
