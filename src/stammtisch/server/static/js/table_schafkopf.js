// Schafkopf's part of the table page (the game's ui_module): table_page.js draws the shell
// (seats, trick, hand, fitting, motion, chat) and asks this module for what is Schafkopf's
// own: the words, the announcement flow (Legen after the first four cards, weiter or a game
// from the game dialog, Hochzeit, Stoßen), the contract with the called ace, the result
// sentence from the viewer's side with its Laufende, and the per-player Abrechnung.
// Only what the server's view says is shown: in a Rufspiel the partner is named once the
// view names him (after the called ace is played), never guessed.

import { cardName, t, textOr } from "./i18n.js";
import { choiceMakers, euros, h, nameProps } from "./ui.js";

const SUIT_OF = { eichel: "E", gras: "G", herz: "H", schellen: "S" };
//: the dialog's groups in the contract's order, each with its game words
const GROUPS = [
  ["sauspiel", ["sauspiel-eichel", "sauspiel-gras", "sauspiel-schellen"]],
  ["wenz", ["wenz"]],
  ["geier", ["geier"]],
  ["solo", ["solo-eichel", "solo-gras", "solo-herz", "solo-schellen"]],
  ["farbwenz", ["farbwenz-eichel", "farbwenz-gras", "farbwenz-herz", "farbwenz-schellen"]],
  ["tout", ["wenz-tout", "geier-tout", "solo-eichel-tout", "solo-gras-tout", "solo-herz-tout",
    "solo-schellen-tout", "farbwenz-eichel-tout", "farbwenz-gras-tout", "farbwenz-herz-tout",
    "farbwenz-schellen-tout"]],
  ["bettel", ["bettel"]],
  ["hochzeit", ["hochzeit"]],
  ["sie", ["sie"]],
];
const STOSS = new Set(["kontra", "re", "sup", "hirsch", "spritze", "retour"]);

const suitName = (s) => t(`sk.suit.${s}`);

// The name of a game word (bids, contracts, Stoß words, the other words of the flow).
export function gameWord(w) {
  if (!w) return "";
  // a card said as a word (the Hochzeit's card in the replay): its name, never its code
  if (/^[EGHS](A|10|K|O|U|9|8|7)$/.test(w)) return cardName(w);
  const parts = w.split("-");
  const [kind, suit] = parts;
  const tout = parts.includes("tout");
  if (kind === "sauspiel") {
    return t(parts.includes("zehn") ? "sk.game.sauspiel_zehn" : "sk.game.sauspiel",
      { suit: suitName(suit) });
  }
  if (kind === "solo") {
    return t(tout ? "sk.game.solo_tout" : "sk.game.solo", { suit: suitName(suit) });
  }
  if (kind === "farbwenz") {
    return t(tout ? "sk.game.farbwenz_tout" : "sk.game.farbwenz", { suit: suitName(suit) });
  }
  if ((kind === "wenz" || kind === "geier") && tout) return t(`sk.game.${kind}_tout`);
  const key = `sk.word.${w}`;
  const s = t(key);
  return s === key ? w[0].toUpperCase() + w.slice(1) : s;
}

// The view with the fields the shell reads (calls, doublings, cuts, last_trick).
export function adaptView(v) {
  if (!v) return v;
  const calls = [
    ...(v.lege ?? []).map((seat) => ({ seat, call: "lege" })),
    ...(v.bids ?? []).map((b) => ({ seat: b.seat, call: b.word })),
    ...(v.hochzeit ?? []).map((b) => ({ seat: b.seat, call: b.word })),
  ];
  const lt = v.tricks_played?.[v.tricks_played.length - 1];
  return { ...v, calls, doublings: v.stoss ?? [], cuts: [],
    last_trick: lt ? { cards: lt.cards, winner: lt.winner } : null };
}

// the phases in which a seat's last word shows as a bubble
export const BUBBLE_PHASES = ["legen", "bidding", "muss", "hochzeit", "stossen"];
// the phases in which one's own hand is clicked (the card play, the Hochzeit's card)
export const CARD_PHASES = ["play", "exchange"];

// The contract as the table sees it: game, declarer, called ace, partner once known.
export function contractText(v, seatName) {
  if (!v.contract) return "";
  if (v.contract === "ramsch") return t("sk.word.ramsch");
  let s = gameWord(v.contract);
  if (v.declarer !== null && v.declarer !== undefined) {
    s = t("sk.declarer", { game: s, name: seatName(v.declarer) });
  }
  if (v.partner !== null && v.partner !== undefined && v.partner !== v.declarer) {
    s += ` · ${t("sk.with_partner", { name: seatName(v.partner) })}`;
  }
  if (v.multiplier > 1) s += ` · ×${v.multiplier}`;
  return s;
}

