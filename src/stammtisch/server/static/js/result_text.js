// The result of a game in words, from the viewer's side: who won, why (Augen, schneider,
// schwarz, the 60:60 rule, Kontra, Pflichtmuck, Ramsch, Sie …) and the points.  Built
// only from the engine's result dict (MuckenState.result(): contract, declarer, augen,
// tricks, winner, score, column, reason, doublings, forced, factor) and the table's rules;
// the table's result panel and the replay both use describeResult().
//
// The pairs are named as on the score sheet: "Wir"/"Ihr" (de), "Us"/"Them" (en) when the
// viewer played, the two names otherwise.  The texts (rs.*) are in ../i18n/{de,en}.json.

import { cardName, language, t, word } from "./i18n.js";

const DOUBLING = ["kontra", "re", "sup", "hirsch"];

const isSet = (x) => x !== null && x !== undefined;

// r: the result dict; my: the viewer's pair (0/1) or null; names: the four seat names;
// rules: the table's rules (rules_options) for the 60/61 and 30 limits and the tie rules.
// Returns {verdict, sentence, cls: "won"|"lost"|"", winner}.
export function describeResult(r, { my = null, names = [], rules = {} } = {}) {
  const name = (s) => names[s] ?? `#${s + 1}`;
  const pairNames = (p) => `${name(p)} & ${name(p + 2)}`;
  const subj = (p) => (my === null ? "pair" : p === my ? "we" : "they");
  const winner = isSet(r.winner) ? r.winner : null;
  const contract = r.contract || "";
  const kind = contract.replace(/^(schneider|schwarz)/, "");
  const level = contract.startsWith("schneider") ? "schneider"
    : contract.startsWith("schwarz") && contract !== "schwarz" ? "schwarz" : "plain";
  const declarer = isSet(r.declarer) ? r.declarer : null;
  const augen = r.augen ?? [0, 0];
  const tricks = r.tricks ?? [0, 0];
  const muss = !!r.forced && rules.muss_60_wins !== false;
  const need = muss ? 60 : 61;
  const schneiderMax = muss ? 29 : 30;
  const uebernimmt = rules.kontra_uebernimmt !== false;
  const doublings = r.doublings || 0;

  // what was played
  let game;
  const violation = /^Regelverstoß von Platz (\d)/.exec(r.reason || "");
  if (contract === "pflichtmuck") game = t("rs.pflichtmuck");
  else if (contract === "ramsch") game = t("rs.ramsch");
  else if (contract === "eingeworfen") game = t("rs.eingeworfen");
  else if (contract === "sie") game = t("rs.sie", { name: isSet(declarer) ? name(declarer) : "?" });
  else if (isSet(declarer)) {
    game = t(r.forced ? "rs.muss" : "rs.called", { name: name(declarer), game: word(contract) });
  } else game = word(contract);

  // why
  const why = [];
  if (violation) {
    why.push(t("rs.why.violation", { name: name(Number(violation[1])) }));
  } else if (contract === "eingeworfen") {
    why.push(t("rs.why.eingeworfen"));
  } else if (contract === "sie") {
    why.push(t("rs.why.sie"));
  } else if (contract === "pflichtmuck") {
    if (augen[0] === augen[1]) {
      if (winner === null) why.push(t("rs.why.pflichtmuck_tie"));
      else why.push(t("rs.why.pflichtmuck_card", { card: cardName(rules.tie_card || "EO") }));
    } else {
      const p = winner ?? 0;
      why.push(t("rs.why.pflichtmuck", { a: augen[p], b: augen[1 - p] }));
    }
  } else if (contract === "ramsch") {
    const p = winner ?? 0;
    const key = { Durchmarsch: "durchmarsch", "weniger Augen": "ramsch_augen",
      "weniger Stiche": "ramsch_tricks", "weniger Trümpfe": "ramsch_trumps",
      "niedrigerer Trumpf": "ramsch_low" }[r.reason] ?? "ramsch_augen";
    const pairVals = key === "ramsch_tricks" ? tricks : augen;
    why.push(t(`rs.why.${key}`, { a: pairVals[p], b: pairVals[1 - p] }));
  } else if (isSet(declarer) && winner !== null) {
    const dp = declarer % 2;
    const op = 1 - dp;
    const D = t("rs.declarers");
    const O = t("rs.defenders");
    if (winner === dp) {
      if (level === "schwarz" || (r.column === "schwarz" && tricks[op] === 0)) {
        why.push(t("rs.why.schwarz", { side: O }));
      } else if (level === "schneider" || r.column === "schneider") {
        why.push(t("rs.why.schneider", { side: O, n: augen[op], max: schneiderMax }));
      } else if (augen[dp] === 60 && !muss && doublings && uebernimmt) {
        why.push(t("rs.why.tie_kontra"));
      } else if (muss && augen[dp] === 60) {
        why.push(t("rs.why.muss60", { side: D, n: augen[dp] }));
      } else {
        why.push(t("rs.why.augen", { side: D, n: augen[dp], need }));
      }
    } else {
      // a loss schneider or schwarz is said once ("die Ansager haben nur 25 Augen –
      // schneider"), not as "only 25 Augen; schneider: only 25 Augen"
      const plainReason = level === "plain" && !(augen[dp] === 60 && !muss)
        && !(doublings && uebernimmt);
      if (level === "schwarz") why.push(t("rs.why.schwarz_missed", { side: O }));
      else if (level === "schneider") {
        why.push(t("rs.why.schneider_missed", { side: O, n: augen[op], max: schneiderMax }));
      } else if (augen[dp] === 60 && !muss) {
        why.push(t("rs.why.tie_lost", { side: D }));
      } else if (doublings && uebernimmt) {
        why.push(t("rs.why.kontra_short", { side: O, n: augen[op], need: 61 }));
      } else if (r.column === "schwarz") {
        why.push(t("rs.why.schwarz", { side: D }));
      } else if (r.column === "schneider") {
        why.push(t("rs.why.short_schneider", { side: D, n: augen[dp], max: schneiderMax }));
      } else {
        why.push(t("rs.why.short", { side: D, n: augen[dp], need }));
      }
      if (!plainReason && r.column === "schwarz" && level !== "schwarz") {
        why.push(t("rs.why.schwarz", { side: D }));
      } else if (!plainReason && r.column === "schneider" && level === "plain") {
        why.push(t("rs.why.schneider", { side: D, n: augen[dp], max: schneiderMax }));
      }
    }
  }

  // the points
  let points;
  if (winner === null) {
    points = t("rs.none");
  } else {
    const to = t(`rs.to.${subj(winner)}`, { pair: pairNames(winner) });
    const unit = (n) => (n === 1 ? t("rs.point") : t("rs.points_unit"));
    const factor = r.factor && r.factor > 1 ? r.factor : 1;
    const score = r.score ?? 0;
    const base = Math.round(score / factor / 2 ** doublings);
    if (doublings) {
      const words = DOUBLING.slice(0, doublings).map(word).join(t("rs.and"));
      points = t("rs.points_doubled", { base, baseunit: unit(base), words, n: score,
        unit: unit(score), to });
    } else {
      points = t("rs.points", { n: score, unit: unit(score), to });
    }
    if (factor > 1) points += ` (${t("rs.factor", { f: factor })})`;
    points += ".";
  }

  const head = winner === null ? game
    : `${game} – ${t(`rs.win.${subj(winner)}`, { pair: pairNames(winner) })}`;
  const sentence = `${head}${why.length ? `: ${why.join("; ")}` : ""}. ${points}`;
  let verdict;
  let cls = "";
  if (winner === null) verdict = t("rs.verdict.none");
  else if (my === null) verdict = t("rs.verdict.pair", { pair: pairNames(winner) });
  else {
    verdict = winner === my ? t("rs.verdict.won") : t("rs.verdict.lost");
    cls = winner === my ? "won" : "lost";
  }
  return { verdict, sentence, cls, winner, lang: language() };
}
