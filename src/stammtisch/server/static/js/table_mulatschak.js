// Mulatschak's part of the table page (the game's ui_module): table_page.js draws the shell
// (2 to 6 seats around the felt, the trick, the hand, fitting, motion, chat) and asks this
// module for what is Mulatschak's own: the cut (a slider for where to cut) or Klopfen with the
// cut card and the Weli shown to all, the Stichansage with "bei mir" and the Muli (also out
// of turn: the server offers it in the state message's "out_of_turn"), the trump, mitgehen
// or daheim, the Kartentausch in all its forms (cards picked in the hand; "sicht" and the
// Brücke show their cards on the felt, the Brücke's one by one), the score column from 21
// down with the multiplier, and the result sentence from the viewer's side.
// Only what the server's view says is shown; nothing is guessed about other hands.

import { cardElement } from "./cards.js";
import { cardName, t, textOr } from "./i18n.js";
import { choiceMakers, h, nameProps, pickable } from "./ui.js";

export const SUITS = ["E", "G", "H", "S"];
// the cards are drawn in the Salzburg pattern (cards.js), the Weli is S6
export const CARD_OPTIONS = { pattern: "salzburg" };
const WELI = "S6";

const suitName = (s) => t(`mu.suit.${s}`);
const plural = (n) => t(n === 1 ? "mu.tricks_one" : "mu.tricks_n", { n });

// The name of a word of the game (as the view's "said" and the legal actions write them).
export function gameWord(w) {
  if (!w) return "";
  const [head, ...rest] = w.split(" ");
  if (/^[1-4]$/.test(w)) return plural(Number(w));
  if (head === "abheben") return t("mu.word.abheben", { n: rest[0] });
  if (head === "trumpf") return t("mu.word.trumpf", { suit: suitName(rest[0]) });
  if (head === "tausche") return t("mu.word.tausche", { n: rest.length });
  if (head === "sicht") return t("mu.word.sicht");
  if (head === "ab") return t("mu.word.ab", { n: rest.length });
  const key = `mu.word.${w.replace(" ", "_")}`;
  const s = t(key);
  return s === key ? w : s;
}

// The view with the fields the shell reads: calls (the words said), doublings, cuts, the
// trick as {seat, card}, the finished tricks and the last one (when the view has their
// cards), the hand (spectators: none).
export function adaptView(v) {
  if (!v) return v;
  const calls = (v.said ?? []).map(([seat, call]) => ({ seat, call }));
  const trick = (v.trick ?? []).map((x) => (Array.isArray(x) ? { seat: x[0], card: x[1] } : x));
  const played = (v.tricks_played ?? []).map((tr, k) => (Array.isArray(tr)
    ? { cards: tr.map(([seat, card]) => ({ seat, card })), winner: v.trick_winners?.[k] ?? null }
    : tr));
  const tricksPlayed = played.length ? played
    : (v.trick_winners ?? []).map((winner) => ({ cards: [], winner }));
  const lt = tricksPlayed[tricksPlayed.length - 1];
  const taken = (v.hand_sizes ?? []).map((_, i) => (v.trick_winners ?? []).filter((w) => w === i).length);
  return { ...v, calls, doublings: [], cuts: [], trick, tricks_played: tricksPlayed,
    // once the hand is over, cards left unplayed (a folded hand, everybody home, a seat
    // that stayed home) no longer matter: the result takes the room of the hand
    last_trick: lt && lt.cards.length ? lt : null, hand: v.phase === "end" ? [] : v.hand ?? [],
    tricks_taken: taken,
    contract: v.holder !== null && v.holder !== undefined && v.bid ? String(v.bid) : null,
    declarer: v.holder };
}

// the phases in which a seat's last word shows as a bubble
export const BUBBLE_PHASES = ["bidding", "trump", "mitgehen", "exchange"];
// a hint's values are points paid to the asker (not Augen): their words
export const HINT_KEYS = { value: "mu.hint_value", badge: "mu.hint_badge",
  best: "mu.hint_badge_best" };
// the phase in which one's own cards are played by clicking them
export const CARD_PHASES = ["play"];

// the multiplier of the hand in play: 2^(Herz trump + Klopfen + carried doublings)
export function handMultiplier(v) {
  return 2 ** ((v.trump === "H" ? 1 : 0) + (v.klopfen ? 1 : 0) + (v.doubled ?? 0));
}

