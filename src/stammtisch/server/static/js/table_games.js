// The table module of each game (the game's ui_module in GET /api/presets), by the game's
// name: the table page (table_page.js) and the replay (replay.js) ask it for what is the
// game's own.  Every module offers the same interface (gameWord, adaptView, BUBBLE_PHASES,
// CARD_PHASES, contractText, seatBadges, phaseNote, choices, callLog, sheetTitle,
// abrechnung, describe, resultTable, replaySteps, historyOutcome (a row of "Meine Spiele");
// and where the game needs them CARD_OPTIONS, CONTRACT_PHASES, presetKey, headTag, centre,
// feltNote, handCard, extraBar, infoNote, resultKey, dealtOrder, standInByStep, resultLines,
// analysisSide).
// A table or record without a known game is the default game's (records written before
// they named their game are Mucken's).

import * as mucken from "./table.js";
import * as mulatschak from "./table_mulatschak.js";
import * as mus from "./table_mus.js";
import * as schafkopf from "./table_schafkopf.js";

export const DEFAULT_GAME = "mucken";
const MODULES = { mucken, schafkopf, mulatschak, mus };

// the table module of a game by its name
export const gameModule = (name) => (Object.hasOwn(MODULES, name ?? "") ? MODULES[name]
  : MODULES[DEFAULT_GAME]);
