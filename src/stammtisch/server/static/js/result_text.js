// The result of a game in words, from the viewer's side: who won, why (Augen, schneider,
// schwarz, the 60:60 rule, Kontra, Pflichtmuck, Ramsch, Sie …) and the points.  Built
// only from the engine's result dict (MuckenState.result(): contract, declarer, augen,
// tricks, winner, score, column, reason, doublings, forced, factor) and the table's rules;
// the table's result panel and the replay both use describeResult().
//
// The pairs are named as on the score sheet: "Wir"/"Ihr" (de), "Us"/"Them" (en) when the
// viewer played, the two names otherwise.

import { addStrings, cardName, language, t, word } from "./i18n.js";

addStrings({
  de: {
    "rs.verdict.won": "Gewonnen!",
    "rs.verdict.lost": "Verloren.",
    "rs.verdict.pair": "{pair} gewinnen.",
    "rs.verdict.none": "Nicht gewertet.",
    "rs.called": "{name} sagt {game} an",
    "rs.muss": "{name} muss {game} spielen (Muss-Spiel)",
    "rs.pflichtmuck": "Pflichtmuck – alle haben „weiter“ gesagt",
    "rs.ramsch": "Ramsch – alle haben „weiter“ gesagt",
    "rs.sie": "{name} hat Sie",
    "rs.eingeworfen": "Eingeworfen – alle haben „weiter“ gesagt",
    "rs.win.we": "wir gewinnen",
    "rs.win.they": "ihr gewinnt",
    "rs.win.pair": "{pair} gewinnen",
    "rs.declarers": "die Ansager",
    "rs.defenders": "die Gegenspieler",
    "rs.why.augen": "{side} haben {n} Augen ({need} nötig)",
    "rs.why.short": "{side} haben nur {n} Augen ({need} wären nötig)",
    "rs.why.tie_lost": "60:60 – {side} brauchen 61 Augen, ein Gleichstand ist verloren",
    "rs.why.tie_kontra": "60:60 – nach Kontra gehört ein Gleichstand den Ansagern",
    "rs.why.muss60": "{side} haben {n} Augen – im Muss-Spiel reichen 60",
    "rs.why.kontra_short": "Kontra: {side} haben {n} Augen ({need} hätten gereicht)",
    "rs.why.schneider": "schneider: {side} haben nur {n} Augen (höchstens {max})",
    "rs.why.schwarz": "schwarz: {side} haben keinen Stich",
    "rs.why.schneider_missed": "schneider angesagt, aber {side} haben {n} Augen (höchstens {max} erlaubt)",
    "rs.why.schwarz_missed": "schwarz angesagt, aber {side} haben einen Stich gemacht",
    "rs.why.pflichtmuck": "{a} : {b} Augen – wer mehr hat, bekommt den Punkt",
    "rs.why.pflichtmuck_tie": "60:60 – ein Pflichtmuck 60:60 wird nicht gewertet, keiner bekommt einen Punkt",
    "rs.why.pflichtmuck_card": "60:60 – das Paar mit {card} verliert",
    "rs.why.ramsch_augen": "im Ramsch gewinnt, wer weniger Augen hat ({a} : {b})",
    "rs.why.ramsch_tricks": "gleich viele Augen – weniger Stiche gewinnen ({a} : {b})",
    "rs.why.ramsch_trumps": "gleich viele Augen und Stiche – weniger Trümpfe gewinnen",
    "rs.why.ramsch_low": "gleich viele Augen, Stiche und Trümpfe – der niedrigere höchste Trumpf gewinnt",
    "rs.why.durchmarsch": "Durchmarsch: einer hat alle Stiche gemacht",
    "rs.why.sie": "alle vier Ober und die zwei höchsten Unter auf einer Hand",
    "rs.why.eingeworfen": "neu geben",
    "rs.why.violation": "Regelverstoß von {name} – zählt als schwarz verloren",
    "rs.points": "{n} {unit} für {to}",
    "rs.points_doubled": "{base} {baseunit}, mit {words} verdoppelt: {n} {unit} für {to}",
    "rs.factor": "×{f} wegen Einwerfen",
    "rs.point": "Punkt",
    "rs.points_unit": "Punkte",
    "rs.to.we": "uns",
    "rs.to.they": "euch",
    "rs.to.pair": "{pair}",
    "rs.none": "Keiner bekommt einen Punkt.",
    "rs.and": " und ",
  },
  en: {
    "rs.verdict.won": "We won!",
    "rs.verdict.lost": "We lost.",
    "rs.verdict.pair": "{pair} win.",
    "rs.verdict.none": "Not scored.",
    "rs.called": "{name} called {game}",
    "rs.muss": "{name} had to play {game} (Muss-Spiel)",
    "rs.pflichtmuck": "Pflichtmuck – everyone said “weiter”",
    "rs.ramsch": "Ramsch – everyone said “weiter”",
    "rs.sie": "{name} holds Sie",
    "rs.eingeworfen": "Thrown in – everyone said “weiter”",
    "rs.win.we": "we win",
    "rs.win.they": "they win",
    "rs.win.pair": "{pair} win",
    "rs.declarers": "the declarers",
    "rs.defenders": "the defenders",
    "rs.why.augen": "{side} have {n} Augen ({need} needed)",
    "rs.why.short": "{side} have only {n} Augen ({need} needed)",
    "rs.why.tie_lost": "60:60 – {side} need 61 Augen, a tie is lost",
    "rs.why.tie_kontra": "60:60 – after Kontra a tie goes to the declarers",
    "rs.why.muss60": "{side} have {n} Augen – 60 are enough in a Muss-Spiel",
    "rs.why.kontra_short": "Kontra: {side} have {n} Augen ({need} would have been enough)",
    "rs.why.schneider": "schneider: {side} have only {n} Augen ({max} or fewer)",
    "rs.why.schwarz": "schwarz: {side} took no trick",
    "rs.why.schneider_missed": "schneider was called, but {side} have {n} Augen (at most {max} allowed)",
    "rs.why.schwarz_missed": "schwarz was called, but {side} took a trick",
    "rs.why.pflichtmuck": "{a} : {b} Augen – the pair with more gets the point",
    "rs.why.pflichtmuck_tie": "60:60 – a Pflichtmuck at 60:60 is not scored, nobody gets a point",
    "rs.why.pflichtmuck_card": "60:60 – the pair holding {card} loses",
    "rs.why.ramsch_augen": "in a Ramsch fewer Augen win ({a} : {b})",
    "rs.why.ramsch_tricks": "equal Augen – fewer tricks win ({a} : {b})",
    "rs.why.ramsch_trumps": "equal Augen and tricks – fewer trumps win",
    "rs.why.ramsch_low": "equal Augen, tricks and trumps – the lower highest trump wins",
    "rs.why.durchmarsch": "Durchmarsch: one player took every trick",
    "rs.why.sie": "all four Ober and the two highest Unter in one hand",
    "rs.why.eingeworfen": "deal again",
    "rs.why.violation": "rule violation by {name} – counts as lost schwarz",
    "rs.points": "{n} {unit} to {to}",
    "rs.points_doubled": "{base} {baseunit}, doubled by {words}: {n} {unit} to {to}",
    "rs.factor": "×{f} for Einwerfen",
    "rs.point": "point",
    "rs.points_unit": "points",
    "rs.to.we": "us",
    "rs.to.they": "them",
    "rs.to.pair": "{pair}",
    "rs.none": "Nobody gets a point.",
    "rs.and": " and ",
  },
});

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
      if (level === "schwarz") why.push(t("rs.why.schwarz_missed", { side: O }));
      else if (level === "schneider") {
        why.push(t("rs.why.schneider_missed", { side: O, n: augen[op], max: schneiderMax }));
      } else if (augen[dp] === 60 && !muss) {
        why.push(t("rs.why.tie_lost", { side: D }));
      } else if (doublings && uebernimmt) {
        why.push(t("rs.why.kontra_short", { side: O, n: augen[op], need: 61 }));
      } else {
        why.push(t("rs.why.short", { side: D, n: augen[dp], need }));
      }
      if (r.column === "schwarz" && level !== "schwarz") {
        why.push(t("rs.why.schwarz", { side: D }));
      } else if (r.column === "schneider" && level === "plain") {
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
