// Mus's part of the table page (the game's ui_module).  Mus is not a trick game:
// table_page.js draws the shell (the four seats, the hand, the action bar, the side panels,
// chat) and asks this module for what is Mus's own:
//   - the felt's centre (centre): the round – Mus? / Descarte / the four lances (Grande,
//     Chica, Pares, Juego or Punto) with each lance's state, the running stake and who must
//     answer, Mano and the counterclockwise direction;
//   - the choices of one's turn (choices): mus / no mus, the discard (cards picked in the
//     hand, handCard, then confirmed), paso / envido N (a stepper) / quiero / no quiero /
//     órdago;
//   - the señas palette (extraBar): the signs one may send the partner now (the state
//     message's out_of_turn texts), and the signs one may see;
//   - the words, the badges (Mano, Pares / Juego declarations), the call log, the sheet
//     with the points as stones (amarracos of 5 and single piedras) and the sets, and the
//     showdown explained lance by lance (describe, resultTable).
// Only what the server's view says is shown.  The betting of the lances is followed from
// the view's public words (the engine's rules: stake, bettor, refusals), never guessed.
// Game words stay Spanish in every language (Mus, paso, envido, quiero, órdago …).

import { t, textOr } from "./i18n.js";
import { choiceMakers, h, nameProps, pickable } from "./ui.js";

export const LANCES = ["grande", "chica", "pares", "juego", "punto"];
const SUIT = { O: "Oros", C: "Copas", P: "Espadas", B: "Bastos" };
const RANK = { 1: "As", 2: "Dos", 3: "Tres", 4: "Cuatro", 5: "Cinco", 6: "Seis", 7: "Siete",
  S: "Sota", C: "Caballo", R: "Rey" };
const CARD = /^([OCPB])([1-7SCR])$/;

// the table's own selection state (kept across re-renders of one state)
const ui = { key: "", picked: new Set(), envido: 2 };

// -- words and cards -------------------------------------------------------------------------

// A Spanish card's name (the cards' own names in every language): "Rey de Oros".
export function cardName(code) {
  const m = CARD.exec(code ?? "");
  if (!m) return code ?? "";
  return `${RANK[m[2]]} de ${SUIT[m[1]]}`;
}

// The name of a word of the game (Spanish, as said at the table).
export function gameWord(w) {
  if (!w) return "";
  if (w === "mus") return "Mus";
  if (w === "no mus") return t("mus.word.no_mus");
  if (w === "paso") return "Paso";
  if (w === "quiero") return "Quiero";
  if (w === "no quiero") return "No quiero";
  if (w === "ordago") return "Órdago";
  if (w.startsWith("envido ")) return t("mus.word.envido", { n: w.slice(7) });
  if (w.startsWith("descarte ")) {
    const rest = w.slice(9).split(" ");
    if (rest.length === 1 && /^\d+$/.test(rest[0])) return t("mus.word.descarte_n", { n: rest[0] });
    // the cards by their names, as at the table ("Rey de oros, Dos de bastos"), never codes
    return t("mus.word.descarte", { cards: rest.map(cardName).join(", ") });
  }
  if (w.startsWith("sena ") || w.startsWith("seña ")) return senaName(w.split(" ")[1]);
  return w;
}

export const lanceName = (l) => t(`mus.lance.${l}`);

// Hints (the equity bot's word) in every phase a seat decides, said as at the table
export const HINT_PHASES = ["mus", "discard", "lances"];
export const hintText = (w) => t("mus.hint", { word: gameWord(w) });

// the id of a seña action text ("sena dos_reyes" → "dos_reyes")
export const senaId = (text) => String(text).split(" ").slice(-1)[0];
export function senaName(id) {
  const key = `mus.sena.${id}`;
  const s = t(key);
  return s === key ? id.replace(/_/g, " ") : s;
}

// -- the rules the client needs for the showdown's explanation ---------------------------------
function rank(code, reyes) {
  const r = code[1];
  const order = reyes === 4 ? "1234567SCR" : "1..4567SCR";
  if (reyes !== 4 && r === "3") return 9;
  if (reyes !== 4 && r === "2") return 0;
  return order.indexOf(r);
}

export function value(code, reyes = 8) {
  const r = code[1];
  if ("SCR".includes(r)) return 10;
  if (reyes !== 4 && r === "3") return 10;
  if (reyes !== 4 && r === "2") return 1;
  return Number(r);
}

export function juegoValue(hand, reyes = 8) {
  return hand.reduce((a, c) => a + value(c, reyes), 0);
}