const bidText = (bid) => (bid >= 5 ? t("mu.word.muli") : plural(bid));

// The contract line: the bidder, the bid, the trump, the multiplier.
export function contractText(v, seatName) {
  if (v.holder === null || v.holder === undefined || !v.bid) {
    const m = handMultiplier(v);
    return m > 1 ? `×${m}` : "";
  }
  let s = t("mu.contract", { name: seatName(v.holder), bid: bidText(v.bid) });
  if (v.trump) s += ` · ${t("mu.word.trumpf", { suit: suitName(v.trump) })}`;
  const m = handMultiplier(v);
  if (m > 1) s += ` · ×${m}`;
  return s;
}

// A seat's badges: its score, the bid it holds, the Weli, daheim.
export function seatBadges(i, v) {
  const out = [];
  if (!v) return out;
  const score = v.result?.scores?.[i] ?? v.scores?.[i];
  if (score !== undefined) {
    out.push(h("span", { class: "tag tag-score", "data-score": String(score),
      title: t("mu.score_title", { n: score }), text: String(score) }));
  }
  if (v.holder === i && v.bid) {
    out.push(h("span", { class: "tag tag-game", text: bidText(v.bid) }));
  }
  if (v.weli_keeper === i) {
    out.push(h("span", { class: "tag tag-weli", title: t("mu.weli_title"),
      text: "Weli" }));
  }
  if ((v.home ?? []).includes(i)) out.push(h("span", { class: "tag", text: t("mu.word.daheim") }));
  return out;
}

// The sentence on the felt before the card play.
export const phaseNote = (v) => textOr(`mu.phase.${v.phase}`, v.phase);

// The felt's centre before the card play: the phase, the cut card (and the Weli, shown to
// all when it is cut), the cards shown in the exchange (a Brücke's one after the other).
export function feltNote(v, { seatName, cardOpts }) {
  const box = h("div", { class: "felt-note mu-note", "data-phase": v.phase });
  box.append(h("p", { class: "mu-note-text", text: phaseNote(v) }));
  const row = h("div", { class: "mu-shown" });
  if (v.weli_keeper !== null && v.weli_keeper !== undefined && ["bidding", "cut", "trump"].includes(v.phase)) {
    row.append(h("figure", { class: "mu-cut weli", "data-card": WELI },
      cardElementOf(WELI, cardOpts),
      h("figcaption", { text: t("mu.weli_kept", { name: seatName(v.weli_keeper) }) })));
  } else if (v.revealed && ["bidding", "trump"].includes(v.phase)) {
    row.append(h("figure", { class: "mu-cut", "data-card": v.revealed },
      cardElementOf(v.revealed, cardOpts),
      h("figcaption", { text: v.klopfen ? t("mu.knocked") : t("mu.cut_card") })));
  }
  const shown = ["exchange", "give", "weiss_ab"].includes(v.phase) ? (v.shown ?? []) : [];
  shown.forEach((c, k) => {
    const fig = h("figure", { class: "mu-shown-card", "data-card": c, style: `--k:${k}` },
      cardElementOf(c, cardOpts), k === 0 ? h("figcaption", { text: t("mu.shown") }) : null);
    row.append(fig);
  });
  if (row.childNodes.length) box.append(row);
  if (v.klopfen && v.phase === "bidding") box.append(h("p", { class: "mu-knock", text: t("mu.knocked_double") }));
  return box;
}

// a card of the felt's centre (table_page.js passes its card options: the Salzburg pattern)
function cardElementOf(code, cardOpts) {
  const opts = cardOpts ? cardOpts({ label: cardName(code) }) : { ...CARD_OPTIONS, label: cardName(code) };
  return cardElement(code, opts);
}

// -- picking cards in the hand (the exchange and discarding) ----------------------------------
const ui = { key: "", picked: new Set(), cut: 16 };

function pickKey(v) {
  return `${v.phase}:${v.to_act}:${(v.hand ?? []).join(" ")}`;
}

const picking = (v) => ["exchange", "give", "weiss_ab"].includes(v.phase)
  && (v.legal ?? []).some((a) => /^(tausche|sicht|ab) /.test(a));

// Clicking one's own cards in the exchange or when discarding: they are picked.
export function handCard(el, code, v, { mine }) {
  if (ui.key !== pickKey(v)) {
    ui.key = pickKey(v);
    ui.picked = new Set();
  }
  if (!mine || !picking(v)) return false;
  el.setAttribute("aria-label", cardName(code));
  pickable(el, code, ui.picked, "mu-pick", () => updatePickButtons(v));
  return true;
}

