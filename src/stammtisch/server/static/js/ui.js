// DOM helpers, toasts and the small fetch wrapper.  Text always goes in through
// textContent (h(..., {text}) or string children), never through innerHTML.

import { errorText, language, t } from "./i18n.js";

export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") node.textContent = String(v);
    else if (k === "class") node.className = v;
    else if (k === "on") for (const [ev, fn] of Object.entries(v)) node.addEventListener(ev, fn);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "style" && typeof v === "object") Object.assign(node.style, v);
    else if (v === true) node.setAttribute(k, "");
    else node.setAttribute(k, String(v));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(node, c);
    else node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

// -- toasts ----------------------------------------------------------------------------------
export function toast(message, kind = "error", ms = 6000) {
  const box = document.getElementById("toasts");
  const close = h("button", { type: "button", class: "toast-close",
    "aria-label": t("toast.close"), text: "×" });
  const node = h("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" },
    h("span", { class: "toast-text", text: message }), close);
  const remove = () => node.remove();
  close.addEventListener("click", remove);
  box.append(node);
  while (box.children.length > 4) box.firstChild.remove();
  if (ms) setTimeout(remove, ms);
  return node;
}

// An API error in the page's language (its code, reason and params; see i18n.errorText).
export function apiErrorText(err) {
  if (!(err instanceof ApiError)) return t("error.network");
  return errorText(err.code, err.message, err.detail?.reason, err.detail?.params);
}

export function toastError(err) {
  toast(apiErrorText(err));
}

// Remove the toasts of one kind (all if none is named): an error that was answered — a
// refused password before a successful registration — does not stay on screen.
export function clearToasts(kind = null) {
  const box = document.getElementById("toasts");
  if (!box) return;
  for (const node of [...box.children]) {
    if (!kind || node.classList.contains(`toast-${kind}`)) node.remove();
  }
}

// -- chat: emoji as text ----------------------------------------------------------------------
// Many machines have no colour-emoji font (and the page loads none: no network, no font
// shipped), so a pictograph would show as an empty box.  The rule (docs/server.md): the
// common faces and gestures become the text emoticons people typed before emoji (🙂 → ":-)");
// any other pictograph becomes "(Emoji)" in the page's language; the joiners and variation
// selectors that glue emoji together are dropped.  Letters, digits, punctuation and the
// symbols of a text font (€, ♥ as text, ✓) stay as they are.
const EMOTICONS = new Map([
  ["🙂", ":-)"], ["😀", ":-D"], ["😃", ":-D"], ["😄", ":-D"], ["😁", ":-D"], ["😆", "xD"],
  ["😂", ":'-D"], ["🤣", ":'-D"], ["😊", ":-)"], ["☺", ":-)"], ["😉", ";-)"], ["😜", ";-P"],
  ["😛", ":-P"], ["😝", "xP"], ["🙁", ":-("], ["☹", ":-("], ["😞", ":-("], ["😢", ":'-("],
  ["😭", ":'-("], ["😮", ":-O"], ["😲", ":-O"], ["😱", ":-O"], ["😐", ":-|"], ["😑", ":-|"],
  ["😕", ":-/"], ["😏", ":-]"], ["😎", "B-)"], ["😘", ":-*"], ["😍", "<3"], ["❤", "<3"],
  ["💔", "</3"], ["👍", "(+1)"], ["👎", "(-1)"], ["👏", "(Applaus)"], ["🍺", "(Prost)"],
  ["🍻", "(Prost)"], ["😡", ">:-("], ["😠", ">:-("], ["🤔", "(hmm)"], ["😴", "(zzz)"],
]);
const PICTOGRAPH = /\p{Extended_Pictographic}(?:\p{Emoji_Modifier}|\uFE0F|\u200D\p{Extended_Pictographic}\uFE0F?)*|[\u{1F1E6}-\u{1F1FF}]{1,2}/gu;
export function chatText(text) {
  return String(text ?? "").replace(PICTOGRAPH, (m) => {
    const base = m.replace(/[\uFE0F\u200D]|\p{Emoji_Modifier}/gu, "");
    const first = [...base][0] ?? "";
    const known = EMOTICONS.get(base) ?? EMOTICONS.get(first);
    if (known) return known;
    // the older symbols (©, ™, ♥, ✓ …) are in text fonts: kept, unless asked for as emoji
    if (first.codePointAt(0) < 0x1F000 && !m.includes("\uFE0F")) return base;
    return t("chat.emoji");
  }).replace(/[\uFE0F\u200D]/g, "");
}

