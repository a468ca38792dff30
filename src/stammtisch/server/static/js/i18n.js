// The UI's translations, German first.  Game terms (Muck, Wenz, weiter, Kontra, Bobbl,
// Tore, Augen …) stay German in every language; the words around them are the screen's
// (English "trick", Spanish "baza").  t("key", {name: "x"}) fills {name}; a count {n}
// picks the singular "<key>.one" where there is one (pluralKey).

const STORE_KEY = "stammtisch_lang";

// The texts live in ../i18n/de.json and ../i18n/en.json (flat key -> text), shared with
// the terminal (`stammtisch play`, Python: stammtisch.i18n).  Add UI keys there, to both
// files.  Every module importing this one waits until both are loaded (top-level await).
async function loadStrings(code) {
  const response = await fetch(new URL(`../i18n/${code}.json`, import.meta.url));
  if (!response.ok) throw new Error(`i18n/${code}.json: HTTP ${response.status}`);
  return response.json();
}

// es (Spanish, for Mus above all): every key of de.json (tests/test_i18n_es.py)
const [de, en, es] = await Promise.all([loadStrings("de"), loadStrings("en"), loadStrings("es")]);
const DICT = { de, en, es };
//: the languages the page offers (the header's language switch)
export const LANGUAGES = ["de", "en", "es"];

// Card names for screen readers: German in both languages (they are the names of the cards).
export const SUIT_NAMES = { E: "Eichel", G: "Gras", H: "Herz", S: "Schellen" };
export const RANK_NAMES = {
  A: "Ass", 10: "Zehn", K: "König", O: "Ober", U: "Unter", 9: "Neun", 8: "Acht", 7: "Sieben",
};

// Calls and contracts: German game words, capitalised as written on the sheet.
const WORDS = {
  weiter: "weiter", gut: "gut", kontra: "Kontra", re: "Re", sup: "Sup", hirsch: "Hirsch",
  geben: "geben", klopfen: "klopfen", ramsch: "Ramsch", muck: "Muck", wenz: "Wenz",
  geier: "Geier", pflichtmuck: "Pflichtmuck", sie: "Sie", eingeworfen: "eingeworfen",
  eichelsolo: "Eichelsolo", grassolo: "Grassolo", schellensolo: "Schellensolo",
};

let lang = "de";
const listeners = new Set();

export function initLanguage() {
  const stored = localStorage.getItem(STORE_KEY);
  setLanguage(LANGUAGES.includes(stored) ? stored : "de", { silent: true });
  return lang;
}

export function hasStoredLanguage() {
  return localStorage.getItem(STORE_KEY) !== null;
}

export function language() {
  return lang;
}

export function setLanguage(next, { silent = false, store = false } = {}) {
  if (!LANGUAGES.includes(next)) return;
  const changed = next !== lang;
  lang = next;
  document.documentElement.lang = next;
  if (store) localStorage.setItem(STORE_KEY, next);
  if (changed && !silent) listeners.forEach((fn) => fn(next));
}

export function onLanguageChange(fn) {
  listeners.add(fn);
}

// Plural (issue 19): a text about a count {n} may have a singular form under "<key>.one"
// ("Descartar {n} carta"); the plain key is the other form ("Descartar {n} cartas").  The
// language's own rule (Intl.PluralRules) decides which one a number takes, so callers just
// pass {n}: t("mus.discard_n", { n: 1 }).  The terminal (stammtisch.i18n) does the same.
const PLURAL_RULES = {};
export function pluralKey(key, n) {
  const num = typeof n === "number" ? n : Number(n);
  if (n === null || n === undefined || n === "" || !Number.isFinite(num)) return key;
  const rules = PLURAL_RULES[lang] ?? (PLURAL_RULES[lang] = new Intl.PluralRules(lang));
  const form = `${key}.${rules.select(num)}`;
  return form !== key && has(form) ? form : key;
}

export function t(key, params = {}) {
  if ("n" in params) key = pluralKey(key, params.n);
  let s = DICT[lang][key] ?? DICT.de[key];
  if (s === undefined) return key;
  for (const [k, v] of Object.entries(params)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

// More strings from a page module (e.g. the tournament pages): {de: {...}, en: {...}}.
export function addStrings(dicts) {
  for (const [code, strings] of Object.entries(dicts)) Object.assign(DICT[code], strings);
}

export function has(key) {
  return key in DICT[lang] || key in DICT.de;
}

// the text of ``key`` if there is one, else ``fallback`` (e.g. a phase name not worded yet)
export function textOr(key, fallback) {
  return has(key) ? t(key) : fallback;
}

export function word(w) {
  if (!w) return "";
  if (WORDS[w]) return WORDS[w];
  if (w.startsWith("cut:")) return t("table.cut_cards", { n: w.slice(4) });
  for (const level of ["schneider", "schwarz"]) {
    if (w.startsWith(level) && WORDS[w.slice(level.length)]) {
      const rest = WORDS[w.slice(level.length)];
      return level[0].toUpperCase() + level.slice(1) + rest.toLowerCase();
    }
  }
  return w[0].toUpperCase() + w.slice(1);
}

// Spanish cards (Mus) by their Spanish names in every language: "Rey de oros", "As de copas".
const SPANISH_SUITS = { O: "oros", C: "copas", P: "espadas", B: "bastos" };
const SPANISH_RANKS = { 1: "As", 2: "Dos", 3: "Tres", 4: "Cuatro", 5: "Cinco", 6: "Seis",
  7: "Siete", S: "Sota", C: "Caballo", R: "Rey" };

export function cardName(code) {
  if (code === "S6") return "Weli"; // the Schellen-Sechs of the doppeldeutsch deck
  const es = /^([OCPB])([1-7SCR])$/.exec(code);
  if (es) return `${SPANISH_RANKS[es[2]]} de ${SPANISH_SUITS[es[1]]}`;
  const suit = SUIT_NAMES[code[0]] ?? code[0];
  const rank = RANK_NAMES[code.slice(1)] ?? code.slice(1);
  return `${suit} ${rank}`;
}

export function reason(text) {
  if (!text) return "";
  if (has(`reason.${text}`)) return t(`reason.${text}`);
  return text;
}

// A server refusal in the page's language (issue 9: never the server's English message in
// a German page).  The server sends {code, message} and, where one code covers several
// refusals, a reason (weak_password: common …; invalid_tournament: too_few_pairs …) and
// params (its variable parts): the text is error.<code>.<reason> or else error.<code>,
// filled with the params; an unknown code gets the generic sentence naming the code.
// `message` (English, for API clients) is never shown.
export function errorText(code, message, why, params) {
  const p = { code: code || "?", ...(params && typeof params === "object" ? params : {}) };
  // a setting is named by its label on the settings form, when the page has one
  if (typeof p.setting === "string" && has(`tn.set.${p.setting}`)) p.setting = t(`tn.set.${p.setting}`);
  const keys = [];
  if (code && why) keys.push(`error.${code}.${why}`);
  if (code) keys.push(`error.${code}`);
  for (const key of keys) {
    if (!has(key)) continue;
    const text = t(key, p);
    if (!/\{\w+\}/.test(text)) return text; // every part filled (else: less specific)
  }
  return t("error.generic", { code: code || "?" });
}
