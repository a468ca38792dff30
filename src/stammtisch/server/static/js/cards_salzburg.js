// The doppeldeutsch deck in the Salzburg pattern (Salzburger Bild) for Mulatschak, drawn as
// the project's own SVG: Eichel, Laub (Grün), Herz, Schellen × Daus (A), 10, König, Ober,
// Unter, 9, 8, 7 and the Weli (Schellen-Sechs, `S6`).
// Like a real doppeldeutsch card every face is double-headed: the upper half is drawn once
// and repeated turned by 180° below a dividing line (figures), pips in the lower half point
// down.  The Daus shows two large suit symbols; the Weli has six bells, a "6" in both
// corners, a gold frame and a red banner reading "WELI".
// Everything is built with createElementNS from fixed data, never from markup strings.

import { ensureSprite, svg } from "./cards_svg.js";

export const SALZBURG_RE = /^([EGHS])(A|10|K|O|U|9|8|7)$|^S6$/;

// suit -> clothes of the figures
export const SALZBURG_COLORS = {
  E: { coat: "#2f6fb0", trim: "#f0c23a", dark: "#173a63", frame: "#6b4510" },
  G: { coat: "#3b8a3f", trim: "#c8312c", dark: "#1d4d21", frame: "#1d6b26" },
  H: { coat: "#c8312c", trim: "#f0c23a", dark: "#6e1216", frame: "#a01d22" },
  S: { coat: "#6d3f8f", trim: "#f0c23a", dark: "#3b1f52", frame: "#8a5a00" },
};

// -- the suit symbols (one <symbol> each, defined once per document) ------------------------
function suitSymbol(suit) {
  const sym = svg("symbol", { id: `st-sb-${suit}`, viewBox: "0 0 100 100" });
  if (suit === "H") {
    sym.append(
      svg("path", { d: "M50 92 C18 70 4 50 6 30 C8 10 36 2 50 26 C64 2 92 10 94 30 " +
        "C96 50 82 70 50 92 Z", fill: "#d42a2f", stroke: "#6e1216", "stroke-width": 4 }),
      svg("path", { d: "M50 78 C30 64 20 50 21 36 C22 24 38 20 50 38 C62 20 78 24 79 36 " +
        "C80 50 70 64 50 78 Z", fill: "none", stroke: "#f08a8a", "stroke-width": 2.5 }),
      svg("path", { d: "M18 28 C20 18 30 14 38 20", fill: "none", stroke: "#ffffff",
        "stroke-opacity": 0.6, "stroke-width": 5, "stroke-linecap": "round" }),
    );
  } else if (suit === "G") {
    // Laub: a broad linden-like leaf with a serrated edge and a long stalk
    sym.append(
      svg("path", { d: "M50 2 C60 10 72 14 80 26 L76 30 C86 40 90 52 84 62 L80 62 " +
        "C80 72 70 80 54 82 L52 98 L48 98 L46 82 C30 80 20 72 20 62 L16 62 C10 52 14 40 24 30 " +
        "L20 26 C28 14 40 10 50 2 Z", fill: "#3f9a3f", stroke: "#17491a", "stroke-width": 3.5,
      "stroke-linejoin": "round" }),
      svg("path", { d: "M50 10 L50 82 M50 30 L32 22 M50 30 L68 22 M50 46 L26 40 M50 46 " +
        "L74 40 M50 62 L30 60 M50 62 L70 60", fill: "none", stroke: "#c9eab0",
      "stroke-width": 2.6, "stroke-linecap": "round" }),
    );
  } else if (suit === "S") {
    // Schellen: a round sleigh bell with a band, a slit and a ring on top
    sym.append(
      svg("circle", { cx: 50, cy: 12, r: 7, fill: "none", stroke: "#7a5200",
        "stroke-width": 4 }),
      svg("circle", { cx: 50, cy: 56, r: 38, fill: "#f2bd26", stroke: "#7a5200",
        "stroke-width": 3.5 }),
      svg("path", { d: "M13 46 Q50 58 87 46 L88 60 Q50 72 12 60 Z", fill: "#2f8f3a",
        stroke: "#17491a", "stroke-width": 2 }),
      svg("path", { d: "M30 34 h4 M48 34 h4 M66 34 h4", stroke: "#7a5200",
        "stroke-width": 3, "stroke-linecap": "round" }),
      svg("path", { d: "M34 82 Q50 88 66 82", fill: "none", stroke: "#4d3300",
        "stroke-width": 5, "stroke-linecap": "round" }),
      svg("circle", { cx: 50, cy: 84, r: 4.5, fill: "#4d3300" }),
      svg("path", { d: "M26 38 C30 30 38 24 46 23", fill: "none", stroke: "#fff6c8",
        "stroke-width": 4, "stroke-linecap": "round", "stroke-opacity": 0.85 }),
    );
  } else {
    // Eichel: an acorn in its cup on a short twig with two small oak leaves
    sym.append(
      svg("path", { d: "M50 90 L50 98", stroke: "#4d3313", "stroke-width": 5,
        "stroke-linecap": "round" }),
      svg("path", { d: "M50 92 C40 88 30 92 24 98 C34 100 44 98 50 92 Z M50 92 C60 88 70 92 " +
        "76 98 C66 100 56 98 50 92 Z", fill: "#4f8f3a", stroke: "#1d4d21", "stroke-width": 2 }),
      svg("path", { d: "M50 4 C72 10 82 34 76 56 L24 56 C18 34 28 10 50 4 Z",
        fill: "#c98a2e", stroke: "#5a3408", "stroke-width": 3.5 }),
      svg("path", { d: "M34 16 C30 26 30 36 32 46", fill: "none", stroke: "#fbe1a8",
        "stroke-width": 4, "stroke-linecap": "round", "stroke-opacity": 0.8 }),
      svg("path", { d: "M16 56 Q50 46 84 56 Q84 84 50 90 Q16 84 16 56 Z", fill: "#6a4315",
        stroke: "#3b2608", "stroke-width": 3 }),
      svg("path", { d: "M22 62 Q50 54 78 62 M20 72 Q50 64 80 72 M26 82 Q50 74 74 82",
        fill: "none", stroke: "#c49050", "stroke-width": 2.2 }),
    );
  }
  return sym;
}