// 0 none, 1 par, 2 medias, 3 duples (four of a kind counts as duples)
export function paresKind(hand, reyes = 8) {
  const counts = {};
  for (const c of hand) counts[rank(c, reyes)] = (counts[rank(c, reyes)] ?? 0) + 1;
  const n = Object.values(counts).sort((a, b) => b - a);
  if (n[0] === 4 || (n[0] === 2 && n[1] === 2)) return 3;
  if (n[0] === 3) return 2;
  if (n[0] === 2) return 1;
  return 0;
}

// -- the betting, followed from the public words -----------------------------------------------
const order = (mano) => [0, 1, 2, 3].map((k) => (((mano - k) % 4) + 4) % 4);

// The view's words split into the Mus rounds and the lances.  Each lance: its eligible
// seats, words, status (null while running: paso, querido, no_querido, ordago, no_bet),
// the stake, the stake before the last bet, the bettor, refusals, and the points a refusal
// scored.
export function follow(v) {
  const words = (v?.words ?? []).map(([seat, word]) => ({ seat, word }));
  const out = { rounds: [[]], discards: [], lances: [], current: null };
  // the Mus phase: rounds of "mus" until a "no mus" (or four "mus", then four discards)
  let i = 0;
  for (; i < words.length; i++) {
    const w = words[i];
    if (w.word.startsWith("descarte")) {
      out.discards.push({ ...w, round: out.rounds.length - 1 });
      continue;
    }
    if (w.word !== "mus" && w.word !== "no mus") break;
    if (out.rounds[out.rounds.length - 1].length === 4) out.rounds.push([]);
    out.rounds[out.rounds.length - 1].push(w);
  }
  const lanceWords = words.slice(i);
  const inLances = v && (v.phase === "lances" || v.phase === "end");
  if (!inLances) return out;
  const seats = order(v.mano ?? 0);
  const names = ["grande", "chica", "pares", lastLance(v)];
  let k = 0;
  for (const lance of names) {
    // Pares and Juego are declared when their lance comes: before, the words end earlier
    if ((lance === "pares" && !v.pares) || (lance === "juego" && !v.juego)) break;
    const eligible = lance === "pares" ? seats.filter((s) => v.pares.includes(s))
      : lance === "juego" ? seats.filter((s) => v.juego.includes(s)) : seats;
    const L = { lance, eligible, words: [], status: null, stake: 0, before: 0, bettor: null,
      ordago: false, refused: [], points: 0 };
    out.lances.push(L);
    if (new Set(eligible.map((s) => s % 2)).size < 2) {
      L.status = "no_bet";
      continue;
    }
    let passes = 0;
    while (k < lanceWords.length && L.status === null) {
      const { seat, word } = lanceWords[k++];
      L.words.push({ seat, word });
      if (word === "paso") {
        passes += 1;
        if (passes === eligible.length) L.status = "paso";
      } else if (word === "quiero") {
        L.status = L.ordago ? "ordago" : "querido";
      } else if (word === "no quiero") {
        L.refused.push(seat);
        if (responder(L) === null) {
          L.status = "no_querido";
          L.points = Math.max(L.before, 1);
        }
      } else if (word === "ordago") {
        L.before = L.stake;
        L.ordago = true;
        L.bettor = seat;
      } else if (word.startsWith("envido ")) {
        L.before = L.stake;
        L.stake += Number(word.slice(7));
        L.bettor = seat;
      }
    }
    if (L.status === null) {
      if (v.phase === "lances") out.current = L;
      break;
    }
    if (L.status === "ordago") break;
  }
  return out;
}

// The fourth lance: Juego, or Punto when nobody holds Juego (known once it is declared;
// until then it is named Juego, as at the table)
function lastLance(v) {
  return !v.juego || v.juego.length ? "juego" : "punto";
}

// the first seat after the bettor of the other pair that takes part and has not refused
export function responder(L) {
  if (L.bettor === null) return null;
  for (let k = 1; k < 4; k++) {
    const s = (((L.bettor - k) % 4) + 4) % 4;
    if (s % 2 !== L.bettor % 2 && L.eligible.includes(s) && !L.refused.includes(s)) return s;
  }
  return null;
}

// -- the shell's hooks ---------------------------------------------------------------------------

// The view with the fields the shell reads (calls, doublings, cuts, trick …); the calls are
// the words of the running round or lance (the seats' bubbles); ``cuts`` carries every word
// so that the turn timer's key changes with each one.
export function adaptView(v) {
  if (!v) return v;
  const f = follow(v);
  let calls = [];
  if (v.phase === "mus") calls = f.rounds[f.rounds.length - 1];
  else if (v.phase === "discard") calls = f.discards.filter((d) => d.round === f.rounds.length - 1);
  else if (f.current) calls = f.current.words;
  return { ...v, calls: calls.map((c) => ({ seat: c.seat, call: c.word })), doublings: [],
    cuts: v.words ?? [], trick: [], tricks_played: [], last_trick: null,
    contract: v.phase === "lances" && v.lance ? v.lance : null,
    dealt: v.phase === "end" ? v.hands ?? null : null, mus: f };
}

