// Shared pieces of the tournament pages (desk, table phone, projector): API paths, the
// round clock, the ranking table, and the Bobbl editors (game by game on a little paper
// grid, or the final figures).

import { addStrings, t } from "./i18n.js";
import { STRINGS } from "./tournament_i18n.js";
import { ApiError, api, apiErrorText, euros, h, locale, toast } from "./ui.js";

addStrings(STRINGS);

export function base(tid) {
  return `/api/tournaments/${encodeURIComponent(tid)}`;
}

export function money(cents) {
  return euros(cents);
}

export function namesOf(entrant) {
  return entrant ? entrant.names.join(" & ") : "?";
}

// A command: on success the caller reloads; a 409 conflict is shown and reloads too (never
// overwrite silently); every other error message from the API is shown as a toast.
export async function command(method, path, body, reload) {
  try {
    const out = await api(method, path, body);
    await reload?.();
    return out;
  } catch (e) {
    if (e instanceof ApiError && e.code === "conflict") {
      toast(conflictText(e));
      await reload?.();
    } else if (e instanceof ApiError) {
      toast(apiErrorText(e));
    } else {
      toast(t("error.network"));
    }
    return null;
  }
}

// A 409 conflict in the reader's language, from the entity and versions the API names.
export function conflictText(e) {
  const c = e?.detail?.conflict;
  if (c && c.kind === "bobbl" && typeof c.key === "string") {
    const [r, tb, i] = c.key.split("/");
    return t("tn.conflict.bobbl", { r, t: tb, i: Number(i) + 1, v: c.version,
      mine: c.expected });
  }
  if (c && (c.kind === "entrant" || c.kind === "player")) {
    return t(c.kind === "player" ? "tn.conflict.entrant_single" : "tn.conflict.entrant",
      { n: c.key, v: c.version, mine: c.expected });
  }
  return t("tn.conflict.other");
}

// What a draft would enter, as an entry ({winner, points}) for resultText, or null.
export function draftEntry(draft, target) {
  if (draft.mode === "games") {
    if (!draft.games.length) return null;
    const { totals, winner } = tallyGames(draft.games, target);
    return { winner, points: totals };
  }
  const lp = draft.loser_points;
  if ((draft.winner !== 1 && draft.winner !== 2) || !Number.isInteger(lp)) return null;
  return { winner: draft.winner, points: draft.winner === 1 ? [target, lp] : [lp, target] };
}

// -- the round clock ---------------------------------------------------------------------------
// clock: {started_at, ends_at, remaining, closed} as the server sent it; the remaining time
// is counted down from the moment it arrived (the local clock may differ from the server's).
export class RoundClock {
  constructor() {
    this.set(null);
  }

  set(clock) {
    this.clock = clock;
    this.at = performance.now();
  }

  // {state: "none"|"idle"|"running"|"over"|"closed"|"unlimited", ms}
  status() {
    const c = this.clock;
    if (!c) return { state: "none", ms: 0 };
    if (c.closed) return { state: "closed", ms: 0 };
    if (c.started_at === null || c.started_at === undefined) return { state: "idle", ms: 0 };
    if (c.remaining === null || c.remaining === undefined) return { state: "unlimited", ms: 0 };
    const ms = c.remaining * 1000 - (performance.now() - this.at);
    return ms > 0 ? { state: "running", ms } : { state: "over", ms: 0 };
  }

  text() {
    const { state, ms } = this.status();
    if (state === "running") return fmtClock(ms);
    if (state === "over") return "0:00";
    if (state === "unlimited") return "∞";
    return "–:––";
  }

  label() {
    return t(`tn.clock.${this.status().state}`);
  }
}

export function fmtClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// Every [data-clock] element inside root shows clock.text(); call on a 1 s timer.
export function tickClocks(root, clock) {
  const { state, ms } = clock.status();
  for (const el of root.querySelectorAll("[data-clock]")) {
    el.textContent = clock.text();
    el.dataset.state = state;
    el.classList.toggle("urgent", state === "over" || (state === "running" && ms < 5 * 60000));
  }
  for (const el of root.querySelectorAll("[data-clock-label]")) el.textContent = clock.label();
}

