// Mucken's part of the table page (the game's ui_module, "table.js"): table_page.js draws
// the shell (seats, trick, hand, fitting, motion, chat, hints, timers) and asks this module
// for what is Mucken's own: the words, the calls and Kontra buttons, the Abheben slider,
// the pair badges and the Bobbl target, the result by pair with its sentence, the score
// sheet of the two pairs, and the replay of a record (its bidding worked out from the rules).

import { describeResult } from "./result_text.js";
import { t, word } from "./i18n.js";
import { renderSheet } from "./sheet.js";
import { clear, h, nameProps } from "./ui.js";

const DOUBLING = ["kontra", "re", "sup", "hirsch"];
const SUITS = ["E", "G", "H", "S"];
const PLAIN = ["A", "10", "K", "O", "U", "9", "8", "7"];

// The name of a call, contract or Kontra word.
export function gameWord(w) {
  return word(w);
}

// The view as the server sends it has the fields the shell reads.
export function adaptView(v) {
  return v;
}

// the phases in which a seat's last word shows as a bubble
export const BUBBLE_PHASES = ["bidding", "muss", "doubling"];
// the phases in which one's own hand is clicked
export const CARD_PHASES = ["play"];
// the phases in which the status line names the contract (the info panel always does)
export const CONTRACT_PHASES = ["play"];

// the table's name of its rules (create.preset.<name>) and the tag beside it: the Bobbl target
export const presetKey = (tbl) => tbl.rules;
export const headTag = (tbl) => h("span", {
  text: `Bobbl ${t("lobby.to", { n: tbl.rules_options?.bobbl_target ?? 21 })}` });

const pairNames = (p, seatName) => t("table.pairs", { a: seatName(p), b: seatName(p + 2) });
// "we"/"they" from a seat's side; the two names for a spectator
const pairLabel = (p, { me, seatName }) => {
  if (me !== null) return p === me % 2 ? t("table.we") : t("table.they");
  return pairNames(p, seatName);
};

// Display order of a hand for a contract (trumps first, then the suits) — display only.
export function sortHand(cards, contract) {
  let kind = (contract || "muck").replace(/^(schneider|schwarz)/, "");
  if (["pflichtmuck", "ramsch", "sie", "eingeworfen", ""].includes(kind)) kind = "muck";
  let trumps;
  if (kind === "wenz") trumps = SUITS.map((s) => `${s}U`);
  else if (kind === "geier") trumps = SUITS.map((s) => `${s}O`);
  else {
    const ts = { eichelsolo: "E", grassolo: "G", schellensolo: "S" }[kind] ?? "H";
    trumps = [...SUITS.map((s) => `${s}O`), ...SUITS.map((s) => `${s}U`),
      ...PLAIN.filter((r) => r !== "O" && r !== "U").map((r) => ts + r)];
  }
  const key = (c) => {
    const ti = trumps.indexOf(c);
    if (ti >= 0) return ti;
    return 100 + SUITS.indexOf(c[0]) * 10 + PLAIN.indexOf(c.slice(1));
  };
  return [...cards].sort((a, b) => key(a) - key(b));
}

// The contract with its declarer and the Kontra words said.
export function contractText(v, seatName) {
  if (!v.contract) return "";
  const contract = word(v.contract);
  let s = v.declarer !== null && v.declarer !== undefined
    ? t("table.declarer", { game: contract, name: seatName(v.declarer) }) : contract;
  if (v.doublings?.length) s += ` · ${v.doublings.map((d) => word(d.word)).join(", ")}`;
  return s;
}

// A seat's badges: one's partner (the seat across) and the declarer's contract.
export function seatBadges(i, v, me) {
  const out = [];
  if (me !== null && i !== me && i % 2 === me % 2) {
    out.push(h("span", { class: "tag", text: t("table.partner") }));
  }
  if (v && v.declarer === i && v.contract) {
    out.push(h("span", { class: "tag tag-game", text: word(v.contract) }));
  }
  return out;
}