function pip(suit, x, y, size, rot = 0) {
  const attrs = { href: `#st-sb-${suit}`, x: x - size / 2, y: y - size / 2, width: size,
    height: size };
  if (rot) attrs.transform = `rotate(${rot} ${x} ${y})`;
  return svg("use", attrs);
}

// -- pips: [x, y, size]; those below the middle are turned upside down -------------------------
const PIPS = {
  A: [[50, 44, 44], [50, 116, 44]],
  10: [[32, 26, 17], [68, 26, 17], [32, 50, 17], [68, 50, 17], [50, 62, 17], [50, 98, 17],
    [32, 110, 17], [68, 110, 17], [32, 134, 17], [68, 134, 17]],
  9: [[32, 28, 18], [68, 28, 18], [32, 54, 18], [68, 54, 18], [50, 80, 18], [32, 106, 18],
    [68, 106, 18], [32, 132, 18], [68, 132, 18]],
  8: [[32, 28, 19], [68, 28, 19], [32, 56, 19], [68, 56, 19], [32, 104, 19], [68, 104, 19],
    [32, 132, 19], [68, 132, 19]],
  7: [[32, 32, 19], [68, 32, 19], [31, 80, 19], [50, 80, 19], [69, 80, 19], [32, 128, 19],
    [68, 128, 19]],
  6: [[32, 30, 21], [68, 30, 21], [50, 52, 21], [50, 108, 21], [32, 130, 21], [68, 130, 21]],
};

function corner(suit, label, color) {
  const g = svg("g", { class: "card-index" });
  const two = label.length > 1;
  const t = svg("text", { x: 13.5, y: 22, "text-anchor": "middle", "font-size": two ? 14 : 18,
    "font-weight": 700, "font-family": "Georgia, 'DejaVu Serif', serif",
    "letter-spacing": two ? -1.2 : 0, fill: color });
  t.textContent = label;
  g.append(
    svg("rect", { x: 5, y: 5, width: 17, height: 33, rx: 3, fill: "#fffdf4", stroke: color,
      "stroke-width": 1 }),
    t,
    pip(suit, 13.5, 30, 11),
  );
  return g;
}

// -- double-headed figures ---------------------------------------------------------------------
const SKIN = "#f3cda6";
const INK = "#1d1d1d";