// A tournament page once built: ticks the round clocks in wrap each second, draws the page,
// loads its data and hands the router its handle.  destroy() runs the page's own stop
// (which marks it stopped), then clears the clock's timer and the page's poll.
export function startPage(wrap, clock, render, load, poll, stop) {
  const tick = setInterval(() => tickClocks(wrap, clock), 1000);
  render();
  load();
  return {
    rerender: render,
    destroy() {
      stop();
      clearInterval(tick);
      clearInterval(poll);
    },
  };
}

// -- the ranking ------------------------------------------------------------------------------
export function rankingTable(data, { big = false, caption = true } = {}) {
  const method = data?.method || "bobbl";
  const cols = [
    ["rank", t("tn.rank.place")], ["names", t("tn.rank.pair")], ["bobbl", t("tn.rank.bobbl")],
    ["tore", t("tn.rank.tore")], ["gegnerische_tore", t("tn.rank.gegn")],
  ];
  if (method === "plus") cols.push(["plus", t("tn.rank.plus")]);
  if (method === "plus-minus") cols.push(["plus_minus", t("tn.rank.plus_minus")]);
  if (!big) cols.push(["played", t("tn.rank.played")]);
  const table = h("table", { class: `rank-table${big ? " big" : ""}` },
    caption ? h("caption", { class: "sr-only", text: t("tn.ranking") }) : null,
    h("thead", {}, h("tr", {}, cols.map(([k, label]) => h("th", { scope: "col",
      class: `c-${k}`, text: label })))));
  const body = h("tbody");
  let last = null;
  for (const r of data?.rows || []) {
    const tr = h("tr", { "data-pair": r.pair, class: r.rank <= 3 ? `top top${r.rank}` : "" });
    for (const [k] of cols) {
      if (k === "rank") {
        tr.append(h("td", { class: "c-rank" }, r.rank === last ? "" : `${r.rank}.`,
          r.los ? h("span", { class: "los", title: t("tn.rank.los_hint"),
            text: t("tn.rank.los") }) : null));
        last = r.rank;
      } else if (k === "names") {
        tr.append(h("td", { class: "c-names" }, h("span", { class: "pair-no",
          text: t("tn.no", { n: r.pair }) }), " ", r.names.join(" & ")));
      } else {
        tr.append(h("td", { class: `c-${k} num`, text: r[k] ?? "" }));
      }
    }
    body.append(tr);
  }
  table.append(body);
  if (!data?.rows?.length) {
    return h("p", { class: "empty", text: t("tn.rank.empty") });
  }
  return h("div", { class: "table-scroll" }, table);
}

// -- Bobbl results -----------------------------------------------------------------------------
// The model's rule: the game that reaches the target ends the Bobbl and is not written.
export function tallyGames(games, target) {
  const totals = [0, 0];
  let winner = null;
  let endIndex = null;
  games.forEach(([side, pts], i) => {
    if (winner !== null) return;
    if (totals[side - 1] + pts >= target) {
      winner = side;
      endIndex = i;
    } else {
      totals[side - 1] += pts;
    }
  });
  return { totals, winner, endIndex };
}

// An entry or result as one line: "Paar 1 gewinnt · 13 Tore für Paar 2".
export function resultText(entry, target) {
  if (!entry) return "";
  const [p1, p2] = entry.points;
  if (entry.winner === 1 || entry.winner === 2) {
    const loser = 3 - entry.winner;
    const tore = entry.points[loser - 1];
    const text = t("tn.result.won", { w: t("tn.pair_n", { n: entry.winner }),
      l: t("tn.pair_n", { n: loser }), tore });
    return tore === 0 ? `${text} (${t("tn.brille")})` : text;
  }
  if (entry.source === "time_up") return t("tn.result.time_up", { a: p1, b: p2 });
  return t("tn.result.partial", { a: p1, b: p2, target });
}

const CHIPS = [1, 2, 3, 4, 5, 6, 8, 10];