// The felt's sentence before the first card (the shell says "end" itself).
export function phaseNote(v) {
  if (v.phase === "cut" && v.cuts?.length) {
    return `${t("table.phase.cut")} · ${t("table.cuts_done", { list: v.cuts.join(", ") })}`;
  }
  return t(`table.phase.${v.phase}`);
}

// The choices of one's turn outside the card play: the cut, the calls, Kontra (or null).
export function choices(v, ctx) {
  if (v.phase === "cut") return cutChoices(v, ctx);
  if (v.phase === "bidding" || v.phase === "muss" || v.phase === "doubling") {
    return callChoices(v, ctx);
  }
  return null;
}

function callButton(w, { send, rules }, extra = "") {
  const values = rules.values?.[w];
  const pts = Array.isArray(values) ? values.find((x) => x !== null) : null;
  return h("button", { type: "button", class: `btn call${extra}`, "data-action": w,
    "data-legal": "true", on: { click: () => send(w) } },
  h("span", { text: word(w) }),
  pts ? h("small", { class: "pts", text: t("table.points_value", { n: pts }) }) : null);
}

function callChoices(v, ctx) {
  const prompt = v.phase === "muss" ? t("table.muss_prompt")
    : v.phase === "doubling" ? t("table.double_prompt") : t("table.bid_prompt");
  const group = h("div", { class: "choices", role: "group", "aria-label": prompt });
  for (const w of v.legal) {
    const pass = w === "weiter" || w === "gut";
    group.append(callButton(w, ctx, pass ? " call-pass" : DOUBLING.includes(w) ? " call-kontra"
      : ""));
  }
  return h("div", { class: "choice-block" }, h("p", { class: "prompt", text: prompt }), group);
}

// Abheben: a slider over the pack and the button with the number of cards lifted
function cutChoices(v, ctx) {
  const { send } = ctx;
  const counts = v.legal.filter((a) => a.startsWith("cut:")).map((a) => Number(a.slice(4)));
  // the second step (after a cut: cut again or let the dealer deal) is a question too
  const question = v.cuts?.length
    ? t("table.cut_again_prompt", { list: v.cuts.map((n) => t("table.cut_cards", { n })).join(", ") })
    : t("table.cut_prompt");
  const block = h("div", { class: "choice-block" }, h("p", { class: "prompt", text: question }));
  const group = h("div", { class: "choices cut-choices", role: "group", "aria-label": question });
  if (counts.length) {
    const min = Math.min(...counts);
    const max = Math.max(...counts);
    let n = Math.round((min + max) / 2);
    const btn = h("button", { type: "button", class: "btn btn-primary call",
      "data-action": `cut:${n}`, "data-legal": "true", text: t("table.cut_button", { n }),
      on: { click: () => send(`cut:${n}`) } });
    const range = h("input", { type: "range", min, max, value: n, id: "cut-range",
      "aria-label": t("table.cut_prompt"), "aria-valuetext": t("table.cut_cards", { n }) });
    const stack = h("div", { class: "cut-stack", "aria-hidden": "true" });
    const total = (v.hand_sizes?.reduce((a, b) => a + b, 0) || 0) || max + 3;
    const drawStack = () => {
      clear(stack);
      for (let k = 0; k < Math.max(total, max + 3); k++) {
        stack.append(h("span", { class: k < n ? "lifted" : "" }));
      }
    };
    range.addEventListener("input", () => {
      n = Number(range.value);
      btn.dataset.action = `cut:${n}`;
      btn.textContent = t("table.cut_button", { n });
      range.setAttribute("aria-valuetext", t("table.cut_cards", { n }));
      drawStack();
    });
    range.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter") {
        ev.preventDefault();
        send(`cut:${n}`);
      }
    });
    drawStack();
    group.append(h("div", { class: "cut-range" }, range, stack), btn);
  }
  for (const w of v.legal) if (!w.startsWith("cut:")) group.append(callButton(w, ctx, " call-pass"));
  block.append(group);
  return block;
}