// -- words and numbers the same way on every page -----------------------------------------
const LOCALES = { de: "de-DE", en: "en-GB", es: "es-ES" };
export const locale = () => LOCALES[language()] ?? "de-DE";

// Money in euros from cents, in the page's language: "+2,40 €" (de, es), "+€2.40" (en);
// sign: "+" before gains (a loss always has its "−").
export function euros(cents, { sign = false } = {}) {
  return new Intl.NumberFormat(locale(), { style: "currency", currency: "EUR",
    signDisplay: sign ? "exceptZero" : "auto" }).format((Number(cents) || 0) / 100);
}

//: names are 2–24 characters (the server's NAME_MAX); where space is short a name is
//: shortened by shortName, the same way everywhere
export const NAME_MAX = 24;
// A name for a small place: at most `max` characters, else cut with "…"; the full name
// goes in the element's title (nameProps).  shortName("Maximilian-Ferdinand", 12) ->
// "Maximilian-…".
export function shortName(name, max = 14) {
  const s = String(name ?? "");
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}
export function nameProps(name, max = 14) {
  const text = shortName(name, max);
  return text === String(name ?? "") ? { text } : { text, title: String(name) };
}

// -- session and API -------------------------------------------------------------------------
export const session = { user: null };

export function setUser(user) {
  if (user) clearToasts("error");
  session.user = user;
  window.dispatchEvent(new Event("st-session"));
}