// the phases in which a seat's last word shows as a bubble
export const BUBBLE_PHASES = ["mus", "discard", "lances"];
// one's own cards are picked by handCard (the discard), never played
export const CARD_PHASES = [];

export const phaseNote = (v) => textOr(`mus.phase.${v.phase}`, v.phase);

// The status line's extra: the lance, the stake, the bettor, who must answer.
export function contractText(v, seatName) {
  const L = v.mus?.current;
  if (!L) return v.lance ? lanceName(v.lance) : "";
  let s = lanceName(L.lance);
  if (L.bettor !== null) {
    s += ` · ${L.ordago ? "Órdago" : t("mus.stake", { n: L.stake })}`;
    s += ` · ${t("mus.bet_by", { name: seatName(L.bettor) })}`;
    if (v.to_act !== null && v.to_act !== undefined) {
      s += ` · ${t("mus.answers", { name: seatName(v.to_act) })}`;
    }
  } else {
    s += ` · ${t("mus.no_bet_yet")}`;
  }
  return s;
}

// A seat's badges: Mano, partner, and who holds Pares and Juego once each is declared (when
// its lance comes) until the hand is over (the result's lance table says it then, and the
// seats stay one line high beside it).
export function seatBadges(i, v, me) {
  const out = [];
  if (!v) return out;
  const declared = (key) => (v.phase === "end" ? null : v[key]);
  if (v.mano === i) out.push(h("span", { class: "tag tag-mano", title: t("mus.mano_title"),
    text: "Mano" }));
  if (me !== null && me !== undefined && i !== me && i % 2 === me % 2) {
    out.push(h("span", { class: "tag", text: t("table.partner") }));
  }
  if (declared("pares")) {
    const p = v.pares.includes(i);
    out.push(h("span", { class: `tag mus-decl${p ? " yes" : " no"}`, "data-decl": "pares",
      text: p ? t("mus.decl.pares") : t("mus.decl.no_pares") }));
  }
  if (declared("juego")) {
    const j = v.juego.includes(i);
    out.push(h("span", { class: `tag mus-decl${j ? " yes" : " no"}`, "data-decl": "juego",
      text: j ? t("mus.decl.juego") : t("mus.decl.no_juego") }));
  }
  for (const s of senasOf(v).filter((x) => x.seat === i)) {
    out.push(h("span", { class: `tag mus-sena${s.caught ? " caught" : ""}`, "data-sena": s.id,
      title: s.caught ? t("mus.sena_caught", { sena: senaName(s.id) }) : senaName(s.id),
      text: senaName(s.id) }));
  }
  return out;
}

// The señas the view shows (its own, the partner's, those caught): [{seat, id, caught}].
// The engine's view lists them under ``senas`` ({seat, sign, caught} or, once the hand is
// over, {seat, sign, seen_by}).
export function senasOf(v) {
  const list = v?.senas ?? [];
  return list.map((s) => (Array.isArray(s)
    ? { seat: s[0], id: senaId(s[1]), caught: !!s[2] }
    : { seat: s.seat, id: senaId(s.sign ?? s.sena ?? s.id ?? ""),
      caught: !!s.caught || (s.seen_by ?? []).length > 0 }));
}

// The felt's centre: the round as a board.
export function centre(v, { seatName, me }) {
  const box = h("div", { class: "trick mus-board", role: "group",
    "aria-label": t("mus.board") });
  if (!v) {
    box.classList.add("trick-waiting");
    box.append(h("p", { class: "felt-note", text: t("table.loading") }));
    return box;
  }
  const f = v.mus ?? follow(v);
  box.append(h("p", { class: "mus-direction", title: t("mus.direction_title") },
    h("span", { class: "mus-arrow", "aria-hidden": "true", text: "↻" }),
    h("span", { text: t("mus.mano_is", { name: seatName(v.mano) }) })));
  if (v.phase === "mus" || v.phase === "discard" || v.phase === "shuffle") {
    const n = f.rounds.length;
    box.append(h("p", { class: "mus-phase", "data-phase": v.phase,
      text: v.phase === "discard" ? t("mus.phase.discard") : t("mus.round_n", { n }) }));
    if (v.stock !== undefined) {
      box.append(h("p", { class: "muted mus-stock", text: t("mus.stock", { n: v.stock }) }));
    }
    return box;
  }
  // the hand is over: the result below the felt shows every lance (the board would only
  // squeeze the felt on a small screen)
  if (v.phase === "end") return box;
  const list = h("ol", { class: "mus-lances" });
  const shown = new Set(f.lances.map((L) => L.lance));
  const names = ["grande", "chica", "pares", lastLance(v)];
  for (const lance of names) {
    const L = f.lances.find((x) => x.lance === lance);
    const current = f.current && f.current.lance === lance && v.phase === "lances";
    const item = h("li", { class: `mus-lance${current ? " current" : ""}`, "data-lance": lance },
      h("span", { class: "mus-lance-name", text: lanceName(lance) }));
    let state = "";
    if (!L || !shown.has(lance)) state = v.phase === "end" ? t("mus.status.not_reached") : "";
    else if (current) {
      state = L.bettor === null ? t("mus.no_bet_yet") : L.ordago ? "Órdago"
        : t("mus.stake", { n: L.stake });
    } else state = lanceState(L, me);
    item.append(h("span", { class: "mus-lance-state", text: state }));
    if (current && L.bettor !== null && v.to_act !== null && v.to_act !== undefined) {
      item.append(h("span", { class: "mus-answer", "data-answer": v.to_act,
        text: t("mus.answers", { name: seatName(v.to_act) }) }));
    }
    list.append(item);
  }
  box.append(list);
  return box;
}

