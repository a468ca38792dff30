// The Spanish deck (baraja española, 40 cards) for Mus, drawn as the project's own SVG:
// oros (coins), copas (cups), espadas (swords), bastos (clubs) × 1–7, sota, caballo, rey.
// Like a printed Spanish card: the index number in the top-left and (upside down) the
// bottom-right corner (1–7, and 10, 11, 12 for sota, caballo, rey), a frame line whose
// gaps ("pausas") tell the suit — none for oros, one for copas, two for espadas, three for
// bastos — pips laid out in the Spanish way (swords and clubs slanted and crossed) and
// single-headed full-length figures.
// Everything is built with createElementNS from fixed data, never from markup strings.

import { ensureSprite, svg } from "./cards_svg.js";

export const SPANISH_RE = /^([OCPB])([1-7]|S|C|R)$/;

// suit -> palette of the figures' clothes and the frame
export const SPANISH_COLORS = {
  O: { robe: "#c9302c", trim: "#f2c12e", dark: "#7a1512", horse: "#efe7d6" },
  C: { robe: "#2a5ca8", trim: "#c9302c", dark: "#15315e", horse: "#a4672e" },
  P: { robe: "#2a5ca8", trim: "#f2c12e", dark: "#15315e", horse: "#6b6b6b" },
  B: { robe: "#2f7a36", trim: "#c9302c", dark: "#1b4d20", horse: "#c8873d" },
};

