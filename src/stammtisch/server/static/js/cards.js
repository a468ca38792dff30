// Franconian/Bavarian playing cards drawn as SVG: Eichel (acorn), Gras (leaf),
// Herz (heart), Schellen (bell); the index "A 10 K O U 9 8 7" in the top-left corner
// (and upside down bottom-right); pips for Ass, 10, 9, 8, 7; a figure for König,
// Ober (holds his suit high) and Unter (holds it low); a card back.
// Everything is built with createElementNS from fixed data, never from markup strings.
//
// Two more decks live in their own modules and are chosen by cardElement (docs/cards.md):
// the doppeldeutsch deck in the Salzburg pattern for Mulatschak (cards_salzburg.js, option
// `pattern: "salzburg"`; the Weli `S6` is always drawn from it) and the Spanish deck for Mus
// (cards_spanish.js, chosen by the first letter of the code: O C P B).

import { cardName, t } from "./i18n.js";
import { salzburgFace } from "./cards_salzburg.js";
import { SPANISH_RE, spanishFace } from "./cards_spanish.js";
import { ensureSprite, svg } from "./cards_svg.js";

const CARD_RE = /^([EGHS])(A|10|K|O|U|9|8|7)$/;

export { svg };

export const SUIT_COLORS = {
  E: { coat: "#7a5526", dark: "#4d3313", light: "#d9a441" },
  G: { coat: "#2f7a36", dark: "#1b4d20", light: "#7cc26a" },
  H: { coat: "#b3262b", dark: "#6e1216", light: "#ef6a6a" },
  S: { coat: "#2a4c8c", dark: "#182d57", light: "#f0bf2a" },
};

// -- the sprite: suit symbols and the back pattern, defined once per document -------------
function suitSymbol(suit) {
  const sym = svg("symbol", { id: `st-suit-${suit}`, viewBox: "0 0 100 100" });
  if (suit === "H") {
    sym.append(
      svg("path", {
        d: "M50 90 C22 68 5 50 7 30 C9 11 34 4 50 25 C66 4 91 11 93 30 C95 50 78 68 50 90 Z",
        fill: "#d3212d", stroke: "#7d0f15", "stroke-width": 3,
      }),
      svg("path", { d: "M20 27 C22 17 33 14 40 21", fill: "none", stroke: "#ffffff",
        "stroke-opacity": 0.55, "stroke-width": 5, "stroke-linecap": "round" }),
    );
  } else if (suit === "G") {
    sym.append(
      svg("path", {
        d: "M50 4 C70 20 94 38 88 62 C83 80 63 84 54 74 L57 96 L43 96 L46 74 " +
           "C37 84 17 80 12 62 C6 38 30 20 50 4 Z",
        fill: "#2f8f3a", stroke: "#14521b", "stroke-width": 3, "stroke-linejoin": "round",
      }),
      svg("path", { d: "M50 14 L50 76 M50 34 L34 26 M50 34 L66 26 M50 50 L28 42 M50 50 " +
        "L72 42 M50 64 L34 60 M50 64 L66 60", fill: "none", stroke: "#b9e3a6",
      "stroke-width": 2.6, "stroke-linecap": "round" }),
    );
  } else if (suit === "S") {
    sym.append(
      svg("circle", { cx: 50, cy: 17, r: 7, fill: "none", stroke: "#8a5a00", "stroke-width": 4 }),
      svg("circle", { cx: 50, cy: 56, r: 36, fill: "#f3bd22", stroke: "#8a5a00",
        "stroke-width": 3 }),
      svg("path", { d: "M15 47 Q50 60 85 47 L86 58 Q50 72 14 58 Z", fill: "#c62828",
        stroke: "#7d0f15", "stroke-width": 2 }),
      svg("path", { d: "M34 80 Q50 86 66 80", fill: "none", stroke: "#5b3a00",
        "stroke-width": 5, "stroke-linecap": "round" }),
      svg("circle", { cx: 50, cy: 83, r: 4, fill: "#5b3a00" }),
      svg("path", { d: "M28 38 C32 30 40 26 46 25", fill: "none", stroke: "#fff6c8",
        "stroke-width": 4, "stroke-linecap": "round", "stroke-opacity": 0.8 }),
    );
  } else {
    // Eichel: upright acorn, nut on top, hatched cup below, short stem
    sym.append(
      svg("path", { d: "M50 5 C71 12 80 38 75 58 L25 58 C20 38 29 12 50 5 Z",
        fill: "#e0a93e", stroke: "#6b4510", "stroke-width": 3 }),
      svg("path", { d: "M36 18 C33 26 32 36 33 46", fill: "none", stroke: "#fff0c0",
        "stroke-width": 4, "stroke-linecap": "round", "stroke-opacity": 0.75 }),
      svg("path", { d: "M18 56 Q50 48 82 56 Q82 80 50 84 Q18 80 18 56 Z", fill: "#6d4a1c",
        stroke: "#3b2608", "stroke-width": 3 }),
      svg("path", { d: "M26 60 L40 80 M38 56 L56 82 M52 54 L70 78 M74 58 L60 82 M60 55 L42 82 " +
        "M46 54 L28 76", fill: "none", stroke: "#b88a45", "stroke-width": 2 }),
      svg("rect", { x: 46, y: 82, width: 8, height: 14, rx: 3, fill: "#6d4a1c" }),
    );
  }
  return sym;
}

