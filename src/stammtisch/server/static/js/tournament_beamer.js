// /turnier/{id}/beamer: the projector view.  Round number, the round clock (big), the live
// ranking (Bobbl, Tore, gegnerische Tore, Los) scrolling slowly when it is longer than the
// screen.  Public: only the ranking and the clock routes; refreshes on its own.

import { RoundClock, base, rankingTable, startPage, tickClocks } from "./tournament_common.js";
import { t } from "./i18n.js";
import { api, clear, h, icon } from "./ui.js";

const REFRESH_MS = 10000;
const SPEED = 28; // px per second
const PAUSE_MS = 4000;

export function mountBeamer(root, { id }) {
  document.body.classList.add("beamer-mode");
  const wrap = h("div", { class: "beamer" });
  root.append(wrap);
  const clock = new RoundClock();
  let ranking = null;
  let info = null;
  let error = null;
  let stopped = false;
  let scroller = null;

  async function load() {
    try {
      const [r, c] = await Promise.all([api("GET", `${base(id)}/ranking`),
        api("GET", `${base(id)}/clock`)]);
      const changed = JSON.stringify(r.rows) !== JSON.stringify(ranking?.rows)
        || c.round !== info?.round || !ranking;
      ranking = r;
      info = c;
      error = null;
      clock.set(c.clock);
      if (changed) render();
      else renderHead();
    } catch (e) {
      error = e;
      if (!ranking) render();
    }
  }

  let headBox;
  function renderHead() {
    if (!headBox) return;
    clear(headBox);
    const started = info?.round;
    headBox.append(...[
      h("div", { class: "beamer-title" },
        h("h1", { text: info?.name || ranking?.name || "" }),
        h("div", { class: "beamer-round", text: started
          ? t("tn.beamer.round", { n: info.round, of: info.rounds })
          : t("tn.beamer.soon") })),
      started ? h("div", { class: "beamer-clock" },
        h("div", { class: "clock-num", "data-clock": "", role: "timer",
          "aria-label": t("tn.clock.title") }),
        h("div", { class: "clock-label", "data-clock-label": "" })) : null].filter(Boolean));
    tickClocks(wrap, clock);
  }

  function render() {
    if (stopped) return;
    clear(wrap);
    if (error && !ranking) {
      wrap.append(h("p", { class: "beamer-error", text: t("tn.not_found") }));
      return;
    }
    headBox = h("header", { class: "beamer-head" });
    wrap.append(headBox);
    renderHead();
    const list = h("div", { class: "beamer-list" });
    const inner = h("div", { class: "beamer-inner" }, ranking ? rankingTable(ranking,
      { big: true }) : h("p", { text: "…" }));
    list.append(inner);
    wrap.append(list,
      h("button", { type: "button", class: "beamer-fs", title: t("tn.beamer.fullscreen"),
        "aria-label": t("tn.beamer.fullscreen"), on: { click: () => {
          if (document.fullscreenElement) document.exitFullscreen();
          else document.documentElement.requestFullscreen?.().catch(() => {});
        } } }, icon("fullscreen")));
    startScroll(list);
  }

  // auto-scroll: down slowly, pause at the end, back to the top, pause
  function startScroll(list) {
    if (scroller) cancelAnimationFrame(scroller.raf);
    const st = { raf: 0, pos: 0, last: performance.now(), pauseUntil: performance.now() + PAUSE_MS };
    scroller = st;
    const step = (now) => {
      if (stopped || scroller !== st) return;
      const max = list.scrollHeight - list.clientHeight;
      const dt = now - st.last;
      st.last = now;
      if (max > 4 && now >= st.pauseUntil) {
        st.pos += (SPEED * dt) / 1000;
        if (st.pos >= max) {
          st.pos = max;
          st.pauseUntil = now + PAUSE_MS;
          st.atEnd = true;
        }
        list.scrollTop = st.pos;
      } else if (st.atEnd && now >= st.pauseUntil - PAUSE_MS / 2) {
        st.atEnd = false;
        st.pos = 0;
        list.scrollTop = 0;
        st.pauseUntil = now + PAUSE_MS;
      }
      st.raf = requestAnimationFrame(step);
    };
    st.raf = requestAnimationFrame(step);
  }

  const poll = setInterval(load, REFRESH_MS);
  return startPage(wrap, clock, render, load, poll, () => {
    stopped = true;
    if (scroller) cancelAnimationFrame(scroller.raf);
    document.body.classList.remove("beamer-mode");
  });
}