// -- the suit symbols (one <symbol> each, defined once per document) ------------------------
function suitSymbol(suit) {
  const sym = svg("symbol", { id: `st-es-${suit}`, viewBox: "0 0 100 100" });
  if (suit === "O") {
    // a gold coin: rim, inner ring, a red rosette with rays
    sym.append(
      svg("circle", { cx: 50, cy: 50, r: 45, fill: "#f2c12e", stroke: "#8a5a00",
        "stroke-width": 3.5 }),
      svg("circle", { cx: 50, cy: 50, r: 35, fill: "#f8d95c", stroke: "#b07a00",
        "stroke-width": 2.5 }),
      svg("path", { d: "M50 18 L50 82 M18 50 L82 50 M27 27 L73 73 M73 27 L27 73",
        stroke: "#b07a00", "stroke-width": 3, "stroke-linecap": "round" }),
      svg("circle", { cx: 50, cy: 50, r: 13, fill: "#c9302c", stroke: "#7a1512",
        "stroke-width": 2.5 }),
      svg("circle", { cx: 50, cy: 50, r: 5, fill: "#f8d95c" }),
      svg("path", { d: "M20 36 C26 22 38 14 50 13", fill: "none", stroke: "#fff6c8",
        "stroke-width": 4, "stroke-linecap": "round", "stroke-opacity": 0.8 }),
    );
  } else if (suit === "C") {
    // a goblet: red bowl with a gold band, gold stem with a knop, a foot
    sym.append(
      svg("path", { d: "M20 12 L80 12 C80 40 68 54 50 56 C32 54 20 40 20 12 Z",
        fill: "#c9302c", stroke: "#7a1512", "stroke-width": 3, "stroke-linejoin": "round" }),
      svg("ellipse", { cx: 50, cy: 12, rx: 30, ry: 5, fill: "#7a1512", stroke: "#7a1512",
        "stroke-width": 2 }),
      svg("path", { d: "M22 26 L78 26 L76 33 L24 33 Z", fill: "#f2c12e", stroke: "#8a5a00",
        "stroke-width": 1.5 }),
      svg("path", { d: "M45 56 L55 56 L54 84 L46 84 Z", fill: "#f2c12e", stroke: "#8a5a00",
        "stroke-width": 2 }),
      svg("ellipse", { cx: 50, cy: 68, rx: 9, ry: 5, fill: "#2a5ca8", stroke: "#15315e",
        "stroke-width": 2 }),
      svg("path", { d: "M26 95 Q50 76 74 95 Z", fill: "#f2c12e", stroke: "#8a5a00",
        "stroke-width": 2.5, "stroke-linejoin": "round" }),
      svg("path", { d: "M30 19 C31 30 36 40 42 46", fill: "none", stroke: "#ffffff",
        "stroke-opacity": 0.5, "stroke-width": 3.5, "stroke-linecap": "round" }),
    );
  } else if (suit === "P") {
    // a sword, point up: steel blade, blue cross-guard with curled ends, red grip, pommel
    sym.append(
      svg("path", { d: "M50 2 L56 14 L55.5 68 L44.5 68 L44 14 Z", fill: "#b8cce4",
        stroke: "#1f3a66", "stroke-width": 2, "stroke-linejoin": "round" }),
      svg("path", { d: "M50 10 L50 66", stroke: "#5d7fae", "stroke-width": 1.8 }),
      svg("path", { d: "M28 68 Q24 74 30 78 L70 78 Q76 74 72 68 Z", fill: "#2a5ca8",
        stroke: "#15315e", "stroke-width": 2 }),
      svg("circle", { cx: 27, cy: 66, r: 4, fill: "#2a5ca8", stroke: "#15315e",
        "stroke-width": 1.5 }),
      svg("circle", { cx: 73, cy: 66, r: 4, fill: "#2a5ca8", stroke: "#15315e",
        "stroke-width": 1.5 }),
      svg("rect", { x: 46, y: 78, width: 8, height: 13, fill: "#c9302c", stroke: "#7a1512",
        "stroke-width": 1.5 }),
      svg("circle", { cx: 50, cy: 94, r: 5, fill: "#f2c12e", stroke: "#8a5a00",
        "stroke-width": 1.5 }),
    );
  } else {
    // a club (basto): a knobbly wooden cudgel, thick end up, with sprouting stumps
    sym.append(
      svg("path", { d: "M45 97 C44 80 42 62 38 44 C35 30 33 16 39 8 C44 2 56 2 61 8 " +
        "C67 16 65 30 62 44 C58 62 56 80 55 97 Z", fill: "#d39245", stroke: "#5a3408",
      "stroke-width": 2.5, "stroke-linejoin": "round" }),
      svg("path", { d: "M38 32 L28 26 L30 21 L40 27 Z M62 50 L72 45 L73 50 L61 56 Z " +
        "M41 66 L33 64 L33 69 L42 71 Z", fill: "#d39245", stroke: "#5a3408",
      "stroke-width": 2, "stroke-linejoin": "round" }),
      svg("path", { d: "M29 23 C22 16 20 10 24 6 C28 12 30 16 29 23 Z M72 47 C80 42 84 36 " +
        "82 31 C76 35 73 40 72 47 Z", fill: "#4f8f3a", stroke: "#1d4d21", "stroke-width": 1.5 }),
      svg("ellipse", { cx: 44, cy: 22, rx: 3, ry: 4, fill: "#8a5a22" }),
      svg("ellipse", { cx: 56, cy: 36, rx: 2.5, ry: 3.5, fill: "#8a5a22" }),
      svg("ellipse", { cx: 47, cy: 54, rx: 2.5, ry: 3.5, fill: "#8a5a22" }),
      svg("path", { d: "M50 62 L50 92 M44 12 C42 22 43 30 45 40", fill: "none",
        stroke: "#9c6424", "stroke-width": 2, "stroke-linecap": "round" }),
      svg("path", { d: "M57 12 C59 20 59 28 57 36", fill: "none", stroke: "#f6d9a4",
        "stroke-width": 3, "stroke-linecap": "round", "stroke-opacity": 0.85 }),
      svg("ellipse", { cx: 50, cy: 97, rx: 5.5, ry: 2.5, fill: "#f1c98c", stroke: "#5a3408",
        "stroke-width": 1.5 }),
    );
  }
  return sym;
}

