// One table (/t/{id}), the page every game shares: renders only from the server's messages
// {"type": "state", "version", "table", "view"} and sends
// {"type": "action", "action", "version"} and {"type": "chat", "text"}.
// At tables with allow_hints it also asks {"type": "hint", "version"} on one's turn in the
// card play; the answer {"type": "hint", "version", "card", "values"} is shown on the hand
// until the state moves on.
// This page draws the shell (seats, trick, hand, fitting, motion, sound, chat, hints,
// timers, the result's frame); what is a game's own comes from its table module (the
// game's ui_module, table_games.js picks it by the table's game): its words, its view in the
// shape the shell reads, its choices, badges, call log, score sheet and result.

import { cardElement } from "./cards.js";
import { cardName, errorText, t, word } from "./i18n.js";
import { copyText, rememberSeat } from "./lobby.js";
import { seatLayout } from "./replay.js";
import { botDescription, botName, loadBotInfo, seatDisplayName } from "./bots.js";
import { flyFrom, ghostsTo, motionSetting, playSound, reducedMotion, setMotion, setSound,
  soundOn } from "./fx.js";
import { gameModule } from "./table_games.js";
import { api, chatText, clear, fmtSeconds, h, icon, link, locale, nameProps, session, socket,
  toast, toastError } from "./ui.js";

// where the seats sit around the felt, clockwise from one's own seat at the bottom, by the
// table's number of seats (2 to 6): seatLayout(n)[k] is the place of the k-th seat after
// one's own (replay.js)
const TRICK_HOLD_MS = 1400;
const HINT_TIMEOUT_MS = 30000;