export function installSprite() {
  ensureSprite("st-sprite", "EGHS", suitSymbol, backLattice);
}

// the lattice on the back of a card
function backLattice() {
  const pattern = svg("pattern", { id: "st-back-lattice", width: 12, height: 12,
    patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
  pattern.append(
    svg("rect", { width: 12, height: 12, fill: "#1f4d86" }),
    svg("path", { d: "M0 0 L12 0 M0 0 L0 12", stroke: "#9cc0ea", "stroke-width": 1.6,
      "stroke-opacity": 0.65 }),
    svg("circle", { cx: 6, cy: 6, r: 1.4, fill: "#f0bf2a", "fill-opacity": 0.8 }),
  );
  return [pattern];
}

function use(suit, x, y, size, extra = {}) {
  return svg("use", { href: `#st-suit-${suit}`, x, y, width: size, height: size, ...extra });
}

// -- card faces ------------------------------------------------------------------------------
const PIPS = {
  A: [[50, 80, 58]],
  10: [[36, 38], [64, 38], [36, 59], [64, 59], [36, 80], [64, 80], [36, 101], [64, 101],
    [36, 122], [64, 122]].map(([x, y]) => [x, y, 19]),
  9: [[35, 40], [65, 40], [35, 64], [65, 64], [50, 81], [35, 98], [65, 98], [35, 122],
    [65, 122]].map(([x, y]) => [x, y, 20]),
  8: [[35, 42], [65, 42], [35, 68], [65, 68], [35, 94], [65, 94], [35, 120], [65, 120]]
    .map(([x, y]) => [x, y, 21]),
  7: [[35, 44], [65, 44], [50, 63], [35, 82], [65, 82], [35, 118], [65, 118]]
    .map(([x, y]) => [x, y, 21]),
};

function cornerIndex(suit, rank) {
  const g = svg("g", { class: "card-index" });
  const ten = rank === "10";
  g.append(
    svg("text", { x: 12, y: 23, "text-anchor": "middle", "font-size": ten ? 17 : 21,
      "font-weight": 700, "font-family": "Georgia, 'DejaVu Serif', serif",
      "letter-spacing": ten ? -1.5 : 0, fill: "#1b1b1b" }),
    use(suit, 4, 27, 16),
  );
  g.firstChild.textContent = rank;
  return g;
}

function figure(suit, rank) {
  const c = SUIT_COLORS[suit];
  const g = svg("g", { class: "card-figure" });
  g.append(
    svg("rect", { x: 22, y: 28, width: 56, height: 104, rx: 5, fill: "#f6ecd3",
      stroke: c.coat, "stroke-width": 1.5 }),
    // legs and shoes
    svg("rect", { x: 40, y: 110, width: 7, height: 18, fill: c.dark }),
    svg("rect", { x: 53, y: 110, width: 7, height: 18, fill: c.dark }),
    svg("path", { d: "M37 128 h12 v3 h-12 Z M51 128 h12 v3 h-12 Z", fill: "#2a1d10" }),
    // coat with collar and buttons
    svg("path", { d: "M35 69 Q50 63 65 69 L72 113 L28 113 Z", fill: c.coat,
      stroke: "#1d1d1d", "stroke-width": 1 }),
    svg("path", { d: "M43 67 L50 80 L57 67", fill: "#fbf3df", stroke: "#1d1d1d",
      "stroke-width": 0.8 }),
    svg("rect", { x: 30, y: 93, width: 40, height: 4, fill: "#e2b33c" }),
    svg("circle", { cx: 50, cy: 86, r: 1.6, fill: "#e2b33c" }),
    svg("circle", { cx: 50, cy: 103, r: 1.6, fill: "#e2b33c" }),
    // head
    svg("circle", { cx: 50, cy: 56, r: 9.5, fill: "#f3cda6", stroke: "#1d1d1d",
      "stroke-width": 0.9 }),
    svg("circle", { cx: 46.5, cy: 55, r: 1.1, fill: "#1d1d1d" }),
    svg("circle", { cx: 53.5, cy: 55, r: 1.1, fill: "#1d1d1d" }),
    svg("path", { d: "M45 60 Q50 63 55 60", fill: "none", stroke: "#5b3512",
      "stroke-width": 1.6, "stroke-linecap": "round" }),
  );
  if (rank === "K") {
    g.append(
      svg("path", { d: "M42 61 Q50 76 58 61 Q50 66 42 61 Z", fill: "#e9e4da", stroke: "#777",
        "stroke-width": 0.6 }),
      svg("path", { d: "M39 49 L40 37 L45 43 L50 34 L55 43 L60 37 L61 49 Z", fill: "#f0bf2a",
        stroke: "#7a5200", "stroke-width": 1 }),
      svg("circle", { cx: 50, cy: 40, r: 1.8, fill: "#c62828" }),
      // ermine cape edge and sceptre
      svg("path", { d: "M30 108 L70 108", stroke: "#fbf3df", "stroke-width": 5 }),
      svg("path", { d: "M70 72 L74 40", stroke: "#7a5200", "stroke-width": 2.2 }),
      svg("circle", { cx: 74, cy: 38, r: 3, fill: "#f0bf2a", stroke: "#7a5200" }),
      use(suit, 41, 74, 18),
    );
  } else if (rank === "O") {
    g.append(
      svg("path", { d: "M38 49 Q50 38 62 49 Z", fill: c.dark }),
      svg("rect", { x: 36, y: 47, width: 28, height: 3.5, rx: 1.5, fill: c.dark }),
      svg("path", { d: "M58 44 Q68 30 64 26 Q62 36 55 43 Z", fill: "#e9e4da", stroke: "#888",
        "stroke-width": 0.5 }),
      // raised arm holding the suit high
      svg("path", { d: "M63 72 L71 50", stroke: c.coat, "stroke-width": 6,
        "stroke-linecap": "round" }),
      svg("circle", { cx: 71, cy: 49, r: 3, fill: "#f3cda6", stroke: "#1d1d1d",
        "stroke-width": 0.6 }),
      use(suit, 61, 28, 22),
    );
  } else {
    g.append(
      svg("path", { d: "M40 51 Q41 42 50 42 Q59 42 60 51 Z", fill: c.light, stroke: c.dark,
        "stroke-width": 1 }),
      svg("circle", { cx: 50, cy: 42, r: 2, fill: c.dark }),
      // lowered arm holding the suit low
      svg("path", { d: "M37 72 L31 108", stroke: c.coat, "stroke-width": 6,
        "stroke-linecap": "round" }),
      svg("circle", { cx: 31, cy: 109, r: 3, fill: "#f3cda6", stroke: "#1d1d1d",
        "stroke-width": 0.6 }),
      use(suit, 20, 106, 22),
    );
  }
  return g;
}

function face(suit, rank) {
  const root = svg("svg", { viewBox: "0 0 100 160", class: "card-svg", "aria-hidden": "true",
    focusable: "false" });
  root.append(svg("rect", { x: 1, y: 1, width: 98, height: 158, rx: 8, fill: "#fffaf0",
    stroke: "#a89877", "stroke-width": 1.5 }));
  if (rank === "K" || rank === "O" || rank === "U") {
    root.append(figure(suit, rank));
  } else {
    const g = svg("g", { class: "card-pips" });
    if (rank === "A") {
      g.append(svg("ellipse", { cx: 50, cy: 80, rx: 33, ry: 46, fill: "none",
        stroke: SUIT_COLORS[suit].coat, "stroke-width": 1.5, "stroke-dasharray": "3 3" }));
    }
    for (const [x, y, size] of PIPS[rank]) {
      g.append(use(suit, x - size / 2, y - size / 2, size));
    }
    root.append(g);
  }
  const top = cornerIndex(suit, rank);
  const bottom = cornerIndex(suit, rank);
  bottom.setAttribute("transform", "rotate(180 50 80)");
  root.append(top, bottom);
  return root;
}

export function cardBack() {
  const root = svg("svg", { viewBox: "0 0 100 160", class: "card-svg", "aria-hidden": "true",
    focusable: "false" });
  root.append(
    svg("rect", { x: 1, y: 1, width: 98, height: 158, rx: 8, fill: "#fffaf0",
      stroke: "#a89877", "stroke-width": 1.5 }),
    svg("rect", { x: 7, y: 7, width: 86, height: 146, rx: 5, fill: "url(#st-back-lattice)",
      stroke: "#16365e", "stroke-width": 1.5 }),
    svg("ellipse", { cx: 50, cy: 80, rx: 22, ry: 30, fill: "#fffaf0", stroke: "#f0bf2a",
      "stroke-width": 3 }),
    use("E", 33, 62, 34),
  );
  return root;
}

const WELI = "S6";

// Any card of the three decks: German (E G H S × A 10 K O U 9 8 7), the Weli S6, Spanish.
export function isCard(code) {
  return typeof code === "string" &&
    (CARD_RE.test(code) || code === WELI || SPANISH_RE.test(code));
}

function unknownMark() {
  // a red question mark over the back: an unknown code is never silently a normal back
  return svg("g", { class: "card-unknown-mark" },
    svg("circle", { cx: 50, cy: 80, r: 20, fill: "#fffaf0", stroke: "#b3262b",
      "stroke-width": 3 }),
    svg("path", { d: "M42 73 Q42 63 50 63 Q58 63 58 71 Q58 77 50 80 L50 86", fill: "none",
      stroke: "#b3262b", "stroke-width": 4.5, "stroke-linecap": "round" }),
    svg("circle", { cx: 50, cy: 93, r: 2.8, fill: "#b3262b" }));
}

// A card as an element: <button> when it can be clicked, else <div role="img">.
// The accessible name is the card's name ("Eichel Ober", "Weli", "Rey de oros").
// `pattern`: "salzburg" draws German cards as the doppeldeutsch Salzburg pattern
// (Mulatschak); the default is the Franconian look.  The Weli and Spanish cards are
// recognised by their code whatever the pattern.  `back: true` (or an empty code) gives
// the card back; any other code that is not a card gives the back with a red question
// mark, class "card-unknown", data-unknown=<code> and the name "Unbekannte Karte <code>"
// (no exception, nothing on the console).
export function cardElement(code, { button = false, back = false, label, pattern } = {}) {
  const node = document.createElement(button ? "button" : "div");
  node.className = "card";
  if (button) node.type = "button";
  if (back || !isCard(code)) {
    node.classList.add("card-back");
    node.append(cardBack());
    if (!back && code !== "" && code !== undefined && code !== null) {
      const text = String(code);
      node.classList.add("card-unknown");
      node.dataset.unknown = text;
      node.firstChild.append(unknownMark());
      node.setAttribute("aria-label", label ?? t("card.unknown", { code: text }));
      if (!button) node.setAttribute("role", "img");
    } else if (!button) {
      node.setAttribute("aria-hidden", "true");
    }
    return node;
  }
  node.dataset.card = code;
  if (SPANISH_RE.test(code)) {
    const [, suit, rank] = SPANISH_RE.exec(code);
    node.dataset.suit = suit;
    node.dataset.deck = "spanish";
    node.append(spanishFace(suit, rank));
  } else if (code === WELI || pattern === "salzburg") {
    const suit = code[0];
    node.dataset.suit = suit;
    node.dataset.deck = "salzburg";
    if (code === WELI) node.dataset.weli = "true";
    node.append(salzburgFace(suit, code.slice(1)));
  } else {
    const [, suit, rank] = CARD_RE.exec(code);
    node.dataset.suit = suit;
    node.append(face(suit, rank));
  }
  node.setAttribute("aria-label", label ?? cardName(code));
  if (!button) node.setAttribute("role", "img");
  return node;
}