const pickedCards = (v) => (v.hand ?? []).filter((c) => ui.picked.has(c));

function pickWords(v) {
  const cards = pickedCards(v);
  return { tausche: `tausche ${cards.join(" ")}`, sicht: `sicht ${cards.join(" ")}`,
    ab: `ab ${cards.join(" ")}` };
}

function discardCount(v) {
  const ab = (v.legal ?? []).find((a) => a.startsWith("ab "));
  return ab ? ab.split(" ").length - 1 : 0;
}

function setButton(btn, word, ok, label) {
  if (!btn) return;
  btn.disabled = !ok;
  btn.dataset.action = word;
  if (ok) btn.dataset.legal = "true";
  else delete btn.dataset.legal;
  if (label) btn.textContent = label;
}

function updatePickButtons(v) {
  const legal = new Set(v.legal ?? []);
  const w = pickWords(v);
  const n = ui.picked.size;
  setButton(document.getElementById("mu-tausche"), w.tausche, legal.has(w.tausche),
    n ? t("mu.tausche_n", { n }) : t("mu.tausche_pick"));
  setButton(document.getElementById("mu-sicht"), w.sicht, legal.has(w.sicht));
  setButton(document.getElementById("mu-ab"), w.ab, legal.has(w.ab),
    t("mu.ab_n", { n: discardCount(v), k: n }));
}

// -- one's turn --------------------------------------------------------------------------------
export function choices(v, ctx) {
  const { send } = ctx;
  const legal = v.legal ?? [];
  const block = h("div", { class: "choice-block mu-choices", "data-phase": v.phase });
  const { button, group } = choiceMakers(send, gameWord);
  const prompt = (key, params) => h("p", { class: "prompt", text: t(key, params) });
  if (v.phase === "cut") {
    block.append(prompt("mu.prompt.cut"), group(t("mu.prompt.cut"), ...cutControls(v, send)));
  } else if (v.phase === "bidding") {
    const nodes = legal.map((w) => button(w, w === "weiter" ? " call-pass"
      : w === "muli" ? " call-kontra" : w === "bei mir" ? " btn-primary" : ""));
    block.append(prompt("mu.prompt.bid"), group(t("mu.prompt.bid"), ...nodes));
  } else if (v.phase === "trump") {
    block.append(prompt("mu.prompt.trump"), group(t("mu.prompt.trump"), ...legal.map((w) => {
      const suit = w.split(" ")[1];
      return h("button", { type: "button", class: "btn call mu-trump", "data-action": w,
        "data-legal": "true", on: { click: () => send(w) } },
      suit ? h("span", { class: `sk-suit sk-suit-${suit}`, "aria-hidden": "true" }) : null,
      h("span", { text: suit ? suitName(suit) : gameWord(w) }));
    })));
  } else if (v.phase === "mitgehen") {
    // only "Mit": say why (Herz is trump, a Muli, or one's score is 3 or less)
    const forced = !legal.includes("daheim");
    const why = !forced ? null : v.trump === "H" ? t("mu.prompt.mitgehen_forced.herz")
      : (v.bid ?? 0) >= 5 ? t("mu.prompt.mitgehen_forced.muli")
        : t("mu.prompt.mitgehen_forced.score", { n: 3 });
    block.append(forced ? h("p", { class: "prompt", text: why }) : prompt("mu.prompt.mitgehen"),
      group(forced ? why : t("mu.prompt.mitgehen"),
      ...legal.map((w) => button(w, w === "daheim" ? " call-pass" : " btn-primary"))));
  } else if (v.phase === "exchange") {
    if (ui.key !== pickKey(v)) {
      ui.key = pickKey(v);
      ui.picked = new Set();
    }
    const w = pickWords(v);
    const nodes = [button("behalte", " call-pass")];
    if (legal.some((a) => a.startsWith("tausche "))) {
      nodes.push(h("button", { type: "button", id: "mu-tausche", class: "btn btn-primary call",
        disabled: !legal.includes(w.tausche), "data-action": w.tausche,
        "data-legal": legal.includes(w.tausche) ? "true" : null,
        text: ui.picked.size ? t("mu.tausche_n", { n: ui.picked.size }) : t("mu.tausche_pick"),
        on: { click: (ev) => send(ev.currentTarget.dataset.action) } }));
    }
    if (legal.some((a) => a.startsWith("sicht "))) {
      nodes.push(h("button", { type: "button", id: "mu-sicht", class: "btn call",
        title: t("mu.sicht_title"), disabled: !legal.includes(w.sicht), "data-action": w.sicht,
        "data-legal": legal.includes(w.sicht) ? "true" : null, text: t("mu.word.sicht"),
        on: { click: (ev) => send(ev.currentTarget.dataset.action) } }));
    }
    for (const x of ["sau", "sechs", "bruecke"]) {
      if (legal.includes(x)) nodes.push(button(x, "", gameWord(x)));
    }
    block.append(prompt(legal.length > 1 ? "mu.prompt.exchange" : "mu.prompt.exchange_forced"),
      group(t("mu.prompt.exchange"), ...nodes));
  } else if (v.phase === "give" || v.phase === "weiss_ab") {
    if (legal.includes("nimm")) {
      const card = (v.shown ?? [])[v.shown.length - 1];
      block.append(prompt("mu.prompt.sicht", { card: card ? cardName(card) : "?" }),
        group(t("mu.prompt.sicht_short"), button("nimm", " btn-primary"), button("weg", " call-pass")));
    } else if (legal.some((a) => a.startsWith("ab "))) {
      if (ui.key !== pickKey(v)) {
        ui.key = pickKey(v);
        ui.picked = new Set();
      }
      const w = pickWords(v);
      const n = discardCount(v);
      block.append(prompt("mu.prompt.ab", { n }), group(t("mu.prompt.ab", { n }),
        h("button", { type: "button", id: "mu-ab", class: "btn btn-primary call",
          disabled: !legal.includes(w.ab), "data-action": w.ab,
          "data-legal": legal.includes(w.ab) ? "true" : null,
          text: t("mu.ab_n", { n, k: ui.picked.size }),
          on: { click: (ev) => send(ev.currentTarget.dataset.action) } })));
    }
  } else if (legal.length && v.phase !== "play") {
    block.append(group(phaseNote(v), ...legal.map((w) => button(w))));
  }
  return block;
}