// The paper grid for one Bobbl, game by game.  draft.games is changed in place; onChange()
// after every change.  sides: [{label, names}, {label, names}].  idPrefix makes the inputs'
// ids (so a re-render can give the focus back).
export function gameGrid({ draft, target, sides, onChange, chips = false, idPrefix = "g" }) {
  const box = h("div", { class: `paper tgrid${chips ? " with-chips" : ""}` });

  function add(side, value) {
    const pts = Number(value);
    if (!Number.isInteger(pts) || pts < 1 || pts > 99) {
      toast(t("tn.grid.bad_points"));
      return false;
    }
    draft.games.push([side, pts]);
    onChange?.();
    render();
    return true;
  }

  function render() {
    const focused = document.activeElement?.id;
    box.replaceChildren();
    const { totals, winner, endIndex } = tallyGames(draft.games, target);
    box.append(h("div", { class: "trow thead" },
      h("span", { class: "c-n", text: t("tn.grid.game") }),
      sides.map((s, i) => h("span", { class: `c-side c-side${i + 1}` },
        h("strong", { text: s.label }), s.names ? h("small", { text: s.names }) : null))));
    const run = [0, 0];
    draft.games.forEach(([side, pts], i) => {
      const row = h("div", { class: `trow game${i === endIndex ? " last" : ""}`,
        "data-game": i + 1, "data-side": side, "data-points": pts });
      row.append(h("span", { class: "c-n", text: i + 1 }));
      for (const s of [1, 2]) {
        const cell = h("span", { class: `c-side c-side${s}` });
        if (s === side) {
          if (i === endIndex) {
            cell.append(h("s", { class: "plus", text: `+${pts}` }),
              h("small", { class: "unwritten", text: t("tn.grid.not_written") }));
          } else {
            run[s - 1] += pts;
            cell.append(h("span", { class: "total", text: run[s - 1] }),
              h("small", { class: "plus", text: `+${pts}` }));
          }
        }
        row.append(cell);
      }
      box.append(row);
    });
    if (winner !== null) {
      const loser = 3 - winner;
      box.append(h("div", { class: "trow end" }, h("span", { class: "c-n" }),
        [1, 2].map((s) => h("span", { class: `c-side c-side${s}` },
          s === winner ? h("strong", { class: "won", text: t("tn.grid.wins") })
            : h("span", { class: "bobbl-dot-wrap" }, h("span", { class: "dot",
              "aria-hidden": "true" }), h("small", { text: t("tn.grid.gets", {
              n: totals[loser - 1] }) }))))));
    } else {
      const row = h("div", { class: "trow entry-row" }, h("span", { class: "c-n",
        text: draft.games.length + 1 }));
      for (const s of [1, 2]) {
        const id = `${idPrefix}-in${s}`;
        const input = h("input", { id, type: "number", inputmode: "numeric", min: 1, max: 99,
          class: "pts-input", placeholder: t("tn.grid.points"),
          "aria-label": t("tn.grid.points_for", { pair: sides[s - 1].label }),
          on: { keydown: (ev) => {
            if (ev.key === "Enter") {
              ev.preventDefault();
              if (input.value && add(s, input.value)) box.querySelector(`#${id}`)?.focus();
            }
          } } });
        const plus = h("button", { type: "button", class: "btn btn-small add-game",
          "aria-label": t("tn.grid.add_for", { pair: sides[s - 1].label }), text: "+",
          on: { click: () => {
            if (input.value) add(s, input.value);
            else input.focus();
          } } });
        const cell = h("span", { class: `c-side c-side${s}` }, h("span", { class: "in-wrap" },
          input, plus));
        if (chips) {
          cell.append(h("span", { class: "chips" }, CHIPS.map((v) => h("button", {
            type: "button", class: "chip", "data-side": s, "data-points": v, text: `+${v}`,
            "aria-label": t("tn.grid.chip", { n: v, pair: sides[s - 1].label }),
            on: { click: () => add(s, v) } }))));
        }
        row.append(cell);
      }
      box.append(row);
    }
    const status = winner !== null
      ? t("tn.grid.ended", { w: sides[winner - 1].label, l: sides[2 - winner].label,
        n: totals[2 - winner] })
      : t("tn.grid.running", { a: totals[0], b: totals[1], target });
    box.append(h("div", { class: "tfoot" },
      h("span", { class: `grid-status${winner !== null ? " done" : ""}`, "aria-live": "polite",
        text: status }),
      draft.games.length ? h("button", { type: "button", class: "btn btn-small btn-ghost undo",
        text: t("tn.grid.undo"), on: { click: () => {
          draft.games.pop();
          onChange?.();
          render();
        } } }) : null));
    if (focused) box.querySelector(`#${CSS.escape(focused)}`)?.focus();
  }

  render();
  return box;
}