function pip(suit, x, y, size, rot = 0) {
  const attrs = { href: `#st-es-${suit}`, x: x - size / 2, y: y - size / 2, width: size,
    height: size };
  // swords and clubs turn about the middle of the blade / the club, not about the hilt
  const long = (suit === "P" || suit === "B") && Math.abs(rot) !== 90;
  const pivot = !long ? y : suit === "P" ? y - size * 0.15 : y - size * 0.1;
  if (rot) attrs.transform = `rotate(${rot} ${x} ${pivot})`;
  return svg("use", attrs);
}

// -- pip layouts: [x, y, size, rotation] -----------------------------------------------------
const ROUND = {
  // oros and copas: upright, in columns
  1: [[50, 80, 64]],
  2: [[50, 46, 38], [50, 114, 38]],
  3: [[50, 38, 32], [50, 80, 32], [50, 122, 32]],
  4: [[32, 48, 30], [68, 48, 30], [32, 112, 30], [68, 112, 30]],
  5: [[32, 40, 28], [68, 40, 28], [50, 80, 28], [32, 120, 28], [68, 120, 28]],
  6: [[32, 38, 27], [68, 38, 27], [32, 80, 27], [68, 80, 27], [32, 122, 27], [68, 122, 27]],
  7: [[32, 34, 25], [68, 34, 25], [50, 57, 25], [32, 80, 25], [68, 80, 25], [32, 124, 25],
    [68, 124, 25]],
};
const LONG = {
  // espadas and bastos: slanted, crossed in pairs (size is the symbol's square box)
  1: [[50, 80, 118, 0]],
  2: [[50, 84, 104, 28], [50, 84, 104, -28]],
  3: [[50, 84, 104, 32], [50, 84, 104, -32], [50, 80, 96, 0]],
  4: [[50, 48, 66, 32], [50, 48, 66, -32], [50, 112, 66, 32], [50, 112, 66, -32]],
  5: [[50, 46, 62, 34], [50, 46, 62, -34], [50, 114, 62, 34], [50, 114, 62, -34],
    [50, 80, 40, 90]],
  6: [[29, 40, 44, 12], [71, 40, 44, -12], [29, 80, 44, 12], [71, 80, 44, -12],
    [29, 120, 44, 12], [71, 120, 44, -12]],
  7: [[29, 40, 42, 12], [71, 40, 42, -12], [50, 60, 36, 0], [29, 82, 42, 12],
    [71, 82, 42, -12], [29, 122, 42, 12], [71, 122, 42, -12]],
};

// -- the frame with its pausas ---------------------------------------------------------------
const GAPS = { O: 0, C: 1, P: 2, B: 3 };

function segments(x1, x2, y, gaps) {
  // a horizontal line from x1 to x2 with `gaps` evenly spaced 5-unit interruptions
  if (!gaps) return `M${x1} ${y} L${x2} ${y}`;
  const step = (x2 - x1) / (gaps + 1);
  let d = "";
  let from = x1;
  for (let i = 1; i <= gaps; i++) {
    const mid = x1 + step * i;
    d += `M${from} ${y} L${mid - 3} ${y} `;
    from = mid + 3;
  }
  return `${d}M${from} ${y} L${x2} ${y}`;
}

function frame(suit) {
  const gaps = GAPS[suit];
  // the top-left and bottom-right corners are left open for the index numbers
  const d = `${segments(25, 92, 8, gaps)} M92 8 L92 130 ${segments(8, 75, 152, gaps)} ` +
    "M8 152 L8 30";
  return svg("path", { class: "card-frame", "data-pausas": gaps, d, fill: "none",
    stroke: "#9a2a1e", "stroke-width": 1.6, "stroke-linecap": "butt" });
}

const INDEX = { S: "10", C: "11", R: "12" };

