/* The host's page of a running tournament (issue 31): the clock's controls, the moves the
 * server names, rebuys, add-ons, late entries and a chop, each one tap. Everything shown is
 * the server's public state (GET /api/tournaments/<id>, the tournament's room, each action's
 * answer), its clock counted as every screen counts it (tournament.js); a refusal shows the
 * server's sentence and changes nothing. */
"use strict";

(() => {
  const { h, clear } = DA;
  const $ = (id) => document.getElementById(id);
  const id = document.body.dataset.tournamentId;
  const url = `/api/tournaments/${encodeURIComponent(id)}`;
  const T = DA_TOURNAMENT; // the clock's words and its count on the server's time (tournament.js)
  let view = null; // the state shown, as seen here (T.seen): the clock counts down from it
  let asked = null; // the view whose level's end has been asked about
  let busy = false;
  // each read and action is numbered when sent: an answer older than the one shown (a read
  // sent before an action, answered after it) is not shown
  let sent = 0;
  let shown = 0;
  let over = false; // the tournament is deleted (gone below)
  let socket = null;
  function showIfNewest(number, data) {
    if (over || number < shown) return;
    shown = number;
    show(data);
  }

  function showError(text) {
    $("tournament-error").textContent = text || "";
    $("tournament-error").hidden = !text;
  }

  /* Deleted (on another device, or a 404): nothing left to control, only the sentence and
   * the way home. */
  function gone(sentence) {
    over = true;
    view = null;
    if (socket) socket.disconnect(); // by the page: Socket.IO does not reconnect it
    for (const panel of document.querySelectorAll("main.tournament > section")) panel.hidden = true;
    $("clock-link").hidden = true; // its clock is gone too: Home is the way on
    showError(sentence);
  }

  let reading = false;
  async function read() {
    if (reading || over) return;
    reading = true;
    const number = ++sent;
    try {
      const r = await fetch(url, { cache: "no-store" });
      const data = await r.json();
      if (r.status === 404) { gone(data.error); return; }
      if (!r.ok) { showError(data.error); return; }
      showIfNewest(number, data);
    } catch (e) { /* offline a moment: the next read tries again */ } finally {
      reading = false;
    }
  }

  /* One action (API.md "Tournaments"); the answer's state is shown, a refusal's sentence. */
  async function act(action) {
    if (busy) return null;
    busy = true;
    showError("");
    const number = ++sent;
    try {
      const r = await fetch(`${url}/actions`, { method: "POST", headers: { "Content-Type": "application/json", ...HOST.headers() }, body: JSON.stringify(action) });
      const data = await r.json().catch(() => ({}));
      if (!r.ok) { showError(data.error || `The server answered ${r.status}.`); return null; }
      showIfNewest(number, data.state);
      return data;
    } catch (e) {
      showError("Could not reach the server. Check the connection and try again.");
      return null;
    } finally {
      busy = false;
    }
  }

  const button = (text, action, cls = "") => h(`button.btn.small${cls}`, { type: "button", onclick: () => act(action) }, text);

  /* A stage's name for the host: levels of play counted from 1 (the clock's index counts
   * breaks too). */
  function stageWords(stage, playNumber) {
    if ("break" in stage) return `Break, ${stage.break} minutes${stage.color_up ? `: color up the ${stage.color_up}s` : ""}`;
    const ante = stage.ante ? `, ante ${stage.ante}` : stage.big_blind_ante ? `, big-blind ante ${stage.big_blind_ante}` : "";
    return `Level ${playNumber}: blinds ${stage.small_blind}/${stage.big_blind}${ante}`;
  }

  function tick() {
    if (!view) return;
    const c = view.state.clock;
    const left = T.left(view);
    $("clock-time").textContent = T.clockText(left);
    // the level's time is up: the level after is the server's to say (once a state)
    if (c.running && c.seconds_left > 0 && left <= 0 && asked !== view) {
      asked = view;
      read();
    }
  }

  function show(s) {
    view = T.seen(s);
    $("tournament-name").textContent = s.name || "Tournament";
    document.title = `${s.name || "Tournament"} — the host's controls`;
    const c = s.clock;
    $("clock-level").textContent = stageWords(c.stage, c.number);
    $("clock-next").textContent = (c.started && !c.running ? "Paused. " : "") + (c.next_level ? `Next: blinds ${c.next_level.small_blind}/${c.next_level.big_blind}` + (c.next_break ? ` · a break in ${T.clockText(c.next_break.in_seconds)}` : "") : "The last level.");
    const toggle = $("clock-toggle");
    toggle.textContent = c.running ? "Pause" : c.started ? "Resume" : "Start the clock";
    toggle.onclick = () => act({ type: c.running ? "pause" : "resume" });
    $("level-back").disabled = c.level === 0 || s.finished;
    $("level-back").onclick = () => act({ type: "level", to: c.level - 1 });
    const last = !c.next_level && !c.next_break;
    $("level-next").disabled = last || s.finished;
    $("level-next").onclick = () => act({ type: "level", to: c.level + 1 });
    tick();
    showFigures(s);
    showMoves(s);
    showWaiting(s);
    $("late-panel").hidden = !s.late_registration_open || s.finished;
    showTables(s);
    $("chop-panel").hidden = s.finished || s.players_left < 2;
    if (editing && !s.payouts_open) editPayouts(false); // a paid place taken meanwhile
    $("payouts-edit").hidden = editing || !s.payouts_open;
  }

  function showFigures(s) {
    const figures = clear($("figures"));
    const pairs = [["Players left", `${s.players_left} of ${s.entries}`], ["Prize pool", s.prize_pool],
      ["Rebuys", s.rebuys], ["Add-ons", s.add_ons], ["Average stack", s.average_stack]];
    for (const [term, value] of pairs) figures.append(h("div.figure", {}, h("dt", { text: term }), h("dd", { text: String(value) })));
    const payouts = clear($("payouts"));
    s.payouts.forEach((amount, i) => payouts.append(h("li", {}, h("span", { text: `${i + 1}.` }), h("strong", { text: String(amount) }))));
    const places = clear($("places"));
    if (s.places.length) {
      places.append(h("h3", { text: s.finished ? "Results" : "Out so far" }), h("ol.places-list", {}, s.places.map((p) => h("li", {},
        h("span.place-no", { text: p.place === p.last_place ? `${p.place}.` : `${p.place}-${p.last_place}.` }),
        h("span", { text: p.players.map((x) => (x.payout ? `${x.name} (${x.payout})` : x.name)).join(", ") })))));
    }
    if (s.finished && s.books.settle_up.length) {
      places.append(h("h3", { text: "Settle up" }), h("ul.places-list", {}, s.books.settle_up.map((t) => h("li", { text: `${t.from} pays ${t.to} ${t.amount}` }))));
    }
  }

  const tableName = (n) => `table ${n + 1}`;

  function showMoves(s) {
    const panel = $("moves-panel");
    panel.hidden = !s.moves.length;
    const list = clear($("moves"));
    if (!s.moves.length) return;
    $("moves-hint").textContent = s.moves.length > 1
      ? "Every move the server drew: between deals, one tap each, or all at once."
      : "The server names who moves: between deals, one tap.";
    for (const m of s.moves) {
      list.append(h("li", {}, button(`Move ${m.player} from ${tableName(m.from_table)} to ${tableName(m.to_table)}${m.after ? ` (after ${m.after})` : ""}`,
        { type: "move", player: m.player, to_table: m.to_table }, ".move")));
    }
    const all = $("all-moves");
    all.hidden = s.moves.length < 2;
    all.onclick = async () => {
      for (const m of [...s.moves]) {
        if (!(await act({ type: "move", player: m.player, to_table: m.to_table }))) return;
      }
    };
  }

  function showWaiting(s) {
    $("waiting-panel").hidden = !s.waiting_on_rebuy.length;
    const list = clear($("waiting"));
    for (const name of s.waiting_on_rebuy) {
      list.append(h("li.waiting-row", {}, h("span.seat-name", { text: name }),
        button("Rebuy", { type: "rebuy", player: name }, ".primary"),
        button("Out", { type: "decline", player: name }, ".danger")));
    }
  }

  function showTables(s) {
    const box = clear($("tables"));
    for (const t of s.tables) {
      if (!t.in_play) continue;
      box.append(h("section.t-table", { "aria-label": `Table ${t.number + 1}` },
        h("div.t-table-head", {}, h("h3", { text: `Table ${t.number + 1}` }),
          h("a.btn.small", { href: `/t/${encodeURIComponent(t.id)}/dealer`, text: "Tablet" }),
          h("a.btn.small", { href: `/t/${encodeURIComponent(t.id)}`, text: "Phone view" })),
        h("ol.t-players", {}, t.players.map((p, seat) => h("li.t-player", {},
          h("span.seat", { text: String(seat + 1) }), h("span.seat-name", { text: p.name }),
          h("span.t-stack", { text: String(p.stack) }),
          h("span.t-actions", {},
            s.rebuys_open && !s.waiting_on_rebuy.includes(p.name) ? button("Rebuy", { type: "rebuy", player: p.name }) : null,
            s.add_on_open ? button("Add-on", { type: "add_on", player: p.name }) : null))))));
    }
  }

  // ------------------------------------------------------------------ the payouts (R93)
  let editing = false;
  let previewed = 0;
  const places = DA_PAYOUTS.places({ list: $("own-places"), total: $("own-total"), add: $("add-place"), changed: previewPayouts });

  /* What the places typed would pay now, the server's figures (or its sentence). */
  async function previewPayouts() {
    if (!editing) return;
    const ask = ++previewed;
    const query = new URLSearchParams({ payouts: places.values().join(",") });
    let r = null;
    let data = {};
    try {
      r = await fetch(`${url}/preview?${query}`, { cache: "no-store" });
      data = await r.json();
    } catch (e) { r = null; }
    if (ask !== previewed) return; // a later question is on its way
    const list = clear($("preview-payouts"));
    if (!r || !r.ok) {
      $("preview-pool").textContent = r ? data.error : "Could not reach the server for the prizes.";
      return;
    }
    $("preview-pool").textContent = `A prize pool of ${data.pool}: ${data.payouts.length} paid.`;
    DA_PAYOUTS.showPrizes(list, data);
  }

  /* The editor, from the places paid now (whole percentages as they are). */
  function editPayouts(open) {
    editing = open;
    $("payouts-editor").hidden = !open;
    $("payouts-edit").hidden = open || !view || !view.state.payouts_open;
    if (!open) return;
    const now = view.state.payout_percents;
    places.set(now.every(Number.isInteger) ? now.map(String) : DA_PAYOUTS.startFrom(now));
    $("own-places").querySelector("input").focus();
  }

  $("payouts-edit").addEventListener("click", () => editPayouts(true));
  $("payouts-cancel").addEventListener("click", () => editPayouts(false));
  $("payouts-save").addEventListener("click", async () => {
    if (await act({ type: "payouts", payouts: places.values() })) editPayouts(false);
    else $("tournament-error").scrollIntoView({ block: "nearest" }); // the sentence, at the top
  });

  // ------------------------------------------------------------------ a chop
  async function showChop() {
    const answer = await act({ type: "chop", method: "icm" });
    const box = clear($("chop"));
    if (!answer || !answer.chop) return;
    const figures = answer.chop;
    const names = Object.keys(figures.stacks);
    box.append(h("div.table-wrap", { tabindex: 0, role: "region", "aria-label": "The chop's amounts" },
      h("table.chop-table", {},
        h("thead", {}, h("tr", {}, ["Player", "Chips", "Chip-chop", "ICM"].map((t, i) => h("th", { scope: "col", class: i ? "num" : null, text: t })))),
        h("tbody", {}, names.map((n) => h("tr", {}, h("th", { scope: "row", text: n }),
          h("td.num", { text: String(figures.stacks[n]) }), h("td.num", { text: String(figures.chips[n]) }),
          h("td.num", { text: String(figures.icm[n]) })))))),
    h("div.controls", {},
      h("button.btn.big", { type: "button", onclick: () => agree("chips") }, "Agree chip\u2011chop"),
      h("button.btn.big", { type: "button", onclick: () => agree("icm") }, "Agree ICM")));
  }

  async function agree(method) {
    if (await act({ type: "chop", method, agree: true })) clear($("chop"));
  }

  /* The host's delete, after a confirm as a table's on the home page; then home. */
  $("delete-tournament").addEventListener("click", async () => {
    const name = (view && view.state.name) || "this tournament";
    if (!window.confirm(`Delete ${name}, its tables and all their deals? Its money leaves the books and the season. This cannot be undone.`)) return;
    showError("");
    const r = await fetch(url, { method: "DELETE", headers: HOST.headers() }).catch(() => null);
    const data = r ? await r.json().catch(() => ({})) : {};
    if (r && r.ok) { window.location.assign("/"); return; }
    showError(data.error || "Could not reach the server. Check the connection and try again.");
  });
  $("undo").addEventListener("click", () => act({ type: "undo" }));
  $("chop-show").addEventListener("click", showChop);
  $("late-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = $("late-name").value.trim();
    if (!name) { $("late-name").focus(); return; }
    if (await act({ type: "enter", player: name })) $("late-name").value = "";
  });
  HOST.takeLink();
  read();
  setInterval(tick, 250);
  // the tournament's room brings every change at once (a deal's end at a table, a dealer's
  // tap): the poll is only the fallback while the socket is down
  let live = false;
  if (typeof io === "function") {
    socket = io({ transports: ["websocket", "polling"], reconnectionDelay: 500, reconnectionDelayMax: 2000 });
    socket.on("connect", () => { live = true; socket.emit("join_tournament", { tournament: id }); });
    socket.on("disconnect", () => { live = false; });
    socket.on("tournament", (s) => showIfNewest(++sent, s));
    socket.on("tournament_deleted", (e) => gone(e && e.error));
  }
  setInterval(() => { if (!busy && !document.hidden && !live) read(); }, 3000);
})();
