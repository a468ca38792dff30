// The lobby: log in / register / guest, the live list of open public tables
// (websocket /ws/lobby), and the form to open a new table.

import { botDescription, botName, seatDisplayName, setBotInfo } from "./bots.js";
import { hasStoredLanguage, language, setLanguage, t } from "./i18n.js";
import { api, clear, euros, h, icon, link, nameProps, navigate, placeholder, session, setUser,
  socket, toast, toastError } from "./ui.js";

const TIMERS = [0, 15, 30, 60, 120, 300];
const AWAY = [60, 300, 900, 3600, 0]; // seconds away before the seat is freed (0: never)
const OPTION_KEYS = ["deck", "no_game", "doublings", "partner_overcall_new_round", "klopfen"];
// Schafkopf's options in the form (the rest stays as the preset has it)
const SK_GAMES = ["sauspiel", "hochzeit", "bettel", "geier", "wenz", "farbwenz", "solo", "tout",
  "sie"];
const SK_TARIFF = ["rufspiel", "solo", "bettel", "schneider", "schwarz", "laufend", "ramsch"];

export function mountLobby(root) {
  let tables = null;
  let live = false;
  let presets = null;
  let invite = null; // {url} after creating a private table
  const form = {}; // the create form's values, kept across re-renders

  const wrap = h("div", { class: "lobby" });
  root.append(wrap);

  const sock = socket("/ws/lobby", {
    onMessage(msg) {
      if (msg.type === "lobby") {
        tables = msg.tables;
        renderList();
      }
    },
    onStatus({ state }) {
      live = state === "open";
      renderStatus();
    },
  });

  api("GET", "/api/presets").then((data) => {
    presets = data;
    setBotInfo(data);
    renderCreate();
  }).catch(toastError);

  let listBox;
  let statusBox;
  let createBox;

  function render() {
    clear(wrap);
    if (!session.user) wrap.append(authPanel());
    listBox = h("div", { class: "table-list", "aria-live": "polite" });
    statusBox = h("span", { class: "live-dot" });
    const tablesPanel = h("section", { class: "panel tables-panel", "aria-labelledby": "tables-h" },
      h("div", { class: "panel-head" }, h("h2", { id: "tables-h", text: t("lobby.title") }),
        statusBox),
      listBox);
    createBox = h("div", { class: "create-box" });
    const createPanel = h("section", { class: "panel create-panel",
      "aria-labelledby": "create-h" }, h("h2", { id: "create-h", text: t("create.title") }),
    createBox);
    wrap.append(h("div", { class: "lobby-grid" }, tablesPanel, createPanel));
    renderCreate();
    renderList();
    renderStatus();
  }

  function renderCreate() {
    if (!createBox) return;
    clear(createBox).append(session.user ? (invite ? invitePanel() : createForm())
      : h("p", { class: "muted", text: t("auth.need_login") }));
  }

  function renderStatus() {
    if (!statusBox) return;
    statusBox.textContent = live ? t("lobby.live") : t("lobby.offline");
    statusBox.classList.toggle("off", !live);
  }

  // -- log in / register / guest -------------------------------------------------------
  function authPanel() {
    const guestName = h("input", { id: "guest-name", name: "name", required: true,
      minlength: 2, maxlength: 24, autocomplete: "nickname" });
    const guest = h("form", { class: "auth-card", "aria-labelledby": "guest-h",
      on: { submit: (ev) => submitAuth(ev, "/api/guest", { name: guestName.value }) } },
    h("h2", { id: "guest-h", text: t("auth.guest") }),
    h("p", { class: "muted", text: t("auth.guest_hint") }),
    h("label", { for: "guest-name", text: t("auth.name") }), guestName,
    h("button", { type: "submit", class: "btn btn-primary", text: t("auth.guest") }));

    function credForm(kind, title) {
      const n = h("input", { id: `${kind}-name`, name: "name", required: true, minlength: 2,
        maxlength: 24, autocomplete: "username" });
      const p = h("input", { id: `${kind}-password`, name: "password", type: "password",
        required: true, minlength: kind === "register" ? 8 : 1,
        autocomplete: kind === "register" ? "new-password" : "current-password" });
      return h("form", { class: "auth-card", "aria-labelledby": `${kind}-h`,
        on: { submit: (ev) => submitAuth(ev, `/api/${kind}`,
          { name: n.value, password: p.value }) } },
      h("h2", { id: `${kind}-h`, text: title }),
      h("label", { for: `${kind}-name`, text: t("auth.name") }), n,
      h("label", { for: `${kind}-password`, text: t("auth.password") }), p,
      kind === "register" ? h("small", { class: "muted", text: t("auth.password_hint") }) : null,
      h("button", { type: "submit", class: kind === "login" ? "btn btn-primary" : "btn",
        text: title }));
    }
    return h("section", { class: "hero" },
      h("div", { class: "hero-text" }, h("h1", { text: t("auth.welcome") }),
        h("p", { text: t("app.tagline") })),
      h("div", { class: "auth-grid" }, guest, credForm("login", t("auth.login")),
        credForm("register", t("auth.register"))));
  }

  async function submitAuth(ev, path, body) {
    ev.preventDefault();
    const btn = ev.target.querySelector("button[type=submit]");
    btn.disabled = true;
    try {
      await api("POST", path, body);
      const me = (await api("GET", "/api/me")).user;
      setUser(me);
      // one language for the person: a choice made before logging in goes to the account,
      // otherwise the account's language applies
      if (me && hasStoredLanguage() && me.language !== language()) {
        api("POST", "/api/me/language", { language: language() }).catch(() => {});
        me.language = language();
      } else if (me && !hasStoredLanguage() && me.language && me.language !== language()) {
        setLanguage(me.language);
      }
      render();
    } catch (e) {
      toastError(e);
      btn.disabled = false;
    }
  }

  // -- the list of tables ----------------------------------------------------------------
  function renderList() {
    if (!listBox) return;
    clear(listBox);
    if (placeholder(listBox, tables, t("lobby.empty"))) return;
    for (const tb of tables) listBox.append(tableCard(tb));
  }

  function tableCard(tb) {
    const taken = tb.seats.filter((s) => s.kind !== "empty").length;
    const mine = session.user && (tb.seats.some((s) => s.kind === "human"
      && s.name === session.user.name)
      || (tb.seats.some((s) => s.away) && seatedTables().includes(tb.id)));
    const seats = h("ol", { class: "lobby-seats" }, tb.seats.map((s, i) => {
      if (s.kind === "empty") {
        return h("li", { class: "seat-slot free" },
          session.user && !mine
            ? h("button", { type: "button", class: "btn btn-small btn-primary sit",
              "data-seat": i, "aria-label": t("lobby.sit_label", { n: i + 1, table: tb.name }),
              text: t("lobby.sit"), on: { click: () => join(tb.id, i) } })
            : h("span", { class: "muted", text: t("lobby.seat_free") }));
      }
      if (s.away) {
        // a person who is away: never their name — a bot stands in, or the seat waits
        return h("li", { class: `seat-slot ${s.kind} away` },
          h("span", { class: "seat-icon" }, icon(s.kind === "bot" ? "bot" : "person")),
          h("span", { class: "seat-name muted", text: s.kind === "bot"
            ? t("lobby.seat_away_bot") : t("lobby.seat_away") }));
      }
      return h("li", { class: `seat-slot ${s.kind}` },
        h("span", { class: "seat-icon" }, icon(s.kind === "bot" ? "bot" : "person")),
        h("span", { class: "seat-name", ...nameProps(seatDisplayName(s).name),
          ...(s.kind === "bot" ? { title: t("bots.generic") } : {}) }));
    }));
    return h("article", { class: "table-card", "data-table": tb.id },
      h("div", { class: "table-card-head" },
        h("h3", { text: tb.name }),
        h("span", { class: `pill status-${tb.status}`, text: t(`lobby.status.${tb.status}`) })),
      h("p", { class: "table-meta" },
        h("span", { text: tb.game && tb.game !== "mucken" ? gamePresetLabel(tb.game, tb.rules)
          : presetLabel(tb.rules) }),
        tb.game && tb.game !== "mucken" ? h("span", { class: "game-name",
          text: t(`game.${tb.game}`) })
          : h("span", { text: `Bobbl ${t("lobby.to", { n: tb.bobbl_target })}` }),
        h("span", { text: tb.turn_timer ? t("lobby.timer", { s: tb.turn_timer })
          : t("lobby.no_timer") }),
        h("span", { text: tb.seats.length === 4 ? t("lobby.seats", { taken })
          : t("lobby.seats_of", { taken, n: tb.seats.length }) }),
        tb.spectators ? h("span", { text: t("lobby.spectators", { n: tb.spectators }) }) : null),
      seats,
      h("div", { class: "table-card-actions" },
        link(`/t/${encodeURIComponent(tb.id)}`, mine ? t("create.go") : t("lobby.watch"),
          { class: "btn btn-small watch" })));
  }

  async function join(id, seat) {
    try {
      await api("POST", `/api/tables/${encodeURIComponent(id)}/join`, { seat });
      navigate(`/t/${encodeURIComponent(id)}`);
    } catch (e) {
      toastError(e);
    }
  }

  // -- create a table ---------------------------------------------------------------------
  function presetLabel(name) {
    const key = `create.preset.${name}`;
    const s = t(key);
    return s === key ? name : s;
  }

  // another game's preset ("custom" and unknown names as they are)
  function gamePresetLabel(game, name) {
    const key = `create.preset.${game}.${name}`;
    const s = t(key);
    return s === key ? name : s;
  }

  // the table's away rule: chosen, or by default "bot" for a public table, "wait" else
  function awayRule(byDefault = false) {
    if (!byDefault && form.away_rule_chosen && form.away_rule) return form.away_rule;
    return form.public ? "bot" : "wait";
  }

  function presetDefaults(name) {
    const p = presets?.presets?.[name] ?? {};
    for (const k of OPTION_KEYS) form[k] = p[k];
    form.bobbl_target = p.bobbl_target ?? 21;
  }

  function createForm() {
    if (!presets) return h("p", { class: "muted", text: "…" });
    if (form.preset === undefined) {
      Object.assign(form, { game: "mucken", name: t("create.name_default"), public: true,
        preset: "seefest",
        bobbl_limit: 2, turn_timer: 60, fill: true, bot: presets.default_bot, seat: 0,
        allow_hints: false, away_timeout: 300 });
      if (!presets.presets.seefest) form.preset = Object.keys(presets.presets)[0];
      presetDefaults(form.preset);
    }
    const f = h("form", { class: "create-form", "aria-labelledby": "create-h",
      on: { submit: submitCreate } });
    const field = (id, label, input, hint) => h("div", { class: "field" },
      h("label", { for: id, text: label }), input,
      hint ? h("small", { class: "muted", text: hint }) : null);
    const bind = (input, key, conv = (v) => v) => {
      input.addEventListener("change", () => {
        form[key] = input.type === "checkbox" ? input.checked : conv(input.value);
      });
      return input;
    };
    const select = (id, key, options, conv) => {
      const s = h("select", { id, name: key }, options.map(([v, label]) => h("option",
        { value: v, text: label, selected: String(form[key]) === String(v) })));
      return bind(s, key, conv);
    };
    const check = (id, key, label) => h("div", { class: "check" },
      bind(h("input", { type: "checkbox", id, name: key, checked: !!form[key] }), key),
      h("label", { for: id, text: label }));
    // the parts every game's form has
    const parts = {
      name: () => field("c-name", t("create.name"), bind(h("input", { id: "c-name",
        name: "name", maxlength: 80, value: form.name }), "name")),
      public: () => {
        const box = check("c-public", "public", t("create.public"));
        box.querySelector("input").addEventListener("change", () => {
          // a private table (among friends) waits for those away, a public one lets a bot
          // take over — until the creator chooses otherwise
          const rule = document.getElementById("c-away-rule");
          if (!form.away_rule_chosen && rule) rule.value = form.away_rule = awayRule(true);
        });
        return [box, h("small", { class: "muted block", text: t("create.private_hint") })];
      },
      timer: () => field("c-timer", t("create.turn_timer"), select("c-timer", "turn_timer",
        TIMERS.map((s) => [s, s ? t("create.seconds", { n: s }) : t("create.turn_timer.0")]),
        Number)),
      // the away rule: "Warten" or "Bot übernimmt" (default: by public/private until chosen)
      takeover: () => {
        const rule = select("c-away-rule", "away_rule", [["wait", t("create.away_rule.wait")],
          ["bot", t("create.away_rule.bot")]]);
        rule.value = awayRule();
        rule.addEventListener("change", () => { form.away_rule_chosen = true; });
        return [field("c-away-rule", t("create.away_rule"), rule),
          h("small", { class: "muted block", text: t("create.away_rule_hint") })];
      },
      away: () => field("c-away", t("create.away_timeout"), select("c-away", "away_timeout",
        AWAY.map((n) => [n, n === 0 ? t("create.away.never") : n === 60 ? t("create.minute")
          : t("create.minutes", { n: n / 60 })]), Number)),
      botSeat: (seatField = field("c-seat", t("create.seat"), select("c-seat", "seat",
        [0, 1, 2, 3].map((i) => [i, t("create.seat_n", { n: i + 1 })]), Number))) =>
        h("div", { class: "field-row" }, field("c-bot", t("create.bot"), botSelect()), seatField),
      submit: () => h("button", { type: "submit", class: "btn btn-primary btn-wide",
        text: t("create.submit") }),
      // the end of every game's form: bots, hints (at every game's table, issue 19), the
      // away rule, the bot and the creator's seat, the button
      seating: (seatField) => [
        check("c-fill", "fill", t("create.fill_bots")),
        check("c-hints", "allow_hints", t("create.allow_hints")),
        h("small", { class: "muted block", text: t("create.allow_hints_hint") }),
        ...parts.takeover(),
        parts.away(),
        parts.botSeat(seatField),
        parts.submit()],
    };

    const games = Object.entries(presets.games ?? {}).filter(([, g]) => g.tables);
    const gameSel = select("c-game", "game", games.map(([k, g]) => [k, g.title?.[language()]
      ?? g.title?.de ?? k]));
    gameSel.addEventListener("change", () => {
      form.game = gameSel.value;
      if (form.game === "schafkopf") skDefaults(form.sk?.preset ?? skInfo().default_preset);
      const bots = gameInfo().bots ?? presets.bots;
      if (!bots.includes(form.bot)) form.bot = gameInfo().default_bot ?? presets.default_bot;
      renderCreate();
      document.getElementById("c-game")?.focus();
    });
    if (form.game !== "schafkopf" && form.game !== "mucken") {
      // no absent field as the text "null" (Element.append(null) writes it)
      f.append(...otherGameFields(field, check, select, gameSel, games.length > 1, parts)
        .filter((x) => x !== null && x !== undefined));
      return f;
    }
    if (form.game === "schafkopf") {
      f.append(
        parts.name(),
        games.length > 1 ? field("c-game", t("create.game"), gameSel) : null,
        ...parts.public(),
        ...schafkopfFields(field, check),
        h("div", { class: "field-row" }, parts.timer()),
        ...parts.seating());
      return f;
    }
    const presetSel = select("c-preset", "preset",
      Object.keys(presets.presets).map((p) => [p, presetLabel(p)]));
    presetSel.addEventListener("change", () => {
      presetDefaults(presetSel.value);
      renderCreate();
      document.getElementById("c-preset")?.focus();
    });
    const num = Number;
    f.append(
      parts.name(),
      ...parts.public(),
      games.length > 1 ? field("c-game", t("create.game"), gameSel) : null,
      field("c-preset", t("create.preset"), presetSel),
      h("fieldset", { class: "options" }, h("legend", { text: t("create.options") }),
        field("c-deck", t("create.deck"), select("c-deck", "deck",
          [["short", t("create.deck.short")], ["long", t("create.deck.long")]])),
        field("c-no-game", t("create.no_game"), select("c-no-game", "no_game",
          ["pflichtmuck", "einwerfen", "muss", "ramsch"].map((k) => [k,
            t(`create.no_game.${k}`)]))),
        field("c-doublings", t("create.doublings"), select("c-doublings", "doublings",
          [0, 1, 2, 3, 4].map((n) => [n, t(`create.doublings.${n}`)]), num)),
        h("div", { class: "field" }, h("span", { class: "label", id: "c-target-l",
          text: t("create.bobbl_target") }),
        h("div", { class: "radios", role: "radiogroup", "aria-labelledby": "c-target-l" },
          [21, 31].map((n) => h("label", { class: "radio" },
            bind(h("input", { type: "radio", name: "bobbl_target", value: n,
              checked: form.bobbl_target === n }), "bobbl_target", num), ` ${n}`)))),
        check("c-overcall", "partner_overcall_new_round", t("create.partner_overcall")),
        check("c-klopfen", "klopfen", t("create.klopfen"))),
      h("div", { class: "field-row" },
        field("c-limit", t("create.bobbl_limit"), bind(h("input", { id: "c-limit",
          type: "number", min: 1, max: 50, value: form.bobbl_limit }), "bobbl_limit", num)),
        parts.timer()),
      ...parts.seating(),
    );
    return f;
  }

  // -- the other games (Mulatschak, Mus): preset, the number of players (in the game's seat
  // range: Mulatschak 2 to 6), timer, bots, seat
  const gameInfo = () => presets?.games?.[form.game] ?? { presets: {}, bots: presets?.bots ?? [] };

  function otherGameFields(field, check, select, gameSel, manyGames, parts) {
    const g = gameInfo();
    const [low, high] = g.seats ?? [4, 4];
    if (!form.other || form.other.game !== form.game) {
      form.other = { game: form.game, preset: g.default_preset,
        players: Math.max(low, Math.min(high, 4)) };
    }
    const o = form.other;
    if (form.seat >= o.players) form.seat = 0;
    const presetSel = h("select", { id: "c-preset", name: "preset" },
      Object.keys(g.presets ?? {}).map((p) => h("option", { value: p,
        text: presetLabel(`${form.game}.${p}`), selected: o.preset === p })));
    presetSel.addEventListener("change", () => { o.preset = presetSel.value; });
    const seatSel = () => select("c-seat", "seat", Array.from({ length: o.players },
      (_, i) => [i, t("create.seat_n", { n: i + 1 })]), Number);
    const seatField = field("c-seat", t("create.seat"), seatSel());
    let playersField = null;
    if (high > low) {
      const sel = h("select", { id: "c-players", name: "players" },
        Array.from({ length: high - low + 1 }, (_, k) => low + k).map((n) => h("option",
          { value: n, text: t("create.players_n", { n }), selected: o.players === n })));
      sel.addEventListener("change", () => {
        o.players = Number(sel.value);
        if (form.seat >= o.players) form.seat = 0;
        seatField.replaceChild(seatSel(), seatField.querySelector("select"));
      });
      playersField = field("c-players", t("create.players"), sel);
    }
    // Mus: the señas (off, for the partner only, or seen by an opponent with a probability)
    let senasRow = null;
    if (form.game === "mus") {
      o.senas ??= "off";
      o.catch ??= 0.2;
      const pct = h("input", { id: "c-mus-catch", name: "catch", type: "number", min: 0, max: 100,
        step: 5, value: Math.round(o.catch * 100), inputmode: "numeric" });
      pct.addEventListener("change", () => {
        o.catch = Math.max(0, Math.min(100, Number(pct.value) || 0)) / 100;
      });
      const catchField = field("c-mus-catch", `${t("mus.create.catch")} (%)`, pct);
      catchField.hidden = o.senas !== "sichtbar";
      const sel = h("select", { id: "c-mus-senas", name: "senas" },
        ["off", "on", "sichtbar"].map((k) => h("option", { value: k,
          text: t(`mus.create.senas.${k}`), selected: o.senas === k })));
      sel.addEventListener("change", () => {
        o.senas = sel.value;
        catchField.hidden = o.senas !== "sichtbar";
      });
      senasRow = h("div", { class: "field-row" }, field("c-mus-senas", t("mus.create.senas"), sel),
        catchField);
    }
    return [
      parts.name(),
      manyGames ? field("c-game", t("create.game"), gameSel) : null,
      ...parts.public(),
      h("div", { class: "field-row" },
        Object.keys(g.presets ?? {}).length > 1 ? field("c-preset", t("create.preset"), presetSel)
          : null,
        playersField),
      senasRow,
      h("div", { class: "field-row" }, parts.timer()),
      ...parts.seating(seatField),
    ];
  }

  function otherGameBody() {
    const o = form.other;
    return {
      name: form.name || t("create.name_default"), public: !!form.public, game: form.game,
      preset: o.preset, players: o.players, turn_timer: form.turn_timer,
      bots: form.fill ? "fill" : [], bot: form.bot, seat: form.seat,
      allow_hints: !!form.allow_hints,
      away_rule: awayRule(), away_timeout: form.away_timeout,
      match_options: form.game === "mus" && o.senas && o.senas !== "off"
        ? { senas: o.senas, ...(o.senas === "sichtbar" ? { catch: o.catch } : {}) } : undefined,
    };
  }

  // -- Schafkopf's rules in the form: preset, Legen, all pass, first lead, the games, Tarif
  const skInfo = () => presets?.games?.schafkopf ?? { presets: {}, bots: [] };

  function skDefaults(name) {
    const p = skInfo().presets?.[name] ?? {};
    form.sk = { preset: name, legen: !!p.legen, all_pass: p.all_pass ?? "redeal",
      first_lead: p.first_lead ?? "vorhand", games: [...(p.games ?? [])],
      tariff: { ...(p.tariff ?? {}) }, rounds: form.sk?.rounds ?? "",
      kreuzbock: form.sk?.kreuzbock ?? false };
  }

  function schafkopfFields(field, check) {
    if (!form.sk) skDefaults(skInfo().default_preset ?? "standard");
    const sk = form.sk;
    const sel = (id, value, options, on) => {
      const el = h("select", { id }, options.map(([v, label]) => h("option",
        { value: v, text: label, selected: String(value) === String(v) })));
      el.addEventListener("change", () => on(el.value));
      return el;
    };
    const box = (id, checked, label, on) => {
      const input = h("input", { type: "checkbox", id, checked });
      input.addEventListener("change", () => on(input.checked));
      return h("div", { class: "check" }, input, h("label", { for: id, text: label }));
    };
    const presetSel = sel("c-sk-preset", sk.preset, Object.keys(skInfo().presets)
      .map((p) => [p, presetLabel(`schafkopf.${p}`)]), (v) => {
      skDefaults(v);
      renderCreate();
      document.getElementById("c-sk-preset")?.focus();
    });
    const num = (v) => (v === "" ? "" : Math.max(0, Math.round(Number(v))));
    return [
      field("c-sk-preset", t("create.preset"), presetSel),
      h("fieldset", { class: "options sk-options" }, h("legend", { text: t("create.options") }),
        box("c-sk-legen", sk.legen, t("sk.create.legen"), (v) => { sk.legen = v; }),
        box("c-sk-kreuzbock", !!sk.kreuzbock, t("sk.create.kreuzbock"),
          (v) => { sk.kreuzbock = v; }),
        field("c-sk-all-pass", t("sk.create.all_pass"), sel("c-sk-all-pass", sk.all_pass,
          ["redeal", "ramsch", "muss"].map((k) => [k, t(`sk.create.all_pass.${k}`)]),
          (v) => { sk.all_pass = v; })),
        field("c-sk-lead", t("sk.create.first_lead"), sel("c-sk-lead", sk.first_lead,
          ["vorhand", "declarer"].map((k) => [k, t(`sk.create.first_lead.${k}`)]),
          (v) => { sk.first_lead = v; })),
        h("div", { class: "field" }, h("span", { class: "label", id: "c-sk-games-l",
          text: t("sk.create.games") }),
        h("div", { class: "sk-game-checks", role: "group", "aria-labelledby": "c-sk-games-l" },
          SK_GAMES.map((g) => box(`c-sk-game-${g}`, sk.games.includes(g), t(`sk.group.${g}`),
            (on) => {
              sk.games = on ? [...new Set([...sk.games, g])] : sk.games.filter((x) => x !== g);
            })))),
        h("div", { class: "field" }, h("span", { class: "label", id: "c-sk-tariff-l",
          text: t("sk.create.tariff") }),
        h("div", { class: "sk-tariff", role: "group", "aria-labelledby": "c-sk-tariff-l" },
          SK_TARIFF.map((k) => {
            const input = h("input", { id: `c-sk-tariff-${k}`, type: "number", min: 0,
              max: 100000, step: 1, value: sk.tariff[k] ?? "", "aria-describedby":
              `c-sk-tariff-${k}-eur` });
            // the unit: cents, and what they are in euros ("20" = 0,20 €)
            const eur = h("small", { class: "muted sk-tariff-eur", id: `c-sk-tariff-${k}-eur`,
              text: `ct = ${euros(sk.tariff[k] ?? 0)}` });
            input.addEventListener("input", () => {
              eur.textContent = `ct = ${euros(num(input.value) || 0)}`;
            });
            input.addEventListener("change", () => { sk.tariff[k] = num(input.value); });
            return h("label", { class: "sk-tariff-item", for: `c-sk-tariff-${k}` },
              h("span", { text: t(`sk.create.tariff.${k}`) }), input, eur);
          })))),
      field("c-sk-rounds", t("sk.create.rounds"), (() => {
        const input = h("input", { id: "c-sk-rounds", type: "number", min: 1, max: 50,
          value: sk.rounds, placeholder: t("sk.create.rounds_open") });
        input.addEventListener("change", () => { sk.rounds = num(input.value); });
        return input;
      })()),
    ];
  }

  // the bot picker: strength names from the server, the chosen bot's description below
  function botSelect() {
    const bots = form.game === "mucken" ? presets.bots : gameInfo().bots ?? presets.bots;
    const sel = h("select", { id: "c-bot", name: "bot", "aria-describedby": "c-bot-desc" },
      bots.map((b) => h("option", { value: b, text: botName(b),
        title: botDescription(b), selected: form.bot === b })));
    const desc = h("small", { id: "c-bot-desc", class: "muted block bot-desc",
      text: botDescription(form.bot) });
    sel.addEventListener("change", () => {
      form.bot = sel.value;
      desc.textContent = botDescription(sel.value);
    });
    return h("div", { class: "bot-pick" }, sel, desc);
  }

  function schafkopfBody() {
    const sk = form.sk;
    const base = skInfo().presets?.[sk.preset] ?? {};
    const options = {};
    for (const k of ["legen", "all_pass", "first_lead"]) {
      if (sk[k] !== base[k]) options[k] = sk[k];
    }
    if ([...sk.games].sort().join() !== [...(base.games ?? [])].sort().join()) {
      options.games = SK_GAMES.filter((g) => sk.games.includes(g));
    }
    const tariff = {};
    for (const k of SK_TARIFF) {
      if (sk.tariff[k] !== "" && sk.tariff[k] !== undefined && sk.tariff[k] !== base.tariff?.[k]) {
        tariff[k] = sk.tariff[k];
      }
    }
    if (Object.keys(tariff).length) options.tariff = tariff;
    return {
      name: form.name || t("create.name_default"), public: !!form.public, game: "schafkopf",
      preset: sk.preset, options, rounds: sk.rounds || null, kreuzbock: !!sk.kreuzbock,
      turn_timer: form.turn_timer,
      bots: form.fill ? "fill" : [], bot: form.bot, seat: form.seat,
      allow_hints: !!form.allow_hints,
      away_rule: awayRule(), away_timeout: form.away_timeout,
    };
  }

  async function submitCreate(ev) {
    ev.preventDefault();
    if (form.game === "schafkopf") {
      await sendCreate(ev, schafkopfBody());
      return;
    }
    if (form.game !== "mucken") {
      await sendCreate(ev, otherGameBody());
      return;
    }
    const base = presets.presets[form.preset] ?? {};
    const options = {};
    for (const k of OPTION_KEYS) if (form[k] !== undefined && form[k] !== base[k]) options[k] = form[k];
    const body = {
      name: form.name || t("create.name_default"), public: !!form.public, preset: form.preset,
      options, bobbl_target: form.bobbl_target, bobbl_limit: form.bobbl_limit || null,
      turn_timer: form.turn_timer, bots: form.fill ? "fill" : [], bot: form.bot, seat: form.seat,
      allow_hints: !!form.allow_hints, away_rule: awayRule(),
      away_timeout: form.away_timeout,
    };
    await sendCreate(ev, body);
  }

  async function sendCreate(ev, body) {
    const btn = ev.target.querySelector("button[type=submit]");
    btn.disabled = true;
    try {
      const res = await api("POST", "/api/tables", body);
      if (body.public) {
        navigate(res.url);
      } else {
        invite = { url: new URL(res.url, location.origin).href, path: res.url };
        renderCreate();
      }
    } catch (e) {
      toastError(e);
      btn.disabled = false;
    }
  }

  function invitePanel() {
    const input = h("input", { id: "invite-url", readonly: true, value: invite.url,
      class: "invite-input" });
    return h("div", { class: "invite" },
      h("label", { for: "invite-url", text: t("create.invite") }),
      h("div", { class: "invite-row" }, input,
        h("button", { type: "button", class: "btn", text: t("create.copy"),
          on: { click: () => copyText(input) } })),
      h("div", { class: "invite-row" },
        link(invite.path, t("create.go"), { class: "btn btn-primary" }),
        h("button", { type: "button", class: "btn btn-ghost", text: t("create.title"),
          on: { click: () => { invite = null; renderCreate(); } } })));
  }

  render();
  return {
    destroy() {
      sock.close();
    },
    rerender: render,
  };
}