// The cut: a slider for where to cut (1 to 32 cards lifted), the button, and Klopfen.
function cutControls(v, send) {
  const counts = (v.legal ?? []).filter((a) => a.startsWith("abheben "))
    .map((a) => Number(a.split(" ")[1]));
  const out = [];
  if (counts.length) {
    const min = Math.min(...counts);
    const max = Math.max(...counts);
    ui.cut = Math.max(min, Math.min(max, ui.cut));
    const word = () => `abheben ${ui.cut}`;
    const btn = h("button", { type: "button", class: "btn btn-primary call", id: "mu-cut",
      "data-action": word(), "data-legal": "true", text: t("mu.cut_button", { n: ui.cut }),
      on: { click: () => send(word()) } });
    const range = h("input", { type: "range", min, max, value: ui.cut, id: "mu-cut-range",
      "aria-label": t("mu.prompt.cut"), "aria-valuetext": t("mu.cut_cards", { n: ui.cut }) });
    const stack = h("div", { class: "cut-stack", "aria-hidden": "true" });
    const draw = () => {
      stack.replaceChildren(...Array.from({ length: max + 1 }, (_, k) => h("span",
        { class: k < ui.cut ? "lifted" : "" })));
    };
    range.addEventListener("input", () => {
      ui.cut = Number(range.value);
      btn.dataset.action = word();
      btn.textContent = t("mu.cut_button", { n: ui.cut });
      range.setAttribute("aria-valuetext", t("mu.cut_cards", { n: ui.cut }));
      draw();
    });
    range.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter") {
        ev.preventDefault();
        send(word());
      }
    });
    draw();
    out.push(h("div", { class: "cut-range" }, range, stack), btn);
  }
  if ((v.legal ?? []).includes("klopfen")) {
    out.push(h("button", { type: "button", class: "btn call call-kontra", "data-action": "klopfen",
      "data-legal": "true", title: t("mu.klopfen_title"), text: gameWord("klopfen"),
      on: { click: () => send("klopfen") } }));
  }
  return out;
}