function lanceState(L, me) {
  if (L.status === "no_bet") return t("mus.status.no_bet");
  if (L.status === "paso") return t("mus.status.paso");
  if (L.status === "querido") return t("mus.status.querido", { n: L.stake });
  if (L.status === "ordago") return t("mus.status.ordago");
  if (L.status === "no_querido") {
    const side = me === null || me === undefined ? t("mus.pair_n", { n: (L.bettor % 2) + 1 })
      : L.bettor % 2 === me % 2 ? t("table.we") : t("table.they");
    return t("mus.status.no_querido", { n: L.points, side });
  }
  return "";
}

// Clicking one's own cards in the discard: they are picked (returns true: handled).
export function handCard(el, code, v, { mine }) {
  el.setAttribute("aria-label", cardName(code));
  const choosing = mine && v.phase === "discard" && (v.legal ?? []).some((a) => a.startsWith("descarte"));
  const key = `${v.phase}:${(v.hand ?? []).join(" ")}`;
  if (ui.key !== key) {
    ui.key = key;
    ui.picked = new Set();
  }
  if (!choosing) {
    el.disabled = true;
    return true;
  }
  pickable(el, code, ui.picked, "mus-pick", () => updateDiscardButton(v));
  return true;
}

function discardWord(v) {
  return `descarte ${(v.hand ?? []).filter((c) => ui.picked.has(c)).join(" ")}`;
}

function updateDiscardButton(v) {
  const btn = document.getElementById("mus-discard");
  if (!btn) return;
  const n = ui.picked.size;
  btn.disabled = n < 1;
  btn.dataset.action = discardWord(v);
  if (n) btn.dataset.legal = "true";
  else delete btn.dataset.legal;
  btn.textContent = n ? t("mus.discard_n", { n }) : t("mus.discard_pick");
}

// The choices of one's turn.
export function choices(v, ctx) {
  const { send } = ctx;
  const legal = v.legal ?? [];
  const block = h("div", { class: "choice-block mus-choices", "data-phase": v.phase });
  const { button, group } = choiceMakers(send, gameWord);
  if (v.phase === "mus") {
    block.append(h("p", { class: "prompt", text: t("mus.prompt.mus") }),
      group(t("mus.prompt.mus"), ...legal.map((w) => button(w, w === "mus" ? "" : " call-kontra"))));
  } else if (v.phase === "discard") {
    const n = ui.picked.size;
    block.append(h("p", { class: "prompt", text: t("mus.prompt.discard") }),
      group(t("mus.prompt.discard"), h("button", { type: "button", id: "mus-discard",
        class: "btn btn-primary call", disabled: n < 1, "data-action": discardWord(v),
        "data-legal": n ? "true" : null, text: n ? t("mus.discard_n", { n }) : t("mus.discard_pick"),
        on: { click: () => { if (ui.picked.size) send(discardWord(v)); } } })));
  } else if (v.phase === "lances") {
    const L = v.mus?.current;
    const envidos = legal.filter((w) => w.startsWith("envido ")).map((w) => Number(w.slice(7)));
    const min = envidos.length ? Math.min(...envidos) : 2;
    const max = envidos.length ? Math.max(...envidos) : 2;
    ui.envido = Math.max(min, Math.min(max, ui.envido || 2));
    const prompt = L && L.bettor !== null
      ? t("mus.prompt.answer", { lance: lanceName(L.lance), stake: L.ordago ? "Órdago"
        : t("mus.stake", { n: L.stake }) })
      : t("mus.prompt.bet", { lance: lanceName(v.lance) });
    const nodes = [];
    for (const w of ["paso", "quiero", "no quiero"]) {
      if (legal.includes(w)) nodes.push(button(w, w === "quiero" ? " btn-primary" : " call-pass"));
    }
    if (envidos.length) {
      const out = h("output", { class: "mus-envido-n", id: "mus-envido-n", for: "mus-envido",
        text: String(ui.envido) });
      const go = h("button", { type: "button", class: "btn call mus-envido", id: "mus-envido",
        "data-action": `envido ${ui.envido}`, "data-legal": "true",
        text: L && L.bettor !== null ? t("mus.raise", { n: ui.envido }) : t("mus.word.envido", { n: ui.envido }),
        on: { click: () => send(`envido ${ui.envido}`) } });
      const step = (d, label, sym) => h("button", { type: "button", class: "btn btn-small mus-step",
        "data-step": String(d), "aria-label": label, text: sym, on: { click: () => {
          ui.envido = Math.max(min, Math.min(max, ui.envido + d));
          out.textContent = String(ui.envido);
          go.dataset.action = `envido ${ui.envido}`;
          go.textContent = L && L.bettor !== null ? t("mus.raise", { n: ui.envido })
            : t("mus.word.envido", { n: ui.envido });
        } } });
      nodes.push(h("div", { class: "mus-stepper", role: "group", "aria-label": t("mus.envido_label") },
        step(-1, t("mus.less"), "−"), out, step(1, t("mus.more"), "+"), go));
    }
    if (legal.includes("ordago")) nodes.push(button("ordago", " call-kontra"));
    block.append(h("p", { class: "prompt", text: prompt }), group(prompt, ...nodes));
  }
  return block;
}

