// /turniere: the organiser's tournaments, a new tournament with its settings, a tournament
// from an exported JSON file.  Logged out: log in or register first.

import { command, dateTimeText } from "./tournament_common.js";
import { t } from "./i18n.js";
import { api, clear, h, link, navigate, session, setUser, toastError } from "./ui.js";

export const DEFAULTS = {
  name: "Muckturnier", rounds: 5, bobbl_per_round: 2, target: 21, time_limit_minutes: 40,
  mode: "pairs", seating: "seefest", ranking: "bobbl", entry_fee_cents: 1000,
  odd_handling: "undecided", bye_bobbl: 1, bye_tore: 0, double_entry: false,
  phone_entries_final: false, planned_tables: 0,
};

const NUMBERS = [
  ["rounds", 1, 50], ["bobbl_per_round", 1, 10], ["target", 1, 1000],
  ["time_limit_minutes", 0, 600], ["planned_tables", 0, 1000],
];

// The settings form: values is changed in place.  locked: every field but the time limit
// is read-only (the tournament has started).
export function settingsFields(values, { locked = false, idPrefix = "s" } = {}) {
  const id = (k) => `${idPrefix}-${k}`;
  const ro = (k) => locked && k !== "time_limit_minutes";
  const num = (k, lo, hi) => h("div", { class: "field" },
    h("label", { for: id(k), text: t(`tn.set.${k}`) }),
    h("input", { id: id(k), type: "number", min: lo, max: hi, step: 1, value: values[k],
      required: true, disabled: ro(k), on: { input: (ev) => {
        values[k] = ev.target.value === "" ? "" : Number(ev.target.value);
      } } }));
  const select = (k, options, onChange) => h("div", { class: "field span2" },
    h("label", { for: id(k), text: t(`tn.set.${k}`) }),
    h("select", { id: id(k), disabled: ro(k), on: { change: (ev) => {
      values[k] = ev.target.value;
      onChange?.();
    } } }, options.map((o) => h("option", { value: o, selected: values[k] === o,
      text: t(`tn.set.${k}.${o}`) }))));
  const check = (k) => h("div", { class: "check" },
    h("input", { id: id(k), type: "checkbox", checked: !!values[k], disabled: ro(k),
      on: { change: (ev) => { values[k] = ev.target.checked; } } }),
    h("label", { for: id(k) }, h("span", { text: t(`tn.set.${k}`) }),
      h("small", { class: "muted block", text: t(`tn.set.${k}.hint`) })));

  const box = h("div", { class: "settings-fields" });
  function render() {
    const focused = document.activeElement?.id;
    clear(box);
    const fee = h("input", { id: id("entry_fee"), type: "number", min: 0, step: "0.5",
      value: (values.entry_fee_cents || 0) / 100, disabled: ro("entry_fee_cents"),
      on: { input: (ev) => {
        values.entry_fee_cents = Math.round(Number(ev.target.value || 0) * 100);
      } } });
    box.append(
      h("div", { class: "field wide" }, h("label", { for: id("name"), text: t("tn.set.name") }),
        h("input", { id: id("name"), type: "text", maxlength: 120, required: true,
          value: values.name, disabled: ro("name"),
          on: { input: (ev) => { values.name = ev.target.value; } } })),
      h("div", { class: "field-grid" },
        NUMBERS.slice(0, 4).map(([k, lo, hi]) => num(k, lo, hi)),
        h("div", { class: "field" }, h("label", { for: id("entry_fee"),
          text: t("tn.set.entry_fee") }), fee),
        num("planned_tables", 0, 1000),
        select("mode", ["pairs", "singles"], () => {
          if (values.mode === "singles") values.seating = "draw";
          render();
        }),
        select("seating", values.mode === "singles" ? ["draw"] : ["seefest", "draw"]),
        select("ranking", ["bobbl", "plus", "plus-minus"]),
        select("odd_handling", ["undecided", "helpers", "bye"], render),
        values.odd_handling === "bye" ? [num("bye_bobbl", 0, 10), num("bye_tore", 0, 1000)]
          : null),
      check("double_entry"), check("phone_entries_final"));
    if (focused) box.querySelector(`#${CSS.escape(focused)}`)?.focus();
  }
  render();
  return box;
}