// The Muli out of turn: while the server offers it (the state message's "out_of_turn").
export function extraBar(v, { send, outOfTurn, me }) {
  if (me === null || me === undefined || !(outOfTurn ?? []).includes("muli")) return null;
  return h("div", { class: "mu-out-of-turn", role: "group", "aria-label": t("mu.muli_title") },
    h("button", { type: "button", class: "btn call call-kontra mu-muli", id: "mu-muli",
      "data-out-of-turn": "muli", title: t("mu.muli_title"), text: t("mu.muli_button"),
      on: { click: () => send("muli") } }));
}

// The info panel's list: every word said this hand, in order (no card of an exchange).
export function callLog(v, seatName) {
  return (v.calls ?? []).map((c) => h("li", {},
    h("span", { class: "who", ...nameProps(seatName(c.seat)) }),
    h("span", { class: `what${c.call === "weiter" || c.call === "daheim" ? " pass" : ""}`,
      text: gameWord(c.call) })));
}

export const sheetTitle = () => t("mu.sheet");

// The score column: every seat from 21 down, one row per finished hand (the last ones), the
// multiplier of each hand and the one carried into the next hand.
export function abrechnung(sheet, { seatName, me, view }) {
  const n = sheet?.players ?? view?.scores?.length ?? 4;
  const seats = Array.from({ length: n }, (_, i) => i);
  const hands = sheet?.hands ?? [];
  const scores = sheet?.scores ?? Array(n).fill(sheet?.start ?? 21);
  const head = h("tr", {}, h("th", { scope: "col", text: "#" }),
    seats.map((i) => h("th", { scope: "col", class: i === me ? "me" : "",
      ...nameProps(seatName(i)) })));
  const start = h("tr", { class: "mu-start" }, h("th", { scope: "row", text: "" }),
    seats.map(() => h("td", { text: String(sheet?.start ?? 21) })));
  const rows = hands.slice(-6).map((row) => h("tr", { "data-hand": row.number,
    class: row.note ? "mu-note-row" : "" },
  h("th", { scope: "row", title: handTitle(row, seatName),
    text: `${row.number}${row.multiplier > 1 ? ` ×${row.multiplier}` : ""}` }),
  // going down is good: a minus is green (plus), a plus red (minus)
  seats.map((i) => h("td", { class: `${row.delta?.[i] < 0 ? "plus" : row.delta?.[i] > 0 ? "minus" : ""}${
    i === row.bidder ? " declarer" : ""}${(row.home ?? []).includes(i) ? " home" : ""}`,
  title: row.delta?.[i] ? signed(row.delta[i]) : "", text: String(row.scores?.[i] ?? "") }))));
  const foot = h("tr", { class: "sk-balance" }, h("th", { scope: "row", text: "=" }),
    seats.map((i) => h("td", { class: `${i === me ? "me" : ""}${(sheet?.winners ?? []).includes(i) ? " winner" : ""}`,
      "data-seat": i, text: String(scores[i]) })));
  const mult = sheet?.multiplier ?? 1;
  return h("div", { class: "mu-sheet-box" },
    h("p", { class: "mu-multiplier", "data-multiplier": String(mult), text: mult > 1
      ? t("mu.next_multiplier", { n: mult }) : t("mu.sheet_hint") }),
    h("table", { class: "sheet-table sk-sheet mu-sheet" }, h("thead", {}, head),
      h("tbody", {}, hands.length > 6 ? null : start, rows), h("tfoot", {}, foot)));
}

function handTitle(row, seatName) {
  if (row.folded) return t("mu.result.folded");
  if (row.bidder === null || row.bidder === undefined) return t("mu.result.redeal");
  return t("mu.contract", { name: seatName(row.bidder), bid: bidText(row.bid) })
    + (row.trump ? ` · ${suitName(row.trump)}` : "");
}

const signed = (n) => (n > 0 ? `+${n}` : String(n));