// The señas palette (when the table allows señas and one may send some now), and the
// señas one may see this hand.
export function extraBar(v, { send, outOfTurn, me }) {
  let texts = (outOfTurn ?? []).filter((x) => /^(sena|seña) /.test(x));
  if (!texts.length && !(outOfTurn ?? []).length) texts = (v?.senas_open ?? []).map((id) => `seña ${id}`);
  if (!texts.length || me === null || me === undefined) return null;
  return h("div", { class: "mus-senas", role: "group", "aria-label": t("mus.senas") },
    h("span", { class: "mus-senas-label", text: t("mus.senas") }),
    texts.map((x) => h("button", { type: "button", class: "btn btn-small mus-sena-btn",
      "data-sena": senaId(x), "data-out-of-turn": x, title: t("mus.sena_send", { sena: senaName(senaId(x)) }),
      text: senaName(senaId(x)), on: { click: () => send(x) } })));
}

// The info panel's list: the Mus rounds, the discards, each lance's words.
export function callLog(v, seatName) {
  const f = v.mus ?? follow(v);
  const items = [];
  const item = (seat, w, cls = "") => h("li", { class: cls },
    h("span", { class: "who", ...nameProps(seatName(seat)) }),
    h("span", { class: `what${w === "paso" || w === "no quiero" ? " pass" : ""}`,
      text: gameWord(w) }));
  f.rounds.forEach((round, k) => {
    if (!round.length) return;
    items.push(h("li", { class: "mus-log-head", text: t("mus.round_n", { n: k + 1 }) }));
    for (const w of round) items.push(item(w.seat, w.word));
    for (const d of f.discards.filter((x) => x.round === k)) items.push(item(d.seat, d.word));
  });
  for (const L of f.lances) {
    if (!L.words.length) continue;
    items.push(h("li", { class: "mus-log-head", text: lanceName(L.lance) }));
    for (const w of L.words) items.push(item(w.seat, w.word));
  }
  for (const s of senasOf(v)) {
    items.push(h("li", { class: "mus-sena-log" }, h("span", { class: "who", ...nameProps(seatName(s.seat)) }),
      h("span", { class: "what", text: `${t("mus.senas")}: ${senaName(s.id)}${s.caught ? ` (${t("mus.caught")})` : ""}` })));
  }
  return items;
}

// -- the sheet: points as stones, sets -------------------------------------------------------------

// A pair's points in the running set as stones: amarracos (5 points each) and piedras.
export function stones(points, sheet = null, pair = 0) {
  const am = sheet?.amarracos?.[pair] ?? Math.floor(points / 5);
  const pi = sheet?.piedras?.[pair] ?? points % 5;
  return h("span", { class: "mus-stones", "data-amarracos": am, "data-piedras": pi,
    title: t("mus.stones_title", { a: am, p: pi }), "aria-label": t("mus.stones_title", { a: am, p: pi }) },
  Array.from({ length: am }, () => h("span", { class: "mus-amarraco", "aria-hidden": "true" })),
  Array.from({ length: pi }, () => h("span", { class: "mus-piedra", "aria-hidden": "true" })));
}

