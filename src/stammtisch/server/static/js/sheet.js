// The Spielstandzettel as on paper: two columns (one per pair), each game's points
// and the running total, the Bobbl dot for the pair that gets it, the Brille, the Tore.

import { svg } from "./cards.js";
import { t, word } from "./i18n.js";
import { h } from "./ui.js";

function brille() {
  const s = svg("svg", { viewBox: "0 0 44 20", class: "brille", "aria-hidden": "true" });
  s.append(
    svg("circle", { cx: 11, cy: 10, r: 8, fill: "none", stroke: "currentColor",
      "stroke-width": 2.5 }),
    svg("circle", { cx: 33, cy: 10, r: 8, fill: "none", stroke: "currentColor",
      "stroke-width": 2.5 }),
    svg("path", { d: "M19 9 Q22 5 25 9", fill: "none", stroke: "currentColor",
      "stroke-width": 2.5 }),
  );
  return s;
}

// pairLabel(p) -> short column title; pairNames(p) -> the two names
export function renderSheet(sheet, { pairLabel, pairNames }) {
  const box = h("div", { class: "paper" });
  if (!sheet) return box;
  const head = h("div", { class: "sheet-row sheet-head" },
    h("span", { class: "c-game", text: t("sheet.game") }),
    [0, 1].map((p) => h("span", { class: `c-pair c-pair${p}` },
      h("strong", { text: pairLabel(p) }),
      pairNames ? h("small", { text: pairNames(p) }) : null)));
  box.append(head);
  let any = false;
  sheet.bobbl.forEach((b, k) => {
    const block = h("div", { class: `bobbl${b.winner !== null ? " done" : ""}`,
      "data-bobbl": k + 1 });
    block.append(h("div", { class: "bobbl-title" },
      h("span", { text: t("sheet.bobbl", { n: k + 1 }) }),
      h("small", { text: t("sheet.to", { n: b.target }) })));
    const run = [0, 0];
    for (const e of b.entries) {
      any = true;
      const row = h("div", { class: "sheet-row entry", "data-game": e.game,
        "data-pair": e.pair ?? "", "data-points": e.points });
      const note = e.note ? word(e.note) : "";
      row.append(h("span", { class: "c-game" }, h("span", { class: "n", text: e.game })));
      if (e.pair === null || e.pair === undefined) {
        row.classList.add("unscored");
        row.append(h("span", { class: "c-span", text: note ? `${note} – ${t("sheet.not_scored")}`
          : t("sheet.not_scored") }));
        block.append(row);
        continue;
      }
      for (const p of [0, 1]) {
        const cell = h("span", { class: `c-pair c-pair${p}` });
        if (e.pair === p) {
          if (e.written) {
            run[p] += e.points;
            cell.append(h("span", { class: "total", text: run[p] }),
              h("span", { class: "detail" }, h("small", { class: "plus", text: `+${e.points}` }),
                note ? h("small", { class: "note", text: note }) : null));
          } else {
            cell.classList.add("unwritten");
            cell.append(h("s", { class: "plus", text: `+${e.points}` }),
              h("span", { class: "detail" }, h("small", { text: t("sheet.not_written") }),
                note ? h("small", { class: "note", text: note }) : null));
          }
        }
        row.append(cell);
      }
      block.append(row);
    }
    if (b.winner !== null && b.winner !== undefined) {
      const loser = b.loser;
      const end = h("div", { class: "sheet-row bobbl-end" }, h("span", { class: "c-game" }));
      for (const p of [0, 1]) {
        const cell = h("span", { class: `c-pair c-pair${p}` });
        if (p === loser) {
          cell.append(b.brille ? brille() : h("span", { class: "dot", "aria-hidden": "true" }),
            h("span", { class: "sr-only", text: t("sheet.gets_bobbl", { pair: pairLabel(p) }) }),
            b.brille ? h("small", { class: "brille-text", text: t("sheet.brille") }) : null,
            h("small", { class: "tore", text: t("sheet.tore", { n: b.tore }) }));
        }
        end.append(cell);
      }
      block.append(end);
    }
    box.append(block);
  });
  if (!any) box.append(h("p", { class: "sheet-empty", text: t("sheet.empty") }));
  const won = sheet.bobbl_won ?? [0, 0];
  box.append(h("div", { class: "sheet-row sheet-foot" },
    h("span", { class: "c-game", text: "Σ" }),
    [0, 1].map((p) => h("span", { class: `c-pair c-pair${p}` },
      h("small", { text: t("sheet.bobbl_won") }), h("strong", { text: won[p] })))));
  return box;
}