// The result from the viewer's side (scores go down: minus is good).
export function describe(r, v, { me, seatName }) {
  const out = { verdict: "", sentence: "", cls: "" };
  const n = r.delta?.length ?? 0;
  const names = (list) => list.map(seatName).join(t("sk.and"));
  if (r.folded) {
    out.verdict = t("mu.result.folded");
    out.sentence = t("mu.result.folded_why");
  } else if (r.bidder === null || r.bidder === undefined) {
    out.verdict = t("mu.result.redeal");
    out.sentence = t("mu.result.redeal_why");
  } else {
    const b = r.bidder;
    const bid = bidText(r.bid);
    const played = (r.trick_winners ?? []).length > 0;
    // what was bid and what was taken: "Bot 3 hat 1 Stich angesagt und 5 Stiche gemacht"
    const took = r.tricks?.[b] ?? 0;
    const tookText = plural(took);
    const none = took ? "" : "_none";
    const made = played && (r.bid >= 5 ? took === 5 : took >= r.bid);
    if (!played) {
      out.verdict = b === me ? t("mu.result.all_home_you") : t("mu.result.all_home", { name: seatName(b) });
    } else if (b === me) {
      out.verdict = t(made ? "mu.result.you_made" : `mu.result.you_failed${none}`,
        { bid, took: tookText });
    } else {
      out.verdict = t(made ? "mu.result.made" : `mu.result.failed${none}`,
        { name: seatName(b), bid, took: tookText });
    }
    const parts = [];
    for (let i = 0; i < n; i++) {
      if (!r.delta[i]) continue;
      parts.push(`${i === me ? t("table.you") : seatName(i)} ${signed(r.delta[i])}`);
    }
    const list = parts.join(" · ");
    out.sentence = list && list[0].toUpperCase() + list.slice(1); // "Du +1 · Bert -5"
    if (r.multiplier > 1) out.sentence += ` (×${r.multiplier})`;
  }
  if ((r.match_winner ?? []).length) {
    const w = r.match_winner;
    out.sentence += `${out.sentence ? " " : ""}${w.includes(me) && w.length === 1
      ? t("mu.result.you_win_match") : t("mu.result.wins_match", { who: names(w) })}`;
  }
  if (me !== null && me !== undefined && r.delta?.[me]) out.cls = r.delta[me] < 0 ? "won" : "lost";
  return out;
}

// The result table: tricks, the change and the score after the hand, per seat.
export function resultTable(r, v, { seatName, me }) {
  const n = r.delta?.length ?? 0;
  const seats = Array.from({ length: n }, (_, i) => i);
  const cell = (i, text) => h("td", { class: i === me ? "me" : "", text });
  return h("table", { class: "result-table sk-result-table mu-result-table" },
    h("thead", {}, h("tr", {}, h("th", {}), seats.map((i) => h("th", { scope: "col",
      class: i === me ? "me" : "", ...nameProps(seatName(i)) })))),
    h("tbody", {},
      h("tr", { "data-row": "tricks" }, h("th", { scope: "row", text: t("result.tricks") }),
        seats.map((i) => cell(i, (r.home ?? []).includes(i) ? "–" : String(r.tricks?.[i] ?? 0)))),
      h("tr", { "data-row": "delta" }, h("th", { scope: "row", text: t("mu.delta") }),
        seats.map((i) => cell(i, signed(r.delta[i])))),
      h("tr", { "data-row": "scores" }, h("th", { scope: "row", text: t("mu.score") }),
        seats.map((i) => cell(i, String(r.scores[i]))))));
}

const CARD = /^([EGHS])(A|10|K|O|U|9|8|7)$|^S6$/;

// The steps of a finished Mulatschak hand for the replay page (the record's "actions":
// [seat, word or card]).  The hands of the card play are the cards each playing seat
// played (five each), so from the first card on every playing seat's hand is shown face
// up, each card leaving it when it is played; before that (the deal and the exchange come
// from the deck and are not written out card by card) the replay shows the words.
export function replaySteps(detail) {
  const rec = detail.record;
  const left = Array.from({ length: (rec.scores ?? []).length || 4 }, () => []);
  for (const [seat, action] of rec.actions ?? []) {
    if (CARD.test(action) && left[seat]) left[seat].push(action);
  }
  const steps = wordAndTrickSteps(detail);
  // the hands appear on the step before the first card (the last word of the exchange);
  // before it, from the deal on, the hands as dealt, less the cards given away (tausche,
  // sicht, ab) — the cards drawn in the exchange show with the hands to be played
  const first = steps.findIndex((st) => st.kind === "play");
  const dealt = dealtHands(rec, left.length);
  if (dealt) {
    const held = dealt.map((x) => [...x]);
    const upto = first < 0 ? steps.length : Math.max(first - 1, 0);
    for (let i = 0; i < upto; i++) {
      const st = steps[i];
      const entry = st.kind === "call" ? (rec.actions ?? [])[st.act] : null;
      const words = entry ? String(entry[1]).split(" ") : [];
      if (["tausche", "sicht", "ab"].includes(words[0]) && held[entry[0]]) {
        held[entry[0]] = held[entry[0]].filter((c) => !words.slice(1).includes(c));
      }
      steps[i] = { ...st, hands: held.map((x) => [...x]) };
    }
  }
  return steps.map((st, i) => {
    if (first < 0 || i < Math.max(first - 1, 0)) return st;
    if (st.kind === "play") {
      const k = left[st.seat].indexOf(st.card);
      if (k >= 0) left[st.seat].splice(k, 1);
    }
    return { ...st, hands: left.map((x) => [...x]) };
  });
}