function cornerIndex(rank) {
  const label = INDEX[rank] ?? rank;
  const two = label.length > 1;
  const t = svg("text", { x: 15, y: 24, "text-anchor": "middle", "font-size": two ? 13.5 : 18,
    "font-weight": 700, "font-family": "Georgia, 'DejaVu Serif', serif",
    "letter-spacing": two ? -1 : 0, fill: "#9a2a1e", class: "card-index" });
  t.textContent = label;
  return t;
}

// -- figures ---------------------------------------------------------------------------------
const SKIN = "#f3cda6";
const INK = "#1d1d1d";

function head(x, y, r, { beard = false } = {}) {
  const g = svg("g");
  g.append(
    svg("circle", { cx: x, cy: y, r, fill: SKIN, stroke: INK, "stroke-width": 0.9 }),
    svg("circle", { cx: x - r * 0.35, cy: y - r * 0.1, r: 0.9, fill: INK }),
    svg("circle", { cx: x + r * 0.35, cy: y - r * 0.1, r: 0.9, fill: INK }),
  );
  if (beard) {
    g.append(svg("path", { d: `M${x - r} ${y + 1} Q${x} ${y + r * 2.4} ${x + r} ${y + 1} ` +
      `Q${x} ${y + r * 0.9} ${x - r} ${y + 1} Z`, fill: "#8a5a2b", stroke: INK,
    "stroke-width": 0.7 }));
  } else {
    g.append(svg("path", { d: `M${x - 3} ${y + r * 0.45} Q${x} ${y + r * 0.7} ${x + 3} ` +
      `${y + r * 0.45}`, fill: "none", stroke: "#8a3b1b", "stroke-width": 1.2,
    "stroke-linecap": "round" }));
  }
  return g;
}

// where each figure holds its suit: [x, y, size, rotation]
const HELD = {
  R: { O: [68, 78, 24, 0], C: [68, 76, 24, 0], P: [71, 58, 54, 6], B: [73, 62, 50, 10] },
  S: { O: [50, 76, 24, 0], C: [67, 74, 22, 0], P: [68, 96, 58, 180], B: [70, 74, 58, -8] },
  C: { O: [28, 44, 22, 0], C: [28, 44, 22, 0], P: [30, 44, 40, -20], B: [30, 46, 40, -20] },
};

function rey(suit) {
  const c = SPANISH_COLORS[suit];
  const g = svg("g", { class: "card-figure", "data-figure": "rey" });
  g.append(
    // long robe with an ermine front, a cloak behind, shoes
    svg("path", { d: "M34 60 Q50 54 66 60 L78 140 L22 140 Z", fill: c.trim, stroke: INK,
      "stroke-width": 1 }),
    svg("path", { d: "M38 60 Q50 56 62 60 L70 138 L30 138 Z", fill: c.robe, stroke: INK,
      "stroke-width": 1 }),
    svg("path", { d: "M46 62 L54 62 L56 138 L44 138 Z", fill: "#f7f2e6", stroke: INK,
      "stroke-width": 0.7 }),
    svg("path", { d: "M49 72 l2 3 M49 86 l2 3 M49 100 l2 3 M49 114 l2 3 M49 128 l2 3",
      stroke: INK, "stroke-width": 1.4 }),
    svg("rect", { x: 35, y: 88, width: 30, height: 4, fill: c.trim, stroke: INK,
      "stroke-width": 0.6 }),
    svg("path", { d: "M36 140 h11 v3 h-11 Z M53 140 h11 v3 h-11 Z", fill: "#2a1d10" }),
    // ermine collar, head with beard, crown
    svg("path", { d: "M36 60 Q50 70 64 60 Q50 63 36 60 Z", fill: "#f7f2e6", stroke: INK,
      "stroke-width": 0.8 }),
    head(50, 46, 9, { beard: true }),
    svg("path", { d: "M40 38 L40 25 L45 31 L50 22 L55 31 L60 25 L60 38 Z", fill: "#f2c12e",
      stroke: "#8a5a00", "stroke-width": 1 }),
    svg("circle", { cx: 50, cy: 32, r: 1.8, fill: "#c9302c" }),
    // the arm that holds the suit
    svg("path", { d: "M62 64 Q70 72 66 82", fill: "none", stroke: c.robe, "stroke-width": 6,
      "stroke-linecap": "round" }),
  );
  return g;
}