function face(x, y, r, { beard = false, moustache = false } = {}) {
  const g = svg("g");
  g.append(
    svg("circle", { cx: x, cy: y, r, fill: SKIN, stroke: INK, "stroke-width": 0.9 }),
    svg("circle", { cx: x - r * 0.36, cy: y - r * 0.12, r: 1, fill: INK }),
    svg("circle", { cx: x + r * 0.36, cy: y - r * 0.12, r: 1, fill: INK }),
  );
  if (beard) {
    g.append(svg("path", { d: `M${x - r} ${y} Q${x - r * 0.6} ${y + r * 2.2} ${x} ` +
      `${y + r * 2.1} Q${x + r * 0.6} ${y + r * 2.2} ${x + r} ${y} Q${x} ${y + r * 0.8} ` +
      `${x - r} ${y} Z`, fill: "#e9e4da", stroke: "#777", "stroke-width": 0.7 }));
  } else if (moustache) {
    g.append(svg("path", { d: `M${x - 5} ${y + r * 0.45} Q${x} ${y + r * 0.2} ${x + 5} ` +
      `${y + r * 0.45}`, fill: "none", stroke: "#5b3512", "stroke-width": 2,
    "stroke-linecap": "round" }));
  } else {
    g.append(svg("path", { d: `M${x - 3} ${y + r * 0.45} Q${x} ${y + r * 0.7} ${x + 3} ` +
      `${y + r * 0.45}`, fill: "none", stroke: "#8a3b1b", "stroke-width": 1.2,
    "stroke-linecap": "round" }));
  }
  return g;
}

function bust(c) {
  // shoulders and chest down to the dividing line at y = 80
  return svg("path", { d: "M28 80 L30 58 Q34 48 50 46 Q66 48 70 58 L72 80 Z", fill: c.coat,
    stroke: INK, "stroke-width": 1 });
}

function halfFigure(suit, rank) {
  const c = SALZBURG_COLORS[suit];
  const g = svg("g");
  g.append(bust(c));
  if (rank === "K") {
    g.append(
      svg("path", { d: "M34 52 Q50 60 66 52 L66 57 Q50 65 34 57 Z", fill: "#f7f2e6",
        stroke: INK, "stroke-width": 0.7 }),
      svg("path", { d: "M40 60 l1.5 2 M50 62 l1.5 2 M60 60 l1.5 2", stroke: INK,
        "stroke-width": 1.3 }),
      svg("path", { d: "M46 64 L54 64 L56 80 L44 80 Z", fill: c.trim, stroke: INK,
        "stroke-width": 0.6 }),
      face(50, 32, 9, { beard: true }),
      svg("path", { d: "M39 26 L39 12 L44.5 19 L50 9 L55.5 19 L61 12 L61 26 Z",
        fill: "#f2c12e", stroke: "#7a5200", "stroke-width": 1 }),
      svg("circle", { cx: 50, cy: 21, r: 2, fill: "#c62828" }),
      // sceptre on his left, the suit in his right hand
      svg("path", { d: "M70 78 L76 20", stroke: "#7a5200", "stroke-width": 2.4 }),
      svg("path", { d: "M76 12 L79 17 L76 22 L73 17 Z", fill: "#f2c12e", stroke: "#7a5200",
        "stroke-width": 1 }),
      svg("circle", { cx: 72, cy: 66, r: 3, fill: SKIN, stroke: INK, "stroke-width": 0.6 }),
      pip(suit, 30, 66, 20),
    );
  } else if (rank === "O") {
    g.append(
      svg("path", { d: "M42 47 L50 62 L58 47", fill: "#f7f2e6", stroke: INK,
        "stroke-width": 0.8 }),
      svg("path", { d: "M31 66 L69 66", stroke: c.trim, "stroke-width": 4 }),
      face(50, 33, 9, { moustache: true }),
      // broad hat with a feather
      svg("path", { d: "M36 26 Q50 8 64 26 Z", fill: c.dark, stroke: INK,
        "stroke-width": 0.8 }),
      svg("rect", { x: 32, y: 24, width: 36, height: 4, rx: 2, fill: c.dark }),
      svg("path", { d: "M40 22 Q30 8 24 10 Q32 14 36 24 Z", fill: "#f7f2e6", stroke: "#888",
        "stroke-width": 0.6 }),
      // arm raised, holding the suit high
      svg("path", { d: "M66 56 L74 32", stroke: c.coat, "stroke-width": 6,
        "stroke-linecap": "round" }),
      svg("circle", { cx: 74, cy: 31, r: 3, fill: SKIN, stroke: INK, "stroke-width": 0.6 }),
      pip(suit, 75, 18, 20),
    );
  } else {
    g.append(
      svg("path", { d: "M30 70 L70 70", stroke: c.trim, "stroke-width": 3 }),
      svg("path", { d: "M44 47 L50 56 L56 47", fill: c.trim, stroke: INK,
        "stroke-width": 0.7 }),
      face(50, 34, 8.5),
      // a cap with a bobble
      svg("path", { d: "M40 30 Q41 20 50 20 Q59 20 60 30 Z", fill: c.trim, stroke: c.dark,
        "stroke-width": 1 }),
      svg("circle", { cx: 50, cy: 19, r: 2.2, fill: c.dark }),
      // arm lowered, holding the suit low near the middle of the card
      svg("path", { d: "M66 58 L72 70", stroke: c.coat, "stroke-width": 6,
        "stroke-linecap": "round" }),
      pip(suit, 73, 68, 18),
    );
  }
  return g;
}