// The hands as dealt (the replay's first step): the record's deck, cut by its first word
// (``abheben k``: the k-th card shown, the stock from the card after it; ``klopfen``: the
// last card shown), three cards to each seat from the dealer's left (the Weli shown goes to
// the seat that cut it, with two more), then two each — as the engine deals
// (games/mulatschak/state.py ``_cut``, ``_deal``).  ``null`` for a record it cannot read.
function dealtHands(rec, n) {
  const deck = Array.isArray(rec.deck) ? rec.deck.map(String) : null;
  const cut = (rec.actions ?? [])[0];
  if (!deck || deck.length !== 33 || !Array.isArray(cut) || !Number.isInteger(rec.dealer)) return null;
  const [cutter, word] = [cut[0], String(cut[1])];
  let stock;
  let shown;
  if (word === "klopfen") {
    shown = deck[32];
    stock = shown === "S6" ? deck.slice(0, 32) : deck.slice();
  } else {
    const k = Number(word.split(" ")[1]);
    if (!word.startsWith("abheben ") || !Number.isInteger(k) || k < 1 || k > 33) return null;
    shown = deck[k - 1];
    stock = [...deck.slice(k), ...deck.slice(0, k)];
    if (shown === "S6") stock.splice(stock.indexOf(shown), 1);
  }
  const weli = shown === "S6" ? cutter : null;
  const hands = Array.from({ length: n }, () => []);
  const order = Array.from({ length: n }, (_, i) => (rec.dealer + 1 + i) % n);
  for (const seat of order) {
    if (seat === weli) hands[seat].push(shown);
    hands[seat].push(...stock.splice(0, seat === weli ? 2 : 3));
  }
  for (const seat of order) hands[seat].push(...stock.splice(0, 2));
  return hands;
}

function wordAndTrickSteps(detail) {
  const rec = detail.record;
  const result = detail.result ?? {};
  const n = (rec.scores ?? []).length || 4;
  const calls = [];
  let trick = [];
  const tricks = Array(n).fill(0);
  const winners = result.trick_winners ?? [];
  const playing = n - (result.home ?? []).length;
  const steps = [];
  const snap = (extra) => steps.push({ hands: Array.from({ length: n }, () => []), calls: [...calls],
    doublings: [], trick: [...trick], winner: null, tricks: [...tricks], ...extra });
  snap({ kind: "deal", seat: rec.dealer });
  let index = 0;
  for (const [act, [seat, action]] of (rec.actions ?? []).entries()) {
    if (CARD.test(action)) {
      if (trick.length === playing) trick = [];
      trick.push({ seat, card: action });
      let winner = null;
      if (trick.length === playing) {
        winner = winners[Math.floor(index / playing)] ?? null;
        if (winner !== null) tricks[winner] += 1;
      }
      snap({ kind: "play", seat, card: action, winner, index, act });
      index += 1;
    } else {
      const shown = /^(tausche|sicht|ab) /.test(action) ? action.split(" ")[0] : action;
      calls.push({ seat, call: shown, i: calls.length });
      snap({ kind: "call", seat, word: shown, call: calls.length - 1, act });
    }
  }
  return steps;
}

// a row of "Meine Spiele": the bid (or a folded hand, a redeal) and one's own change
// (down is good)
export function historyOutcome(r, seat, players) {
  const mine = seat === null ? null : r.delta?.[seat];
  let text = r.folded ? t("mu.result.folded") : r.bidder === null || r.bidder === undefined
    ? t("mu.result.redeal") : `${players[r.bidder]?.name ?? ""}: ${r.bid >= 5 ? t("mu.word.muli")
      : t(r.bid === 1 ? "mu.tricks_one" : "mu.tricks_n", { n: r.bid })}`;
  if (mine) text += ` · ${mine > 0 ? "+" : "−"}${Math.abs(mine)}`;
  return { text, cls: mine !== null && mine !== undefined && mine < 0 ? "won" : "lost" };
}