function sota(suit) {
  const c = SPANISH_COLORS[suit];
  const g = svg("g", { class: "card-figure", "data-figure": "sota" });
  g.append(
    // hose and shoes
    svg("rect", { x: 41, y: 100, width: 7, height: 38, fill: c.trim, stroke: INK,
      "stroke-width": 0.7 }),
    svg("rect", { x: 52, y: 100, width: 7, height: 38, fill: c.dark, stroke: INK,
      "stroke-width": 0.7 }),
    svg("path", { d: "M37 138 h12 v4 h-12 Z M51 138 h12 v4 h-12 Z", fill: "#2a1d10" }),
    // short tunic with a belt and a short cape
    svg("path", { d: "M38 56 Q50 51 62 56 L68 104 L32 104 Z", fill: c.robe, stroke: INK,
      "stroke-width": 1 }),
    svg("path", { d: "M38 56 Q50 51 62 56 L64 70 Q50 76 36 70 Z", fill: c.trim, stroke: INK,
      "stroke-width": 0.8 }),
    svg("rect", { x: 35, y: 84, width: 30, height: 3.5, fill: "#2a1d10" }),
    head(50, 43, 8),
    // hair and a flat cap with a feather
    svg("path", { d: "M42 42 Q42 33 50 33 Q58 33 58 42 Q55 37 50 37 Q45 37 42 42 Z",
      fill: "#8a5a2b" }),
    svg("ellipse", { cx: 50, cy: 33, rx: 12, ry: 3.5, fill: c.dark, stroke: INK,
      "stroke-width": 0.7 }),
    svg("path", { d: "M56 31 Q66 20 70 22 Q64 26 58 33 Z", fill: "#f7f2e6", stroke: "#888",
      "stroke-width": 0.5 }),
    // arm towards the suit
    svg("path", { d: "M61 60 Q68 66 66 76", fill: "none", stroke: c.robe, "stroke-width": 5.5,
      "stroke-linecap": "round" }),
  );
  return g;
}