// A seat's badges: its game (with the called ace), Legen, and the partner once public.
export function seatBadges(i, v, me) {
  const out = [];
  if (!v) return out;
  if (v.declarer === i && v.contract) {
    out.push(h("span", { class: "tag tag-game", text: gameWord(v.contract) }));
    if (v.called) {
      out.push(h("span", { class: "tag tag-called", "data-called": v.called,
        title: t("sk.called_title", { card: cardName(v.called) }),
        text: t("sk.called_short", { card: cardName(v.called) }) }));
    }
  }
  if (v.partner === i && v.partner !== v.declarer && v.contract) {
    out.push(h("span", { class: "tag tag-partner", text: i === me ? t("sk.you_partner")
      : t("table.partner") }));
  }
  if ((v.lege ?? []).includes(i)) out.push(h("span", { class: "tag", text: t("sk.word.lege") }));
  return out;
}

// The status line's extra in the card play and the felt's note before it.
export const phaseNote = (v) => textOr(`sk.phase.${v.phase}`, v.phase);

// The choices of one's turn outside the card play (the hand handles cards).
export function choices(v, ctx) {
  const { send, dialogOpen, setDialog } = ctx;
  const block = h("div", { class: "choice-block sk-choices", "data-phase": v.phase });
  const legal = v.legal ?? [];
  const { button, group } = choiceMakers(send, gameWord);
  if (v.phase === "legen") {
    block.append(h("p", { class: "prompt", text: t("sk.prompt.legen") }),
      group(t("sk.prompt.legen"), button("lege", " call-kontra"), button("gut", " call-pass")));
  } else if (v.phase === "bidding") {
    const games = legal.filter((w) => w !== "weiter");
    const open = dialogOpen && games.length > 0;
    block.append(h("p", { class: "prompt", text: t("sk.prompt.bid") }),
      group(t("sk.prompt.bid"), button("weiter", " call-pass"),
        h("button", { type: "button", class: "btn call sk-open-dialog", id: "sk-open-dialog",
          "aria-expanded": String(open), "aria-controls": "sk-dialog", disabled: !games.length,
          "data-action": "dialog", "data-legal": games.length ? "true" : null,
          text: t("sk.open_dialog"), on: { click: () => setDialog(!open) } })));
    if (open) block.append(gameDialog(v, ctx));
  } else if (v.phase === "muss") {
    block.append(h("p", { class: "prompt", text: t("sk.prompt.muss") }),
      group(t("sk.prompt.muss"), ...legal.map((w) => button(w))));
  } else if (v.phase === "hochzeit") {
    block.append(h("p", { class: "prompt", text: t("sk.prompt.hochzeit",
      { name: ctx.seatName(v.declarer) }) }),
    group(t("sk.prompt.hochzeit_short"), ...legal.map((w) => button(w,
      w === "gut" ? " call-pass" : ""))));
  } else if (v.phase === "exchange") {
    block.append(h("p", { class: "prompt", text: t("sk.prompt.exchange") }));
  } else if (v.phase === "stossen") {
    block.append(h("p", { class: "prompt", text: t("sk.prompt.stossen") }),
      group(t("sk.prompt.stossen"), ...legal.map((w) => button(w,
        w === "gut" ? " call-pass" : STOSS.has(w) ? " call-kontra" : ""))));
  }
  return block;
}

