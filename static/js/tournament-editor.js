/* The home page's tournament editor (issue 31): a structure from a preset, edited; the
 * money, periods and players; the prizes previewed as players are added; then the server
 * makes the tournament and seats the players at random, and the page shows them with each
 * table's links.
 * The presets and the prizes are the server's (GET /api/tournaments/presets and /preview):
 * nothing of the rules is worked out here, and the server checks what is sent. */
"use strict";

(() => {
  const { h, clear } = DA;
  const $ = (id) => document.getElementById(id);
  const form = $("tournament-form");
  const errorBox = $("tournament-error");
  const levelsBox = $("levels");
  const playersBox = $("t-players");
  const newPlayer = $("t-new-player");
  let levels = []; // {break: minutes, color_up} or {small_blind, big_blind, ante, minutes}
  let players = [];
  let tablesTouched = false; // the host typed a table count: the preview no longer sets it
  let presets = [];
  let paidPercents = []; // the shares of the places the last preview paid
  const { percent } = DA_PAYOUTS;
  // the host's own payouts, first place first, as typed (payouts.js)
  const own = DA_PAYOUTS.places({ list: $("own-places"), total: $("own-total"), add: $("add-place"), changed: () => preview() });

  /* Cash table or tournament: one form shown at a time. */
  function showKind(tournament) {
    $("kind-table").setAttribute("aria-pressed", String(!tournament));
    $("kind-tournament").setAttribute("aria-pressed", String(tournament));
    $("setup-form").hidden = tournament;
    form.hidden = !tournament || !$("tournament-made").hidden;
    $("setup-title").textContent = tournament ? "New tournament" : "New table";
    if (tournament && !presets.length) loadPresets();
  }

  async function loadPresets() {
    const box = $("presets");
    try {
      const r = await fetch("/api/tournaments/presets");
      const data = await r.json();
      presets = data.presets;
      showDefaultTable(data.payouts);
    } catch (e) {
      box.textContent = "Could not reach the server for the structures. Reload to try again.";
      return;
    }
    clear(box);
    presets.forEach((p, i) => box.append(h("label.game-option.preset", {},
      h("input", { type: "radio", name: "preset", value: p.key, checked: i === 0, onchange: () => usePreset(p) }),
      h("span.game-name", { text: p.name }), h("span.game-desc", { text: p.summary }))));
    if (presets.length) usePreset(presets[0]);
  }

  function usePreset(preset) {
    const f = preset.fields;
    $("t-buy-in").value = f.buy_in;
    $("t-fee").value = f.fee;
    $("t-chips").value = f.chips;
    $("t-seats").value = f.seats;
    const bigBlindAnte = f.levels.some((l) => l.big_blind_ante);
    $("t-ante-kind").value = bigBlindAnte ? "big_blind_ante" : "ante";
    levels = f.levels.map((l) => ("break" in l ? { break: l.break, color_up: l.color_up }
      : { small_blind: l.small_blind, big_blind: l.big_blind, ante: bigBlindAnte ? l.big_blind_ante : l.ante, minutes: l.minutes }));
    $("t-add-on").checked = !!f.add_on;
    $("t-add-on-chips").value = f.add_on ? f.add_on.chips : f.chips;
    $("t-add-on-cost").value = f.add_on ? f.add_on.cost : f.buy_in;
    renderLevels();
    $("t-rebuy-until").value = f.rebuy_until_level ?? "";
    $("t-late-until").value = f.late_until_level ?? "";
    addOnShown();
    preview();
  }

  /* The host's names for the levels: levels of play counted from 1, breaks apart (the API
   * counts every stage from 0: the value sent). */
  function stageNames() {
    let play = 0;
    return levels.map((l) => ("break" in l ? "the break" : `level ${++play}`));
  }

  function numberBox(value, label, onInput, min = 0) {
    return h("input", { type: "number", min, step: 1, inputmode: "numeric", value: value ?? "", "aria-label": label, oninput: (e) => onInput(e.target.value) });
  }

  function renderLevels() {
    clear(levelsBox);
    const names = stageNames();
    levels.forEach((l, i) => {
      const remove = h("button.btn.icon.danger", { type: "button", "aria-label": `Remove ${names[i]}`, title: "Remove", disabled: levels.length === 1, onclick: () => { levels.splice(i, 1); renderLevels(); } }, "\u2715");
      const name = names[i].replace(/^./, (c) => c.toUpperCase());
      if ("break" in l) {
        levelsBox.append(h("li.level-row.break-row", {},
          h("span.break-words", {}, h("strong", { text: "Break" }), ", color up"),
          numberBox(l.color_up, `${name}: the chip colored up (empty: none)`, (v) => { l.color_up = v; }, 1),
          numberBox(l.break, `${name}: minutes`, (v) => { l.break = v; }, 1), remove));
        return;
      }
      levelsBox.append(h("li.level-row", {},
        h("span.level-name", { text: String(names[i].slice(6)) }),
        numberBox(l.small_blind, `${name}: small blind`, (v) => { l.small_blind = v; }),
        numberBox(l.big_blind, `${name}: big blind`, (v) => { l.big_blind = v; }, 1),
        numberBox(l.ante, `${name}: ante`, (v) => { l.ante = v; }),
        numberBox(l.minutes, `${name}: minutes`, (v) => { l.minutes = v; }, 1), remove));
    });
    fillUntil($("t-rebuy-until"), "No rebuys", names);
    fillUntil($("t-late-until"), "No late entry", names);
  }

  function fillUntil(select, none, names) {
    const kept = select.value;
    clear(select).append(h("option", { value: "" }, none));
    names.forEach((n, i) => select.append(h("option", { value: String(i) }, `The end of ${n}`)));
    select.value = Number(kept) < names.length ? kept : "";
  }

  function addStage(stage) {
    const last = [...levels].reverse().find((l) => !("break" in l));
    levels.push(stage || (last ? { small_blind: last.small_blind * 2, big_blind: last.big_blind * 2, ante: last.ante * 2, minutes: last.minutes }
      : { small_blind: 25, big_blind: 50, ante: 0, minutes: 20 }));
    renderLevels();
    levelsBox.lastElementChild.querySelector("input").focus();
  }

  function addOnShown() {
    const on = $("t-add-on").checked;
    $("t-add-on-chips").closest(".rule").hidden = !on;
    $("t-add-on-cost").closest(".rule").hidden = !on;
  }

  // ------------------------------------------------------------------ the payouts
  /* R93's table, as the server has it: each row's players and percentages. */
  function showDefaultTable(table) {
    const list = clear($("pay-table"));
    let from = 1;
    for (const row of table.rows) {
      const players = from === row.up_to ? `${from} player` : from === 1 ? `Up to ${row.up_to} players` : `${from} to ${row.up_to} players`;
      list.append(h("li", {}, h("span", { text: `${players}: ` }), h("strong", { text: row.percents.map(percent).join(" \u00b7 ") })));
      from = row.up_to + 1;
    }
    if (table.beyond) list.append(h("li", { text: table.beyond }));
  }

  const ownChosen = () => $("pay-own").checked;

  /* Either way, the preview asks the server with what creating would send. */
  function payKind() {
    $("own-payouts").hidden = !ownChosen();
    $("pay-table").hidden = ownChosen();
    // a start: the places the preview pays now
    if (ownChosen() && own.empty()) own.set(DA_PAYOUTS.startFrom(paidPercents));
    else preview();
  }

  const payouts = () => (ownChosen() ? own.values() : "default");

  // ------------------------------------------------------------------ players and prizes
  function renderPlayers() {
    clear(playersBox);
    players.forEach((name, i) => playersBox.append(h("li.entrant", {},
      h("span.entrant-name", { text: name }),
      h("button.btn.icon.danger", { type: "button", "aria-label": `Remove ${name}`, title: "Remove", onclick: () => { players.splice(i, 1); renderPlayers(); } }, "\u2715"))));
    $("t-count").textContent = `(${players.length})`;
    preview();
  }

  function addPlayer() {
    const name = newPlayer.value.trim();
    if (!name) { newPlayer.focus(); return; }
    players.push(name);
    newPlayer.value = "";
    renderPlayers();
    newPlayer.focus();
  }

  let asked = 0;

  /* The server's prizes for the players so far (R93), and the tables they need. */
  async function preview() {
    const ask = ++asked;
    const chosen = payouts();
    const query = new URLSearchParams({ entries: players.length, buy_in: $("t-buy-in").value, fee: $("t-fee").value || "0", seats: $("t-seats").value || "10", unit: $("t-unit").value, payouts: Array.isArray(chosen) ? chosen.join(",") : chosen });
    let answer;
    let data = {};
    try {
      answer = await fetch(`/api/tournaments/preview?${query}`);
      data = await answer.json();
    } catch (e) {
      answer = null;
    }
    if (ask !== asked) return; // a later question is on its way
    const pool = $("preview-pool");
    const list = clear($("preview-payouts"));
    if (!answer || !answer.ok) {
      pool.textContent = answer ? data.error : "Could not reach the server for the prizes.";
      return;
    }
    paidPercents = data.percents;
    if (!tablesTouched) $("t-tables").value = Math.max(1, data.tables);
    $("t-tables-help").textContent = `${data.tables || 1} needed for ${data.entries} players`;
    if (!data.entries) { pool.textContent = "Add players to see the prizes."; return; }
    pool.textContent = `${data.entries} players: a prize pool of ${data.pool}, ${data.payouts.length} paid.`;
    DA_PAYOUTS.showPrizes(list, data);
  }

  // ------------------------------------------------------------------ the server makes it
  /* The server's sentence; a level it names (the API counts the rows from 0, breaks
   * included) is marked and its first box focused. */
  function showError(text) {
    errorBox.textContent = text;
    errorBox.hidden = !text;
    for (const row of levelsBox.children) row.classList.remove("invalid");
    const named = /^Level (\d+)\b/.exec(text || "");
    const row = named ? levelsBox.children[Number(named[1])] : null;
    if (row) {
      row.classList.add("invalid");
      row.querySelector("input").focus();
    }
  }

  /* A number box's value as the server reads it: a whole number as typed, anything else as
   * the text (the server's sentence says what is wrong). */
  function typed(value) {
    const text = String(value ?? "").trim();
    return /^[0-9]+$/.test(text) ? Number(text) : text;
  }

  function body() {
    const anteKey = $("t-ante-kind").value;
    const until = (id) => ($(id).value === "" ? null : Number($(id).value));
    return {
      name: $("tournament-name").value.trim(),
      buy_in: typed($("t-buy-in").value), fee: typed($("t-fee").value || "0"),
      chips: typed($("t-chips").value), seats: typed($("t-seats").value),
      levels: levels.map((l) => ("break" in l
        ? { break: typed(l.break), color_up: l.color_up === "" || l.color_up === null ? null : typed(l.color_up) }
        : { minutes: typed(l.minutes), small_blind: typed(l.small_blind), big_blind: typed(l.big_blind), [anteKey]: typed(l.ante || "0") })),
      rebuy_until_level: until("t-rebuy-until"), late_until_level: until("t-late-until"),
      add_on: $("t-add-on").checked ? { chips: typed($("t-add-on-chips").value), cost: typed($("t-add-on-cost").value) } : null,
      payouts: payouts(), unit: Number($("t-unit").value),
      players, tables: typed($("t-tables").value),
    };
  }

  async function submit(ev) {
    ev.preventDefault();
    showError("");
    const button = $("create-tournament");
    button.disabled = true;
    try {
      const r = await fetch("/api/tournaments", { method: "POST", headers: { "Content-Type": "application/json", ...HOST.headers() }, body: JSON.stringify(body()) });
      const data = await r.json().catch(() => ({}));
      if (!r.ok) { showError(data.error || `The server answered ${r.status}.`); return; }
      showMade(data);
    } catch (e) {
      showError("Could not reach the server. Check the connection and try again.");
    } finally {
      button.disabled = false;
    }
  }

  /* The seats the server drew, table by table, with each table's links. */
  function showMade(made) {
    const box = clear($("made-tables"));
    made.state.tables.forEach((table, i) => {
      const links = made.tables[i];
      try { localStorage.setItem(DA.tokenKey(links.id), links.dealer_token); } catch (e) { /* private mode */ }
      box.append(h("section.made-table", { "aria-label": `Table ${i + 1}` },
        h("h4", { text: `Table ${i + 1}` }),
        h("ol.seat-list", {}, table.players.map((p, seat) => h("li", {},
          h("span.seat", { text: `Seat ${seat + 1}` }), h("span.seat-name", { text: p.name })))),
        h("div.table-links", {},
          h("a.btn.small", { href: links.dealer_url, text: "Tablet" }),
          h("a.btn.small", { href: links.join_url, text: "Phone view" }))));
    });
    $("made-run").href = `/tournaments/${encodeURIComponent(made.id)}`;
    $("made-clock").href = made.clock_url;
    form.hidden = true;
    $("tournament-made").hidden = false;
    $("tournament-made").scrollIntoView({ block: "start" });
    listTournaments();
  }

  // ------------------------------------------------------------------ the tournaments here
  async function listTournaments() {
    let found = [];
    try {
      found = (await (await fetch("/api/tournaments", { cache: "no-store" })).json()).tournaments;
    } catch (e) { return; }
    const list = clear($("tournament-list"));
    $("tournaments-box").hidden = !found.length;
    for (const t of found) {
      list.append(h("li.table-item.tournament-item", {},
        h("div.table-title", {}, h("span.table-name", { text: t.name || "Tournament" }),
          h("span.table-meta", { text: t.finished ? `${t.entries} players · over` : `${t.players_left} of ${t.entries} players left` })),
        h("div.table-links", {},
          // the controls are the host's (home.js shows them once the server says so)
          h("a.btn.small.host-only", { href: `/tournaments/${encodeURIComponent(t.id)}`, text: "Controls", hidden: $("host-setup").hidden }),
          h("a.btn.small", { href: `/c/${encodeURIComponent(t.id)}`, text: "Clock screen" }))));
    }
  }

  /* The same structure again, for a new list of players. */
  $("made-another").addEventListener("click", () => {
    players = [];
    renderPlayers();
    $("tournament-made").hidden = true;
    form.hidden = false;
    $("tournament-name").focus();
  });
  $("kind-table").addEventListener("click", () => showKind(false));
  $("kind-tournament").addEventListener("click", () => showKind(true));
  $("add-level").addEventListener("click", () => addStage());
  $("add-break").addEventListener("click", () => addStage({ break: 10, color_up: null }));
  $("t-add-on").addEventListener("change", addOnShown);
  for (const id of ["pay-default", "pay-own"]) $(id).addEventListener("change", payKind);
  $("t-unit").addEventListener("change", preview);
  $("t-add-player").addEventListener("click", addPlayer);
  newPlayer.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); addPlayer(); } });
  for (const id of ["t-buy-in", "t-fee", "t-seats"]) $(id).addEventListener("input", preview);
  $("t-tables").addEventListener("input", () => { tablesTouched = true; });
  form.addEventListener("submit", submit);
  // the server's sentence was about what was sent: an edit after it takes it away
  form.addEventListener("input", () => { if (!errorBox.hidden) showError(""); });
  listTournaments();
})();