// the sheet panel's heading
export const sheetTitle = () => t("sheet.title");

export function abrechnung(sheet, { seatName, me, view }) {
  const pts = sheet?.points ?? sheet?.score ?? view?.score ?? [0, 0];
  const sets = sheet?.sets ?? [0, 0];
  const target = sheet?.target ?? 30;
  const label = (p) => (me === null || me === undefined
    ? `${seatName(p)} & ${seatName(p + 2)}` : p === me % 2 ? t("table.we") : t("table.they"));
  const rows = [0, 1].map((p) => h("tr", { "data-pair": p, class: me !== null && me !== undefined
    && p === me % 2 ? "me" : "" },
  h("th", { scope: "row", title: `${seatName(p)} & ${seatName(p + 2)}`, text: label(p) }),
  h("td", { class: "mus-points", text: String(pts[p]) }),
  h("td", {}, stones(pts[p], sheet, p)),
  h("td", { class: "mus-sets", text: String(sets[p]) })));
  // the last hands: the points each pair won in them
  const hands = (sheet?.hands ?? []).slice(-6).map((row, k) => h("li", {
    "data-hand": row.number ?? k, value: row.number ?? k + 1 },
  `${label(0)} +${row.points?.[0] ?? 0} : +${row.points?.[1] ?? 0} ${label(1)}`));
  return h("div", { class: "mus-sheet" },
    h("table", { class: "sheet-table mus-sheet-table" },
      h("thead", {}, h("tr", {}, h("th", {}), h("th", { scope: "col", text: t("mus.points") }),
        h("th", { scope: "col", text: t("mus.stones") }), h("th", { scope: "col", text: t("mus.sets") }))),
      h("tbody", {}, rows)),
    h("p", { class: "muted mus-target", text: t("mus.target", { n: target, sets: sheet?.sets_to ?? sheet?.limit ?? 3 }) }),
    hands.length ? h("ol", { class: "mus-hands" }, hands) : null);
}

// -- the result: the showdown lance by lance -----------------------------------------------------

// The points of each lance as the engine counts them (when the sheet has no report of
// the hand): a refused bet when it was refused; a hand stopped by a refusal that reached
// the target or by an accepted órdago books nothing more; else at the showdown each
// lance's accepted stake and its bonus, until a pair reaches the target (the rest is
// ``counted: false``).
export function showdown(r, v, { reyes = 8, puntoBonus = 1, target = 30 } = {}) {
  const f = v.mus ?? follow(v);
  const hands = r.final_hands ?? v.hands ?? [[], [], [], []];
  const status = Object.values(r.status ?? {});
  const refusals = f.lances.filter((L) => L.status === "no_querido").map((L) => ({
    lance: L.lance, pair: L.bettor % 2, pts: L.points, kind: "no_querido", counted: true }));
  if (status.includes("ordago") || status.includes("not_reached")) {
    return { items: refusals, stopped: true };
  }
  const items = [];
  for (const lance of LANCES) {
    const pair = r.lances?.[lance];
    const st = r.status?.[lance];
    if (pair === null || pair === undefined) continue;
    const L = f.lances.find((x) => x.lance === lance);
    if (st === "querido" && L) items.push({ lance, pair, pts: L.stake, kind: "stake" });
    if (st === "no_querido" && (lance === "grande" || lance === "chica")) continue;
    let bonus = 0;
    if (lance === "grande" || lance === "chica") bonus = st === "paso" ? 1 : 0;
    else if (lance === "pares") {
      bonus = [pair, pair + 2].reduce((a, s) => a + paresKind(hands[s], reyes), 0);
    } else if (lance === "juego") {
      bonus = [pair, pair + 2].reduce((a, s) => {
        const j = juegoValue(hands[s], reyes);
        return a + (j === 31 ? 3 : j > 31 ? 2 : 0);
      }, 0);
    } else bonus = puntoBonus;
    if (bonus) items.push({ lance, pair, pts: bonus, kind: "bonus" });
  }
  // how many were counted: the k for which the score before the showdown (the final one
  // less the refusals and the first k items) leads, booking item by item, to the target
  // exactly at item k (or never, all booked, when no set was won)
  const final = r.score ?? [0, 0];
  const won = r.set_winner !== null && r.set_winner !== undefined;
  let counted = items.length;
  for (let k = items.length; k >= 0; k--) {
    const run = [...final];
    for (const x of [...refusals, ...items.slice(0, k)]) run[x.pair] -= x.pts;
    for (const x of refusals) run[x.pair] += x.pts;
    if (run.some((p) => p < 0 || p >= target)) continue;
    let reached = -1;
    for (const [j, x] of items.entries()) {
      run[x.pair] += x.pts;
      if (run[x.pair] >= target) {
        reached = j;
        break;
      }
    }
    if ((won && reached === k - 1) || (!won && reached === -1 && k === items.length)) {
      counted = k;
      break;
    }
  }
  items.forEach((x, j) => { x.counted = j < counted; });
  return { items: [...refusals, ...items], stopped: false };
}