// The game dialog: every game of the table's rules in its group; only the legal ones
// can be chosen (the others are shown disabled).
function gameDialog(v, ctx) {
  const legal = new Set(v.legal ?? []);
  const allowed = new Set(ctx.rules?.games ?? []);
  const dialog = h("div", { class: "sk-dialog", id: "sk-dialog", role: "dialog",
    "aria-modal": "false", "aria-labelledby": "sk-dialog-h" },
  h("div", { class: "sk-dialog-head" }, h("h3", { id: "sk-dialog-h", text: t("sk.dialog_title") }),
    h("button", { type: "button", class: "btn btn-small btn-ghost sk-close",
      text: t("sk.dialog_close"), on: { click: () => ctx.setDialog(false) } })));
  for (const [name, words] of GROUPS) {
    const inRules = name === "tout" ? allowed.has("tout") : allowed.has(name);
    if (!inRules) continue;
    const shown = words.filter((w) => name !== "tout" || allowed.has(w.split("-")[0]));
    if (!shown.length) continue;
    const row = h("div", { class: "sk-group", "data-group": name },
      h("span", { class: "sk-group-name", text: t(`sk.group.${name}`) }));
    for (const w of shown) {
      const ok = legal.has(w);
      const suit = w.split("-")[1];
      row.append(h("button", { type: "button", class: `btn btn-small sk-game${ok ? "" : " off"}`,
        "data-action": w, "data-legal": ok ? "true" : null, disabled: !ok,
        title: gameWord(w), "aria-label": gameWord(w), on: { click: () => { ctx.setDialog(false); ctx.send(w); } } },
      SUIT_OF[suit] && name !== "sauspiel" ? h("span", { class: `sk-suit sk-suit-${SUIT_OF[suit]}`,
        "aria-hidden": "true" }) : null,
      h("span", { text: shortWord(w, name) })));
    }
    dialog.append(row);
  }
  return dialog;
}

// A game's name inside its group of the dialog (the group names the kind): the suit only.
function shortWord(w, group) {
  const [kind, suit] = w.split("-");
  if (group === "tout") return kind === "wenz" || kind === "geier" ? gameWord(kind)
    : t(kind === "solo" ? "sk.game.solo" : "sk.game.farbwenz", { suit: suitName(suit) });
  if (SUIT_OF[suit]) return suitName(suit);
  return gameWord(w);
}

// A game's grammatical gender in German (der Wenz, die Hochzeit, das Solo): the result's
// "deinen Wenz", "deine Hochzeit", "dein Solo".  "" is neuter (the plain key).
const MASCULINE = /^(wenz|geier|farbwenz|bettel)/;
const FEMININE = /^(hochzeit|sie)/;
const gender = (contract) => (MASCULINE.test(contract) ? ".m" : FEMININE.test(contract) ? ".f" : "");

// The result from the viewer's side: who won, Augen, Schneider/schwarz, Laufende, money.
export function describe(r, v, { me, seatName }) {
  const out = { verdict: "", sentence: "", cls: "" };
  if (!r.contract) {
    out.verdict = t("sk.result.redeal");
    out.sentence = t("sk.result.redeal_why");
    return out;
  }
  const pay = me === null ? null : r.payments[me];
  const money = pay === null ? "" : ` ${t("sk.result.money", { n: euros(pay, { sign: true }) })}`;
  if (r.contract === "ramsch") {
    if (r.loser === null || r.loser === undefined) {
      const w = r.payments.indexOf(Math.max(...r.payments));
      out.verdict = t("sk.result.durchmarsch", { name: seatName(w) });
    } else if (r.loser === me) {
      out.verdict = t("sk.result.ramsch_you_lose", { n: r.augen[me] });
      out.cls = "lost";
    } else {
      out.verdict = t("sk.result.ramsch_lose", { name: seatName(r.loser), n: r.augen[r.loser] });
      if (me !== null) out.cls = "won";
    }
    out.sentence = money.trim();
    return out;
  }
  const party = [r.declarer, ...(r.partner !== null && r.partner !== undefined
    && r.partner !== r.declarer ? [r.partner] : [])];
  const augen = party.reduce((a, s) => a + r.augen[s], 0);
  const declarersWon = r.winner === "declarers";
  const game = gameWord(r.contract);
  const mine = me !== null && party.includes(me);
  const other = party.find((s) => s !== me);
  if (me === null) {
    const who = party.map(seatName).join(t("sk.and"));
    const key = declarersWon ? "sk.result.they_won" : "sk.result.they_lost";
    out.verdict = t(party.length > 1 ? `${key}.pair` : key, { who, game });
  } else if (mine) {
    const g = gender(r.contract);
    out.verdict = party.length > 1
      ? t(`${declarersWon ? "sk.result.we_won" : "sk.result.we_lost"}${g}`,
        { game, name: seatName(other) })
      : t(`${declarersWon ? "sk.result.i_won" : "sk.result.i_lost"}${g}`, { game });
  } else {
    const who = party.map(seatName).join(t("sk.and"));
    out.verdict = t(declarersWon ? "sk.result.against_lost" : "sk.result.against_won",
      { who, game });
  }
  if (me !== null) out.cls = (mine === declarersWon) ? "won" : "lost";
  const bits = [t("sk.result.augen", { n: augen })];
  if (r.schwarz) bits.push(t("sk.result.schwarz"));
  else if (r.schneider) bits.push(t("sk.result.schneider"));
  if (r.laufende) {
    // Laufende from the viewer's side: whose side held the top trumps in a row
    const top = /^(wenz|farbwenz)/.test(r.contract) ? "EU" : "EO";
    const holder = v?.dealt?.findIndex((cards) => cards.includes(top)) ?? -1;
    const partyHeld = holder < 0 ? true : party.includes(holder);
    const mySide = me !== null && party.includes(me) === partyHeld;
    // the person and number of the side that held them: a solo player is "du" (or his
    // name), a side of two or three "wir" (or "die anderen")
    const alone = partyHeld && party.length === 1;
    let key = mySide ? (alone ? "sk.result.laufende_you" : "sk.result.laufende_we")
      : (alone ? "sk.result.laufende_one" : "sk.result.laufende_they");
    if (me === null) key = partyHeld ? "sk.result.laufende_mit" : "sk.result.laufende_ohne";
    bits.push(t(key, { n: r.laufende, name: seatName(party[0]) }));
  }
  if (r.multiplier > 1) bits.push(`×${r.multiplier}`);
  out.sentence = `${t("sk.result.declarers_had")} ${bits.join(", ")}.${money}`;
  return out;
}