// the tables this browser's user sits at (kept in localStorage): the lobby lists a seat
// whose player is away without the name, so it finds one's own table this way
const SEATED_KEY = "stammtisch.seated";

function seatedKey() {
  return session.user ? `${SEATED_KEY}.${session.user.id}` : null;
}

function seatedTables() {
  const key = seatedKey();
  if (!key) return [];
  try {
    const ids = JSON.parse(localStorage.getItem(key) || "[]");
    return Array.isArray(ids) ? ids : [];
  } catch {
    return [];
  }
}

export function rememberSeat(tableId, seated) {
  const key = seatedKey();
  if (!key) return;
  const ids = seatedTables().filter((x) => x !== tableId);
  if (seated) ids.push(tableId);
  try {
    localStorage.setItem(key, JSON.stringify(ids.slice(-20)));
  } catch {
    // (storage full or switched off: the lobby then just says "watch")
  }
}

export async function copyText(input) {
  try {
    await navigator.clipboard.writeText(input.value);
    toast(t("create.copied"), "info", 2500);
  } catch {
    input.select();
    try {
      if (document.execCommand("copy")) {
        toast(t("create.copied"), "info", 2500);
        return;
      }
    } catch {
      /* fall through */
    }
    toast(t("error.clipboard"));
  }
}
