// /turnier/{id}: the desk of a Muckturnier.  Registration (with the draw), pre-registrations
// (CSV, check-in by code), fees, the gaps in the seating, the odd field, the start; per
// round the seating, the clock, the results (game by game or final figures), the phones'
// entries waiting for confirmation, compensation points, corrections; the live ranking;
// printouts and files; the audit log; the settings.
//
// Every command sends the entity's expected_version where the API takes one; after each
// command (and on a 4 s poll when something changed) the overview is loaded again.

import {
  RoundClock, base, command, conflictText, dateTimeText, draftEntry, draftFrom, entryBody,
  finalForm, gameGrid, modeSwitch, money, namesOf, rankingTable, resultText, startPage,
  tickClocks, timeText,
} from "./tournament_common.js";
import { DEFAULTS, settingsFields } from "./tournaments.js";
import { t } from "./i18n.js";
import { ApiError, api, clear, h, link, navigate, toast, toastError } from "./ui.js";

const TABS = ["anmeldung", "runde", "rangliste", "dateien", "protokoll", "einstellungen"];
const PDFS = ["score-sheets", "table-cards", "draw-slips", "ranking", "certificates",
  "registration-qr"];

export function mountDesk(root, { id, checkin = null }) {
  const wrap = h("div", { class: "tn-page desk" });
  root.append(wrap);
  const S = {
    ov: null, ranking: null, links: null, audit: null, failed: null,
    tab: TABS.includes(location.hash.slice(1)) ? location.hash.slice(1) : null,
    viewRound: null, drafts: {}, reg: { names: ["", ""], paid: false, helper: false },
    checkin: checkin || "", csv: "", comp: { entrant: "", points: "", reason: "" },
    filter: "", lastDrawn: null, settings: null, bye: null, top: 3, pdfRound: null,
    timeLimit: null, busy: false,
  };
  if (checkin) S.tab = "anmeldung";
  const clock = new RoundClock();
  const api0 = base(id);
  let stopped = false;

  // -- loading ----------------------------------------------------------------------------
  async function load({ quiet = false } = {}) {
    let ov;
    try {
      ov = await api("GET", api0);
    } catch (e) {
      if (!quiet || !S.ov) {
        S.failed = e;
        if (!(e instanceof ApiError) || ![401, 403, 404].includes(e.status)) toastError(e);
        render();
      }
      return;
    }
    const changed = !S.ov || S.ov.tournament_version !== ov.tournament_version;
    S.failed = null;
    S.ov = ov;
    if (!changed && quiet) return;
    const jobs = [api("GET", `${api0}/ranking`).then((r) => { S.ranking = r; })];
    jobs.push(api("GET", `${api0}/tables/links`).then((r) => { S.links = r.tables; }));
    if (S.tab === "protokoll") jobs.push(loadAudit());
    const results = await Promise.allSettled(jobs);
    for (const r of results) if (r.status === "rejected" && !quiet) toastError(r.reason);
    const cur = ov.rounds[ov.rounds.length - 1];
    clock.set(cur ? cur.clock : null);
    if (S.tab === null) S.tab = ov.started ? "runde" : "anmeldung";
    if (S.viewRound === null || S.viewRound > ov.rounds.length
      || (S.seated !== ov.rounds.length && !S.manualRound)) {
      S.viewRound = ov.rounds.length || null;
    }
    S.seated = ov.rounds.length;
    if (S.settings === null || !S.settingsDirty) S.settings = { ...DEFAULTS, ...ov.settings };
    render();
  }

  async function loadAudit() {
    S.audit = (await api("GET", `${api0}/audit`)).audit;
  }

  const reload = () => load();
  const post = (path, body) => command("POST", `${api0}${path}`, body, reload);

  // -- helpers -------------------------------------------------------------------------------
  const ov = () => S.ov;
  const ent = (eid) => S.ov.entrants.find((e) => e.id === eid);
  const sideNames = (side) => (side || []).map((x) => namesOf(ent(x))).join(" & ");
  const sideNos = (side) => (side || []).map((x) => t("tn.no", { n: x })).join(", ");
  const pairsMode = () => S.ov.settings.mode === "pairs";
  const slotsOf = (r) => S.ov.bobbl.filter((b) => b.round === r);
  const slotByKey = (key) => S.ov.bobbl.find((b) => b.key === key);
  const tableSides = (r, table) => S.ov.rounds[r - 1].tables[String(table)];
  const sidesFor = (r, table) => {
    const [a, b] = tableSides(r, table);
    return [{ label: t("tn.pair_n", { n: 1 }), names: sideNames(a) },
      { label: t("tn.pair_n", { n: 2 }), names: b ? sideNames(b) : "" }];
  };
  const linkOf = (table) => S.links?.find((l) => l.table === table);
  const phonePath = (table) => {
    const l = linkOf(table);
    return l ? `/turnier/${encodeURIComponent(id)}/tisch/${table}?token=${l.token}` : null;
  };

  function sourceLabel(src) {
    let m;
    if (src === "desk") return t("tn.src.desk");
    if ((m = /^phone:(\d+):(\d)$/.exec(src))) return t("tn.src.phone_side", { n: m[1], s: m[2] });
    if ((m = /^phone:(\d+)$/.exec(src))) return t("tn.src.phone", { n: m[1] });
    return src;
  }

  function setTab(tab) {
    S.tab = tab;
    history.replaceState(history.state, "", `${location.pathname}${location.search}#${tab}`);
    if (tab === "protokoll") {
      loadAudit().then(render).catch(toastError);
    }
    render();
    wrap.querySelector(`[data-tab="${tab}"]`)?.focus();
  }

  // -- render ----------------------------------------------------------------------------------
  function render() {
    if (stopped) return;
    const active = document.activeElement;
    const focusId = active && wrap.contains(active) ? active.id : null;
    const sel = focusId && typeof active.selectionStart === "number"
      ? [active.selectionStart, active.selectionEnd] : null;
    clear(wrap);
    if (S.failed && !S.ov) {
      wrap.append(failedPanel(S.failed));
      return;
    }
    if (!S.ov) {
      wrap.append(h("p", { class: "muted", text: "…" }));
      return;
    }
    wrap.append(head(), tabs());
    const body = h("section", { class: "tab-body", id: `tab-${S.tab}`, role: "tabpanel",
      "aria-labelledby": `tabbtn-${S.tab}` });
    ({ anmeldung: registrationTab, runde: roundTab, rangliste: rankingTab, dateien: filesTab,
      protokoll: auditTab, einstellungen: settingsTab })[S.tab](body);
    wrap.append(body);
    tickClocks(wrap, clock);
    if (focusId) {
      const el = wrap.querySelector(`#${CSS.escape(focusId)}`);
      if (el) {
        el.focus({ preventScroll: true });
        if (sel && typeof el.setSelectionRange === "function") {
          try {
            el.setSelectionRange(sel[0], sel[1]);
          } catch { /* number inputs */ }
        }
      }
    }
  }

  function failedPanel(e) {
    const code = e instanceof ApiError ? e.status : 0;
    const text = code === 401 ? t("tn.need_login") : code === 403 ? t("error.not_owner")
      : code === 404 ? t("tn.not_found") : t("error.network");
    return h("section", { class: "panel narrow" }, h("h1", { text: t("tn.desk") }),
      h("p", { text }), link("/turniere", t("tn.to_list"), { class: "btn" }));
  }

  function head() {
    const o = ov();
    const s = o.settings;
    const status = !o.started ? t("tn.status.registration")
      : t("tn.status.round", { n: o.current_round, of: s.rounds });
    const active = o.entrants.filter((e) => e.checked_in && !e.helper).length;
    return h("header", { class: "desk-head" },
      h("div", { class: "desk-title" },
        link("/turniere", "←", { class: "back", "aria-label": t("tn.to_list"),
          title: t("tn.to_list") }),
        h("h1", { text: s.name }),
        h("span", { class: `pill ${o.started ? "pill-live" : "pill-reg"}`, text: status })),
      h("div", { class: "desk-meta" },
        h("span", { text: t(pairsMode() ? "tn.count.pairs" : "tn.count.players",
          { n: active }) }),
        h("span", { text: t("tn.fees.short", { got: money(o.fees.collected_cents),
          due: money(o.fees.due_cents) }) }),
        o.pending.length ? h("button", { type: "button", class: "pill pill-warn",
          on: { click: () => setTab("runde") },
          text: t("tn.pending_n", { n: o.pending.length }) }) : null,
        o.started && o.current_round ? h("span", { class: "desk-clock" },
          h("span", { "data-clock": "" })) : null,
        h("a", { href: `/turnier/${encodeURIComponent(id)}/beamer`, target: "_blank",
          rel: "noopener", class: "btn btn-small", text: t("tn.beamer") }),
        h("button", { type: "button", class: "btn btn-small btn-ghost", text: t("tn.reload"),
          on: { click: () => load() } })));
  }

  function tabs() {
    return h("nav", { class: "tabs", role: "tablist", "aria-label": t("tn.desk") },
      TABS.map((k) => h("button", { type: "button", role: "tab", id: `tabbtn-${k}`,
        "data-tab": k, "aria-selected": String(S.tab === k), tabindex: S.tab === k ? 0 : -1,
        "aria-controls": `tab-${k}`, class: "tab",
        on: { click: () => setTab(k), keydown: (ev) => {
          const i = TABS.indexOf(k);
          if (ev.key === "ArrowRight") setTab(TABS[(i + 1) % TABS.length]);
          if (ev.key === "ArrowLeft") setTab(TABS[(i + TABS.length - 1) % TABS.length]);
        } } },
      t(`tn.tab.${k}`),
      k === "runde" && S.ov.pending.length ? h("span", { class: "count",
        text: S.ov.pending.length }) : null)));
  }

  // -- registration -----------------------------------------------------------------------
  function registrationTab(body) {
    const o = ov();
    if (o.started && pairsMode()) { // registration is closed: the list and the fees
      body.append(startCard(), entrantsCard());
      return;
    }
    const left = h("div", { class: "desk-col" }, registerCard(), checkInCard(), csvCard());
    const right = h("div", { class: "desk-col wide" }, startCard(), entrantsCard());
    body.append(h("div", { class: "desk-grid" }, left, right));
    if (S.checkin && !o.started) {
      queueMicrotask(() => wrap.querySelector("#checkin-code")?.focus());
    }
  }

  function registerCard() {
    const o = ov();
    const closed = o.started && pairsMode();
    const per = pairsMode() ? 2 : 1;
    const form = h("form", { class: "panel reg-form", id: "reg-form", "aria-labelledby": "reg-h",
      on: { submit: register } },
    h("h2", { id: "reg-h", text: t(pairsMode() ? "tn.reg.title" : "tn.reg.title_single") }));
    for (let i = 0; i < per; i += 1) {
      form.append(h("label", { for: `reg-n${i + 1}`, text: t("tn.reg.name", { n: i + 1 }) }),
        h("input", { id: `reg-n${i + 1}`, type: "text", maxlength: 60, autocomplete: "off",
          value: S.reg.names[i], disabled: closed, required: true,
          on: { input: (ev) => { S.reg.names[i] = ev.target.value; } } }));
    }
    form.append(h("div", { class: "check" },
      h("input", { id: "reg-paid", type: "checkbox", checked: S.reg.paid, disabled: closed,
        on: { change: (ev) => { S.reg.paid = ev.target.checked; } } }),
      h("label", { for: "reg-paid", text: t("tn.reg.paid", {
        fee: money(o.settings.entry_fee_cents * per) }) })));
    if (o.settings.odd_handling === "helpers") {
      form.append(h("div", { class: "check" },
        h("input", { id: "reg-helper", type: "checkbox", checked: S.reg.helper,
          disabled: closed, on: { change: (ev) => { S.reg.helper = ev.target.checked; } } }),
        h("label", { for: "reg-helper", text: t("tn.reg.helper") })));
    }
    form.append(h("button", { type: "submit", class: "btn btn-primary btn-wide", disabled: closed,
      text: t(pairsMode() ? "tn.reg.submit" : "tn.reg.submit_single") }));
    if (closed) form.append(h("p", { class: "muted small", text: t("tn.reg.closed") }));
    if (S.lastDrawn) form.append(drawnSlip(S.lastDrawn));
    return form;
  }

  function drawnSlip(e) {
    const fresh = ent(e.id) || e;
    const place = fresh.place;
    return h("div", { class: "drawn", role: "status", "data-entrant": fresh.id },
      h("div", { class: "drawn-names" }, h("span", { class: "pair-no",
        text: t("tn.no", { n: fresh.id }) }), " ", namesOf(fresh)),
      place ? h("div", { class: "drawn-place" },
        h("span", { text: t("tn.table_n", { n: place[0] }) }),
        h("span", { text: t("tn.pair_n", { n: place[1] }) }))
        : h("div", { class: "muted", text: t("tn.reg.no_place") }),
      place && ov().settings.seating === "seefest" ? h("small", { class: "muted",
        text: t(place[1] === 1 ? "tn.reg.stays" : "tn.reg.moves") }) : null);
  }

  async function register(ev) {
    ev.preventDefault();
    const per = pairsMode() ? 2 : 1;
    const names = S.reg.names.slice(0, per).map((n) => n.trim());
    const out = await post("/entrants", { names, paid: S.reg.paid, helper: S.reg.helper });
    if (out) {
      if (out.same_names?.length) {
        toast(t("tn.reg.same_names", { nos: out.same_names.join(", ") }), "info", 8000);
      }
      S.lastDrawn = out.entrant;
      S.reg = { names: ["", ""], paid: false, helper: false };
      render();
      wrap.querySelector("#reg-n1")?.focus();
    }
  }

  function codeFrom(text) {
    const v = text.trim();
    const m = /[?&]checkin=([^&#\s]+)/.exec(v);
    if (m) return decodeURIComponent(m[1]);
    return v.includes("/") ? v.split("/").filter(Boolean).pop() : v;
  }

  async function checkIn(code) {
    const c = codeFrom(code);
    if (!c) {
      wrap.querySelector("#checkin-code")?.focus();
      return;
    }
    const out = await post("/check-in", { code: c });
    if (out) {
      S.lastDrawn = out.entrant;
      S.checkin = "";
      if (location.search.includes("checkin=")) {
        history.replaceState(history.state, "", `${location.pathname}${location.hash}`);
      }
      toast(t("tn.checked_in", { names: namesOf(out.entrant) }), "info", 3000);
      render();
      wrap.querySelector("#checkin-code")?.focus();
    }
  }

  function checkInCard() {
    const o = ov();
    const waiting = o.entrants.filter((e) => !e.checked_in);
    const input = h("input", { id: "checkin-code", type: "text", autocomplete: "off",
      spellcheck: "false", value: S.checkin, placeholder: t("tn.checkin.placeholder"),
      on: { input: (ev) => { S.checkin = ev.target.value; } } });
    const form = h("form", { class: "panel checkin", "aria-labelledby": "checkin-h",
      on: { submit: (ev) => {
        ev.preventDefault();
        checkIn(S.checkin);
      } } },
    h("h2", { id: "checkin-h", text: t("tn.checkin.title") }),
    h("label", { for: "checkin-code", text: t("tn.checkin.label") }),
    h("div", { class: "inline" }, input, h("button", { type: "submit", class: "btn btn-primary",
      text: t("tn.checkin.submit") })),
    h("small", { class: "muted", text: t("tn.checkin.hint") }));
    if (waiting.length) {
      form.append(h("h3", { class: "sub", text: t("tn.checkin.waiting", { n: waiting.length }) }),
        h("ul", { class: "waiting" }, waiting.map((e) => h("li", {},
          h("span", { class: "w-names" }, namesOf(e), " ", h("code", { text: e.code })),
          h("button", { type: "button", class: "btn btn-small", "data-code": e.code,
            text: t("tn.checkin.submit"), on: { click: () => checkIn(e.code) } })))));
    }
    return form;
  }

  function csvCard() {
    const file = h("input", { id: "csv-file", type: "file", accept: ".csv,text/csv,text/plain",
      class: "sr-only", on: { change: async (ev) => {
        const f = ev.target.files?.[0];
        if (f) {
          S.csv = await f.text();
          render();
        }
        ev.target.value = "";
      } } });
    return h("form", { class: "panel csv-form", "aria-labelledby": "csv-h",
      on: { submit: async (ev) => {
        ev.preventDefault();
        if (!S.csv.trim()) {
          toast(t("tn.csv.empty"));
          return;
        }
        const out = await post("/entrants/import", { csv: S.csv });
        if (out) {
          S.csv = "";
          toast(t("tn.csv.done", { n: out.entrants.length }), "info", 3000);
          render();
        }
      } } },
    h("h2", { id: "csv-h", text: t("tn.csv.title") }),
    h("label", { for: "csv-text", text: t("tn.csv.label") }),
    h("textarea", { id: "csv-text", rows: 4, spellcheck: "false",
      placeholder: pairsMode() ? "Anna Huber;Bernd Maier;A7K2\nCilli Ott;Done Renz" : "Anna Huber;A7K2",
      on: { input: (ev) => { S.csv = ev.target.value; } } }, S.csv),
    h("div", { class: "inline" },
      h("label", { for: "csv-file", class: "btn btn-small", text: t("tn.csv.file") }), file,
      h("button", { type: "submit", class: "btn btn-small btn-primary", text: t("tn.csv.submit") })),
    h("small", { class: "muted", text: t("tn.csv.hint") }));
  }

  function startCard() {
    const o = ov();
    const s = o.settings;
    const box = h("section", { class: "panel start-card", "aria-labelledby": "start-h" });
    if (o.started) {
      box.classList.add("started");
      box.append(h("div", {},
        h("h2", { id: "start-h", text: t("tn.status.round", { n: o.current_round,
          of: s.rounds }) }),
        h("p", { class: "fees-line", text: t("tn.fees.long", {
          got: money(o.fees.collected_cents), due: money(o.fees.due_cents),
          open: o.fees.unpaid.length }) }),
        pairsMode() ? h("p", { class: "muted small", text: t("tn.reg.closed") }) : null),
      h("button", { type: "button", class: "btn btn-primary", text: t("tn.to_round"),
        on: { click: () => setTab("runde") } }));
      return box;
    }
    box.append(h("h2", { id: "start-h", text: t("tn.start.title") }));
    const active = o.entrants.filter((e) => e.checked_in && e.present !== false && !e.withdrawn);
    const n = active.length;
    const unit = pairsMode() ? 2 : 4;
    const odd = n % unit;
    const tables = new Set(active.map((e) => e.place?.[0]).filter(Boolean));
    box.append(h("p", { class: "counts", text: t(pairsMode() ? "tn.start.counts" : "tn.start.counts_single", {
      n, pre: o.entrants.filter((e) => !e.checked_in).length, tables: tables.size || Math.ceil(n / unit) }) }),
    h("p", { class: "fees-line", text: t("tn.fees.long", { got: money(o.fees.collected_cents),
      due: money(o.fees.due_cents), open: o.fees.unpaid.length }) }));
    const blockers = [];
    // the gaps
    if (pairsMode()) {
      const gaps = h("div", { class: "gaps" });
      if (o.gap_moves.length) {
        blockers.push("gaps");
        gaps.append(h("h3", { class: "sub", text: t("tn.gaps.title", { n: o.gap_moves.length }) }),
          h("ul", { class: "moves" }, o.gap_moves.map((mv) => h("li", {
            "data-entrant": mv.entrant },
          h("strong", { text: t("tn.no", { n: mv.entrant }) }), ` ${namesOf(ent(mv.entrant))}: `,
          h("span", { class: "from", text: t("tn.place", { t: mv.from[0], p: mv.from[1] }) }),
          " → ", h("span", { class: "to", text: t("tn.place", { t: mv.to[0], p: mv.to[1] }) })))),
          h("button", { type: "button", class: "btn", id: "close-gaps",
            text: t("tn.gaps.apply"), on: { click: () => post("/gaps/close") } }));
      } else if (n) {
        gaps.append(h("p", { class: "ok", text: t("tn.gaps.none") }));
      }
      box.append(gaps);
    }
    // the odd field
    if (odd) {
      const oddBox = h("div", { class: "odd" }, h("h3", { class: "sub",
        text: t(pairsMode() ? "tn.odd.title" : "tn.odd.title_single", { n }) }));
      if (s.odd_handling === "undecided") blockers.push("odd");
      if (s.odd_handling === "helpers") {
        blockers.push("helpers");
        oddBox.append(h("p", { text: t("tn.odd.helpers_todo") }));
      }
      if (s.odd_handling === "bye") {
        oddBox.append(h("p", { text: t("tn.odd.bye_set", { b: s.bye_bobbl, t: s.bye_tore }) }));
      }
      S.bye = S.bye || { bobbl: s.bye_bobbl, tore: s.bye_tore };
      oddBox.append(h("div", { class: "odd-choice" },
        h("button", { type: "button", class: "btn", id: "odd-helpers",
          "aria-pressed": String(s.odd_handling === "helpers"), text: t("tn.odd.helpers"),
          on: { click: async () => {
            if (await post("/settings", { odd_handling: "helpers" })) {
              S.reg.helper = true;
              render();
              wrap.querySelector("#reg-n1")?.focus();
            }
          } } }),
        h("span", { class: "muted", text: t("tn.or") }),
        h("span", { class: "bye-inputs" },
          h("label", { for: "bye-bobbl", class: "inline-label", text: t("tn.set.bye_bobbl") }),
          h("input", { id: "bye-bobbl", type: "number", min: 0, max: 10, value: S.bye.bobbl,
            on: { input: (ev) => { S.bye.bobbl = Number(ev.target.value); } } }),
          h("label", { for: "bye-tore", class: "inline-label", text: t("tn.set.bye_tore") }),
          h("input", { id: "bye-tore", type: "number", min: 0, max: 1000, value: S.bye.tore,
            on: { input: (ev) => { S.bye.tore = Number(ev.target.value); } } })),
        h("button", { type: "button", class: "btn", id: "odd-bye",
          "aria-pressed": String(s.odd_handling === "bye"), text: t("tn.odd.bye"),
          on: { click: () => post("/settings", { odd_handling: "bye",
            bye_bobbl: S.bye.bobbl, bye_tore: S.bye.tore }) } })));
      box.append(oddBox);
    }
    if (n < (pairsMode() ? 2 : 4)) blockers.push("few");
    box.append(h("div", { class: "start-row" },
      h("button", { type: "button", class: "btn btn-primary btn-big", id: "start-btn",
        disabled: blockers.length > 0, text: t("tn.start.go"),
        on: { click: async () => {
          if (await post("/start")) setTab("runde");
        } } }),
      blockers.length ? h("small", { class: "muted",
        text: blockers.map((b) => t(`tn.start.block.${b}`)).join(" · ") }) : null));
    return box;
  }

  function entrantsCard() {
    const o = ov();
    const box = h("section", { class: "panel entrants", "aria-labelledby": "ent-h" });
    const filter = h("input", { id: "ent-filter", type: "search", value: S.filter,
      placeholder: t("tn.ent.filter"), "aria-label": t("tn.ent.filter"),
      on: { input: (ev) => {
        S.filter = ev.target.value;
        renderRows();
      } } });
    box.append(h("div", { class: "panel-head" },
      h("h2", { id: "ent-h", text: t("tn.ent.title", { n: o.entrants.length }) }), filter));
    const tbody = h("tbody");
    const table = h("table", { class: "data-table ent-table" },
      h("thead", {}, h("tr", {},
        [["no", "tn.ent.no"], ["names", "tn.ent.names"], ["place", "tn.ent.place"],
          ["present", "tn.ent.present"], ["paid", "tn.ent.paid"], ["code", "tn.ent.code"],
          ["act", "tn.ent.actions"]]
          .map(([c, k]) => h("th", { scope: "col", class: `c-${c}`, text: t(k) })))), tbody);
    function renderRows() {
      clear(tbody);
      const q = S.filter.trim().toLowerCase();
      const rows = o.entrants.filter((e) => !q || namesOf(e).toLowerCase().includes(q)
        || e.code.toLowerCase().includes(q) || e.id === q)
        .sort((a, b) => Number(a.id) - Number(b.id));
      if (!rows.length) {
        tbody.append(h("tr", {}, h("td", { colspan: 7, class: "muted center",
          text: o.entrants.length ? t("tn.ent.no_match") : t("tn.ent.none") })));
      }
      for (const e of rows) {
        const paidId = `paid-${e.id}`;
        const busy = entrantBusy(e.id);
        const cls = [e.checked_in ? "" : "pre", e.present === false ? "absent" : "",
          e.withdrawn ? "withdrawn" : ""].filter(Boolean).join(" ");
        tbody.append(h("tr", { "data-entrant": e.id, class: cls },
          h("td", { class: "c-no num", text: e.id }),
          h("td", { class: "c-names" }, namesOf(e),
            e.helper ? h("span", { class: "badge", text: t("tn.ent.helper") }) : null,
            e.withdrawn ? h("span", { class: "badge badge-out", text: t("tn.ent.withdrawn") })
              : null,
            e.present === false && !e.withdrawn ? h("span", { class: "badge badge-out",
              text: t("tn.ent.absent") }) : null),
          h("td", { class: "c-place" }, e.place ? t("tn.place", { t: e.place[0], p: e.place[1] })
            : h("span", { class: "muted", text: e.checked_in ? "–" : t("tn.ent.pre") })),
          h("td", { class: "c-present" }, e.checked_in && !e.withdrawn ? h("input", {
            type: "checkbox", id: `present-${e.id}`, checked: e.present !== false,
            disabled: busy, title: busy ? t("tn.ent.busy") : "",
            "aria-label": t("tn.ent.present_for", { names: namesOf(e) }),
            on: { change: (ev) => post(`/entrants/${encodeURIComponent(e.id)}/present`,
              { present: ev.target.checked, expected_version: e.version }) } }) : null),
          h("td", { class: "c-paid" }, h("input", { type: "checkbox", id: paidId,
            checked: e.paid, "aria-label": t("tn.ent.paid_for", { names: namesOf(e) }),
            on: { change: (ev) => post(`/entrants/${encodeURIComponent(e.id)}/paid`,
              { paid: ev.target.checked, expected_version: e.version }) } })),
          h("td", { class: "c-code" }, h("code", { text: e.code })),
          h("td", { class: "c-act" },
            !e.checked_in && !(o.started && pairsMode()) ? h("button", { type: "button",
              class: "btn btn-small", text: t("tn.checkin.submit"),
              on: { click: () => checkIn(e.code) } }) : null,
            withdrawButton(e, busy))));
      }
    }
    renderRows();
    box.append(h("div", { class: "table-scroll" }, table));
    return box;
  }

  // whether an entrant sits at a table of the current round whose Bobbl are still open
  function entrantBusy(eid) {
    const o = ov();
    const rnd = o.rounds[o.rounds.length - 1];
    if (!rnd) return false;
    const table = Object.entries(rnd.tables).find(([, [a, b]]) => a.includes(eid)
      || (b || []).includes(eid));
    return !!table && slotsOf(rnd.number).some((s) => s.table === Number(table[0])
      && !s.decided);
  }

  const hasPlayed = (eid) => ov().rounds.some((r) => Object.values(r.tables)
    .some(([a, b]) => a.includes(eid) || (b || []).includes(eid)));

  // before the start: withdraw (the entry is removed); after it: remove one who has not
  // played yet, or withdraw one who has (between rounds)
  function withdrawButton(e, busy) {
    const o = ov();
    if (e.withdrawn) return null;
    const path = `/entrants/${encodeURIComponent(e.id)}/withdraw`;
    const ask = (key, cls) => h("button", { type: "button", class: `btn btn-small btn-link ${cls}`,
      text: t(key.replace(/_q$/, "")), disabled: busy, title: busy ? t("tn.ent.busy") : "",
      on: { click: () => {
        if (window.confirm(t(key, { names: namesOf(e) }))) {
          post(path, { expected_version: e.version });
        }
      } } });
    if (!o.started) return ask("tn.ent.withdraw_q", "withdraw");
    return hasPlayed(e.id) ? ask("tn.ent.quit_q", "quit") : ask("tn.ent.remove_q", "remove");
  }

  // -- rounds ------------------------------------------------------------------------------
  function roundTab(body) {
    const o = ov();
    if (!o.started) {
      body.append(h("section", { class: "panel" }, h("p", { text: t("tn.round.not_started") }),
        h("button", { type: "button", class: "btn", text: t("tn.tab.anmeldung"),
          on: { click: () => setTab("anmeldung") } })));
      return;
    }
    const r = S.viewRound || o.current_round;
    const current = r === o.current_round;
    body.append(h("nav", { class: "round-pills", "aria-label": t("tn.round.choose") },
      o.rounds.map((x) => h("button", { type: "button", class: "round-pill",
        "aria-pressed": String(x.number === r), "data-round": x.number,
        text: t("tn.round_n", { n: x.number }), on: { click: () => {
          S.viewRound = x.number;
          S.manualRound = x.number !== o.current_round;
          render();
        } } })),
      h("span", { class: "muted", text: t("tn.round.of", { n: o.settings.rounds }) })));
    if (current) body.append(clockPanel(r), onlinePanel(r));
    else body.append(h("p", { class: "note", text: t("tn.round.correction", { n: r }) }));
    if (o.requests?.length) body.append(requestsPanel());
    if (o.pending.length) body.append(pendingPanel());
    const rnd = o.rounds[r - 1];
    const grid = h("div", { class: "table-grid" });
    for (const key of Object.keys(rnd.tables).sort((a, b) => Number(a) - Number(b))) {
      grid.append(tableCard(r, Number(key)));
    }
    body.append(grid, compensationPanel(r));
  }

  // -- an online round: the tables on the server, one claim link per seat --------------------
  function onlinePanel(r) {
    const box = h("section", { class: "panel online-panel", "aria-labelledby": "online-h" });
    const list = h("div", { class: "online-links" });
    const duplicate = h("input", { type: "checkbox", id: "online-duplicate" });
    const show = (data) => {
      clear(list);
      for (const tb of data.tables || []) {
        list.append(h("div", { class: "online-table" },
          h("h3", { text: `${t("tn.table_n", { n: tb.table })} · ${tb.status}` }),
          h("a", { href: tb.watch_url, text: t("tn.online.watch") }),
          h("ul", {}, tb.seats.map((st) => h("li", {},
            h("span", { text: `${st.name}${st.claimed ? " ✓" : ""} ` }),
            h("input", { readonly: true, class: "invite-input", value:
              `${location.origin}${st.claim_url}`, "aria-label": st.name }))))));
      }
    };
    api("GET", `${api0}/online/rounds/${r}`).then(show).catch(() => {});
    box.append(
      h("h2", { id: "online-h", text: t("tn.online.title") }),
      h("p", { class: "muted", text: t("tn.online.help") }),
      h("label", { for: "online-duplicate", class: "inline-label" }, duplicate,
        h("span", { text: ` ${t("tn.online.duplicate")}` })),
      h("button", { type: "button", class: "btn", id: "online-open", text: t("tn.online.open"),
        on: { click: async () => {
          try {
            show(await api("POST", `${api0}/online/rounds/${r}/open`,
              { duplicate: duplicate.checked }));
            toast(t("tn.online.opened"));
          } catch (e) {
            toastError(e);
          }
        } } }),
      list);
    return box;
  }

  function clockPanel(r) {
    const o = ov();
    const rnd = o.rounds[r - 1];
    const slots = slotsOf(r);
    const open = slots.filter((s) => !s.decided).length;
    const last = r >= o.settings.rounds;
    if (S.timeLimit === null) S.timeLimit = o.settings.time_limit_minutes;
    return h("section", { class: "panel clock-panel", "aria-labelledby": "clock-h" },
      h("div", { class: "clock-main" },
        h("h2", { id: "clock-h", text: t("tn.round_n", { n: r }) }),
        h("div", { class: "big-clock", "data-clock": "", role: "timer",
          "aria-label": t("tn.clock.title") }),
        h("div", { class: "muted", "data-clock-label": "" })),
      h("div", { class: "clock-actions" },
        !rnd.closed ? h("button", { type: "button", class: "btn btn-primary", id: "clock-start",
          text: t(rnd.clock.started_at ? "tn.clock.restart" : "tn.clock.start"),
          on: { click: () => {
            if (rnd.clock.started_at && !window.confirm(t("tn.clock.restart_q"))) return;
            post(`/rounds/${r}/clock`, {});
          } } }) : null,
        !rnd.closed ? h("button", { type: "button", class: "btn", id: "time-up",
          text: t("tn.clock.time_up"), on: { click: () => {
            const force = clock.status().state !== "over";
            if (!window.confirm(t(force ? "tn.clock.time_up_force_q" : "tn.clock.time_up_q",
              { n: open }))) return;
            post(`/rounds/${r}/time-up`, { force });
          } } }) : null,
        h("form", { class: "inline limit-form", on: { submit: (ev) => {
          ev.preventDefault();
          post("/settings", { time_limit_minutes: Number(S.timeLimit) });
        } } },
        h("label", { for: "time-limit", class: "inline-label", text: t("tn.clock.limit") }),
        h("input", { id: "time-limit", type: "number", min: 0, max: 600, value: S.timeLimit,
          on: { input: (ev) => { S.timeLimit = ev.target.value; } } }),
        h("button", { type: "submit", class: "btn btn-small", text: t("tn.save") }))),
      h("div", { class: "next-row" },
        h("span", { class: open ? "muted" : "ok", text: open ? t("tn.round.open", { n: open })
          : t("tn.round.all_done") }),
        !last ? h("button", { type: "button", class: "btn btn-primary", id: "next-round",
          disabled: open > 0, text: t("tn.round.next", { n: r + 1 }),
          on: { click: async () => {
            if (await post("/rounds/next")) {
              S.viewRound = r + 1;
              S.manualRound = false;
              S.timeLimit = null;
              render();
            }
          } } })
          : (!open ? h("button", { type: "button", class: "btn btn-primary",
            text: t("tn.round.finished"), on: { click: () => setTab("dateien") } }) : null)));
  }

  function pendingPanel() {
    const o = ov();
    return h("section", { class: "panel pending-panel", "aria-labelledby": "pend-h" },
      h("h2", { id: "pend-h", text: t("tn.pending.title", { n: o.pending.length }) }),
      h("ul", { class: "pending-list" }, o.pending.map((key) => {
        const slot = slotByKey(key);
        if (!slot) return null;
        const mismatch = o.mismatches.includes(key);
        return h("li", { "data-slot": key, class: mismatch ? "mismatch" : "" },
          h("div", { class: "pend-where" },
            h("strong", { text: t("tn.slot", { r: slot.round, t: slot.table,
              i: slot.index + 1 }) }),
            mismatch ? h("span", { class: "pill pill-warn", text: t("tn.pending.mismatch") })
              : null,
            !mismatch && o.settings.double_entry && Object.keys(slot.entries).length === 1
              ? h("span", { class: "muted small", text: t("tn.pending.second") }) : null),
          h("ul", { class: "pend-entries" }, Object.entries(slot.entries).map(([src, e]) =>
            h("li", {},
              h("span", { class: "src", text: sourceLabel(src) }),
              h("span", { class: "what", text: resultText(e, o.settings.target) }),
              e.games ? h("small", { class: "muted", text: t("tn.games_n",
                { n: e.games.length }) }) : null,
              e.at ? h("small", { class: "muted", text: timeText(e.at) }) : null,
              h("button", { type: "button", class: "btn btn-small btn-primary confirm",
                "data-source": src, text: t("tn.pending.confirm"),
                on: { click: () => post(`/bobbl/${slot.round}/${slot.table}/${slot.index}/confirm`,
                  { source: src, expected_version: slot.version }) } }),
              h("button", { type: "button", class: "btn btn-small btn-ghost",
                text: t("tn.pending.edit"), on: { click: () => {
                  S.drafts[key] = { ...draftFrom(e), open: true, version: slot.version };
                  S.viewRound = slot.round;
                  render();
                  wrap.querySelector(`[data-slot-card="${key}"]`)?.scrollIntoView({
                    block: "center" });
                } } })))));
      })));
  }

  // phones asking to change a settled Bobbl: the settled result counts until the desk decides
  function requestsPanel() {
    const o = ov();
    return h("section", { class: "panel requests-panel", "aria-labelledby": "req-h" },
      h("h2", { id: "req-h", text: t("tn.requests.title", { n: o.requests.length }) }),
      h("p", { class: "muted small", text: t("tn.requests.hint") }),
      h("ul", { class: "requests-list" }, o.requests.map((key) => {
        const slot = slotByKey(key);
        if (!slot) return null;
        const path = `/bobbl/${slot.round}/${slot.table}/${slot.index}/request`;
        return h("li", { "data-slot": key },
          h("div", { class: "pend-where" },
            h("strong", { text: t("tn.slot", { r: slot.round, t: slot.table,
              i: slot.index + 1 }) }),
            h("span", { class: "muted", text: t("tn.requests.now",
              { result: resultText(slot.result, o.settings.target) }) })),
          h("ul", { class: "pend-entries" }, Object.entries(slot.requests || {}).map(([src, e]) =>
            h("li", { "data-source": src },
              h("span", { class: "src", text: sourceLabel(src) }),
              h("span", { class: "what", text: resultText(e, o.settings.target) }),
              e.at ? h("small", { class: "muted", text: timeText(e.at) }) : null,
              h("button", { type: "button", class: "btn btn-small btn-primary accept",
                text: t("tn.requests.accept"), on: { click: () => post(path,
                  { source: src, accept: true, expected_version: slot.version }) } }),
              h("button", { type: "button", class: "btn btn-small reject",
                text: t("tn.requests.reject"), on: { click: () => post(path,
                  { source: src, accept: false, expected_version: slot.version }) } })))));
      })));
  }

  function slotStatus(slot) {
    const target = ov().settings.target;
    if (slot.result?.source === "bye") return { cls: "bye", text: t("tn.bye") };
    if (slot.time_up) return { cls: "timeup", text: resultText(slot.result, target) };
    if (slot.decided) return { cls: "done", text: resultText(slot.result, target) };
    if (slot.result) return { cls: "partial", text: resultText(slot.result, target) };
    if (Object.keys(slot.entries).length) return { cls: "pending", text: t("tn.status.pending") };
    return { cls: "open", text: t("tn.status.open") };
  }

  function tableCard(r, table) {
    const o = ov();
    const [a, b] = tableSides(r, table);
    const phone = phonePath(table);
    const card = h("article", { class: "panel tcard", "data-table": table },
      h("header", { class: "tcard-head" },
        h("h3", { text: t("tn.table_n", { n: table }) }),
        phone && r === o.current_round ? h("a", { href: phone, target: "_blank", rel: "noopener",
          class: "phone-link", text: t("tn.phone_link") }) : null),
      h("dl", { class: "sides" },
        [[1, a], [2, b]].map(([n, side]) => [
          h("dt", { text: t("tn.pair_n", { n }) }),
          h("dd", {}, side ? [h("span", { class: "pair-no", text: sideNos(side) }), " ",
            sideNames(side)] : h("span", { class: "muted", text: t("tn.bye") }))])));
    for (const slot of slotsOf(r).filter((s) => s.table === table)
      .sort((x, y) => x.index - y.index)) {
      const st = slotStatus(slot);
      const draft = S.drafts[slot.key];
      const row = h("div", { class: `slot slot-${st.cls}`, "data-slot-card": slot.key },
        h("div", { class: "slot-line" },
          h("span", { class: "slot-name", text: t("tn.bobbl_n", { n: slot.index + 1 }) }),
          h("span", { class: "slot-status", text: st.text }),
          b && !slot.time_up && !draft?.open ? h("button", { type: "button",
            class: "btn btn-small edit", "data-edit": slot.key,
            text: t(slot.decided || slot.result ? "tn.edit" : "tn.enter"),
            on: { click: () => {
              const base = slot.result || Object.values(slot.entries).sort((x, y) => y.at - x.at)[0];
              // the version the editor was opened at: a save against a newer one is refused
              S.drafts[slot.key] = { ...draftFrom(base), open: true, version: slot.version };
              render();
              wrap.querySelector(`[data-slot-card="${slot.key}"] .pts-input, [data-slot-card="${slot.key}"] .seg-btn`)?.focus();
            } } }) : null));
      if (draft?.open) row.append(editor(slot, draft));
      card.append(row);
    }
    return card;
  }

  function editor(slot, draft) {
    const o = ov();
    const target = o.settings.target;
    const sides = sidesFor(slot.round, slot.table);
    const idPrefix = `ed-${slot.round}-${slot.table}-${slot.index}`;
    const box = h("div", { class: "editor" });
    const paint = () => {
      const fresh = editor(slot, draft);
      box.replaceWith(fresh);
    };
    box.append(modeSwitch(draft, paint),
      draft.mode === "games"
        ? gameGrid({ draft, target, sides, idPrefix })
        : finalForm({ draft, target, sides, idPrefix }));
    if (o.settings.double_entry) {
      box.append(h("div", { class: "check" },
        h("input", { id: `${idPrefix}-final`, type: "checkbox", checked: !!draft.final,
          on: { change: (ev) => { draft.final = ev.target.checked; } } }),
        h("label", { for: `${idPrefix}-final`, text: t("tn.final_word") })));
    }
    const save = async () => {
      const entry = entryBody(draft, target);
      if (!entry) return;
      if ((slotByKey(slot.key) || slot).decided && draftEntry(draft, target)?.winner == null) {
        toast(t("tn.edit.needs_winner"));
        return;
      }
      try {
        await api("POST", `${api0}/bobbl/${slot.round}/${slot.table}/${slot.index}/entries`,
          { ...entry, expected_version: draft.version ?? slot.version, final: !!draft.final });
      } catch (e) {
        if (!(e instanceof ApiError) || e.status !== 409) {
          toastError(e); // the draft stays for a correction
          return;
        }
        // saved elsewhere since the editor was opened: keep the draft, show both values
        draft.conflict = true;
        await load();
        return;
      }
      delete S.drafts[slot.key];
      await load();
    };
    if (draft.conflict) {
      const now = slotByKey(slot.key) || slot;
      const mine = draftEntry(draft, target);
      box.prepend(h("div", { class: "conflict-box", role: "alert" },
        h("strong", { text: t("tn.conflict.title") }),
        h("p", { class: "muted small", text: t("tn.conflict.hint") }),
        h("dl", { class: "conflict-values" },
          h("dt", { text: t("tn.conflict.yours") }),
          h("dd", { class: "conflict-mine", text: mine ? resultText(mine, target)
            : t("tn.conflict.nothing") }),
          h("dt", { text: t("tn.conflict.saved") }),
          h("dd", { class: "conflict-saved", text: now.result ? resultText(now.result, target)
            : t("tn.conflict.nothing") })),
        h("div", { class: "inline" },
          h("button", { type: "button", class: "btn btn-primary keep-mine",
            text: t("tn.conflict.keep_mine"), on: { click: () => {
              draft.version = now.version; // decided knowingly: against the version now shown
              draft.conflict = false;
              save();
            } } }),
          h("button", { type: "button", class: "btn keep-saved",
            text: t("tn.conflict.keep_saved"), on: { click: () => {
              delete S.drafts[slot.key];
              render();
            } } }))));
    }
    box.append(h("div", { class: "editor-actions" },
      h("button", { type: "button", class: "btn btn-primary save", text: t("tn.save"),
        disabled: !!draft.conflict, on: { click: save } }),
      h("button", { type: "button", class: "btn btn-ghost", text: t("tn.cancel"),
        on: { click: () => {
          delete S.drafts[slot.key];
          render();
        } } })));
    return box;
  }

  function compensationPanel(r) {
    const o = ov();
    const people = o.entrants.filter((e) => e.checked_in && !e.helper)
      .sort((x, y) => Number(x.id) - Number(y.id));
    const list = o.compensations.filter((c) => c.round === r);
    return h("section", { class: "panel comp-panel", "aria-labelledby": "comp-h" },
      h("h2", { id: "comp-h", text: t("tn.comp.title") }),
      h("p", { class: "muted small", text: t("tn.comp.hint") }),
      h("form", { class: "comp-form", on: { submit: async (ev) => {
        ev.preventDefault();
        const points = Number(S.comp.points);
        if (!S.comp.entrant) {
          toast(t("tn.comp.need_entrant"));
          return;
        }
        if (await post("/compensations", { round: r, entrant: S.comp.entrant, points,
          reason: S.comp.reason })) {
          S.comp = { entrant: "", points: "", reason: "" };
          render();
        }
      } } },
      h("div", { class: "field" }, h("label", { for: "comp-entrant", text: t("tn.comp.who") }),
        h("select", { id: "comp-entrant", on: { change: (ev) => { S.comp.entrant = ev.target.value; } } },
          h("option", { value: "", text: "–" }),
          people.map((e) => h("option", { value: e.id, selected: S.comp.entrant === e.id,
            text: `${t("tn.no", { n: e.id })} ${namesOf(e)}` })))),
      h("div", { class: "field narrow-f" }, h("label", { for: "comp-points", text: t("tn.comp.points") }),
        h("input", { id: "comp-points", type: "number", min: 1, max: o.settings.target,
          value: S.comp.points, on: { input: (ev) => { S.comp.points = ev.target.value; } } })),
      h("div", { class: "field grow" }, h("label", { for: "comp-reason", text: t("tn.comp.reason") }),
        h("input", { id: "comp-reason", type: "text", maxlength: 200, value: S.comp.reason,
          on: { input: (ev) => { S.comp.reason = ev.target.value; } } })),
      h("button", { type: "submit", class: "btn", text: t("tn.comp.add") })),
      list.length ? h("ul", { class: "comp-list" }, list.map((c) => h("li", {},
        h("strong", { text: `+${c.points}` }), ` ${t("tn.no", { n: c.entrant })} `,
        namesOf(ent(c.entrant)), h("span", { class: "muted", text: ` – ${c.reason}` }))))
        : null);
  }

  // -- ranking -------------------------------------------------------------------------------
  function rankingTab(body) {
    const r = S.ranking;
    body.append(h("section", { class: "panel", "aria-labelledby": "rank-h" },
      h("div", { class: "panel-head" },
        h("h2", { id: "rank-h", text: t("tn.ranking") }),
        h("span", { class: "muted", text: r?.round ? t("tn.rank.after", { n: r.round,
          of: r.rounds }) : t("tn.rank.before") })),
      h("p", { class: "muted small", text: t(`tn.rank.method.${r?.method || "bobbl"}`) }),
      rankingTable(r),
      h("div", { class: "inline links" },
        h("a", { class: "btn btn-small", href: `${api0}/pdf/ranking`, download: "",
          id: "dl-ranking-pdf", text: t("tn.pdf.ranking") }),
        h("a", { class: "btn btn-small", href: `${api0}/export.csv?kind=ranking`, download: "",
          text: t("tn.csv.ranking") }),
        h("a", { class: "btn btn-small", href: `/turnier/${encodeURIComponent(id)}/beamer`,
          target: "_blank", rel: "noopener", text: t("tn.beamer") }))));
  }

  // -- files -------------------------------------------------------------------------------------
  function filesTab(body) {
    const o = ov();
    if (S.pdfRound === null || S.pdfRound > o.rounds.length) S.pdfRound = o.current_round || 1;
    const pdfHref = (kind) => {
      if (kind === "score-sheets") return `${api0}/pdf/${kind}?round=${S.pdfRound}`;
      if (kind === "certificates") return `${api0}/pdf/${kind}?top=${S.top}`;
      return `${api0}/pdf/${kind}`;
    };
    const pdfs = h("ul", { class: "file-list" }, PDFS.map((kind) => {
      const disabled = kind === "score-sheets" && !o.started;
      return h("li", { "data-kind": kind },
        h("div", {}, h("strong", { text: t(`tn.pdf.${kind}`) }),
          h("small", { class: "muted block", text: t(`tn.pdf.${kind}.hint`) })),
        h("div", { class: "inline" },
          kind === "score-sheets" && o.started ? h("select", { id: "pdf-round",
            "aria-label": t("tn.round.choose"), on: { change: (ev) => {
              S.pdfRound = Number(ev.target.value);
              render();
            } } }, o.rounds.map((x) => h("option", { value: x.number,
            selected: x.number === S.pdfRound, text: t("tn.round_n", { n: x.number }) }))) : null,
          kind === "certificates" ? h("input", { id: "pdf-top", type: "number", min: 1, max: 100,
            value: S.top, "aria-label": t("tn.pdf.top"), class: "short",
            on: { change: (ev) => {
              S.top = Math.max(1, Number(ev.target.value) || 3);
              render();
            } } }) : null,
          disabled ? h("span", { class: "muted small", text: t("tn.pdf.after_start") })
            : h("a", { class: "btn btn-small btn-primary", href: pdfHref(kind), download: "",
              "data-pdf": kind, text: "PDF" })));
    }));
    const files = h("ul", { class: "file-list" },
      h("li", {}, h("strong", { text: t("tn.csv.ranking") }),
        h("a", { class: "btn btn-small", download: "", href: `${api0}/export.csv?kind=ranking`,
          text: "CSV" })),
      h("li", {}, h("strong", { text: t("tn.csv.registrations") }),
        h("a", { class: "btn btn-small", download: "",
          href: `${api0}/export.csv?kind=registrations`, text: "CSV" })),
      h("li", {}, h("div", {}, h("strong", { text: t("tn.json.export") }),
        h("small", { class: "muted block", text: t("tn.json.export_hint") })),
      h("a", { class: "btn btn-small", download: "", href: `${api0}/export.json`, text: "JSON" })),
      h("li", {}, h("div", {}, h("strong", { text: t("tn.import_json") }),
        h("small", { class: "muted block", text: t("tn.import_json_hint") })),
      h("label", { class: "btn btn-small", for: "json-import", text: t("tn.choose_file") }),
      h("input", { id: "json-import", type: "file", accept: ".json,application/json",
        class: "sr-only", on: { change: async (ev) => {
          const f = ev.target.files?.[0];
          ev.target.value = "";
          if (!f) return;
          let doc;
          try {
            doc = JSON.parse(await f.text());
          } catch {
            toast(t("tn.json.bad"));
            return;
          }
          const out = await command("POST", "/api/tournaments/import", doc, null);
          if (out) navigate(`/turnier/${encodeURIComponent(out.id)}`);
        } } })));
    const phones = h("div", { class: "qr-grid" }, (S.links || []).map((l) => h("figure", {
      class: "qr-card", "data-table": l.table },
    h("img", { src: `${api0}/tables/${l.table}/qr.svg`, alt: t("tn.qr_alt", { n: l.table }),
      width: 120, height: 120, loading: "lazy" }),
    h("figcaption", {}, h("a", { href: phonePath(l.table), target: "_blank", rel: "noopener",
      text: t("tn.table_n", { n: l.table }) })))));
    body.append(h("div", { class: "files-grid" },
      h("section", { class: "panel", "aria-labelledby": "pdf-h" },
        h("h2", { id: "pdf-h", text: t("tn.files.print") }), pdfs),
      h("section", { class: "panel", "aria-labelledby": "exp-h" },
        h("h2", { id: "exp-h", text: t("tn.files.data") }), files)),
    h("section", { class: "panel", "aria-labelledby": "qr-h" },
      h("h2", { id: "qr-h", text: t("tn.files.phones") }),
      h("p", { class: "muted small", text: t("tn.files.phones_hint") }),
      S.links?.length ? phones : h("p", { class: "muted", text: t("tn.files.no_tables") })));
  }

  // -- audit log -----------------------------------------------------------------------------
  function payloadText(p) {
    return Object.entries(p || {}).filter(([, v]) => v !== null && v !== undefined && v !== false)
      .map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
  }

  function auditTab(body) {
    const rows = (S.audit || []).slice().reverse();
    body.append(h("section", { class: "panel", "aria-labelledby": "audit-h" },
      h("div", { class: "panel-head" }, h("h2", { id: "audit-h", text: t("tn.audit.title") }),
        h("button", { type: "button", class: "btn btn-small", text: t("tn.reload"),
          on: { click: () => loadAudit().then(render).catch(toastError) } })),
      S.audit === null ? h("p", { class: "muted", text: "…" }) : h("div", { class: "table-scroll" },
        h("table", { class: "data-table audit-table" },
          h("thead", {}, h("tr", {}, ["#", t("tn.audit.when"), t("tn.audit.who"),
            t("tn.audit.what"), t("tn.audit.details")].map((x) => h("th", { scope: "col",
            text: x })))),
          h("tbody", {}, rows.map((e) => h("tr", {},
            h("td", { class: "num", text: e.seq }),
            h("td", { class: "nowrap", text: dateTimeText(e.at) }),
            h("td", { text: e.who }),
            h("td", { class: "nowrap" }, t(`tn.cmd.${e.command}`) === `tn.cmd.${e.command}`
              ? e.command : t(`tn.cmd.${e.command}`)),
            h("td", { class: "payload" }, h("code", { text: payloadText(e.payload) })))))))));
  }

  // -- settings --------------------------------------------------------------------------------
  function settingsTab(body) {
    const o = ov();
    const values = S.settings;
    const form = h("form", { class: "panel settings-form", "aria-labelledby": "set-h",
      on: { input: () => { S.settingsDirty = true; }, change: () => { S.settingsDirty = true; },
        submit: async (ev) => {
          ev.preventDefault();
          const changes = {};
          for (const [k, v] of Object.entries(values)) {
            if (v !== o.settings[k] && v !== "") changes[k] = v;
          }
          if (!Object.keys(changes).length) {
            toast(t("tn.settings.unchanged"), "info", 2500);
            return;
          }
          S.settingsDirty = false;
          if (await post("/settings", changes)) toast(t("tn.settings.saved"), "info", 2500);
          else S.settingsDirty = true;
        } } },
    h("h2", { id: "set-h", text: t("tn.tab.einstellungen") }),
    o.started ? h("p", { class: "note", text: t("tn.settings.locked") }) : null,
    settingsFields(values, { locked: o.started, idPrefix: "set" }),
    h("div", { class: "inline" },
      h("button", { type: "submit", class: "btn btn-primary", text: t("tn.save") }),
      h("button", { type: "button", class: "btn btn-ghost", text: t("tn.cancel"),
        on: { click: () => {
          S.settings = { ...DEFAULTS, ...o.settings };
          S.settingsDirty = false;
          render();
        } } })));
    body.append(form);
  }

  // -- timers --------------------------------------------------------------------------------
  const poll = setInterval(() => {
    if (!document.hidden) load({ quiet: true });
  }, 4000);

  const onHash = () => {
    const tab = location.hash.slice(1);
    if (TABS.includes(tab) && tab !== S.tab) setTab(tab);
  };
  window.addEventListener("hashchange", onHash);

  return startPage(wrap, clock, render, load, poll, () => {
    stopped = true;
    window.removeEventListener("hashchange", onHash);
  });
}
