// /history: the finished games of the logged-in player, each linking to its replay.

import { seatDisplayName } from "./bots.js";
import { t } from "./i18n.js";
import { gameModule } from "./table_games.js";
import {
  api, clear, h, link, locale, placeholder, session, shortName, toastError,
} from "./ui.js";

export function mountHistory(root) {
  let games = null;
  let failed = false;
  const box = h("section", { class: "panel history", "aria-labelledby": "history-h" });
  root.append(box);

  function render() {
    clear(box);
    box.append(h("h1", { id: "history-h", text: t("history.title") }));
    if (!session.user || failed) {
      box.append(h("p", { class: "muted", text: t("history.need_login") }),
        link("/", t("nav.lobby"), { class: "btn" }));
      return;
    }
    if (placeholder(box, games, t("history.empty"))) return;
    const fmt = new Intl.DateTimeFormat(locale(),
      { dateStyle: "medium", timeStyle: "short" });
    const rows = games.map((g) => {
      const r = g.result ?? {};
      const players = (g.players ?? []).map((p) => seatDisplayName(p));
      // the game's module words the result from the player's side (historyOutcome)
      const seat = g.seat === null || g.seat === undefined ? null : g.seat;
      const { text: outcome, cls } = gameModule(g.game).historyOutcome(r, seat, players);
      const standIn = new Set(g.stand_in_seats ?? []);
      const botForYou = g.bot_for_you || 0;
      return h("tr", { "data-game": g.id, class: botForYou ? "bot-for-you" : null },
        h("td", { text: g.finished_at ? fmt.format(new Date(g.finished_at)) : "–" }),
        h("td", {}, h("span", { class: "table-name", text: g.table_name || g.table_id }),
          h("span", { class: "muted", text: ` · ${t("history.game")} ${g.number}` })),
        h("td", { class: "players" }, players.map((p, i) => h("span", {
          class: i === g.seat ? "me" : "", title: shortName(p.name) !== p.name ? p.name : null },
        shortName(p.name),
        standIn.has(i) || p.standIn ? h("span", { class: "bot-mark",
          title: t("history.bot_played", { name: p.name }), text: t("history.bot_mark") })
          : null)),
        botForYou ? h("span", { class: "bot-for-you-note", text: botForYou === 1
          ? t("history.bot_for_you_1") : t("history.bot_for_you", { n: botForYou }) }) : null),
        h("td", { class: cls || null, text: outcome }),
        h("td", {}, link(`/replay/${encodeURIComponent(g.id)}`, t("history.replay"),
          { class: "btn btn-small" })));
    });
    box.append(h("div", { class: "table-scroll" }, h("table", { class: "history-table" },
      h("thead", {}, h("tr", {}, ["history.when", "history.table", "history.players",
        "history.result", "history.replay"].map((k) => h("th", { scope: "col", text: t(k) })))),
      h("tbody", {}, rows))));
  }

  if (session.user) {
    api("GET", "/api/me/games").then((data) => {
      games = data.games;
      render();
    }).catch((e) => {
      failed = true;
      toastError(e);
      render();
    });
  }
  render();
  return { rerender: render };
}
