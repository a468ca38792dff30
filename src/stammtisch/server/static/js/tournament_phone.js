// /turnier/{id}/tisch/{n}?token=…: the phone page of one table (opened by the QR code on
// the score sheet).  Shows the current round's pairing and lets the players enter their
// Bobbl, game by game or as final figures.  Entries go to the desk for confirmation unless
// the organiser made phone entries final.  Drafts survive a reload (localStorage).

import {
  RoundClock, base, conflictText, draftEntry, draftFrom, entryBody, finalForm, gameGrid,
  modeSwitch, resultText, startPage, tickClocks,
} from "./tournament_common.js";
import { t } from "./i18n.js";
import { ApiError, api, apiErrorText, clear, h, toast, toastError } from "./ui.js";

export function mountTablePhone(root, { id, table, token }) {
  const wrap = h("div", { class: "tn-page phone" });
  root.append(wrap);
  document.body.classList.add("phone-mode");
  const clock = new RoundClock();
  const path = `${base(id)}/tables/${table}`;
  const q = `?token=${encodeURIComponent(token || "")}`;
  const store = `tn-phone:${id}:${table}`;
  let sheet = null;
  let failed = null;
  let stopped = false;
  let drafts = {};
  try {
    drafts = JSON.parse(localStorage.getItem(`${store}:drafts`) || "{}");
  } catch {
    drafts = {};
  }
  let side = Number(localStorage.getItem(`${store}:side`)) || null;

  function save() {
    try {
      localStorage.setItem(`${store}:drafts`, JSON.stringify(drafts));
    } catch { /* private mode: drafts live in memory only */ }
  }

  async function load({ quiet = false } = {}) {
    try {
      const next = await api("GET", `${path}/sheet${q}`);
      const changed = !sheet || next.tournament_version !== sheet.tournament_version;
      sheet = next;
      failed = null;
      clock.set(sheet.clock);
      // drafts of Bobbl from other rounds are no longer needed
      const keys = new Set(sheet.bobbl.map((b) => b.key));
      for (const k of Object.keys(drafts)) if (!keys.has(k)) delete drafts[k];
      save();
      if (changed || !quiet) render();
    } catch (e) {
      if (!quiet || !sheet) {
        failed = e;
        render();
        if (!(e instanceof ApiError) || e.status !== 403) toastError(e);
      }
    }
  }

  function sidesOf() {
    return (sheet.sides || []).map((s, i) => ({
      label: t("tn.pair_n", { n: i + 1 }),
      names: s ? s.entrants.map((e) => e.names.join(" & ")).join(" & ") : "",
    }));
  }

  function render() {
    if (stopped) return;
    const focused = document.activeElement && wrap.contains(document.activeElement)
      ? document.activeElement.id : null;
    clear(wrap);
    if (!token || (failed instanceof ApiError && failed.status === 403)) {
      wrap.append(h("section", { class: "panel phone-card" },
        h("h1", { text: t("tn.table_n", { n: table }) }),
        h("p", { text: t("error.bad_token") })));
      return;
    }
    if (!sheet) {
      wrap.append(h("section", { class: "panel phone-card" },
        h("p", { class: "muted", text: failed ? apiErrorText(failed) : "…" })));
      return;
    }
    const head = h("header", { class: "phone-head" },
      h("div", { class: "phone-title" },
        h("small", { text: sheet.name }),
        h("h1", {}, t("tn.table_n", { n: table }),
          sheet.round ? h("span", { class: "phone-round", text: ` · ${t("tn.round_n",
            { n: sheet.round })}` }) : null)),
      sheet.round ? h("div", { class: "phone-clock" },
        h("span", { class: "clock-num", "data-clock": "", role: "timer" }),
        h("small", { "data-clock-label": "" })) : null);
    wrap.append(head);
    if (!sheet.round) {
      wrap.append(h("section", { class: "panel phone-card" },
        h("p", { class: "big-note", text: t("tn.phone.not_started") })));
      return;
    }
    const sides = sidesOf();
    wrap.append(h("section", { class: "panel phone-card pairing", "aria-label": t("tn.phone.pairing") },
      sides.map((s, i) => h("div", { class: `pair-box pair${i + 1}` },
        h("span", { class: "pair-label", text: s.label }),
        h("strong", { class: "pair-names", text: s.names || t("tn.bye") })))));
    if (sheet.bye) {
      wrap.append(h("section", { class: "panel phone-card" },
        h("p", { class: "big-note", text: t("tn.phone.bye") })));
      return;
    }
    if (sheet.double_entry) {
      wrap.append(h("section", { class: "panel phone-card" },
        h("div", { class: "label", text: t("tn.phone.we_are") }),
        h("div", { class: "seg", role: "group", "aria-label": t("tn.phone.we_are") },
          [1, 2].map((s) => h("button", { type: "button", class: "seg-btn",
            "aria-pressed": String(side === s), text: sides[s - 1].label,
            on: { click: () => {
              side = s;
              localStorage.setItem(`${store}:side`, String(s));
              render();
            } } })))));
    }
    for (const b of sheet.bobbl) wrap.append(bobblCard(b, sides));
    wrap.append(h("p", { class: "muted small center", text: sheet.phone_entries_final
      ? t("tn.phone.final_note") : t("tn.phone.desk_note") }));
    tickClocks(wrap, clock);
    if (focused) wrap.querySelector(`#${CSS.escape(focused)}`)?.focus({ preventScroll: true });
  }

  function bobblCard(b, sides) {
    const target = sheet.target;
    // this phone's entry (with double entry: the chosen pair's own entry)
    const myKey = sheet.double_entry ? (side ? `phone:${table}:${side}` : null)
      : `phone:${table}`;
    const mine = myKey ? b.entries[myKey] : null;
    const card = h("section", { class: "panel phone-card bobbl-card", "data-index": b.index,
      "aria-labelledby": `bobbl-h-${b.index}` },
    h("h2", { id: `bobbl-h-${b.index}`, text: t("tn.bobbl_n", { n: b.index + 1 }) }));
    const draft = drafts[b.key];
    if (b.time_up) {
      card.append(h("p", { class: "result-line timeup", text: resultText(b.result, target) }));
      return card;
    }
    const request = myKey ? (b.requests || {})[myKey] : null;
    if (b.decided && !draft?.request) {
      if (draft) {
        delete drafts[b.key];
        save();
      }
      card.append(h("p", { class: "result-line done" }, h("span", { class: "tick",
        "aria-hidden": "true", text: "✓ " }), resultText(b.result, target)),
      h("small", { class: "muted", text: t("tn.phone.confirmed") }));
      if (request) {
        card.append(h("p", { class: "request-note", text: t("tn.phone.request_waiting",
          { result: resultText(request, target) }) }));
      }
      // a settled result is changed only by the desk: the phone asks for a correction
      card.append(h("button", { type: "button", class: "btn btn-wide btn-ghost correct",
        text: t("tn.phone.correct"), on: { click: () => {
          if (sheet.double_entry && !side) {
            toast(t("tn.phone.choose_side"));
            return;
          }
          drafts[b.key] = { ...draftFrom(request || b.result), edit: true, request: true,
            version: b.version };
          save();
          render();
        } } }));
      return card;
    }
    if (b.decided) {
      card.append(h("p", { class: "result-line done" }, resultText(b.result, target)));
    }
    if (mine && !draft?.edit) {
      card.append(h("p", { class: "result-line pending", text: resultText(mine, target) }),
        h("p", { class: "waiting-note", text: t(sheet.double_entry ? "tn.phone.waiting_compare"
          : "tn.phone.waiting") }),
        h("button", { type: "button", class: "btn btn-wide", text: t("tn.edit"),
          on: { click: () => {
            drafts[b.key] = { ...draftFrom(mine), edit: true, version: b.version };
            save();
            render();
          } } }));
      return card;
    }
    if (b.result && !draft?.edit) {
      card.append(h("p", { class: "result-line partial", text: resultText(b.result, target) }));
    }
    // the version the draft was started at: a save against a newer one is refused
    const d = draft || (drafts[b.key] = { ...draftFrom(b.result), version: b.version });
    const onChange = () => save();
    const idPrefix = `p${b.index}`;
    const editorBox = h("div", { class: "editor" });
    const paint = () => {
      save();
      clear(editorBox).append(...editorParts().filter(Boolean));
    };
    function editorParts() {
      return [modeSwitch(d, paint),
        d.mode === "games"
          ? gameGrid({ draft: d, target, sides, onChange, chips: true, idPrefix })
          : finalForm({ draft: d, target, sides, onChange, idPrefix, big: true }),
        h("button", { type: "button", class: "btn btn-primary btn-wide btn-big send",
          text: t(d.request ? "tn.phone.send_request" : sheet.phone_entries_final
            ? "tn.phone.send_final" : "tn.phone.send"),
          on: { click: () => send(b, d) } }),
        d.edit ? h("button", { type: "button",
          class: "btn btn-ghost btn-wide", text: t("tn.cancel"), on: { click: () => {
            delete drafts[b.key];
            save();
            render();
          } } }) : null];
    }
    editorBox.append(...editorParts().filter(Boolean));
    card.append(editorBox);
    return card;
  }

  async function send(b, d) {
    const entry = entryBody(d, sheet.target);
    if (!entry) return;
    if (b.decided && draftEntry(d, sheet.target)?.winner == null) {
      toast(t("tn.edit.needs_winner"));
      return;
    }
    if (sheet.double_entry && !side) {
      toast(t("tn.phone.choose_side"));
      return;
    }
    const body = { index: b.index, ...entry, expected_version: d.version ?? b.version };
    if (sheet.double_entry) body.side = side;
    try {
      await api("POST", `${path}/entries${q}`, body);
      delete drafts[b.key];
      save();
      toast(t(d.request ? "tn.phone.request_sent" : sheet.double_entry ? "tn.phone.sent_compare"
        : sheet.phone_entries_final ? "tn.phone.sent_final" : "tn.phone.sent"), "info", 4000);
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        // changed meanwhile: the draft stays next to the fresh state; sending again is a
        // decision against what is shown now
        toast(conflictText(e));
        const cur = e.detail?.conflict?.version;
        if (Number.isInteger(cur)) {
          d.version = cur;
          save();
        }
      } else {
        toastError(e);
        return;
      }
    }
    await load();
  }

  const poll = setInterval(() => {
    if (!document.hidden) load({ quiet: true });
  }, 8000);
  return startPage(wrap, clock, render, load, poll, () => {
    stopped = true;
    document.body.classList.remove("phone-mode");
  });
}