// The info panel's list: the calls, then the Kontra words (none before the first call).
export function callLog(v, seatName) {
  const calls = v.calls ?? [];
  if (!calls.length) return [];
  return [...calls.map((c) => h("li", {},
    h("span", { class: "who", ...nameProps(seatName(c.seat)) }),
    h("span", { class: `what${c.call === "weiter" ? " pass" : ""}`, text: word(c.call) }))),
  ...(v.doublings ?? []).map((d) => h("li", { class: "kontra" },
    h("span", { class: "who", ...nameProps(seatName(d.seat)) }),
    h("span", { class: "what", text: word(d.word) })))];
}

// Below the list in the card play: the tricks of the two pairs.
export function infoNote(v, ctx) {
  if (v.phase !== "play") return null;
  return h("p", { class: "tricks-taken" },
    h("span", { text: `${t("table.trick")}: ` }),
    h("span", { text: `${pairLabel(0, ctx)} ${v.tricks_taken[0]} : ${v.tricks_taken[1]} ${pairLabel(1, ctx)}` }));
}

// The score sheet of the two pairs (Bobbl rounds).
export const sheetTitle = () => t("sheet.title");
export function abrechnung(sheet, { seatName, me }) {
  return renderSheet(sheet, { pairLabel: (p) => pairLabel(p, { me, seatName }),
    pairNames: me === null ? null : (p) => pairNames(p, seatName) });
}

// The result from the viewer's side (result_text.js: the same sentence as in the replay).
export function describe(r, v, { me, seatName, rules }) {
  return describeResult(r, { my: me === null ? null : me % 2, names: [0, 1, 2, 3].map(seatName),
    rules });
}

// the result panel's data-result: the contract (none when no game was played)
export const resultKey = (r) => r.contract;

// The result table: Augen, tricks and points per pair.
export function resultTable(r, v, ctx) {
  const { seatName } = ctx;
  const pairRow = (label, vals) => h("tr", {}, h("th", { scope: "row", text: label }),
    h("td", { text: vals[0] }), h("td", { text: vals[1] }));
  const pts = r.winner === null || r.winner === undefined ? ["–", "–"]
    : [0, 1].map((p) => (p === r.winner ? String(r.score) : "–"));
  return h("table", { class: "result-table" },
    h("thead", {}, h("tr", {}, h("th", {}),
      h("th", { scope: "col", text: pairLabel(0, ctx), title: pairNames(0, seatName) }),
      h("th", { scope: "col", text: pairLabel(1, ctx), title: pairNames(1, seatName) }))),
    h("tbody", {}, pairRow(t("result.augen"), r.augen), pairRow(t("result.tricks"), r.tricks),
      pairRow(t("result.points"), pts)));
}

// a dealt hand as the result shows it: in the order of the game's contract
export const dealtOrder = (hand, r) => sortHand(hand, r.contract);

// -- the replay ----------------------------------------------------------------------------------

// A record's rules: a preset's name, or the preset with the record's own settings.
function rulesOf(record, presets) {
  const r = record.rules;
  if (typeof r === "string") return presets[r] ?? presets.seefest ?? {};
  const base = presets[r?.preset ?? "seefest"] ?? {};
  return { ...base, ...r };
}