// The final figures: who won, the loser's points (its Tore).
export function finalForm({ draft, target, sides, onChange, idPrefix = "f", big = false }) {
  const box = h("div", { class: `final-form${big ? " big" : ""}` });

  function render() {
    box.replaceChildren();
    box.append(h("div", { class: "label", text: t("tn.final.who") }),
      h("div", { class: "seg", role: "group", "aria-label": t("tn.final.who") },
        [1, 2].map((s) => h("button", { type: "button", class: "seg-btn",
          "data-winner": s, "aria-pressed": String(draft.winner === s),
          on: { click: () => {
            draft.winner = s;
            onChange?.();
            render();
          } } }, h("strong", { text: sides[s - 1].label }),
        sides[s - 1].names ? h("small", { text: sides[s - 1].names }) : null))));
    const id = `${idPrefix}-loser`;
    box.append(h("label", { for: id, text: draft.winner
      ? t("tn.final.loser_points", { pair: sides[2 - draft.winner].label })
      : t("tn.final.loser_points_other") }),
      h("input", { id, type: "number", inputmode: "numeric", min: 0, max: target - 1,
        class: "loser-input", value: draft.loser_points ?? "",
        placeholder: `0–${target - 1}`,
        on: { input: (ev) => {
          draft.loser_points = ev.target.value === "" ? null : Number(ev.target.value);
          onChange?.();
        } } }));
  }

  render();
  return box;
}

// The body of an entry from a draft {mode, games, winner, loser_points}, or null with a
// toast saying what is missing.
export function entryBody(draft, target) {
  if (draft.mode === "games") {
    if (!draft.games.length) {
      toast(t("tn.grid.no_games"));
      return null;
    }
    return { games: draft.games.map((g) => [...g]) };
  }
  const lp = draft.loser_points;
  if (draft.winner !== 1 && draft.winner !== 2) {
    toast(t("tn.final.need_winner"));
    return null;
  }
  if (!Number.isInteger(lp) || lp < 0 || lp >= target) {
    toast(t("tn.final.need_points", { max: target - 1 }));
    return null;
  }
  return { winner: draft.winner, loser_points: lp };
}

// A draft for editing a Bobbl, from its result or latest entry.
export function draftFrom(entry) {
  if (entry?.games?.length) {
    return { mode: "games", games: entry.games.map((g) => [...g]), winner: null,
      loser_points: null };
  }
  if (entry && (entry.winner === 1 || entry.winner === 2)) {
    return { mode: "final", games: [], winner: entry.winner,
      loser_points: entry.points[2 - entry.winner] };
  }
  return { mode: "games", games: [], winner: null, loser_points: null };
}

export function modeSwitch(draft, onChange) {
  return h("div", { class: "seg mode-switch", role: "group", "aria-label": t("tn.mode") },
    ["games", "final"].map((m) => h("button", { type: "button", class: "seg-btn",
      "data-mode": m, "aria-pressed": String(draft.mode === m), text: t(`tn.mode.${m}`),
      on: { click: () => {
        draft.mode = m;
        onChange();
      } } })));
}

export function timeText(iso) {
  const d = typeof iso === "number" ? new Date(iso * 1000) : new Date(iso);
  return d.toLocaleTimeString(locale(),
    { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

export function dateTimeText(iso) {
  return new Date(iso).toLocaleString(locale(),
    { dateStyle: "short", timeStyle: "medium" });
}