function doubleHeaded(half) {
  const g = svg("g", { class: "card-figure", "data-double-headed": "true" });
  const lower = half.cloneNode(true);
  lower.setAttribute("transform", "rotate(180 50 80)");
  g.append(
    svg("rect", { x: 8, y: 8, width: 84, height: 144, rx: 4, fill: "#f8efd8" }),
    half,
    lower,
    // the dividing line of a doppeldeutsch figure
    svg("path", { d: "M8 80 L92 80", stroke: "#6b4510", "stroke-width": 1.4 }),
  );
  return g;
}

// -- the Weli ----------------------------------------------------------------------------------
function weliBanner() {
  const g = svg("g", { class: "weli-banner", "data-weli": "true" });
  const t = svg("text", { x: 50, y: 85.5, "text-anchor": "middle", "font-size": 13,
    "font-weight": 700, "font-family": "Georgia, 'DejaVu Serif', serif", "letter-spacing": 1.5,
    fill: "#fff6d8" });
  t.textContent = "WELI";
  g.append(
    // ribbon ends folded behind
    svg("path", { d: "M14 76 L24 76 L24 90 L14 90 L18 83 Z M86 76 L76 76 L76 90 L86 90 " +
      "L82 83 Z", fill: "#8e1b1f", stroke: "#4d0b0e", "stroke-width": 0.8 }),
    svg("path", { d: "M22 72 Q50 66 78 72 L78 88 Q50 82 22 88 Z", fill: "#c8312c",
      stroke: "#6e1216", "stroke-width": 1.2 }),
    t,
  );
  return g;
}

// -- a whole face ------------------------------------------------------------------------------
export function salzburgFace(suit, rank) {
  ensureSprite("st-sprite-sb", "EGHS", suitSymbol);
  const weli = suit === "S" && rank === "6";
  const c = SALZBURG_COLORS[suit];
  const root = svg("svg", { viewBox: "0 0 100 160", class: "card-svg card-salzburg",
    "aria-hidden": "true", focusable: "false" });
  root.append(
    svg("rect", { x: 1, y: 1, width: 98, height: 158, rx: 8, fill: "#fffdf4",
      stroke: "#a89877", "stroke-width": 1.5 }),
    svg("rect", { x: 4, y: 4, width: 92, height: 152, rx: 6, fill: "none",
      stroke: weli ? "#d4a017" : c.frame, "stroke-width": weli ? 3 : 1 }),
  );
  if (weli) {
    root.classList.add("card-weli");
    root.append(svg("rect", { x: 7.5, y: 7.5, width: 85, height: 145, rx: 4, fill: "#fff3c4",
      stroke: "#d4a017", "stroke-width": 1 }));
  }
  if (rank === "K" || rank === "O" || rank === "U") {
    root.append(doubleHeaded(halfFigure(suit, rank)));
  } else {
    const g = svg("g", { class: "card-pips" });
    if (rank === "A") {
      // the Daus: two large pips, each in a ring of leaves, with a garland between them
      for (const cy of [44, 116]) {
        g.append(svg("circle", { cx: 50, cy, r: 29, fill: "#fbf3dc", stroke: c.frame,
          "stroke-width": 1.2 }));
        g.append(svg("circle", { cx: 50, cy, r: 26, fill: "none", stroke: "#6f9a3a",
          "stroke-width": 4, "stroke-dasharray": "5 3", "stroke-linecap": "round" }));
      }
      g.append(svg("path", { d: "M20 80 Q35 70 50 80 Q65 90 80 80", fill: "none",
        stroke: c.frame, "stroke-width": 2 }));
      g.append(svg("circle", { cx: 50, cy: 80, r: 4, fill: "#f2c12e", stroke: c.frame }));
    }
    for (const [x, y, size] of PIPS[rank]) g.append(pip(suit, x, y, size, y > 80 ? 180 : 0));
    root.append(g);
  }
  if (weli) root.append(weliBanner());
  const label = rank;
  const color = suit === "H" || weli ? "#a01d22" : "#1b1b1b";
  const top = corner(suit, label, color);
  const bottom = corner(suit, label, color);
  bottom.setAttribute("transform", "rotate(180 50 80)");
  root.append(top, bottom);
  return root;
}