// The steps of a finished game for the replay page: the deal, every call (who spoke when,
// passes and new rounds as the engine does it), Kontra, every card; the trick winners
// from the result.
export function replaySteps(detail, { presets }) {
  const rec = detail.record;
  const rules = rulesOf(rec, presets);
  const result = detail.result ?? {};
  const contract = result.contract ?? "";
  const hands = rec.hands.map((hnd) => sortHand(hnd, contract));
  const leader = (rec.dealer + 1) % 4;
  const steps = [];
  const snap = (extra) => steps.push({
    hands: hands.map((x) => [...x]), calls: [...calls], doublings: [...doublings],
    trick: [...trick], winner: null, tricks: [...tricksWon], ...extra,
  });
  const calls = [];
  const doublings = [];
  let trick = [];
  const tricksWon = [0, 0];
  snap({ kind: "deal", seat: rec.dealer });

  // the bidding: who spoke when (passes and new rounds as the engine does it)
  let seat = leader;
  const passed = new Set();
  let holder = null;
  let muss = false;
  for (const w of rec.calls ?? []) {
    if (muss) {
      const mc = rules.muss_card ?? "EO";
      seat = rec.hands.findIndex((hnd) => hnd.includes(mc));
    }
    calls.push({ seat, call: w, i: calls.length });
    snap({ kind: "call", seat, word: w, call: calls.length - 1 });
    if (muss) break;
    if (w === "weiter") passed.add(seat);
    else if (w === "ramsch") break;
    else {
      if (holder !== null && (holder % 2 !== seat % 2 || rules.partner_overcall_new_round)) {
        passed.clear();
      }
      holder = seat;
    }
    if (holder === null) {
      if (passed.size === 4) {
        if (rules.no_game === "muss") muss = true;
        else break;
      }
    } else if (passed.size === 3 && !passed.has(holder)) break;
    let nxt = (seat + 1) % 4;
    while ((passed.has(nxt) || nxt === holder) && passed.size < 4) nxt = (nxt + 1) % 4;
    seat = nxt;
  }
  for (const w of DOUBLING) {
    if (rec[w] !== undefined && rec[w] !== null) {
      doublings.push({ seat: rec[w], word: w, i: doublings.length });
      snap({ kind: "kontra", seat: rec[w], word: w, doubling: doublings.length - 1 });
    }
  }
  // the play: leaders follow the trick winners of the result
  const winners = result.trick_winners ?? [];
  let lead = leader;
  let k = 0;
  (rec.plays ?? []).forEach((card, i) => {
    if (trick.length === 4) trick = [];
    const who = (lead + trick.length) % 4;
    const hand = hands[who];
    const at = hand.indexOf(card);
    if (at >= 0) hand.splice(at, 1);
    trick.push({ seat: who, card });
    let winner = null;
    if (trick.length === 4) {
      winner = winners[k] ?? null;
      if (winner !== null) tricksWon[winner % 2] += 1;
      k += 1;
      lead = winner ?? lead;
    }
    snap({ kind: "play", seat: who, card, winner, index: i });
  });
  return steps;
}

// The stand-in marks of a Mucken game (``play``, ``call``, ``doubling``: the place in the
// record's plays, calls and Kontra words) as the replay looks them up.
export function standInByStep(marks) {
  const idx = { play: new Map(), call: new Map(), doubling: new Map() };
  for (const m of marks ?? []) {
    for (const k of ["play", "call", "doubling"]) if (Number.isInteger(m[k])) idx[k].set(m[k], m);
  }
  return idx;
}

// The replay's result lines: the sentence from the viewer's side, the Augen of the pairs,
// and who had a bot play for them.
export function resultLines(r, { me, seatName, detail, presets }) {
  const my = me === null || me === undefined ? null : me % 2;
  const said = describeResult(r, { my, names: [0, 1, 2, 3].map(seatName),
    rules: rulesOf(detail.record, presets) });
  const pl = (p) => (my === null ? `${seatName(p)} & ${seatName(p + 2)}`
    : p === my ? t("table.we") : t("table.they"));
  const out = [h("p", { class: `verdict${said.cls ? ` ${said.cls}` : ""}`, text: said.verdict }),
    h("p", { class: "result-why", text: said.sentence })];
  if (r.augen) {
    out.push(h("p", { class: "muted", text:
      `${t("result.augen")}: ${pl(0)} ${r.augen[0]} : ${r.augen[1]} ${pl(1)}` }));
  }
  const seats = [...new Set((detail.stand_in ?? []).map((m) => m.seat))];
  if (seats.length) {
    out.push(h("p", { class: "stand-in-note", text: t("replay.stand_in_note", {
      names: seats.map(seatName).join(", "), n: detail.stand_in.length }) }));
  }
  return out;
}

// a row of "Meine Spiele": the game and the points from the player's pair's side
export function historyOutcome(r, seat) {
  const myPair = seat === null ? null : seat % 2;
  let text = word(r.contract ?? "");
  if (r.winner !== null && r.winner !== undefined) {
    text += ` · ${r.winner === myPair ? "+" : "−"}${r.score}`;
  }
  return { text, cls: myPair !== null && r.winner === myPair ? "won" : "lost" };
}
