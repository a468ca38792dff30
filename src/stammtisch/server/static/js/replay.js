// /replay/{id}: steps through a finished game's record (GET /api/games/{id}):
// the deal, every call, Kontra, and every card, with the four hands face up.

import { cardElement } from "./cards.js";
import { cardName, reason, t, word } from "./i18n.js";
import { api, clear, h, icon, link, toastError } from "./ui.js";

const DOUBLING = ["kontra", "re", "sup", "hirsch"];
const SUITS = ["E", "G", "H", "S"];
const PLAIN = ["A", "10", "K", "O", "U", "9", "8", "7"];

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

function rulesOf(record, presets) {
  const r = record.rules;
  if (typeof r === "string") return presets[r] ?? presets.seefest ?? {};
  const base = presets[r?.preset ?? "seefest"] ?? {};
  return { ...base, ...r };
}

// Every step of the game as a snapshot.
export function buildSteps(detail, presets) {
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
    calls.push({ seat, call: w });
    snap({ kind: "call", seat, word: w });
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
      doublings.push({ seat: rec[w], word: w });
      snap({ kind: "kontra", seat: rec[w], word: w });
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

export function mountReplay(root, { id }) {
  let detail = null;
  let steps = [];
  let i = 0;
  const box = h("div", { class: "replay" });
  root.append(box);

  Promise.all([api("GET", `/api/games/${encodeURIComponent(id)}`), api("GET", "/api/presets")])
    .then(([d, p]) => {
      detail = d;
      steps = buildSteps(d, p.presets ?? {});
      i = 0;
      render();
    }).catch((e) => {
      toastError(e);
      detail = false;
      render();
    });

  const name = (s) => detail?.players?.[s]?.name ?? `#${s + 1}`;

  function stepText(st) {
    if (st.kind === "deal") return t("replay.dealt", { name: name(st.seat) });
    if (st.kind === "call" || st.kind === "kontra") {
      return t("replay.call", { name: name(st.seat), word: word(st.word) });
    }
    let s = t("replay.play", { name: name(st.seat), card: cardName(st.card) });
    if (st.winner !== null && st.winner !== undefined) {
      s += ` – ${t("replay.trick_won", { name: name(st.winner) })}`;
    }
    return s;
  }

  function go(n) {
    i = Math.max(0, Math.min(steps.length - 1, n));
    render();
    box.querySelector(".replay-controls [data-focus]")?.focus({ preventScroll: true });
  }

  function render() {
    const focused = document.activeElement?.dataset?.nav;
    clear(box);
    if (detail === null) {
      box.append(h("p", { class: "muted", text: "…" }));
      return;
    }
    if (detail === false) {
      box.append(h("section", { class: "panel" }, h("p", { text: t("error.no_game") }),
        link("/history", t("nav.history"), { class: "btn" })));
      return;
    }
    const st = steps[i];
    const r = detail.result ?? {};
    box.append(h("header", { class: "replay-head" },
      link("/history", `← ${t("nav.history")}`, { class: "back" }),
      h("h1", { text: t("replay.title", { n: detail.number }) }),
      h("a", { class: "btn btn-small", href: `/api/games/${encodeURIComponent(id)}/record`,
        download: `mucken-${detail.table_id}-${detail.number}.json`, text: t("replay.download") })));

    const felt = h("section", { class: "felt replay-felt", "aria-label": t("table.felt") });
    const POS = ["bottom", "left", "top", "right"];
    for (let s = 0; s < 4; s++) {
      const seat = h("div", { class: `seat seat-${POS[s]} open-hand${st.seat === s ? " turn" : ""}`,
        "data-seat": s },
      h("div", { class: "seat-name" }, h("span", { class: "name", text: name(s) }),
        detail.record.dealer === s ? h("span", { class: "tag tag-dealer", text: t("table.dealer") })
          : null,
        r.declarer === s && r.contract ? h("span", { class: "tag tag-game", text: word(r.contract) })
          : null),
      h("div", { class: "open-cards", role: "group", "aria-label": name(s) },
        st.hands[s].map((c) => cardElement(c))));
      felt.append(seat);
    }
    const trick = h("div", { class: "trick", role: "group", "aria-label": t("table.trick_area") },
      st.trick.map((c) => h("div", { class: `trick-slot slot-${POS[c.seat]}${st.winner === c.seat ? " winner" : ""}` },
        cardElement(c.card, { label: `${name(c.seat)}: ${cardName(c.card)}` }))));
    felt.append(trick);

    const nav = (key, ico, label, target, disabled, after = false) => h("button", {
      type: "button", class: "btn", "data-nav": key, disabled, on: { click: () => go(target) } },
    after ? null : icon(ico), h("span", { text: label }), after ? icon(ico) : null);
    const controls = h("div", { class: "replay-controls", role: "group" },
      nav("start", "first", t("replay.start"), 0, i === 0),
      nav("prev", "prev", t("replay.prev"), i - 1, i === 0),
      h("span", { class: "step-count", "aria-live": "polite",
        text: t("replay.step", { i: i + 1, n: steps.length }) }),
      nav("next", "next", t("replay.next"), i + 1, i >= steps.length - 1, true),
      nav("end", "last", t("replay.end"), steps.length - 1, i >= steps.length - 1, true));
    const keep = controls.querySelector(`[data-nav="${focused}"]:not([disabled])`)
      || controls.querySelector("[data-nav=next]:not([disabled])")
      || controls.querySelector("[data-nav=prev]:not([disabled])");
    if (keep) keep.dataset.focus = "";

    const side = h("aside", { class: "side" },
      h("section", { class: "panel" }, h("h2", { text: t("table.calls") }),
        st.calls.length ? h("ol", { class: "call-log" }, st.calls.map((c) => h("li", {},
          h("span", { class: "who", text: name(c.seat) }),
          h("span", { class: `what${c.call === "weiter" ? " pass" : ""}`, text: word(c.call) }))),
        st.doublings.map((d) => h("li", { class: "kontra" }, h("span", { class: "who",
          text: name(d.seat) }), h("span", { class: "what", text: word(d.word) }))))
          : h("p", { class: "muted", text: t("table.no_calls") }),
        h("p", { class: "tricks-taken", text: `${t("table.trick")}: ${st.tricks[0]} : ${st.tricks[1]}` })),
      h("section", { class: "panel" }, h("h2", { text: t("replay.result") }),
        h("p", { text: [r.declarer !== null && r.declarer !== undefined && r.contract
          ? t("table.declarer", { game: word(r.contract), name: name(r.declarer) })
          : word(r.contract), r.doublings ? word(DOUBLING[r.doublings - 1]) : "",
        r.winner !== null && r.winner !== undefined
          ? t("result.winner", { pair: `${name(r.winner)} & ${name(r.winner + 2)}` }) : t("result.not_scored"),
        r.score ? `${r.score} ${t("result.points")}` : "", reason(r.reason)].filter(Boolean).join(" · ") }),
        r.augen ? h("p", { class: "muted", text: `${t("result.augen")}: ${r.augen[0]} : ${r.augen[1]}` }) : null));

    box.append(h("div", { class: "replay-grid" },
      h("div", { class: "replay-main" }, felt,
        h("p", { class: "step-text", role: "status", text: stepText(st) }), controls,
        h("small", { class: "keys-hint", text: t("replay.keys") })),
      side));
  }

  function onKey(ev) {
    const tag = ev.target?.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || !steps.length) return;
    if (ev.key === "ArrowRight") go(i + 1);
    else if (ev.key === "ArrowLeft") go(i - 1);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(steps.length - 1);
    else return;
    ev.preventDefault();
  }
  document.addEventListener("keydown", onKey);
  render();
  return {
    destroy() {
      document.removeEventListener("keydown", onKey);
    },
    rerender: render,
  };
}
