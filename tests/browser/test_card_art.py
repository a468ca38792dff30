"""The card art (issues 11 and 12) in a real browser: the Franconian default deck, the
doppeldeutsch deck in the Salzburg pattern with the Weli (Mulatschak) and the Spanish deck
(Mus), each drawn by static/js/cards.js on a page the test serves itself from the real
server's origin (so the modules load from /static as in the app).

Every card of the three decks renders a distinct, non-empty picture (compared pixel by
pixel) with the right accessible name; the Weli is recognisable with and without the
Salzburg option; Spanish cards show their index (10, 11, 12 for sota, caballo, rey) and
their pausas; unknown codes give a marked card back, no exception and no console output.
A screenshot of each deck is saved in the test's tmp dir (and test-artifacts/) to look at.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

SUITS = {"E": "Eichel", "G": "Gras", "H": "Herz", "S": "Schellen"}
RANKS = {"A": "Ass", "10": "Zehn", "K": "König", "O": "Ober", "U": "Unter", "9": "Neun",
         "8": "Acht", "7": "Sieben"}
LONG = [s + r for s in SUITS for r in RANKS]
DOPPELDEUTSCH = [*LONG, "S6"]
ES_SUITS = {"O": "oros", "C": "copas", "P": "espadas", "B": "bastos"}
ES_RANKS = {"1": "As", "2": "Dos", "3": "Tres", "4": "Cuatro", "5": "Cinco", "6": "Seis",
            "7": "Siete", "S": "Sota", "C": "Caballo", "R": "Rey"}
SPANISH = [s + r for s in ES_SUITS for r in ES_RANKS]
DECKS = {"franconian": (LONG, None), "salzburg": (DOPPELDEUTSCH, "salzburg"),
         "spanish": (SPANISH, None)}

PAGE = """<!doctype html><html lang="de"><head><meta charset="utf-8">
<link rel="stylesheet" href="/static/css/app.css">
<style>
  body { background: #2d5a3a; margin: 0; padding: 8px; }
  .deck { display: grid; grid-template-columns: repeat(10, 100px); gap: 6px; padding: 6px; }
  .deck .card { width: 100px; height: 160px; }
</style></head><body><main id="decks"></main>
<script type="module">
  import { cardElement, installSprite } from "/static/js/cards.js";
  installSprite();
  window.cardElement = cardElement;
  window.cardsReady = true;
</script></body></html>"""


def expected_name(code: str) -> str:
    if code == "S6":
        return "Weli"
    if code[0] in ES_SUITS:
        return f"{ES_RANKS[code[1:]]} de {ES_SUITS[code[0]]}"
    return f"{SUITS[code[0]]} {RANKS[code[1:]]}"


@pytest.fixture
def card_page(server: str, new_page: Any) -> Iterator[Any]:
    page = new_page(viewport={"width": 1140, "height": 900})
    page.console = []
    page.on("console", lambda m: page.console.append(f"{m.type}: {m.text}"))
    url = f"{server}/__card_art_test"
    page.route(url, lambda route: route.fulfill(status=200, body=PAGE,
                                                content_type="text/html; charset=utf-8"))
    page.goto(url)
    page.wait_for_function("window.cardsReady === true")
    yield page


def render(page: Any, deck: str, codes: list[str], pattern: str | None) -> Any:
    """Append one grid of cards (id deck-<deck>) and return its locator."""
    page.evaluate(
        """([deck, codes, pattern]) => {
             const box = document.createElement("section");
             box.className = "deck"; box.id = `deck-${deck}`;
             for (const c of codes) box.append(pattern ? window.cardElement(c, { pattern })
                                                       : window.cardElement(c));
             document.getElementById("decks").append(box);
           }""",
        [deck, codes, pattern])
    return page.locator(f"#deck-{deck}")


@pytest.mark.parametrize("deck", list(DECKS))
def test_every_card_is_a_distinct_named_picture(card_page: Any, deck: str,
                                                tmp_path: Path, artifacts: Path) -> None:
    codes, pattern = DECKS[deck]
    box = render(card_page, deck, codes, pattern)
    info = box.evaluate(
        """box => [...box.children].map(el => {
             const s = el.querySelector("svg.card-svg");
             const b = s ? s.getBBox() : { width: 0, height: 0 };
             return { card: el.dataset.card, role: el.getAttribute("role"),
                      label: el.getAttribute("aria-label"), back: el.matches(".card-back"),
                      shapes: s ? s.querySelectorAll("path,circle,ellipse,rect,use,text").length
                                : 0,
                      w: b.width, h: b.height, markup: s ? s.outerHTML : "" };
           })""")
    assert [i["card"] for i in info] == codes
    for i in info:
        assert i["role"] == "img" and not i["back"], i["card"]
        assert i["label"] == expected_name(i["card"])
        assert i["shapes"] >= 6 and i["w"] > 80 and i["h"] > 140, (i["card"], i["shapes"])
    assert len({i["markup"] for i in info}) == len(codes), "two cards share one drawing"
    # the accessible name as assistive technology sees it
    for code in codes[:: max(1, len(codes) // 8)]:
        assert box.get_by_role("img", name=expected_name(code), exact=True).count() == 1

    # pixel-distinct: every card looks different from every other card of its deck
    pictures = {}
    for code, el in zip(codes, box.locator(".card").all(), strict=True):
        pictures[code] = hashlib.sha256(el.screenshot()).hexdigest()
    assert len(set(pictures.values())) == len(codes)

    shot = box.screenshot()
    (tmp_path / f"deck_{deck}.png").write_bytes(shot)
    (artifacts / f"card_art_{deck}.png").write_bytes(shot)
    assert card_page.errors == [] and card_page.console == []


def test_default_look_is_the_franconian_deck(card_page: Any) -> None:
    box = render(card_page, "plain", ["EO", "H10", "GU"], None)
    hrefs = box.locator("use").evaluate_all("us => us.map(u => u.getAttribute('href'))")
    assert hrefs and all(h.startswith("#st-suit-") for h in hrefs)
    assert box.locator(".card-salzburg, .card-spanish").count() == 0
    assert box.locator("[data-deck]").count() == 0
    salz = render(card_page, "salz", ["EO"], "salzburg")
    assert salz.locator("svg.card-salzburg [data-double-headed=true]").count() == 1


@pytest.mark.parametrize("pattern", [None, "salzburg"])
def test_the_weli_is_recognisable(card_page: Any, pattern: str | None) -> None:
    box = render(card_page, f"weli-{pattern}", ["S6", "S7"], pattern)
    weli = box.locator("[data-card=S6]")
    assert weli.get_attribute("data-weli") == "true"
    assert weli.get_attribute("aria-label") == "Weli"
    assert weli.locator("svg.card-weli .weli-banner text").text_content() == "WELI"
    assert weli.locator(".card-index text").all_text_contents() == ["6", "6"]
    assert weli.locator("use[href='#st-sb-S']").count() >= 6 + 2  # six bells, two indices
    assert box.locator("[data-card=S7] .weli-banner").count() == 0
    assert card_page.errors == [] and card_page.console == []


def test_spanish_index_and_pausas(card_page: Any) -> None:
    box = render(card_page, "es", SPANISH, None)
    for code in SPANISH:
        el = box.locator(f"[data-card='{code}']")
        want = {"S": "10", "C": "11", "R": "12"}.get(code[1], code[1])
        assert el.locator(".card-index").all_text_contents() == [want, want], code
        pausas = el.locator(".card-frame").get_attribute("data-pausas")
        assert pausas == str("OCPB".index(code[0])), code
        assert el.get_attribute("data-deck") == "spanish"
    figures = box.locator("[data-figure]").evaluate_all(
        "fs => fs.map(f => f.closest('.card').dataset.card + ':' + f.dataset.figure)")
    assert sorted(figures) == sorted(f"{s}{r}:{n}" for s in ES_SUITS for r, n in
                                     (("S", "sota"), ("C", "caballo"), ("R", "rey")))
    # PS is the Sota de espadas, S6 the Weli: the first letter decides the deck
    assert box.locator("[data-card=PS]").get_attribute("aria-label") == "Sota de espadas"


def test_unknown_codes_fail_visibly_and_quietly(card_page: Any) -> None:
    bad = ["X9", "E6", "S5", "PS7", "O8", "eo", "A"]
    box = render(card_page, "bad", bad, None)
    els = box.locator(".card")
    assert els.count() == len(bad)
    for code, el in zip(bad, els.all(), strict=True):
        assert el.get_attribute("class") == "card card-back card-unknown"
        assert el.get_attribute("data-unknown") == code
        assert el.get_attribute("aria-label") == f"Unbekannte Karte {code}"
        assert el.get_attribute("data-card") is None
        assert el.locator(".card-unknown-mark").count() == 1
    # a deliberate back (and an empty code) stays the plain, hidden card back
    plain = card_page.evaluate(
        """() => [window.cardElement("", {}), window.cardElement("EO", { back: true })]
                 .map(e => [e.className, e.getAttribute("aria-hidden"),
                            e.querySelectorAll(".card-unknown-mark").length])""")
    assert plain == [["card card-back", "true", 0], ["card card-back", "true", 0]]
    assert card_page.errors == [] and card_page.console == []


def test_card_names_are_the_same_in_english(card_page: Any) -> None:
    """Card names are the names of the cards: German and Spanish in an English page too;
    only the sentence for an unknown code is translated."""
    names = card_page.evaluate(
        """async () => {
             const { setLanguage } = await import("/static/js/i18n.js");
             setLanguage("en");
             return ["EO", "S6", "OR", "C1", "BC", "PS", "X9"].map(
               c => window.cardElement(c).getAttribute("aria-label"));
           }""")
    assert names == ["Eichel Ober", "Weli", "Rey de oros", "As de copas", "Caballo de bastos",
                     "Sota de espadas", "Unknown card X9"]
    assert card_page.errors == [] and card_page.console == []