// The Abrechnung: one column per player, a row per finished hand, the running balance.
export const sheetTitle = () => t("sk.abrechnung");
export function abrechnung(sheet, { seatName, me }) {
  const hands = sheet?.hands ?? [];
  const totals = sheet?.totals ?? [0, 0, 0, 0];
  const money = (n) => euros(n, { sign: true });
  const head = h("tr", {}, h("th", { scope: "col", text: "#" }),
    [0, 1, 2, 3].map((i) => h("th", { scope: "col", class: i === me ? "me" : "",
      ...nameProps(seatName(i)) })));
  const rows = hands.slice(-8).map((row) => h("tr", { "data-hand": row.number },
    h("th", { scope: "row", title: row.contract ? gameWord(row.contract) : t("sk.result.redeal"),
      text: String(row.number) }),
    row.payments.map((p, i) => h("td", { class: `${p > 0 ? "plus" : p < 0 ? "minus" : ""}${
      i === row.declarer ? " declarer" : ""}`, title: t("sk.balance_after",
      { n: money(row.balance[i]) }), text: p ? money(p) : "–" }))));
  const foot = h("tr", { class: "sk-balance" }, h("th", { scope: "row", text: "Σ" }),
    totals.map((n, i) => h("td", { class: `${n > 0 ? "plus" : n < 0 ? "minus" : ""}${
      i === me ? " me" : ""}`, "data-seat": i, text: money(n) })));
  return h("div", { class: "sk-abrechnung" },
    hands.length ? null : h("p", { class: "muted", text: t("sk.no_hands") }),
    h("table", { class: "sheet-table sk-sheet" }, h("thead", {}, head), h("tbody", {}, rows),
      h("tfoot", {}, foot)));
}

// The result table: Augen and tricks per player, the payment of the hand.
export function resultTable(r, v, { seatName, me }) {
  const cell = (i, text) => h("td", { class: i === me ? "me" : "", text });
  return h("table", { class: "result-table sk-result-table" },
    h("thead", {}, h("tr", {}, h("th", {}), [0, 1, 2, 3].map((i) => h("th", { scope: "col",
      class: i === me ? "me" : "", ...nameProps(seatName(i)) })))),
    h("tbody", {},
      h("tr", { "data-row": "augen" }, h("th", { scope: "row", text: t("result.augen") }),
        [0, 1, 2, 3].map((i) => cell(i, String(r.augen[i])))),
      h("tr", { "data-row": "tricks" }, h("th", { scope: "row", text: t("result.tricks") }),
        [0, 1, 2, 3].map((i) => cell(i, String(v.tricks_taken?.[i] ?? 0)))),
      h("tr", {}, h("th", { scope: "row", text: t("sk.payment") }),
        [0, 1, 2, 3].map((i) => cell(i, euros(r.payments[i], { sign: true }))))));
}

