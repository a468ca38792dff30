// The bots' display names and descriptions from the server (GET /api/presets →
// bot_info: {name: {strength, name: {de, en, es}, description: {de, en, es}}}; every
// game's bots), in the UI's
// language.  Internal names (pimc-fast, ismcts-200ms …) are never shown.

import { language, t } from "./i18n.js";
import { api } from "./ui.js";

let info = {};
let loading = null;

export function loadBotInfo() {
  if (!loading) {
    loading = api("GET", "/api/presets").then((p) => {
      setBotInfo(p);
      return info;
    }).catch(() => info);
  }
  return loading;
}

// data: GET /api/presets (every game's bots: Mulatschak's "search", Mus's "bluff", not
// only Mucken's) or one bot_info map
export function setBotInfo(data) {
  if (!data) return;
  if (data.games || data.bot_info) {
    info = { ...(data.bot_info ?? {}) };
    for (const g of Object.values(data.games ?? {})) Object.assign(info, g?.bot_info ?? {});
  } else {
    info = data;
  }
}

// "Stammgast" / "Regular" (or "Bot" while unknown)
export function botName(key) {
  const b = info[key];
  return b?.name?.[language()] ?? b?.name?.de ?? t("bots.generic");
}

export function botDescription(key) {
  const b = info[key];
  return b?.description?.[language()] ?? b?.description?.de ?? "";
}

// A seat's name without the " (Bot)" the server appends when a bot took over a seat
// for good; {name, standIn} — standIn: a bot plays for the person named.
export function seatDisplayName(seat) {
  const name = seat?.name ?? "";
  const m = /^(.*) \(Bot\)$/.exec(name);
  if (seat?.kind === "bot" && m) return { name: m[1], standIn: true };
  return { name, standIn: false };
}