export function mountTable(root, { id, invite }) {
  let msg = null; // the last state message
  let conn = { state: "connecting" };
  let pending = false;
  let pendingTimer = null;
  let showLast = false;
  let showHands = false;
  let hold = null; // a just-finished trick kept on the table for a moment
  let holdTimer = null;
  let fatal = null;
  let leftSeat = null; // the seat this page stood up from ("Wieder hinsetzen")
  let chatLog = [];
  let deadline = null; // local epoch ms of the turn deadline
  let hint = null; // {version, card, values}: the server's suggestion for this state
  let hintWait = null; // the state version a hint was asked for, while it is worked out
  let hintTimer = null;
  let dialogOpen = false; // a game module's dialog (Schafkopf: the game dialog)
  // the table module of this table's game
  const game = () => gameModule(msg?.table?.game);
  // how this game's cards are drawn (Mulatschak: the Salzburg pattern)
  const cardOpts = (extra = {}) => ({ ...(game().CARD_OPTIONS ?? {}), ...extra });

  // -- skeleton (the chat form survives re-renders) ---------------------------------------
  const banner = h("div", { class: "conn-banner", role: "status", hidden: true });
  const head = h("header", { class: "table-head" });
  const felt = h("section", { class: "felt" });
  const actions = h("section", { class: "actions", "aria-live": "polite" });
  const handBox = h("section", { class: "hand-area" });
  const infoPanel = h("section", { class: "panel info-panel" });
  const sheetPanel = h("section", { class: "panel sheet-panel", "aria-labelledby": "sheet-h" });
  const chatList = h("ol", { class: "chat-log", role: "log", "aria-live": "polite" });
  const chatInput = h("input", { id: "chat-input", name: "chat", maxlength: 300,
    autocomplete: "off" });
  const chatSend = h("button", { type: "submit", class: "btn btn-small" });
  const chatLabel = h("label", { for: "chat-input", class: "sr-only" });
  const chatTitle = h("h2", { id: "chat-h" });
  const chatForm = h("form", { class: "chat-form", on: { submit: sendChat } },
    chatLabel, chatInput, chatSend);
  const chatPanel = h("section", { class: "panel chat-panel", "aria-labelledby": "chat-h" },
    chatTitle, chatList, chatForm);
  const side = h("aside", { class: "side" }, infoPanel, sheetPanel, chatPanel);
  const viewEl = h("div", { class: "table-view", "data-table": id },
    banner, head, felt, actions, handBox, side);
  root.append(viewEl);

  const path = `/ws/tables/${encodeURIComponent(id)}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`;
  const sock = socket(path, { onMessage, onStatus });

  const ticker = setInterval(tick, 500);
  // the felt, the action bar and the hand fit the screen (fit()): on any size change
  const resize = new ResizeObserver(() => fit());
  for (const el of [viewEl, head, actions]) resize.observe(el);
  window.addEventListener("resize", fit);
  document.addEventListener("keydown", onKey);

  // -- messages -----------------------------------------------------------------------------
  function onStatus(s) {
    conn = { ...s, at: Date.now() };
    if (s.state === "open") {
      chatLog = [];
      renderChat();
    }
    if (s.state === "closed" && !fatal) fatal = t("table.closed");
    renderBanner();
    if (s.state === "closed") render();
  }

  function onMessage(m) {
    if (m.type === "state") {
      onState(m);
    } else if (m.type === "hint") {
      onHint(m);
    } else if (m.type === "error") {
      clearPending();
      if (hintWait !== null) stopHintWait();
      if (m.code === "private_table" || m.code === "no_table") {
        fatal = errorText(m.code, m.message);
        sock.markFatal();
        render();
      }
      toast(errorText(m.code, m.message), m.code === "stale_state" ? "info" : "error");
    } else if (m.type === "chat") {
      chatLog.push(m);
      if (chatLog.length > 200) chatLog.shift();
      appendChat(m);
    }
  }

  function onState(m) {
    m.view = gameModule(m.table?.game).adaptView(m.view);
    const prev = msg;
    msg = m;
    if (m.table?.id) rememberSeat(m.table.id, m.table.you !== null && m.table.you !== undefined);
    clearPending();
    if (dialogOpen && !(m.view?.phase === "bidding" && m.view.to_act === m.table.you)) {
      dialogOpen = false;
    }
    // a hint belongs to one state: a state that moved on takes it away
    if (hint && hint.version !== m.version) hint = null;
    if (hintWait !== null && hintWait !== m.version) stopHintWait(false);
    const pv = prev?.view;
    const nv = m.view;
    const change = changes(prev, m);
    // where my played card was in the hand, before the hand is drawn anew
    const handRects = new Map();
    for (const c of change.played) {
      const el = c.seat === me() ? handBox.querySelector(`.fan [data-action="${CSS.escape(c.card)}"]`)
        : null;
      if (el) handRects.set(c.card, el.getBoundingClientRect());
    }
    if (pv && nv && prev.table.game_number === m.table.game_number && nv.last_trick
        && nv.tricks_played.length === pv.tricks_played.length + 1) {
      hold = { cards: nv.last_trick.cards, winner: nv.last_trick.winner };
      clearTimeout(holdTimer);
      holdTimer = setTimeout(endHold, TRICK_HOLD_MS);
    } else if (!nv || (pv && prev.table.game_number !== m.table.game_number)) {
      hold = null;
    }
    if (prev && prev.table.game_number !== m.table.game_number) {
      showHands = false;
      showLast = false;
    }
    updateDeadline(m);
    render();
    // motion and sound: decoration after the new state is in the DOM (nothing waits)
    for (const c of change.played) {
      const card = felt.querySelector(`.trick .trick-slot[data-seat="${c.seat}"] .card`);
      const from = handRects.get(c.card)
        ?? felt.querySelector(`.seat[data-seat="${c.seat}"]`)?.getBoundingClientRect();
      flyFrom(card, from);
    }
    if (change.dealt) {
      const from = felt.querySelector(".trick")?.getBoundingClientRect();
      handBox.querySelectorAll(".fan .card").forEach((card, k) => {
        flyFrom(card, from, { delay: k * 55, duration: 260, scale: 0.5 });
      });
    }
    if (change.kontra) playSound("kontra");
    else if (change.played.length) playSound("card");
    if (myTurn() && !change.wasMyTurn && !msg.table.between_games) playSound("turn");
  }

  // What a new state changed, for motion and sound: the cards played since the last
  // state, whether the cards were just dealt, a new Kontra, and whose turn it was.
  function changes(prev, m) {
    const pv = prev?.view;
    const nv = m.view;
    const out = { played: [], dealt: false, kontra: false,
      wasMyTurn: !!(pv && prev.table.you !== null && pv.to_act === prev.table.you
        && prev.table.game_number === m.table.game_number) };
    if (!nv || !pv) return out;
    if (prev.table.game_number !== m.table.game_number) {
      out.dealt = nv.hand.length > 0;
      return out;
    }
    out.dealt = !pv.hand.length && nv.hand.length > 0 && nv.phase !== "end";
    out.kontra = (nv.doublings?.length ?? 0) > (pv.doublings?.length ?? 0);
    const before = new Set(pv.trick.map((c) => c.card));
    let cards = nv.trick;
    if (nv.tricks_played.length === pv.tricks_played.length + 1 && nv.last_trick) {
      cards = [...nv.last_trick.cards, ...nv.trick];
    }
    out.played = cards.filter((c) => !before.has(c.card));
    return out;
  }

  // the held trick goes to its winner: copies of its cards fly to the winner's seat
  function endHold() {
    clearTimeout(holdTimer);
    if (!hold) return;
    const winner = felt.querySelector(`.seat[data-seat="${hold.winner}"]`);
    const cards = [...felt.querySelectorAll(".trick.held .trick-slot .card")];
    const rects = cards.map((c) => c.getBoundingClientRect());
    const target = winner?.getBoundingClientRect();
    hold = null;
    renderFelt();
    ghostsTo(rects, cards, target);
    playSound("trick");
  }

  // The turn timer: the server's deadline (epoch ms) when it sends one; otherwise a local
  // countdown from the table's turn_timer, started when the turn moved to a person.
  let turnKey = null;
  function updateDeadline(m) {
    const tbl = m.table;
    const v = m.view;
    const span = Math.max(0, (tbl.turn_timer || 0) * 1000);
    const who = v?.to_act;
    const seat = who === null || who === undefined ? null : tbl.seats[who];
    // (no timer runs for a person away at a table that waits for them)
    const human = seat && seat.kind === "human" && !seat.bot && !seat.away;
    const key = v && human && v.phase !== "end"
      ? [tbl.game_number, v.phase, who, v.calls.length, v.doublings.length, v.cuts.length,
        v.tricks_played.length, v.trick.length].join(":") : null;
    if (!span || key === null) {
      deadline = null;
    } else if (tbl.turn_deadline) {
      deadline = Date.now() + Math.min(Math.max(0, tbl.turn_deadline - Date.now()), span);
    } else if (key !== turnKey || deadline === null) {
      deadline = Date.now() + span;
    }
    turnKey = key;
  }

  function clearPending() {
    pending = false;
    clearTimeout(pendingTimer);
    viewEl.classList.remove("pending");
  }

  function send(action) {
    if (!msg || pending) return;
    if (!sock.send({ type: "action", action, version: msg.version })) {
      toast(t("error.network"));
      return;
    }
    pending = true;
    viewEl.classList.add("pending");
    pendingTimer = setTimeout(clearPending, 4000);
    if (hold) endHold();
  }

  // an action offered out of turn (Mulatschak's Muli, Mus's señas): sent whoever is to act
  function sendOutOfTurn(action) {
    if (!msg) return;
    if (!(msg.out_of_turn ?? []).includes(action) && !myTurn()) return;
    send(action);
  }

  // -- hints --------------------------------------------------------------------------------
  // the phases with hints: the card play, or the game's own (Mus: every decision)
  const hintPhases = () => game().HINT_PHASES ?? ["play"];
  const canHint = () => !!(msg?.table?.allow_hints && hintPhases().includes(msg.view?.phase)
    && myTurn() && !msg.table.between_games);

  function requestHint() {
    if (!canHint() || hintWait !== null || pending) return;
    if (hint && hint.version === msg.version) return;
    if (!sock.send({ type: "hint", version: msg.version })) {
      toast(t("error.network"));
      return;
    }
    hintWait = msg.version;
    clearTimeout(hintTimer);
    hintTimer = setTimeout(() => stopHintWait(), HINT_TIMEOUT_MS);
    renderActions();
  }

  function stopHintWait(redraw = true) {
    hintWait = null;
    clearTimeout(hintTimer);
    if (redraw) renderActions();
  }

  function onHint(m) {
    stopHintWait(false);
    if (!msg || m.version !== msg.version || !m.values) {
      renderActions();
      return;
    }
    hint = { version: m.version, card: m.card, values: m.values };
    renderActions();
    renderHand();
  }

  const fmtAugen = (x) => new Intl.NumberFormat(locale(),
    { maximumFractionDigits: 1 }).format(x);

  function sendChat(ev) {
    ev.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    if (!session.user) {
      toast(t("chat.login"));
      return;
    }
    if (sock.sendSoon({ type: "chat", text })) chatInput.value = "";
    else toast(t("error.network"));
  }

  // -- helpers --------------------------------------------------------------------------------
  const me = () => msg?.table?.you ?? null;
  const base = () => me() ?? 0;
  const nSeats = () => msg?.table?.seats?.length || 4;
  const posOf = (seat) => seatLayout(nSeats())[(seat - base() + nSeats()) % nSeats()];
  const seatName = (i) => {
    const s = msg?.table?.seats?.[i];
    if (!s || s.kind === "empty") return t("table.free_seat");
    return seatDisplayName(s).name;
  };
  const myTurn = () => msg?.view && me() !== null && msg.view.to_act === me();

  // -- rendering ------------------------------------------------------------------------------
  function render() {
    const active = document.activeElement;
    const focusKey = viewEl.contains(active) ? active?.dataset?.action : undefined;
    renderBanner();
    renderHead();
    renderFelt();
    renderActions();
    renderHand();
    renderInfo();
    renderSheetPanel();
    renderChatChrome();
    if (msg?.table) {
      document.title = `${myTurn() ? "● " : ""}${msg.table.name} – ${t("app.title")}`;
    }
    if (focusKey !== undefined) {
      const again = viewEl.querySelector(`[data-action="${CSS.escape(focusKey)}"]:not([disabled])`);
      const target = again || options()[0];
      target?.focus({ preventScroll: true });
    }
    fit();
    tick();
  }

  function renderBanner() {
    if (conn.state === "retry") {
      banner.hidden = false;
      clear(banner).append(
        h("span", { class: "retry-text", text: t("table.reconnecting", {
          s: Math.max(1, Math.ceil((conn.at + conn.delay - Date.now()) / 1000)) }) }),
        h("button", { type: "button", class: "btn btn-small", text: t("table.reconnect_now"),
          on: { click: () => sock.now() } }));
    } else if (conn.state === "closed" && msg) {
      banner.hidden = false;
      clear(banner).append(h("span", { text: fatal || t("table.closed") }),
        link("/", t("table.back"), { class: "btn btn-small" }));
    } else {
      banner.hidden = true;
      clear(banner);
    }
  }

  function renderHead() {
    clear(head);
    const tbl = msg?.table;
    const title = h("div", { class: "table-title" },
      h("a", { href: "/", "data-link": "", class: "back", "aria-label": t("table.back") },
        h("span", { "aria-hidden": "true", text: "← " }),
        h("span", { class: "back-text", text: t("table.back") })),
      h("h1", { text: tbl?.name ?? "…" }));
    head.append(title);
    if (!tbl) return;
    const ui = game();
    const meta = h("p", { class: "table-meta" },
      h("span", { text: presetName(ui.presetKey ? ui.presetKey(tbl)
        : `${tbl.game}.${tbl.rules_options?.preset ?? tbl.rules}`) }),
      tbl.rules_options?.deck ? h("span", { text: t(`table.deck.${tbl.rules_options.deck}`) })
        : null,
      tbl.game_number ? h("span", { text: t("table.game_n", { n: tbl.game_number }) }) : null,
      ui.headTag ? ui.headTag(tbl) : h("span", { class: "game-name", text: t(`game.${tbl.game}`) }),
      tbl.spectators ? h("span", { text: t("table.spectators", { n: tbl.spectators }) }) : null,
      tbl.allow_hints ? h("span", { class: "hints-on", text: t("table.hints_on") }) : null,
      tbl.bot_takeover === false ? h("span", { class: "takeover-off",
        text: t("table.takeover_off") }) : null,
      me() === null ? h("span", { class: "pill", text: t("table.spectator") }) : null);
    head.append(meta);
    const tools = h("div", { class: "head-tools" });
    if (tbl.invite_code && !tbl.public) {
      const url = `${location.origin}/t/${encodeURIComponent(tbl.id)}?invite=${encodeURIComponent(tbl.invite_code)}`;
      const input = h("input", { id: "invite-url", class: "invite-input", readonly: true,
        value: url, "aria-label": t("table.invite") });
      tools.append(h("div", { class: "invite-row compact" }, input,
        h("button", { type: "button", class: "btn btn-small", text: t("create.copy"),
          on: { click: () => copyText(input) } })));
    }
    tools.append(fxToggles());
    if (me() !== null) {
      tools.append(h("button", { type: "button", class: "btn btn-small btn-ghost leave",
        text: t("table.leave"), on: { click: leave } }));
    }
    head.append(tools);
  }

  // the motion and sound switches (kept in localStorage; motion is off whenever the
  // system asks for reduced motion)
  function fxToggles() {
    const reduced = reducedMotion();
    const motion = motionSetting() && !reduced;
    const sound = soundOn();
    return h("div", { class: "fx-toggles", role: "group", "aria-label": t("settings.title") },
      h("button", { type: "button", id: "fx-motion", class: "btn btn-small btn-ghost fx-toggle",
        "aria-pressed": String(motion), disabled: reduced,
        title: reduced ? t("settings.reduced") : t("settings.motion_title"),
        "aria-label": t("settings.motion"), on: { click: () => {
          setMotion(!motionSetting());
          renderHead();
        } } }, h("span", { class: "fx-icon", "aria-hidden": "true", text: "≋" }),
      h("span", { class: "fx-text", text: t("settings.motion") })),
      h("button", { type: "button", id: "fx-sound", class: "btn btn-small btn-ghost fx-toggle",
        "aria-pressed": String(sound), title: t("settings.sound_title"),
        "aria-label": t("settings.sound"), on: { click: () => {
          setSound(!soundOn());
          renderHead();
          playSound("card");
        } } }, h("span", { class: "fx-icon", "aria-hidden": "true", text: "♪" }),
      h("span", { class: "fx-text", text: t("settings.sound") })));
  }

  function presetName(name) {
    const key = `create.preset.${name}`;
    const s = t(key);
    return s === key ? name : s;
  }

  // the felt: four seats around the trick
  function renderFelt() {
    clear(felt);
    felt.setAttribute("aria-label", t("table.felt"));
    if (fatal && !msg) {
      felt.append(h("div", { class: "felt-message" }, h("p", { text: fatal }),
        link("/", t("table.back"), { class: "btn" })));
      return;
    }
    if (!msg) {
      felt.append(h("div", { class: "felt-message" }, h("p", { text: t("table.loading") })));
      return;
    }
    const tbl = msg.table;
    const v = msg.view;
    felt.dataset.seats = String(tbl.seats.length);
    for (let i = 0; i < tbl.seats.length; i++) felt.append(seatChip(i, tbl, v));
    // a game that is not played in tricks (Mus) draws the felt's centre itself
    felt.append(game().centre ? game().centre(v, { seatName, me: me() }) : trickArea(v));
    if (showLast) felt.append(lastTrickPanel(v));
    if (felt.style.height) fitTrick();
  }

  function seatChip(i, tbl, v) {
    const s = tbl.seats[i];
    const pos = posOf(i);
    const chip = h("div", { class: `seat seat-${pos}`, "data-seat": i, "data-pos": pos });
    if (s.kind === "empty") {
      chip.classList.add("empty");
      chip.append(h("div", { class: "seat-name" }, h("span", { class: "name",
        text: t("lobby.seat_free"), title: t("table.free_seat") })));
      if (session.user && me() === null && !fatal && tbl.status !== "finished") {
        const again = i === leftSeat;
        chip.append(h("button", { type: "button",
          class: `btn btn-small btn-primary sit${again ? " sit-again" : ""}`,
          "data-seat": i, text: again ? t("table.sit_again") : t("table.sit_here"),
          on: { click: () => join(i) } }));
      }
      return chip;
    }
    const isMe = i === me();
    if (isMe) chip.classList.add("me");
    if (v && v.to_act === i) chip.classList.add("turn");
    const shown = seatDisplayName(s);
    const nameRow = h("div", { class: "seat-name" },
      h("span", { class: "name", ...nameProps(shown.name) }));
    if (isMe) nameRow.append(h("span", { class: "tag tag-me", text: t("table.you") }));
    if (s.kind === "bot") {
      // a bot's seat: its strength name ("Stammgast"); a bot that took a person's seat
      // over for good: "Bot" (the person's name stays the seat's name)
      const label = shown.standIn ? t("bots.generic") : botName(s.bot);
      nameRow.append(h("span", { class: "tag tag-bot", "data-bot": s.bot ?? "", text: label,
        title: shown.standIn ? t("bots.for_title", { name: shown.name })
          : t("bots.seat_title", { name: label, description: botDescription(s.bot) }) }));
    }
    if (s.kind === "human" && s.away) {
      // away: disconnected, or three turn timers in a row ran out (still connected)
      const waits = tbl.bot_takeover === false;
      nameRow.append(h("span", { class: "tag tag-away", text: t("table.away"),
        title: s.connected ? t(waits ? "table.away_timeouts_wait" : "table.away_timeouts")
          : waits ? t("table.away_wait") : t("table.away_long") }));
      if (s.bot && !waits) {
        nameRow.append(h("span", { class: "tag tag-bot tag-stand-in", "data-bot": s.bot,
          text: t("bots.generic"), title: t("bots.for_title", { name: shown.name }) }));
      }
    } else if (s.kind === "human" && s.timed_out) {
      // the turn timer ran out: a bot made that one move; the seat is the player's
      nameRow.append(h("span", { class: "tag tag-timed-out", text: t("table.timed_out_tag"),
        title: t("table.timed_out") }));
    }
    chip.append(nameRow);
    const badges = h("div", { class: "seat-badges" });
    if (v && v.dealer === i) badges.append(h("span", { class: "tag tag-dealer", text: t("table.dealer") }));
    badges.append(...game().seatBadges(i, v, me()));
    for (const d of v?.doublings ?? []) {
      if (d.seat === i) badges.append(h("span", { class: "tag tag-kontra", text: word(d.word) }));
    }
    if (badges.childNodes.length) chip.append(badges);
    if (v && !isMe && v.hand_sizes?.[i]) {
      const n = v.hand_sizes[i];
      const backs = h("div", { class: "mini-hand", title: t("table.cards_left", { n }),
        "aria-label": t("table.cards_left", { n }), role: "img" });
      for (let k = 0; k < n; k++) backs.append(h("span", { class: "mini-back" }));
      chip.append(backs);
    }
    if (v && game().BUBBLE_PHASES.includes(v.phase)) {
      const mine = v.calls.filter((c) => c.seat === i);
      const last = mine[mine.length - 1];
      if (last) chip.append(h("div", { class: `bubble${last.call === "weiter" ? " pass" : ""}`,
        text: game().gameWord(last.call) }));
    }
    if (v && v.to_act === i) chip.append(h("div", { class: "timer", "data-timer": "" }));
    return chip;
  }

  function trickArea(v) {
    const area = h("div", { class: "trick", role: "group", "aria-label": t("table.trick_area") });
    if (!v) {
      area.classList.add("trick-waiting");
      const pack = h("div", { class: "pack", "aria-hidden": "true" });
      for (let k = 0; k < 3; k++) pack.append(cardElement("", cardOpts({ back: true })));
      area.append(pack);
      return area;
    }
    const shown = hold ? hold.cards : v.trick;
    for (const c of shown) {
      const slot = h("div", { class: `trick-slot slot-${posOf(c.seat)}`, "data-seat": c.seat },
        cardElement(c.card, cardOpts({ label: `${seatName(c.seat)}: ${cardName(c.card)}` })));
      if (hold && c.seat === hold.winner) slot.classList.add("winner");
      area.append(slot);
    }
    area.dataset.cards = shown.map((c) => c.card).join(" ");
    if (hold) {
      area.classList.add("held");
      area.append(h("p", { class: "trick-caption", text: t("table.trick_to", {
        name: seatName(hold.winner) }) }));
    } else if (!shown.length && v.phase !== "play") {
      // a game may show more than a sentence there (Mulatschak: the cut card, the Weli,
      // the cards shown in the exchange)
      const note = game().feltNote?.(v, { seatName, me: me(), cardOpts });
      area.append(note ?? h("p", { class: "felt-note", text: phaseNote(v) }));
    }
    return area;
  }

  function phaseNote(v) {
    if (v.phase === "end") return t("table.phase.end");
    return game().phaseNote(v);
  }

  function lastTrickPanel(v) {
    const lt = v?.last_trick;
    const panel = h("div", { class: "last-trick", role: "dialog", "aria-modal": "false",
      "aria-labelledby": "last-h" });
    panel.append(h("h3", { id: "last-h", text: lt
      ? `${t("table.last_trick")} – ${t("table.trick_to", { name: seatName(lt.winner) })}`
      : t("table.last_trick") }));
    if (lt) {
      panel.append(h("div", { class: "last-cards" }, lt.cards.map((c) => h("figure", {
        class: c.seat === lt.winner ? "winner" : "" }, cardElement(c.card, cardOpts()),
      h("figcaption", { text: seatName(c.seat) })))));
    } else {
      panel.append(h("p", { text: t("table.no_last_trick") }));
    }
    panel.append(h("button", { type: "button", class: "btn btn-small", id: "last-close",
      text: t("table.last_trick_hide"), on: { click: () => toggleLast(false) } }));
    return panel;
  }

  function toggleLast(on = !showLast) {
    showLast = on;
    renderFelt();
    renderActions();
    if (on) document.getElementById("last-close")?.focus({ preventScroll: true });
  }

  // the action bar: whose turn, call buttons, cut, result
  function renderActions() {
    clear(actions);
    if (!msg) return;
    const v = msg.view;
    const tbl = msg.table;
    const bar = h("div", { class: "action-bar" });
    actions.append(bar);
    const paused = pauseLine(tbl);
    if (paused) bar.append(paused);
    const closed = closedLine(tbl);
    if (closed) bar.append(closed);
    if (!v) {
      const free = tbl.seats.filter((s) => s.kind === "empty").length;
      bar.append(h("p", { class: "status-line", text: t("table.waiting", { n: free }) }));
      if (me() !== null && free) {
        bar.append(h("div", { class: "choices" }, h("button", { type: "button",
          class: "btn btn-primary", text: t("table.add_bots"), on: { click: addBots } })));
      }
      return;
    }
    if (v.phase === "end" && v.result) {
      bar.append(resultPanel(v, tbl));
      return;
    }
    const mine = myTurn();
    const status = h("p", { class: "status-line" });
    if (v.to_act !== null && v.to_act !== undefined) {
      status.append(h("strong", { class: mine ? "your-turn" : "", text: mine
        ? t("table.your_turn") : waitText(v) }));
      status.append(h("span", { class: "timer timer-inline", "data-timer": "" }));
    } else {
      status.append(h("span", { text: t(`table.phase.${v.phase}`) }));
    }
    const contractPhases = game().CONTRACT_PHASES;
    if ((!contractPhases || contractPhases.includes(v.phase)) && v.contract) {
      status.append(h("span", { class: "contract-line", text: contractText(v) }));
    }
    bar.append(status);
    const shown = hint && hint.version === msg.version && hintPhases().includes(v.phase) && mine;
    if (shown) {
      // the hint as a player says it: "Tipp: Eichel Zehn spielen." (a game's own words:
      // Mus's "Tipp: Envido 2."), its value in the game's unit (HINT_KEYS)
      const value = hint.values[hint.card];
      const label = game().hintText ? game().hintText(hint.card)
        : t("table.hint_line", { card: cardName(hint.card) });
      bar.append(h("p", { class: "hint-line", "data-card": hint.card },
        h("span", { class: "hint-label", text: label }),
        value === undefined ? null : h("span", { class: "hint-value",
          text: t(game().HINT_KEYS?.value ?? "table.hint_value", { n: fmtAugen(value) }) })));
    } else if (hintWait !== null && hintWait === msg.version) {
      bar.append(h("p", { class: "hint-line hint-wait", role: "status" },
        h("span", { class: "spinner", "aria-hidden": "true" }),
        h("span", { text: t("table.hint_pending") })));
    }
    if (mine) {
      const choices = game().choices(v, { send, seatName, rules: tbl.rules_options ?? {},
        dialogOpen, setDialog: (on) => { dialogOpen = on; renderActions(); fit();
          if (on) actions.querySelector('[role="dialog"] [data-legal]')?.focus({ preventScroll: true });
        } });
      if (choices) bar.append(choices);
    }
    // what a game offers out of turn too (Mus: the señas palette)
    const extra = game().extraBar?.(v, { send: sendOutOfTurn, me: me(),
      outOfTurn: msg.out_of_turn ?? [] });
    if (extra) bar.append(extra);
    const tools = h("div", { class: "tools" });
    if (v.phase === "play") {
      tools.append(h("button", { type: "button", class: "btn btn-small btn-ghost",
        id: "last-trick-btn", "aria-pressed": String(showLast), disabled: !v.last_trick,
        text: t("table.last_trick"), on: { click: () => toggleLast() } }));
    }
    if (canHint()) {
      const busy = hintWait !== null;
      tools.append(h("button", { type: "button", class: "btn btn-small hint-btn", id: "hint-btn",
        "data-action": "hint", "aria-keyshortcuts": "h", title: t("table.hint_title"),
        disabled: busy || shown, "aria-busy": busy ? "true" : null,
        text: busy ? t("table.hint_busy") : t("table.hint"), on: { click: requestHint } }));
    }
    if (mine) {
      tools.append(h("small", { class: "keys-hint", text: canHint()
        ? `${t("table.keys_hint")} · ${t("table.keys_hint_h")}` : t("table.keys_hint") }));
    }
    if (tools.childNodes.length) bar.append(tools);
  }

  // the table waits for people who are away (its away rule): who, and since when
  function pauseLine(tbl) {
    const seats = tbl.waiting_for ?? [];
    if (!seats.length) return null;
    const line = h("p", { class: "status-line pause-line", role: "status",
      "data-waiting": seats.join(" ") });
    line.textContent = pauseText(tbl);
    return line;
  }

  function pauseText(tbl) {
    const seats = tbl.waiting_for ?? [];
    if (seats.includes(me())) return t("table.paused_you");
    const who = seats.map((i) => {
      const s = tbl.seats[i];
      return t("table.paused_who", { name: s?.name ?? "", since: awayFor(s?.away_since) });
    });
    const names = who.length > 1
      ? `${who.slice(0, -1).join(", ")}${t("table.paused_and")}${who[who.length - 1]}` : who[0];
    return t("table.paused", { who: names });
  }

  // "seit 2 Minuten" in the page's language, from the time the player went away
  function awayFor(since) {
    const minutes = since ? Math.floor((Date.now() - since) / 60000) : 0;
    if (minutes < 1) return t("table.away_for_0");
    if (minutes === 1) return t("table.away_for_1");
    if (minutes >= 60) return t("table.away_for_hour");
    return t("table.away_for_n", { n: minutes });
  }

  // a table that ended before its match: nobody sits at it any more, or a demonstration
  // has played its games
  function closedLine(tbl) {
    if (tbl.status !== "finished" || !tbl.closed) return null;
    return h("p", { class: "status-line closed-line", role: "status",
      text: tbl.closed === "demo_done" ? t("table.closed_demo", { n: tbl.demo_games })
        : t("table.closed_nobody") });
  }

  function waitText(v) {
    const name = seatName(v.to_act);
    if (v.phase === "cut") return t("table.cut_wait", { name });
    if (v.phase === "play") return t("table.wait_play", { name });
    if (["bidding", "muss", "doubling"].includes(v.phase)) return t("table.wait_bid", { name });
    return t("table.turn_of", { name });
  }

  const contractText = (v) => game().contractText(v, seatName);

  // the result of a game: the sentence from the viewer's side, the game's table of it (Augen,
  // tricks, points or payments), the next game, the dealt hands
  function resultPanel(v, tbl) {
    const r = v.result;
    const ui = game();
    const ctx = { me: me(), seatName, rules: tbl.rules_options ?? {}, sheet: tbl.sheet };
    const panel = h("div", { class: "result", role: "status",
      "data-result": ui.resultKey ? ui.resultKey(r) : r.contract ?? "" });
    const said = ui.describe(r, v, ctx);
    const cls = said.cls ? ` ${said.cls}` : "";
    panel.append(h("div", { class: "result-head" },
      h("h2", { text: t("result.title", { n: tbl.game_number }) }),
      h("p", { class: `verdict${cls}`, text: said.verdict })),
    ui.resultTable(r, v, ctx), h("p", { class: "result-why", text: said.sentence }));
    return resultFooter(panel, v, tbl, (hand) => (ui.dealtOrder ? ui.dealtOrder(hand, r) : hand));
  }

  // below every result: the match's end or the next game, and the dealt hands on request
  // (``order`` puts a dealt hand in the game's order)
  function resultFooter(panel, v, tbl, order) {
    const buttons = h("div", { class: "choices" });
    if (tbl.match_over) {
      panel.append(h("p", { class: "match-over", text: t("result.match_over") }));
      buttons.append(link("/", t("table.back"), { class: "btn" }));
    } else if (me() !== null) {
      buttons.append(h("button", { type: "button", class: "btn btn-primary next",
        "data-action": "next", "data-legal": "true", text: t("result.next"),
        on: { click: () => send("next") } }));
    }
    if (v.dealt) {
      buttons.append(h("button", { type: "button", class: "btn btn-ghost",
        "aria-expanded": String(showHands), text: showHands ? t("result.hide_hands")
          : t("result.show_hands"), on: { click: () => { showHands = !showHands; renderActions(); } } }));
    }
    panel.append(buttons);
    if (showHands && v.dealt) {
      panel.append(h("div", { class: "dealt" }, h("h3", { text: t("result.dealt") }),
        v.dealt.map((hand, i) => h("div", { class: "dealt-row" },
          h("span", { class: "dealt-name", ...nameProps(seatName(i)) }),
          h("div", { class: "dealt-cards" }, order(hand).map((c) => cardElement(c, cardOpts())))))));
    }
    return panel;
  }

  // own hand: a fan of cards; legal ones clickable
  function renderHand() {
    clear(handBox);
    handBox.setAttribute("aria-label", t("table.hand"));
    if (!msg) return;
    const v = msg.view;
    if (me() === null) {
      handBox.classList.add("spectating");
      handBox.append(h("p", { class: "muted center", text: t("table.spectator") }));
      return;
    }
    handBox.classList.remove("spectating");
    if (!v || !v.hand.length) {
      handBox.classList.add("empty");
      return;
    }
    handBox.classList.remove("empty");
    const playing = game().CARD_PHASES.includes(v.phase) && myTurn();
    const legal = new Set(playing ? v.legal : []);
    const advice = playing && hint && hint.version === msg.version ? hint : null;
    const fan = h("div", { class: `fan${playing ? " my-turn" : ""}${advice ? " hinting" : ""}`,
      role: "group", "aria-label": t("table.hand") });
    for (const c of v.hand) {
      const ok = legal.has(c);
      const card = cardElement(c, cardOpts({ button: true }));
      // a game that picks cards its own way (Mus: the discard) handles the card
      if (game().handCard?.(card, c, v, { mine: myTurn() })) {
        fan.append(card);
        continue;
      }
      card.dataset.action = c;
      const value = advice?.values?.[c];
      if (ok && value !== undefined && value !== null) {
        const best = c === advice.card;
        card.dataset.value = String(value);
        card.append(h("span", { class: "hint-badge", "aria-hidden": "true",
          text: fmtAugen(value) }));
        const keys = game().HINT_KEYS ?? {};
        card.setAttribute("aria-label", t(best ? keys.best ?? "table.hint_badge_best"
          : keys.badge ?? "table.hint_badge", { card: cardName(c), n: fmtAugen(value) }));
        if (best) {
          card.classList.add("hinted");
          card.dataset.hint = "best";
        }
      }
      if (ok) {
        card.classList.add("legal");
        card.dataset.legal = "true";
        card.addEventListener("click", () => send(c));
      } else {
        card.disabled = true;
        if (playing) {
          card.classList.add("illegal");
          card.title = t("table.card_illegal");
        }
      }
      fan.append(card);
    }
    handBox.append(fan);
    fit();
  }

  // Fit the playing area into the window without scrolling: the hand's card height is
  // capped (by the screen's height, or in a landscape phone by the room left under the
  // action bar), and the felt gets the height that is left; the trick's card size
  // (--tw) follows the felt.  Purely visual: nothing here changes what is shown.
  const SHORT_LANDSCAPE = window.matchMedia("(orientation: landscape) and (max-height: 560px)");
  let fitting = false;
  function fit() {
    if (fitting || !viewEl.isConnected) return;
    fitting = true;
    try {
      const vh = window.innerHeight;
      const sy = window.scrollY;
      const gap = parseFloat(getComputedStyle(viewEl).rowGap) || 0;
      const bottom = vh - 6; // document y the stage must end above (at scroll 0)
      let cap;
      if (SHORT_LANDSCAPE.matches) {
        const a = actions.getBoundingClientRect();
        cap = bottom - (a.bottom + sy) - gap - 20;
      } else {
        cap = Math.min(190, Math.max(72, vh * 0.2));
      }
      layoutHand(Math.max(48, cap));
      const f = felt.getBoundingClientRect();
      let below = 0;
      if (!SHORT_LANDSCAPE.matches) {
        for (const el of [actions, handBox]) {
          const r = el.getBoundingClientRect();
          if (r.height) below = Math.max(below, r.bottom - f.bottom);
        }
      }
      const h = Math.max(SHORT_LANDSCAPE.matches ? 150 : 180, bottom - (f.top + sy) - below);
      felt.style.height = `${Math.floor(h)}px`;
      fitTrick();
    } finally {
      fitting = false;
    }
  }

  function fitTrick() {
    const cs = getComputedStyle(felt);
    const gap = parseFloat(cs.rowGap) || 0;
    const innerH = felt.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
    const innerW = felt.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    const size = (sel, dim) => Math.max(0, ...[...felt.querySelectorAll(sel)].map((el) => el[dim]));
    const availH = innerH - size(".seat-top, .seat-top-left, .seat-top-right", "offsetHeight")
      - size(".seat-bottom", "offsetHeight") - 2 * gap - 4;
    // room for the side seats' names and tags (they shrink if the trick takes it all)
    const side = Math.min(150, Math.max(92, size(".seat-left", "offsetWidth"),
      size(".seat-right", "offsetWidth")));
    const availW = innerW - 2 * side - 2 * gap;
    const tw = Math.max(24, Math.min(78, availH / 3.3, availW / 3));
    felt.style.setProperty("--tw", `${Math.floor(tw)}px`);
  }

  function layoutHand(capH = 190) {
    const fan = handBox.querySelector(".fan");
    if (!fan) return;
    const cards = [...fan.children];
    const n = cards.length;
    const W = fan.clientWidth;
    if (!n || !W) return;
    const maxW = Math.min(W < 560 ? 92 : 118, capH / 1.6);
    const maxRot = n > 1 ? 7 : 0;
    let w = Math.min(maxW, W / (1 + (n - 1) * 0.5));
    const hgt = w * 1.6;
    const pad = Math.ceil(hgt * Math.sin((maxRot * Math.PI) / 180)) + 4;
    w = Math.min(w, (W - 2 * pad) / (1 + (n - 1) * 0.5));
    let step = n > 1 ? Math.min(w + 10, (W - 2 * pad - w) / (n - 1)) : 0;
    if (step < w && w * 1.72 > capH) {
      // turned cards stand taller than their height: keep the turned fan under the cap
      w = capH / 1.72;
      step = Math.min(w + 10, (W - 2 * pad - w) / (n - 1));
    }
    const total = w + step * (n - 1);
    const x0 = (W - total) / 2;
    const overlap = step < w;
    cards.forEach((c, i) => {
      const off = n > 1 ? (i - (n - 1) / 2) / ((n - 1) / 2) : 0;
      c.style.width = `${w}px`;
      c.style.height = `${w * 1.6}px`;
      c.style.left = `${x0 + i * step}px`;
      c.style.setProperty("--rot", `${overlap ? off * maxRot : 0}deg`);
      c.style.setProperty("--lift", `${overlap ? Math.abs(off) * Math.abs(off) * 10 : 0}px`);
    });
    fan.style.height = `${w * 1.6 + 22}px`;
  }

  function renderInfo() {
    clear(infoPanel);
    if (!msg) return;
    const v = msg.view;
    infoPanel.append(h("h2", { text: t("table.calls") }));
    if (v?.contract) {
      infoPanel.append(h("p", { class: "contract", text: contractText(v) }));
    }
    const items = v ? game().callLog(v, seatName) : [];
    infoPanel.append(items.length ? h("ol", { class: "call-log" }, items)
      : h("p", { class: "muted", text: t("table.no_calls") }));
    // below the list what else the game tells (Mucken: the tricks of the pairs)
    const note = v ? game().infoNote?.(v, { seatName, me: me() }) : null;
    if (note) infoPanel.append(note);
  }

  function renderSheetPanel() {
    clear(sheetPanel);
    if (!msg) return;
    sheetPanel.append(h("h2", { id: "sheet-h", text: game().sheetTitle() }),
      game().abrechnung(msg.table.sheet, { seatName, me: me(), view: msg.view }));
    // the games a bot played for a person's seat are marked under the sheet
    const marks = msg.table.stand_in_games ?? [];
    if (marks.length) {
      const seatWho = (i) => (msg.table.seats[i]?.kind === "human" ? msg.table.seats[i].name
        : t("table.seat_n", { n: i + 1 }));
      sheetPanel.append(h("ul", { class: "stand-in-games" }, marks.map((m) => h("li", {
        "data-game": m.game, text: t("table.stand_in_game", { n: m.game,
          names: m.seats.map(seatWho).join(t("table.paused_and")) }) }))));
    }
  }

  function renderChatChrome() {
    chatTitle.textContent = t("chat.title");
    chatLabel.textContent = t("chat.label");
    chatInput.placeholder = session.user ? t("chat.placeholder") : t("chat.login");
    chatInput.disabled = !session.user;
    chatSend.disabled = !session.user;
    chatSend.textContent = t("chat.send");
  }

  function chatItem(m) {
    const when = m.at ? new Date(m.at) : null;
    return h("li", { class: "chat-msg" },
      when && !Number.isNaN(when.getTime()) ? h("time", { datetime: m.at,
        text: when.toLocaleTimeString(locale(),
          { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }) }) : null,
      h("strong", { class: "chat-name", text: m.name ?? "?" }),
      h("span", { class: "chat-text", text: chatText(m.text) }));
  }

  function appendChat(m) {
    chatList.append(chatItem(m));
    while (chatList.children.length > 200) chatList.firstChild.remove();
    chatList.scrollTop = chatList.scrollHeight;
  }

  function renderChat() {
    clear(chatList);
    for (const m of chatLog) chatList.append(chatItem(m));
    chatList.scrollTop = chatList.scrollHeight;
  }

  // -- timers and keys ------------------------------------------------------------------------
  function tick() {
    const left = deadline === null ? null : deadline - Date.now();
    for (const el of viewEl.querySelectorAll("[data-timer]")) {
      if (left === null) {
        el.textContent = "";
        el.hidden = true;
        continue;
      }
      el.hidden = false;
      const text = fmtSeconds(left);
      if (el.dataset.text !== text) {
        el.dataset.text = text;
        clear(el).append(icon("clock"), h("span", { text }));
      }
      el.classList.toggle("urgent", left < 10000);
      const span = (msg?.table?.turn_timer || 60) * 1000;
      el.style.setProperty("--frac", String(Math.max(0, Math.min(1, left / span))));
    }
    const pause = viewEl.querySelector(".pause-line");
    if (pause && msg?.table) {
      const text = pauseText(msg.table);
      if (pause.textContent !== text) pause.textContent = text;
    }
    if (conn.state === "retry") {
      const s = banner.querySelector(".retry-text");
      if (s) {
        s.textContent = t("table.reconnecting", {
          s: Math.max(0, Math.ceil((conn.at + conn.delay - Date.now()) / 1000)) });
      }
    }
  }

  function options() {
    return [...viewEl.querySelectorAll('[data-legal="true"]:not([disabled])')];
  }

  function onKey(ev) {
    const tag = ev.target?.tagName;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    if (ev.key === "Escape" && showLast) {
      toggleLast(false);
      return;
    }
    if ((ev.key === "h" || ev.key === "H") && canHint()) {
      ev.preventDefault();
      requestHint();
      return;
    }
    const opts = options();
    if (!opts.length) return;
    const idx = opts.indexOf(document.activeElement);
    if (/^[1-9]$/.test(ev.key)) {
      const target = opts[Number(ev.key) - 1];
      if (target) {
        ev.preventDefault();
        target.focus();
      }
    } else if (ev.key === "ArrowRight" || ev.key === "ArrowDown") {
      ev.preventDefault();
      opts[(idx + 1 + opts.length) % opts.length].focus();
    } else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") {
      ev.preventDefault();
      opts[idx <= 0 ? opts.length - 1 : idx - 1].focus();
    }
  }

  // -- seat changes through the API -------------------------------------------------------
  async function join(seat) {
    try {
      await api("POST", `/api/tables/${encodeURIComponent(id)}/join`, { seat, invite });
      sock.send({ type: "sync" });
    } catch (e) {
      toastError(e);
    }
  }

  async function addBots() {
    try {
      await api("POST", `/api/tables/${encodeURIComponent(id)}/bots`, { seats: "fill" });
    } catch (e) {
      toastError(e);
    }
  }

  async function leave() {
    if (!window.confirm(t("table.leave_confirm"))) return;
    try {
      const out = await api("POST", `/api/tables/${encodeURIComponent(id)}/leave`, {});
      leftSeat = out?.left ?? null;
      sock.send({ type: "sync" });
    } catch (e) {
      toastError(e);
    }
  }

  render();
  loadBotInfo().then(() => { if (viewEl.isConnected) render(); });
  return {
    destroy() {
      document.title = t("app.title");
      sock.close();
      clearInterval(ticker);
      clearTimeout(holdTimer);
      clearTimeout(pendingTimer);
      clearTimeout(hintTimer);
      resize.disconnect();
      window.removeEventListener("resize", fit);
      document.removeEventListener("keydown", onKey);
    },
    rerender: render,
  };
}