function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [k, ...rest] = part.trim().split("=");
    if (k === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

export function csrfToken() {
  return session.user?.csrf || cookie("stammtisch_csrf") || "";
}

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET") headers["X-CSRF-Token"] = csrfToken();
  let resp;
  try {
    resp = await fetch(path, { method, headers, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, "network", String(e));
  }
  let data = null;
  try {
    data = await resp.json();
  } catch {
    data = null;
  }
  if (!resp.ok) {
    const err = new ApiError(resp.status, data?.code || `http_${resp.status}`,
      data?.message || resp.statusText);
    err.detail = data; // the whole answer (e.g. a tournament conflict's entity and versions)
    throw err;
  }
  return data;
}

// -- websockets with reconnect ----------------------------------------------------------------
// onMessage(msg), onStatus({state: "open"|"retry"|"closed", delay}); returns {send, close, now}.
export function socket(path, { onMessage, onStatus, fatalCodes = [4403, 4404] }) {
  let ws = null;
  let attempt = 0;
  let timer = null;
  let stopped = false;
  let fatal = false;
  // messages that may wait while the socket is still opening (chat), sent on "open"
  const pending = [];

  function connect() {
    clearTimeout(timer);
    timer = null;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}${path}`);
    ws.addEventListener("open", () => {
      attempt = 0;
      for (const msg of pending.splice(0)) ws.send(JSON.stringify(msg));
      onStatus?.({ state: "open" });
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      onMessage(msg);
    });
    ws.addEventListener("close", (ev) => {
      ws = null;
      pending.length = 0;
      if (stopped) return;
      if (fatal || fatalCodes.includes(ev.code)) {
        onStatus?.({ state: "closed" });
        return;
      }
      const delay = Math.min(15000, 500 * 2 ** attempt) * (0.8 + Math.random() * 0.4);
      attempt += 1;
      onStatus?.({ state: "retry", delay });
      timer = setTimeout(connect, delay);
    });
  }
  connect();
  return {
    send(msg) {
      if (ws && ws.readyState === WebSocket.OPEN) {
        ws.send(JSON.stringify(msg));
        return true;
      }
      return false;
    },
    // like send, but while the socket is still opening the message waits for it (a chat
    // line typed as the page opens); false only when there is no connection at all
    sendSoon(msg) {
      if (ws && ws.readyState === WebSocket.CONNECTING) {
        pending.push(msg);
        return true;
      }
      return this.send(msg);
    },
    now() {
      if (!ws) connect();
    },
    markFatal() {
      fatal = true;
    },
    close() {
      stopped = true;
      clearTimeout(timer);
      if (ws) ws.close();
    },
  };
}

export function navigate(path) {
  if (path === location.pathname + location.search) return;
  history.pushState({}, "", path);
  window.dispatchEvent(new Event("st-navigate"));
}

export function link(href, text, props = {}) {
  return h("a", { href, "data-link": "", ...props, text });
}

export function fmtSeconds(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The buttons of one's turn: ``button(word)`` sends the word (labelled ``wordOf(word)``),
// ``group(label, ...buttons)`` is a labelled row of them.
export function choiceMakers(send, wordOf) {
  return {
    button: (w, extra = "", label = wordOf(w)) => h("button", { type: "button",
      class: `btn call${extra}`, "data-action": w, "data-legal": "true", text: label,
      on: { click: () => send(w) } }),
    group: (label, ...nodes) => h("div", { class: "choices", role: "group",
      "aria-label": label }, ...nodes),
  };
}

// A list still loading ("…") or empty (``emptyText``) says so in ``box``: then true (the
// caller has nothing more to draw), else false.
export function placeholder(box, items, emptyText) {
  if (items === null) box.append(h("p", { class: "muted", text: "…" }));
  else if (!items.length) box.append(h("p", { class: "empty", text: emptyText }));
  else return false;
  return true;
}

// A card of the hand that may be picked into a set (Mulatschak's exchange, Mus's descarte):
// legal, marked and pressed while in ``picked``; a click toggles it and calls ``changed``.
export function pickable(el, code, picked, cls, changed) {
  el.classList.add("legal", cls);
  el.dataset.legal = "true";
  el.dataset.action = code;
  const show = () => {
    el.classList.toggle("picked", picked.has(code));
    el.setAttribute("aria-pressed", String(picked.has(code)));
  };
  show();
  el.addEventListener("click", () => {
    if (picked.has(code)) picked.delete(code);
    else picked.add(code);
    show();
    changed();
  });
}

// Small line icons (no emoji fonts needed).
const ICONS = {
  clock: "M12 7v5l3 2M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18",
  bot: "M6 9h12v9H6zM12 5v4M9 13h.01M15 13h.01M4 12v3M20 12v3",
  person: "M12 12a4 4 0 1 0 0-8a4 4 0 1 0 0 8M5 20c1-4 4-6 7-6s6 2 7 6",
  first: "M6 6v12M18 6l-8 6l8 6z",
  prev: "M15 6l-6 6l6 6",
  next: "M9 6l6 6l-6 6",
  last: "M18 6v12M6 6l8 6l-8 6z",
  logout: "M10 4H5v16h5M14 8l4 4-4 4M18 12H9",
  fullscreen: "M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5",
};

export function icon(name) {
  const ns = "http://www.w3.org/2000/svg";
  const s = document.createElementNS(ns, "svg");
  s.setAttribute("viewBox", "0 0 24 24");
  s.setAttribute("class", `icon icon-${name}`);
  s.setAttribute("aria-hidden", "true");
  s.setAttribute("focusable", "false");
  const p = document.createElementNS(ns, "path");
  p.setAttribute("d", ICONS[name]);
  p.setAttribute("fill", "none");
  p.setAttribute("stroke", "currentColor");
  p.setAttribute("stroke-width", "2");
  p.setAttribute("stroke-linecap", "round");
  p.setAttribute("stroke-linejoin", "round");
  s.append(p);
  return s;
}
