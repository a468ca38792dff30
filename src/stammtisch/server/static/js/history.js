// /history: the finished games of the logged-in player, each linking to its replay.

import { seatDisplayName } from "./bots.js";
import { t, word } from "./i18n.js";
import { gameWord } from "./table_schafkopf.js";
import { api, clear, euros, h, link, locale, session, shortName, toastError } from "./ui.js";

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
    if (games === null) {
      box.append(h("p", { class: "muted", text: "…" }));
      return;
    }
    if (!games.length) {
      box.append(h("p", { class: "empty", text: t("history.empty") }));
      return;
    }
    const fmt = new Intl.DateTimeFormat(locale(),
      { dateStyle: "medium", timeStyle: "short" });
    const rows = games.map((g) => {
      const r = g.result ?? {};
      const players = (g.players ?? []).map((p) => seatDisplayName(p));
      const myPair = g.seat === null || g.seat === undefined ? null : g.seat % 2;
      // Schafkopf's results carry each player's payment (Mucken's a pair's points)
      const pay = Array.isArray(r.payments) && myPair !== null ? r.payments[g.seat] : null;
      let outcome = Array.isArray(r.payments) ? (r.contract ? gameWord(r.contract)
        : t("sk.result.redeal")) : word(r.contract ?? "");
      if (pay !== null) {
        outcome += ` · ${pay ? euros(pay, { sign: true }) : `±${euros(0)}`}`;
      } else if (r.winner !== null && r.winner !== undefined && !Array.isArray(r.payments)) {
        outcome += ` · ${r.winner === myPair ? "+" : "−"}${r.score}`;
      }
      let won = pay !== null ? pay > 0 : myPair !== null && r.winner === myPair;
      if (Array.isArray(r.delta) && "folded" in r) {
        // Mulatschak: the bid (or a folded hand, a redeal) and one's own change (down is good)
        const mine = g.seat === null || g.seat === undefined ? null : r.delta[g.seat];
        outcome = r.folded ? t("mu.result.folded") : r.bidder === null || r.bidder === undefined
          ? t("mu.result.redeal") : `${players[r.bidder]?.name ?? ""}: ${r.bid >= 5 ? t("mu.word.muli")
            : t(r.bid === 1 ? "mu.tricks_one" : "mu.tricks_n", { n: r.bid })}`;
        if (mine) outcome += ` · ${mine > 0 ? "+" : "−"}${Math.abs(mine)}`;
        won = mine !== null && mine < 0;
      }
      let cls = won ? "won" : "lost";
      if ("set_winner" in r && Array.isArray(r.score)) {
        // Mus: the set won or lost, else the score after the hand — one's own pair first
        const p = myPair ?? 0;
        const x = r.score[p] ?? 0;
        const y = r.score[1 - p] ?? 0;
        const setOver = r.set_winner !== null && r.set_winner !== undefined;
        outcome = !setOver ? t("history.mus.hand", { x, y })
          : t(r.set_winner === p ? "history.mus.set_won" : "history.mus.set_lost", { x, y });
        cls = !setOver || myPair === null ? "" : r.set_winner === p ? "won" : "lost";
      }
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
