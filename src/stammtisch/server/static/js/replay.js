// /replay/{id}: steps through a finished game's record (GET /api/games/{id}):
// the deal, every call, Kontra, and every card, with the four hands face up.
// "Analyse zeigen" loads GET /api/games/{id}/analysis (double-dummy: per card the value
// before/after for the declarer pair, the Augen it cost its own pair, the better cards)
// and marks the costly cards in the trick, the step text and the list of plays.
// {id} is the game's opaque id; a game of a private table opens for its members, or for
// anyone with its share link (/replay/{id}?share=…): the token goes along to every call.
// "Link teilen" shows that link (detail.share_url) to copy.

import { cardElement } from "./cards.js";
import { cardName, RANK_NAMES, t } from "./i18n.js";
import { copyText } from "./lobby.js";
import { DEFAULT_GAME, gameModule } from "./table_games.js";
import { api, clear, h, icon, link, nameProps, toastError } from "./ui.js";

// a record is replayed by its game's table module (table_games.js): its steps
// (replaySteps), words (gameWord), result (resultLines or describe), stand-in marks

// where the seats sit around the felt, clockwise from the bottom, by the number of seats
// (2 to 6); the table page (table_page.js) and the replay share it
const LAYOUTS = {
  2: ["bottom", "top"],
  3: ["bottom", "left", "right"],
  4: ["bottom", "left", "top", "right"],
  5: ["bottom", "left", "top-left", "top-right", "right"],
  6: ["bottom", "left", "top-left", "top", "top-right", "right"],
};
export const seatLayout = (n) => LAYOUTS[n] ?? LAYOUTS[4];

// the number of seats of a record (Mulatschak: one score per seat; else four)
export const seatsOf = (rec) => (Array.isArray(rec?.scores) && rec.scores.length ? rec.scores.length
  : Array.isArray(rec?.hands) && rec.hands.length ? rec.hands.length : 4);

const CARD_CODE = /^([EGHS])(A|10|K|O|U|9|8|7)$/;

// The stand-in marks of a game detail (``index``: the action's place in the record) as the
// replay looks them up: by play, call and Kontra index of the steps (each step names its
// action's place as ``act``); a game whose marks say more places it itself (standInByStep).
function standInByAct(marks, steps) {
  const idx = { play: new Map(), call: new Map(), doubling: new Map() };
  const byAct = new Map((marks ?? []).filter((m) => Number.isInteger(m.index))
    .map((m) => [m.index, m]));
  for (const st of steps) {
    const m = byAct.get(st.act);
    if (!m) continue;
    if (st.kind === "play") idx.play.set(st.index, m);
    else if (st.kind === "call") idx.call.set(st.call, m);
    else if (st.kind === "kontra") idx.doubling.set(st.doubling, m);
  }
  return idx;
}

// Every step of the game as a snapshot.
export function buildSteps(detail, presets) {
  return gameModule(detail.record.game).replaySteps(detail, { presets });
}