export function describe(r, v, { me, seatName }) {
  const out = { verdict: "", sentence: "", cls: "" };
  const my = me === null || me === undefined ? null : me % 2;
  const side = (p) => (my === null ? `${seatName(p)} & ${seatName(p + 2)}`
    : p === my ? t("table.we") : t("table.they"));
  if (r.set_winner !== null && r.set_winner !== undefined) {
    const ordago = Object.values(r.status ?? {}).includes("ordago");
    // the viewer's pair in the first person ("Wir gewinnen"), the other pair by its names
    const key = ordago ? "mus.result.ordago" : "mus.result.set";
    const p = r.set_winner;
    out.verdict = my === null ? t(key, { side: side(p) })
      : t(`${key}.${p === my ? "we" : "they"}`, { pair: `${seatName(p)} & ${seatName(p + 2)}` });
    if (my !== null) out.cls = r.set_winner === my ? "won" : "lost";
  } else {
    out.verdict = t("mus.result.hand_over");
  }
  out.sentence = t("mus.result.score", { a: side(0), b: side(1), x: r.score?.[0] ?? 0, y: r.score?.[1] ?? 0 });
  return out;
}

// The sheet's report of this hand (lance by lance, from the engine), when the sheet has
// booked it: the last hand with the result's score and statuses.
export function reportOf(r, sheet) {
  const hands = sheet?.hands ?? [];
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const row = [...hands].reverse().find((x) => same(x.score, r.score) && same(x.status, r.status));
  return row?.report ?? null;
}

const BEST_RANK = { 12: "R", 11: "C", 10: "S" };
const rankText = (n) => BEST_RANK[n] ?? String(n);

// what the best hand of a lance was (the report's ``best``), short
function bestText(e) {
  const b = e.best;
  if (b === undefined || b === null) return "";
  if (Array.isArray(b)) return b.map(rankText).join(" ");
  if (typeof b === "object") return `${b.combo} ${(b.ranks ?? []).filter((x) => x).map(rankText).join("+")}`;
  return String(b);
}

export function resultTable(r, v, { seatName, me, rules, sheet }) {
  const report = reportOf(r, sheet);
  if (report) return reportTable(report, r, v, { seatName, me, rules });
  const reyes = rules?.reyes ?? 8;
  const { items } = showdown(r, v, { reyes, puntoBonus: rules?.punto_bonus ?? 1,
    target: rules?.target ?? 30 });
  const my = me === null || me === undefined ? null : me % 2;
  const side = (p) => (my === null ? `${seatName(p)} & ${seatName(p + 2)}`
    : p === my ? t("table.we") : t("table.they"));
  const best = (lance) => {
    const p = r.lances?.[lance];
    return p === null || p === undefined ? "–" : side(p);
  };
  const rows = [];
  for (const lance of LANCES) {
    const status = r.status?.[lance];
    if (status === undefined) continue;
    if ((lance === "juego" || lance === "punto") && status === "no_bet"
        && (r.lances?.[lance] === null || r.lances?.[lance] === undefined)) continue;
    const pts = items.filter((x) => x.lance === lance)
      .map((x) => `${side(x.pair)} +${x.pts} (${t(`mus.kind.${x.kind}`)})${
        x.counted ? "" : ` – ${t("mus.not_counted")}`}`).join(", ");
    rows.push(h("tr", { "data-lance": lance, "data-status": status },
      h("th", { scope: "row", text: lanceName(lance) }),
      h("td", { text: t(`mus.status_word.${status}`) }),
      h("td", { text: best(lance) }),
      h("td", { class: "mus-pts", text: pts || "–" })));
  }
  return h("div", { class: "mus-result" },
    h("table", { class: "result-table mus-result-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("mus.lance") }),
        h("th", { scope: "col", text: t("mus.betting") }), h("th", { scope: "col", text: t("mus.best") }),
        h("th", { scope: "col", text: t("mus.points") }))),
      h("tbody", {}, rows)));
}

