// The single page: header, language switch, session, and client-side routing by
// location.pathname (/, /t/{id}, /replay/{id}, /history).

import { installSprite } from "./cards.js";
import { LANGUAGES, hasStoredLanguage, initLanguage, language, onLanguageChange, setLanguage, t }
  from "./i18n.js";
import { mountHistory } from "./history.js";
import { mountLobby } from "./lobby.js";
import { mountReplay } from "./replay.js";
import { mountTable } from "./table_page.js";
import { mountTournaments } from "./tournaments.js";
import { mountDesk } from "./tournament_desk.js";
import { mountTablePhone } from "./tournament_phone.js";
import { mountBeamer } from "./tournament_beamer.js";
import { api, clear, h, icon, link, nameProps, navigate, session, toastError } from "./ui.js";

const main = () => document.getElementById("main");
let current = null; // the mounted view: {destroy(), rerender()}

async function refreshSession() {
  try {
    const me = await api("GET", "/api/me");
    session.user = me.user;
  } catch {
    session.user = null;
  }
  renderHeader();
  return session.user;
}

function logo() {
  const wrap = h("span", { class: "brand-mark", "aria-hidden": "true" });
  const s = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  s.setAttribute("viewBox", "0 0 100 100");
  const u = document.createElementNS("http://www.w3.org/2000/svg", "use");
  u.setAttribute("href", "#st-suit-E");
  u.setAttribute("width", "100");
  u.setAttribute("height", "100");
  s.append(u);
  wrap.append(s);
  return wrap;
}

function renderHeader() {
  const bar = clear(document.getElementById("topbar"));
  const user = session.user;
  bar.classList.toggle("has-user", !!user);
  const nav = h("nav", { class: "nav", "aria-label": t("nav.main") },
    link("/", t("nav.lobby"), { class: `nav-lobby${location.pathname === "/" ? " active" : ""}` }),
    user ? link("/history", t("nav.history"),
      { class: location.pathname === "/history" ? "active" : "" }) : null,
    link("/turniere", t("nav.tournaments"),
      { class: /^\/turnier(e|\/)/.test(location.pathname) ? "active" : "" }));
  const langs = h("div", { class: "lang-switch", role: "group", "aria-label": t("nav.language") },
    LANGUAGES.map((code) => h("button", {
      type: "button", class: "lang", "data-lang": code, "aria-pressed": String(language() === code),
      lang: code, title: { de: "Deutsch", en: "English", es: "Español" }[code], text: code.toUpperCase(),
      on: { click: () => chooseLanguage(code) },
    })));
  const who = user
    ? h("div", { class: "who" },
      h("span", { class: "who-name", title: t("auth.logged_in_as", { name: user.name }) },
        h("span", { class: "avatar", "aria-hidden": "true", text: user.name.slice(0, 1) }),
        h("span", { class: "who-text", ...nameProps(user.name) })),
      user.guest ? h("span", { class: "badge", text: t("auth.guest_badge") }) : null,
      h("button", { type: "button", class: "btn btn-small btn-ghost logout",
        "aria-label": t("nav.logout"), title: t("nav.logout"), on: { click: logout } },
      icon("logout"), h("span", { class: "logout-text", text: t("nav.logout") })))
    : null;
  bar.append(
    h("a", { href: "/", "data-link": "", class: "brand", "aria-label": t("app.title") }, logo(),
      h("span", { class: "brand-text", text: t("app.title") })),
    nav, h("div", { class: "spacer" }), langs);
  if (who) bar.append(who);
}

async function chooseLanguage(code) {
  setLanguage(code, { store: true });
  if (session.user) {
    try {
      await api("POST", "/api/me/language", { language: code });
      session.user.language = code;
    } catch (e) {
      toastError(e);
    }
  }
}

async function logout() {
  try {
    await api("POST", "/api/logout", {});
  } catch (e) {
    toastError(e);
  }
  session.user = null;
  renderHeader();
  navigate("/");
  route(true);
}

async function claimSeat(id, token, invite) {
  try {
    await api("POST", "/api/tournaments/online/claim", { table_id: id, token });
  } catch (e) {
    toastError(e);
  }
  const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  history.replaceState(null, "", `/t/${encodeURIComponent(id)}${query}`);
  route(true);
}

function route(force = false) {
  const path = location.pathname;
  const params = new URLSearchParams(location.search);
  const key = path + location.search;
  if (!force && current && current.key === key) return;
  if (current) current.destroy?.();
  const root = clear(main());
  let m;
  let view;
  if (path === "/" || path === "") {
    view = mountLobby(root);
  } else if ((m = /^\/t\/([^/]+)\/?$/.exec(path))) {
    const id = decodeURIComponent(m[1]);
    if (params.get("claim") && session.user) {
      // an online tournament's seat link: take the seat, then show the table
      claimSeat(id, params.get("claim"), params.get("invite"));
      view = { destroy() {} };
    } else {
      view = mountTable(root, { id, invite: params.get("invite") });
    }
  } else if ((m = /^\/replay\/([A-Za-z0-9_-]+)\/?$/.exec(path))) {
    // a game's opaque id; ?share= opens a private table's game for whoever has the link
    view = mountReplay(root, { id: m[1], share: params.get("share") });
  } else if (path === "/history" || path === "/history/") {
    view = mountHistory(root);
  } else if (path === "/turniere" || path === "/turniere/") {
    view = mountTournaments(root);
  } else if ((m = /^\/turnier\/([^/]+)\/tisch\/(\d+)\/?$/.exec(path))) {
    view = mountTablePhone(root, { id: decodeURIComponent(m[1]), table: Number(m[2]),
      token: params.get("token") });
  } else if ((m = /^\/turnier\/([^/]+)\/beamer\/?$/.exec(path))) {
    view = mountBeamer(root, { id: decodeURIComponent(m[1]) });
  } else if ((m = /^\/turnier\/([^/]+)\/?$/.exec(path))) {
    view = mountDesk(root, { id: decodeURIComponent(m[1]), checkin: params.get("checkin") });
  } else {
    root.append(h("section", { class: "panel narrow" }, h("h1", { text: t("notfound") }),
      link("/", t("table.back"), { class: "btn" })));
    view = {};
  }
  current = { key, ...view };
  renderHeader();
  window.scrollTo(0, 0);
}

function onLinkClick(ev) {
  const a = ev.target.closest?.("a[data-link]");
  if (!a || ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey) {
    return;
  }
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  ev.preventDefault();
  navigate(url.pathname + url.search);
}

async function start() {
  installSprite();
  initLanguage();
  document.title = t("app.title");
  document.getElementById("skip").textContent = t("nav.skip");
  onLanguageChange(() => {
    document.getElementById("skip").textContent = t("nav.skip");
    renderHeader();
    if (current?.rerender) current.rerender();
    else route(true);
  });
  document.addEventListener("click", onLinkClick);
  window.addEventListener("popstate", () => route());
  window.addEventListener("st-navigate", () => route());
  window.addEventListener("st-session", () => renderHeader());
  renderHeader();
  const user = await refreshSession();
  if (user && !hasStoredLanguage() && user.language && user.language !== language()) {
    setLanguage(user.language, { silent: true });
    renderHeader();
  }
  route(true);
}

start();