export function mountTournaments(root) {
  const wrap = h("div", { class: "tn-page tn-list-page" });
  root.append(wrap);
  let list = null;
  const values = { ...DEFAULTS };

  async function load() {
    if (!session.user) {
      render();
      return;
    }
    try {
      list = (await api("GET", "/api/tournaments")).tournaments;
    } catch (e) {
      toastError(e);
      list = [];
    }
    render();
  }

  function render() {
    clear(wrap);
    wrap.append(h("div", { class: "tn-hero" }, h("h1", { text: t("tn.title") }),
      h("p", { text: t("tn.tagline") })));
    if (!session.user) {
      wrap.append(authPanel());
      return;
    }
    const items = (list || []).slice().sort((a, b) => b.updated_at.localeCompare(a.updated_at));
    const listPanel = h("section", { class: "panel", "aria-labelledby": "tn-mine-h" },
      h("h2", { id: "tn-mine-h", text: t("tn.mine") }),
      list === null ? h("p", { class: "muted", text: "…" })
        : items.length ? h("ul", { class: "tn-cards" }, items.map((x) => h("li", {
          class: "tn-card" },
        h("div", { class: "tn-card-main" },
          link(`/turnier/${encodeURIComponent(x.id)}`, x.name, { class: "tn-card-name" }),
          h("small", { class: "muted", text: t("tn.updated", {
            when: dateTimeText(x.updated_at) }) })),
        h("div", { class: "tn-card-actions" },
          link(`/turnier/${encodeURIComponent(x.id)}`, t("tn.open_desk"),
            { class: "btn btn-small btn-primary" }),
          h("a", { href: `/turnier/${encodeURIComponent(x.id)}/beamer`, target: "_blank",
            rel: "noopener", class: "btn btn-small", text: t("tn.beamer") })))))
          : h("p", { class: "empty", text: t("tn.none") }),
      importBox());
    const form = h("form", { class: "tn-create", "aria-labelledby": "tn-new-h",
      on: { submit: create } },
    settingsFields(values, { idPrefix: "c" }),
    h("p", { class: "muted small", text: t("tn.fee_hint") }),
    h("button", { type: "submit", class: "btn btn-primary btn-wide", text: t("tn.create") }));
    const createPanel = h("section", { class: "panel" },
      h("h2", { id: "tn-new-h", text: t("tn.new") }), form);
    wrap.append(h("div", { class: "tn-list-grid" }, listPanel, createPanel));
  }

  function importBox() {
    const file = h("input", { id: "tn-import-file", type: "file", accept: ".json,application/json",
      class: "sr-only", on: { change: async (ev) => {
        const f = ev.target.files?.[0];
        if (f) await importJson(f);
        ev.target.value = "";
      } } });
    return h("div", { class: "tn-import" },
      h("label", { for: "tn-import-file", class: "btn btn-small", text: t("tn.import_json") }),
      file, h("small", { class: "muted", text: t("tn.import_json_hint") }));
  }

  async function importJson(f) {
    let doc;
    try {
      doc = JSON.parse(await f.text());
    } catch {
      toastError(new Error("json"));
      return;
    }
    const out = await command("POST", "/api/tournaments/import", doc);
    if (out) navigate(`/turnier/${encodeURIComponent(out.id)}`);
  }

  async function create(ev) {
    ev.preventDefault();
    const settings = { ...values, name: (values.name || "").trim() };
    for (const [k] of NUMBERS) if (settings[k] === "") delete settings[k];
    if (settings.odd_handling !== "bye") {
      delete settings.bye_bobbl;
      delete settings.bye_tore;
    }
    const btn = ev.target.querySelector("button[type=submit]");
    btn.disabled = true;
    const out = await command("POST", "/api/tournaments", { settings });
    btn.disabled = false;
    if (out) navigate(`/turnier/${encodeURIComponent(out.id)}`);
  }

  function authPanel() {
    function credForm(kind) {
      const n = h("input", { id: `tn-${kind}-name`, required: true, minlength: 2, maxlength: 24,
        autocomplete: "username" });
      const p = h("input", { id: `tn-${kind}-password`, type: "password", required: true,
        minlength: kind === "register" ? 8 : 1,
        autocomplete: kind === "register" ? "new-password" : "current-password" });
      return h("form", { class: "auth-card", id: `tn-${kind}`, on: { submit: async (ev) => {
        ev.preventDefault();
        try {
          await api("POST", `/api/${kind}`, { name: n.value, password: p.value });
          setUser((await api("GET", "/api/me")).user);
          await load();
        } catch (e) {
          toastError(e);
        }
      } } },
      h("h2", { text: t(`auth.${kind}`) }),
      h("label", { for: n.id, text: t("auth.name") }), n,
      h("label", { for: p.id, text: t("auth.password") }), p,
      kind === "register" ? h("small", { class: "muted", text: t("auth.password_hint") }) : null,
      h("button", { type: "submit", class: `btn${kind === "login" ? " btn-primary" : ""}`,
        text: t(`auth.${kind}`) }));
    }
    return h("section", { class: "panel tn-auth" },
      h("p", { text: t("tn.need_login") }),
      h("div", { class: "auth-grid two" }, credForm("login"), credForm("register")));
  }

  load();
  return {
    rerender: render,
    destroy() {},
  };
}