export function mountReplay(root, { id, share = null }) {
  const base = `/api/games/${encodeURIComponent(id)}`;
  const query = share ? `?share=${encodeURIComponent(share)}` : "";
  let detail = null;
  let presets = {};
  let standIn = standInByAct([], []);
  let steps = [];
  let i = 0;
  let analysis = null; // null: not asked; "loading"; {plays, byIndex}
  let showAnalysis = false;
  let destroyed = false;
  const box = h("div", { class: "replay" });
  root.append(box);

  Promise.all([api("GET", base + query), api("GET", "/api/presets")])
    .then(([d, p]) => {
      detail = d;
      presets = p.presets ?? {};
      steps = buildSteps(d, presets);
      standIn = (gameModule(d.record?.game).standInByStep ?? standInByAct)(d.stand_in, steps);
      i = 0;
      render();
    }).catch((e) => {
      toastError(e);
      detail = false;
      render();
    });

  const name = (s) => detail?.players?.[s]?.name ?? `#${s + 1}`;
  const gameUi = () => gameModule(detail?.record?.game);
  const say = (w) => gameUi().gameWord(w);
  const nSeats = () => seatsOf(detail?.record);
  const cardOpts = (extra = {}) => ({ ...(gameUi().CARD_OPTIONS ?? {}), ...extra });

  // -- the analysis -------------------------------------------------------------------------
  function toggleAnalysis() {
    showAnalysis = !showAnalysis;
    if (showAnalysis && analysis === null) loadAnalysis();
    render();
    box.querySelector(".analysis-toggle")?.focus({ preventScroll: true });
  }

  function loadAnalysis() {
    analysis = "loading";
    api("GET", `${base}/analysis${query}`).then((data) => {
      const plays = data?.plays ?? [];
      analysis = { plays, byIndex: new Map(plays.map((p) => [p.index, p])) };
    }).catch((e) => {
      toastError(e);
      analysis = null;
      showAnalysis = false;
    }).finally(() => {
      if (destroyed) return;
      const focused = document.activeElement?.classList?.contains("analysis-toggle");
      render();
      if (focused) box.querySelector(".analysis-toggle")?.focus({ preventScroll: true });
    });
  }

  // the judgement of a step's card, when the analysis is shown and loaded
  const judged = (st) => (showAnalysis && analysis && analysis !== "loading"
    && st?.kind === "play" ? analysis.byIndex.get(st.index) ?? null : null);
  // whose values the analysis gives: the game's side (Schafkopf: declarer and partner), or
  // the declarer's seat and the one across
  const analysisSide = () => {
    const r = detail?.result ?? {};
    if (gameUi().analysisSide) return gameUi().analysisSide(r, name);
    const rp = r.declarer === null || r.declarer === undefined ? 0 : r.declarer % 2;
    return `${name(rp)} & ${name(rp + 2)}`;
  };
  // cards by their names as at the table, never codes (issue 19): the list of better cards
  // in full ("Gras Ober, Eichel Ass"), a chip by its rank word in its suit's colour ("Ober"
  // on a green chip; the chip's label and title name the whole card)
  const isCard = (c) => CARD_CODE.test(c) || c === "S6";
  const shortCard = (c) => (!isCard(c) ? "?" : c === "S6" ? cardName(c)
    : RANK_NAMES[c.slice(1)] ?? cardName(c));
  const cardList = (cards) => cards.map((c) => (isCard(c) ? cardName(c) : "?")).join(", ");

  // Element.append would write null as "null"
  const append = (node, ...children) => node.append(...children.filter((c) => c != null));

  function lossMark(p, long = false) {
    return h("span", { class: `loss-mark${p.cost_game ? " cost-game" : ""}`,
      "data-loss": p.loss, title: p.cost_game ? t("replay.loss_game") : null },
    long ? t("replay.loss", { n: p.loss }) : `−${p.loss}`);
  }

  function analysisPanel(st) {
    const panel = h("section", { class: "panel analysis-panel", "aria-labelledby": "analysis-h" },
      h("div", { class: "panel-head" }, h("h2", { id: "analysis-h", text: t("replay.analysis") }),
        h("button", { type: "button", class: "btn btn-small analysis-toggle",
          "aria-pressed": String(showAnalysis), "aria-controls": "analysis-body",
          text: showAnalysis ? t("replay.analysis_hide") : t("replay.analysis_show"),
          on: { click: toggleAnalysis } })));
    if (!showAnalysis) return panel;
    const body = h("div", { id: "analysis-body", class: "analysis-body", "aria-live": "polite" });
    panel.append(body);
    if (analysis === "loading" || analysis === null) {
      body.append(h("p", { class: "analysis-loading", role: "status" },
        h("span", { class: "spinner", "aria-hidden": "true" }),
        h("span", { text: t("replay.analysis_loading") })));
      return panel;
    }
    if (!analysis.plays.length) {
      body.append(h("p", { class: "muted", text: t("replay.analysis_none") }));
      return panel;
    }
    const costly = analysis.plays.filter((p) => p.loss > 0);
    body.append(h("p", { class: "muted small", text: t("replay.analysis_intro") }),
      h("p", { class: "analysis-summary", text: costly.length
        ? t("replay.costly", { n: costly.length, g: costly.filter((p) => p.cost_game).length })
        : t("replay.costly_none") }));

    // this step's card
    const p = judged(st);
    const now = h("div", { class: "analysis-step", "data-index": p ? p.index : null });
    if (p) {
      append(now,
        h("p", { class: "analysis-card" },
          h("strong", { text: t("replay.play_label", { name: name(p.seat),
            card: cardName(p.card) }) }), " ",
          p.loss > 0 ? lossMark(p, true)
            : h("span", { class: "good-mark", text: "✓" })),
        p.loss > 0 && p.best?.length
          ? h("p", { class: "better", text: t("replay.better", { cards: cardList(p.best) }),
            title: p.best.map(cardName).join(", ") }) : null,
        p.cost_game ? h("p", { class: "cost-game-text", text: t("replay.loss_game") }) : null,
        h("dl", { class: "values" },
          h("dt", { text: t("replay.analysis_pair", { pair: analysisSide() }) }),
          h("dd", {},
            h("span", { class: "value-before", text: `${t("replay.analysis_before")} ${p.value_before}` }),
            h("span", { "aria-hidden": "true", text: " → " }),
            h("span", { class: "value-after", text: `${t("replay.analysis_after")} ${p.value_after}` }))));
    } else {
      now.append(h("p", { class: "muted", text: t("replay.analysis_step") }));
    }
    body.append(now);

    // every card of the game by trick; a click jumps to its step
    const stepOf = new Map();
    steps.forEach((x, k) => { if (x.kind === "play") stepOf.set(x.index, k); });
    const tricks = [];
    for (const q of analysis.plays) (tricks[q.trick] ??= []).push(q); // trick: 1-based
    const list = h("ol", { class: "play-list", "aria-label": t("replay.plays") });
    tricks.forEach((plays, k) => {
      if (!plays) return;
      list.append(h("li", { class: "play-trick" },
        h("span", { class: "trick-no", title: t("replay.trick_n", { n: k }), text: `${k}.` }),
        h("span", { class: "trick-plays" }, plays.map((q) => {
          const target = stepOf.get(q.index);
          const label = [t("replay.play_label", { name: name(q.seat), card: cardName(q.card) }),
            q.loss > 0 ? t("replay.loss", { n: q.loss }) : "",
            q.cost_game ? t("replay.loss_game") : "",
            q.loss > 0 && q.best?.length ? t("replay.better", { cards: cardList(q.best) }) : ""]
            .filter(Boolean).join(" · ");
          return h("button", { type: "button", class: `play-chip suit-${q.card[0]}${
            q.loss > 0 ? " costly" : ""}${q.cost_game ? " cost-game" : ""}`,
          "data-index": q.index, "data-loss": q.loss, "aria-label": label, title: label,
          "aria-current": st.kind === "play" && st.index === q.index ? "step" : null,
          disabled: target === undefined, on: { click: () => {
            go(target);
            box.querySelector(`.play-chip[data-index="${q.index}"]`)?.focus({ preventScroll: true });
          } } },
          h("span", { class: "chip-card", text: shortCard(q.card) }),
          q.loss > 0 ? h("span", { class: "chip-loss", text: `−${q.loss}` }) : null);
        }))));
    });
    body.append(list);
    if (costly.length) {
      body.append(h("p", { class: "analysis-legend" },
        h("span", { class: "legend-item" }, h("span", { class: "swatch", "aria-hidden": "true" }),
          t("replay.legend_loss")),
        h("span", { class: "legend-item" }, h("span", { class: "swatch cost-game",
          "aria-hidden": "true" }), t("replay.legend_game"))));
    }
    return panel;
  }

  // the link that opens this game for others (with the share token for a private table)
  function sharePanel() {
    if (!detail.share_url) return null;
    const input = h("input", { id: "share-url", class: "invite-input share-url", readonly: true,
      value: location.origin + detail.share_url, "aria-label": t("replay.share") });
    return h("section", { class: "panel share-panel", "aria-labelledby": "share-h" },
      h("h2", { id: "share-h", text: t("replay.share") }),
      h("p", { class: "muted small", text: t(detail.public ? "replay.share_public"
        : "replay.share_private") }),
      h("div", { class: "invite-row" }, input,
        h("button", { type: "button", class: "btn btn-small share-copy", text: t("create.copy"),
          on: { click: () => copyText(input) } })));
  }

  // the mark of a step a bot took for a person (or null)
  const botStep = (st) => (st.kind === "play" ? standIn.play.get(st.index)
    : st.kind === "call" ? standIn.call.get(st.call)
      : st.kind === "kontra" ? standIn.doubling.get(st.doubling) : null) ?? null;
  const botTag = (seat) => h("span", { class: "tag tag-bot stand-in-mark",
    title: t("replay.stand_in", { name: name(seat) }), text: t("bots.generic") });

  function stepText(st) {
    if (st.kind === "deal") return t("replay.dealt", { name: name(st.seat) });
    const bot = botStep(st) ? ` (${t("replay.stand_in", { name: name(st.seat) })})` : "";
    if (st.kind === "call" || st.kind === "kontra") {
      return t("replay.call", { name: name(st.seat), word: say(st.word) }) + bot;
    }
    let s = t("replay.play", { name: name(st.seat), card: cardName(st.card) }) + bot;
    if (st.winner !== null && st.winner !== undefined) {
      s += ` – ${t("replay.trick_won", { name: name(st.winner) })}`;
    }
    return s;
  }

  // the result in words from the viewer's side (the same sentence as at the table): the
  // game's own lines, or its sentence
  function resultLines(r) {
    const ctx = { me: detail.you ?? null, seatName: name, detail, presets };
    const ui = gameUi();
    if (ui.resultLines) return ui.resultLines(r, ctx);
    const said = ui.describe(r, {}, ctx);
    return [h("p", { class: `verdict${said.cls ? ` ${said.cls}` : ""}`, text: said.verdict }),
      h("p", { class: "result-why", text: said.sentence })];
  }

  function stepLine(st) {
    const line = h("p", { class: "step-text", role: "status" }, h("span", { text: stepText(st) }));
    const p = judged(st);
    if (p && p.loss > 0) {
      line.append(" ", lossMark(p, true));
      if (p.best?.length) {
        line.append(" ", h("span", { class: "better", text: t("replay.better",
          { cards: cardList(p.best) }) }));
      }
    }
    return line;
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
      h("a", { class: "btn btn-small", href: `${base}/record${query}`,
        download: `${detail.record?.game ?? DEFAULT_GAME}-${detail.table_id}-${detail.number}.json`, text: t("replay.download") })));

    const felt = h("section", { class: "felt replay-felt", "aria-label": t("table.felt"),
      "data-seats": String(nSeats()) });
    const POS = seatLayout(nSeats());
    for (let s = 0; s < nSeats(); s++) {
      const seat = h("div", { class: `seat seat-${POS[s]} open-hand${st.seat === s ? " turn" : ""}`,
        "data-seat": s },
      h("div", { class: "seat-name" }, h("span", { class: "name", ...nameProps(name(s)) }),
        detail.record.dealer === s ? h("span", { class: "tag tag-dealer", text: t("table.dealer") })
          : null,
        r.declarer === s && r.contract ? h("span", { class: "tag tag-game", text: say(r.contract) })
          : null),
      h("div", { class: "open-cards", role: "group", "aria-label": name(s) },
        (st.hands[s] ?? []).map((c) => cardElement(c, cardOpts()))));
      felt.append(seat);
    }
    const trickStart = st.kind === "play" ? st.index - st.trick.length + 1 : 0;
    const trick = h("div", { class: "trick", role: "group", "aria-label": t("table.trick_area") },
      st.trick.map((c, k) => {
        const p = judged({ kind: "play", index: trickStart + k });
        const costly = p && p.card === c.card && p.loss > 0 ? p : null;
        const bot = standIn.play.has(trickStart + k);
        let label = `${name(c.seat)}: ${cardName(c.card)}`;
        if (costly) label += ` – ${t("replay.loss", { n: costly.loss })}`;
        if (bot) label += ` – ${t("replay.stand_in", { name: name(c.seat) })}`;
        return h("div", { class: `trick-slot slot-${POS[c.seat]}${st.winner === c.seat ? " winner" : ""}${
          costly ? " costly" : ""}${bot ? " stand-in" : ""}`, "data-play": trickStart + k },
        cardElement(c.card, cardOpts({ label })), costly ? lossMark(costly) : null,
        bot ? botTag(c.seat) : null);
      }));
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
          h("span", { class: "who", ...nameProps(name(c.seat)) }),
          h("span", { class: `what${c.call === "weiter" ? " pass" : ""}`, text: say(c.call) }),
          standIn.call.has(c.i) ? botTag(c.seat) : null)),
        st.doublings.map((d) => h("li", { class: "kontra" }, h("span", { class: "who",
          text: name(d.seat) }), h("span", { class: "what", text: say(d.word) }),
        standIn.doubling.has(d.i) ? botTag(d.seat) : null)))
          : h("p", { class: "muted", text: t("table.no_calls") }),
        h("p", { class: "tricks-taken", text: `${t("table.trick")}: ${st.tricks.join(" : ")}` })),
      h("section", { class: "panel" }, h("h2", { text: t("replay.result") }),
        resultLines(r)),
      sharePanel(),
      analysisPanel(st));

    box.append(h("div", { class: "replay-grid" },
      h("div", { class: "replay-main" }, felt,
        stepLine(st), controls,
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
      destroyed = true;
      document.removeEventListener("keydown", onKey);
    },
    rerender: render,
  };
}