// The showdown explained from the engine's report: each lance's betting, who held the
// best hand (and what), the points booked (stake, refusal, bonus) or why none.
function reportTable(report, r, v, { seatName, me, rules }) {
  const my = me === null || me === undefined ? null : me % 2;
  const side = (p) => (my === null ? `${seatName(p)} & ${seatName(p + 2)}`
    : p === my ? t("table.we") : t("table.they"));
  const kind = (k) => (k === "querido" ? "stake" : k === "no_querido" ? "no_querido" : "bonus");
  const rows = report.map((e) => {
    const booked = (e.booked ?? []).map((b) => `${side(b.pair)} +${b.points} (${t(`mus.kind.${kind(b.kind)}`)})`);
    const why = e.why === "stopped" || e.why === "set_over" ? t("mus.not_counted") : "";
    const best = e.winner === null || e.winner === undefined ? "–"
      : `${seatName(e.winner)}${bestText(e) ? ` · ${bestText(e)}` : ""}`;
    return h("tr", { "data-lance": e.lance, "data-status": e.status },
      h("th", { scope: "row", text: lanceName(e.lance) }),
      h("td", { text: t(`mus.status_word.${e.status}`) }),
      h("td", { text: best }),
      h("td", { class: "mus-pts", text: booked.join(", ") || why || "–" }));
  });
  return h("div", { class: "mus-result", "data-source": "report" },
    h("table", { class: "result-table mus-result-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("mus.lance") }),
        h("th", { scope: "col", text: t("mus.betting") }), h("th", { scope: "col", text: t("mus.best") }),
        h("th", { scope: "col", text: t("mus.points") }))),
      h("tbody", {}, rows)));
}

// -- replays ---------------------------------------------------------------------------------

// The steps of a finished Mus hand for the replay page: the record's actions with the
// hands as they were (discards leave, draws come from the stock in playing order).
export function replaySteps(detail) {
  const rec = detail.record;
  const hands = rec.hands.map((x) => [...x]);
  let stock = [...(rec.stock ?? [])];
  const reshuffles = (rec.reshuffles ?? []).map((x) => [...x]);
  const mano = (((rec.dealer ?? 0) - 1) % 4 + 4) % 4;
  const calls = [];
  const steps = [];
  const snap = (extra) => steps.push({ hands: hands.map((x) => [...x]), calls: [...calls],
    doublings: [], trick: [], winner: null, tricks: [0, 0, 0, 0], ...extra });
  snap({ kind: "deal", seat: rec.dealer });
  let pending = [];
  // the señas (the record's senas.signs: after how many actions, who, which, seen by whom)
  const signs = [...(rec.senas?.signs ?? [])];
  const senasAfter = (n) => {
    for (const e of signs.filter((x) => x.after === n)) {
      calls.push({ seat: e.seat, call: `seña ${e.sign}`, i: calls.length, sena: true,
        seenBy: e.seen_by ?? [] });
      snap({ kind: "call", seat: e.seat, word: `seña ${e.sign}`, call: calls.length - 1,
        sena: true });
    }
  };
  senasAfter(0);
  for (const [act, [seat, action]] of (rec.actions ?? []).entries()) {
    calls.push({ seat, call: action, i: calls.length });
    if (action.startsWith("descarte ")) {
      const cards = action.slice(9).split(" ");
      hands[seat] = hands[seat].filter((c) => !cards.includes(c));
      pending.push([seat, cards.length]);
      if (pending.length === 4) {
        for (const s of order(mano)) {
          const n = pending.find((p) => p[0] === s)?.[1] ?? 0;
          for (let k = 0; k < n; k++) {
            if (!stock.length) stock = reshuffles.shift() ?? [];
            if (stock.length) hands[s].push(stock.shift());
          }
        }
        pending = [];
      }
    }
    snap({ kind: "call", seat, word: action, call: calls.length - 1, act });
    senasAfter(act + 1);
  }
  return steps;
}

export function resultLines(r, { me, seatName }) {
  const said = describe(r, {}, { me, seatName });
  const status = LANCES.filter((l) => r.status?.[l] && r.status[l] !== "no_bet")
    .map((l) => `${lanceName(l)}: ${t(`mus.status_word.${r.status[l]}`)}`).join(" · ");
  return [h("p", { class: `verdict${said.cls ? ` ${said.cls}` : ""}`, text: said.verdict }),
    h("p", { class: "result-why", text: said.sentence }),
    status ? h("p", { class: "muted", text: status }) : null];
}

// a row of "Meine Spiele": the set won or lost, else the score after the hand — one's own
// pair first
export function historyOutcome(r, seat) {
  const p = seat === null ? 0 : seat % 2;
  const x = r.score?.[p] ?? 0;
  const y = r.score?.[1 - p] ?? 0;
  const setOver = r.set_winner !== null && r.set_winner !== undefined;
  const text = !setOver ? t("history.mus.hand", { x, y })
    : t(r.set_winner === p ? "history.mus.set_won" : "history.mus.set_lost", { x, y });
  return { text, cls: !setOver || seat === null ? "" : r.set_winner === p ? "won" : "lost" };
}