// The info panel's list: Legen, bids, Hochzeit answers, Stoß words, in order.
export function callLog(v, seatName) {
  const items = [...(v.calls ?? []), ...(v.stoss ?? []).map((s) => ({ seat: s.seat,
    call: s.word, stoss: true }))];
  return items.map((c) => h("li", { class: c.stoss ? "kontra" : "" },
    h("span", { class: "who", ...nameProps(seatName(c.seat)) }),
    h("span", { class: `what${c.call === "weiter" || c.call === "gut" ? " pass" : ""}`,
      text: gameWord(c.call) })));
}

const CARD = /^([EGHS])(A|10|K|O|U|9|8|7)$/;

// The steps of a finished Schafkopf game for the replay page (the record's ``actions``:
// [seat, word or card] in order; the trick winners from the result).  The same snapshot
// shape as Mucken's replay: hands, calls, doublings (Stoß words), trick, tricks per seat.
export function replaySteps(detail) {
  const rec = detail.record;
  const result = detail.result ?? {};
  const stoss = new Set(rec.rules?.stoss_words ?? ["kontra", "re"]);
  const hands = rec.hands.map((x) => [...x]);
  const calls = [];
  const doublings = [];
  let trick = [];
  const tricks = [0, 0, 0, 0];
  const steps = [];
  const snap = (extra) => steps.push({ hands: hands.map((x) => [...x]), calls: [...calls],
    doublings: [...doublings], trick: [...trick], winner: null, tricks: [...tricks], ...extra });
  snap({ kind: "deal", seat: rec.dealer });
  const winners = result.trick_winners ?? [];
  let index = 0;
  let playing = false;
  for (const [act, [seat, action]] of (rec.actions ?? []).entries()) {
    const exchange = !playing && CARD.test(action)
      && calls.some((c) => c.call === "annehmen") && !calls.some((c) => c.exchange);
    if (exchange) {
      // the Hochzeit's acceptor names the card he gives (shown as his word)
      calls.push({ seat, call: action, i: calls.length, exchange: true });
      snap({ kind: "call", seat, word: action, call: calls.length - 1, act });
    } else if (CARD.test(action)) {
      playing = true;
      if (trick.length === 4) trick = [];
      const hand = hands[seat];
      const at = hand.indexOf(action);
      if (at >= 0) hand.splice(at, 1);
      trick.push({ seat, card: action });
      let winner = null;
      if (trick.length === 4) {
        winner = winners[Math.floor(index / 4)] ?? null;
        if (winner !== null) tricks[winner] += 1;
      }
      snap({ kind: "play", seat, card: action, winner, index, act });
      index += 1;
    } else if (stoss.has(action)) {
      doublings.push({ seat, word: action, i: doublings.length });
      snap({ kind: "kontra", seat, word: action, doubling: doublings.length - 1, act });
    } else {
      calls.push({ seat, call: action, i: calls.length });
      snap({ kind: "call", seat, word: action, call: calls.length - 1, act });
    }
  }
  return steps;
}

// The replay's result lines: the sentence from the viewer's side (its Laufende from the
// dealt hands), the Augen and the payment of every player.
export function resultLines(r, { me, seatName, detail }) {
  const said = describe(r, { dealt: detail.record.hands }, { me, seatName });
  return [h("p", { class: `verdict${said.cls ? ` ${said.cls}` : ""}`, text: said.verdict }),
    h("p", { class: "result-why", text: said.sentence }),
    r.augen ? h("p", { class: "muted", text: `${t("result.augen")}: ${
      [0, 1, 2, 3].map((s) => `${seatName(s)} ${r.augen[s]}`).join(" · ")}` }) : null,
    r.payments ? h("p", { class: "muted", text: `${t("sk.payment")}: ${
      [0, 1, 2, 3].map((s) => `${seatName(s)} ${euros(r.payments[s], { sign: true })}`)
        .join(" · ")}` }) : null];
}

// whose values the replay's analysis gives: the declaring side (declarer and partner)
export const analysisSide = (r, seatName) => [r.declarer, r.partner]
  .filter((x, k, all) => x !== null && x !== undefined && all.indexOf(x) === k)
  .map(seatName).join(" & ");

// a row of "Meine Spiele": the game and what it booked for the player
export function historyOutcome(r, seat) {
  const pay = Array.isArray(r.payments) && seat !== null ? r.payments[seat] : null;
  let text = r.contract ? gameWord(r.contract) : t("sk.result.redeal");
  if (pay !== null) text += ` · ${pay ? euros(pay, { sign: true }) : `±${euros(0)}`}`;
  return { text, cls: pay !== null && pay > 0 ? "won" : "lost" };
}