function caballo(suit) {
  const c = SPANISH_COLORS[suit];
  const g = svg("g", { class: "card-figure", "data-figure": "caballo" });
  g.append(
    // horse facing right: tail, legs, body, neck, head with ear and eye, mane, saddle cloth
    svg("path", { d: "M26 100 Q14 108 18 130 Q22 116 28 108 Z", fill: "#3b2a1a" }),
    svg("path", { d: "M32 108 L28 140 M40 112 L40 140 M64 110 L70 124 L64 130 " +
      "M72 106 L76 140", fill: "none", stroke: c.horse, "stroke-width": 6,
    "stroke-linecap": "round", "stroke-linejoin": "round" }),
    svg("path", { d: "M32 108 L28 140 M40 112 L40 140 M64 110 L70 124 L64 130 " +
      "M72 106 L76 140", fill: "none", stroke: INK, "stroke-width": 0.6,
    "stroke-opacity": 0.5 }),
    svg("path", { d: "M25 141 h7 M37 141 h7 M61 132 h6 M73 141 h7", stroke: "#2a1d10",
      "stroke-width": 3 }),
    svg("ellipse", { cx: 50, cy: 102, rx: 27, ry: 14, fill: c.horse, stroke: INK,
      "stroke-width": 1 }),
    svg("path", { d: "M66 96 L76 70 Q80 64 86 70 L90 82 Q90 86 86 86 L80 80 L76 102 Z",
      fill: c.horse, stroke: INK, "stroke-width": 1, "stroke-linejoin": "round" }),
    svg("path", { d: "M78 66 L80 59 L83 66 Z", fill: c.horse, stroke: INK,
      "stroke-width": 0.8 }),
    svg("circle", { cx: 82, cy: 72, r: 1.1, fill: INK }),
    svg("path", { d: "M77 68 Q70 80 68 96", fill: "none", stroke: "#3b2a1a",
      "stroke-width": 3, "stroke-linecap": "round" }),
    svg("path", { d: "M38 92 L62 92 L60 112 L40 112 Z", fill: c.trim, stroke: INK,
      "stroke-width": 0.8 }),
    // rider: leg, body, head with hat, arm raising the suit
    svg("path", { d: "M50 92 L52 112 L48 118", fill: "none", stroke: c.dark,
      "stroke-width": 5.5, "stroke-linecap": "round", "stroke-linejoin": "round" }),
    svg("path", { d: "M41 66 Q50 61 59 66 L60 94 L40 94 Z", fill: c.robe, stroke: INK,
      "stroke-width": 1 }),
    head(50, 55, 7),
    svg("path", { d: "M40 50 L60 50 L56 44 Q50 40 44 44 Z", fill: c.dark, stroke: INK,
      "stroke-width": 0.7 }),
    svg("path", { d: "M42 68 Q32 60 28 48", fill: "none", stroke: c.robe, "stroke-width": 5,
      "stroke-linecap": "round" }),
    // reins
    svg("path", { d: "M58 80 Q72 84 84 82", fill: "none", stroke: "#3b2a1a",
      "stroke-width": 1 }),
  );
  return g;
}

const FIGURES = { R: rey, S: sota, C: caballo };

// -- a whole face ------------------------------------------------------------------------------
export function spanishFace(suit, rank) {
  ensureSprite("st-sprite-es", "OCPB", suitSymbol);
  const root = svg("svg", { viewBox: "0 0 100 160", class: "card-svg card-spanish",
    "aria-hidden": "true", focusable: "false" });
  root.append(
    svg("rect", { x: 1, y: 1, width: 98, height: 158, rx: 7, fill: "#fffdf6",
      stroke: "#a89877", "stroke-width": 1.5 }),
    frame(suit),
  );
  if (FIGURES[rank]) {
    const [x, y, size, rot] = HELD[rank][suit];
    const fig = FIGURES[rank](suit);
    fig.append(pip(suit, x, y, size, rot));
    root.append(fig);
  } else {
    const layout = suit === "O" || suit === "C" ? ROUND[rank] : LONG[rank];
    const g = svg("g", { class: "card-pips" });
    for (const [x, y, size, rot] of layout) g.append(pip(suit, x, y, size, rot));
    if (rank === "1") {
      g.prepend(svg("ellipse", { cx: 50, cy: 80, rx: 36, ry: 52, fill: "none",
        stroke: "#e3c98a", "stroke-width": 1.2, "stroke-dasharray": "2 3" }));
      if (suit === "O") {
        // the As de oros: the big coin shines, a ring of rays around it
        let d = "";
        for (let i = 0; i < 24; i++) {
          const a = (i * Math.PI) / 12;
          const r1 = 33;
          const r2 = i % 2 ? 37 : 40.5;
          d += `M${(50 + r1 * Math.cos(a)).toFixed(1)} ${(80 + r1 * Math.sin(a)).toFixed(1)} ` +
            `L${(50 + r2 * Math.cos(a)).toFixed(1)} ${(80 + r2 * Math.sin(a)).toFixed(1)} `;
        }
        g.prepend(svg("path", { d, stroke: "#e0a21a", "stroke-width": 2.2,
          "stroke-linecap": "round" }));
      }
    }
    root.append(g);
  }
  const top = cornerIndex(rank);
  const bottom = cornerIndex(rank);
  bottom.setAttribute("transform", "rotate(180 50 80)");
  root.append(top, bottom);
  return root;
}
