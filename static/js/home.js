/* The home page: set up a table, then open the dealer's tablet page. */
"use strict";

(() => {
  const { h, clear } = DA;
  // Each game's player range, house rules, defaults and allowed betting come from the
  // server (Game.metadata, embedded in the page): none of it is copied here.
  const GAMES = DA.GAMES;
  // Each house rule's label, kind, choices, help and the betting it applies to: the served
  // vocabulary (rules_vocabulary), in its order; a game's own help words win over its help.
  const RULES = Object.fromEntries(DA.RULES_VOCABULARY.map((r) => [r.name, r]));
  const applies = (spec, betting, g) => !spec.betting || !g.betting.length || spec.betting.includes(betting);
  // The table's own rules (who holds the cash), offered with whichever game it is made for.
  const TABLE_RULES = DA.RULES_VOCABULARY.filter((r) => r.every_game);
  const choiceLabel = (spec, value) => ((spec.choices || []).find((c) => c.value === value) || { label: value }).label;

  const form = document.getElementById("setup-form");
  const list = document.getElementById("player-list");
  const rulesBox = document.getElementById("rules");
  const errorBox = document.getElementById("setup-error");
  const newPlayer = document.getElementById("new-player");
  let players = [];
  const ruleValues = {}; // what the host changed, per rule
  // a player rule's choice is the player typed (their row's object), so that renaming them
  // keeps it and removing them falls back to the vocabulary's "nobody" (the host)
  const chosenPlayer = {};
  const playerSelects = [];

  function variant() {
    return form.querySelector("input[name=variant]:checked").value;
  }

  function defaultFor(rule) {
    return GAMES[variant()].rules.defaults[rule];
  }

  function renderPlayers() {
    clear(list);
    players.forEach((p, i) => {
      const name = h("input.player-name", { type: "text", value: p.name, maxlength: 40, "aria-label": `Player ${i + 1}'s name`, oninput: (e) => { p.name = e.target.value; fillPlayerSelects(); } });
      const stack = h("input.player-stack", { type: "number", min: 0, step: 1, inputmode: "numeric", value: p.stack ?? "", placeholder: String(ruleValue("buy_in")), "aria-label": `Player ${i + 1}'s starting stack`, oninput: (e) => { p.stack = e.target.value; } });
      list.append(h("li.player-row", { dataset: { index: i } },
        h("span.seat", { text: String(i + 1) }),
        name, stack,
        h("button.btn.icon", { type: "button", "aria-label": "Move up", title: "Move up", disabled: i === 0, onclick: () => move(i, -1) }, "\u2191"),
        h("button.btn.icon", { type: "button", "aria-label": "Move down", title: "Move down", disabled: i === players.length - 1, onclick: () => move(i, 1) }, "\u2193"),
        h("button.btn.icon.danger", { type: "button", "aria-label": "Remove", title: "Remove", onclick: () => { players.splice(i, 1); renderPlayers(); } }, "\u2715")));
    });
    const [lo, hi] = GAMES[variant()].players;
    document.getElementById("player-range").textContent = `(${players.length} of ${lo}\u2013${hi})`;
    fillPlayerSelects();
  }

  /* A player rule: nobody (the vocabulary's word for it, the default) or one of the players
   * typed so far, by seat; a player removed is no longer chosen. */
  function fillPlayerSelects() {
    for (const { select, spec } of playerSelects) {
      const chosen = players.includes(chosenPlayer[spec.name]) ? chosenPlayer[spec.name] : null;
      if (!chosen) delete chosenPlayer[spec.name];
      clear(select).append(h("option", { value: "" }, `${spec.nobody} (default)`));
      players.forEach((p, i) => {
        if (p.name.trim()) select.append(h("option", { value: String(i), selected: p === chosen }, p.name.trim()));
      });
      select.value = chosen && chosen.name.trim() ? String(players.indexOf(chosen)) : "";
    }
  }

  function playerSelect(spec) {
    const select = h("select", { name: spec.name, onchange: (e) => {
      chosenPlayer[spec.name] = e.target.value === "" ? undefined : players[Number(e.target.value)];
    } });
    playerSelects.push({ select, spec });
    return select;
  }

  /* The rules shown for the game chosen: the game's own, those its betting reads, then the
   * table's. */
  function rulesShown() {
    const g = GAMES[variant()].rules;
    const betting = ruleValue("betting");
    const own = g.offered.map((rule) => RULES[rule]).filter((spec) => spec && applies(spec, betting, g));
    return own.concat(TABLE_RULES.filter((spec) => !g.offered.includes(spec.name)));
  }

  function move(i, d) {
    const j = i + d;
    [players[i], players[j]] = [players[j], players[i]];
    renderPlayers();
  }

  function addPlayer() {
    const name = newPlayer.value.trim();
    if (!name) { newPlayer.focus(); return; }
    players.push({ name, stack: "" });
    newPlayer.value = "";
    renderPlayers();
    newPlayer.focus();
  }

  function ruleValue(rule) {
    const v = ruleValues[`${variant()}:${rule}`];
    return v === undefined ? defaultFor(rule) : v;
  }

  function renderRules() {
    clear(rulesBox);
    playerSelects.length = 0;
    const g = GAMES[variant()].rules;
    for (const spec of rulesShown()) {
      const rule = spec.name;
      const key = `${variant()}:${rule}`;
      const def = defaultFor(rule);
      const helpText = g.help[rule] || spec.help;
      let input;
      if (spec.kind === "chips") {
        input = h("input", { type: "number", min: spec.min ?? 0, step: 1, inputmode: "numeric", name: rule, value: ruleValue(rule), oninput: (e) => {
          ruleValues[key] = e.target.value;
          if (rule === "buy_in") for (const box of list.querySelectorAll(".player-stack")) box.placeholder = e.target.value || String(def);
        } });
      } else if (spec.kind === "choice") {
        // the betting structures are the game's own; other choices are the vocabulary's
        const allowed = rule === "betting" ? g.betting : spec.choices.map((c) => c.value);
        input = h("select", { name: rule, onchange: (e) => { ruleValues[key] = e.target.value; if (rule === "betting") renderRules(); } },
          allowed.map((c) => h("option", { value: c, selected: c === ruleValue(rule) }, choiceLabel(spec, c) + (c === def ? " (default)" : ""))));
      } else if (spec.kind === "player") {
        input = playerSelect(spec);
      } else {
        input = h("input", { type: "checkbox", name: rule, checked: !!ruleValue(rule), onchange: (e) => { ruleValues[key] = e.target.checked; } });
      }
      const defText = spec.kind === "chips" ? `default ${def}` : spec.kind === "bool" ? `default ${def ? "on" : "off"}` : "";
      rulesBox.append(h(`label.rule.rule-${spec.kind}`, { dataset: { rule } },
        h("span.rule-label", { text: spec.label }), input,
        h("span.rule-help", { text: [helpText, defText].filter(Boolean).join(" \u00b7 ") })));
    }
    fillPlayerSelects();
  }

  function showError(text) {
    errorBox.textContent = text;
    errorBox.hidden = !text;
  }

  async function submit(ev) {
    ev.preventDefault();
    showError("");
    const v = variant();
    const rules = {};
    for (const spec of rulesShown()) {
      const rule = spec.name;
      if (spec.kind === "player") { // sent only when a player is chosen: else nobody's
        const p = chosenPlayer[rule];
        if (p && players.includes(p) && p.name.trim()) rules[rule] = p.name.trim();
        continue;
      }
      let val = ruleValue(rule);
      if (spec.kind === "chips") {
        if (val === "" || val === null) continue;
        const n = Number(val);
        if (!Number.isInteger(n) || n < 0) { showError(`${spec.label} must be a whole number of chips.`); return; }
        val = n;
      }
      if (val !== defaultFor(rule)) rules[rule] = val;
    }
    const body = { name: document.getElementById("table-name").value.trim(), variant: v, rules, players: [] };
    for (const p of players) {
      const name = p.name.trim();
      if (p.stack === "" || p.stack === null || p.stack === undefined) { body.players.push(name); continue; }
      const n = Number(p.stack);
      if (!Number.isInteger(n) || n < 0) { showError(`${name || "A player"}'s stack must be a whole number of chips.`); return; }
      body.players.push({ name, stack: n });
    }
    const button = document.getElementById("create-table");
    button.disabled = true;
    try {
      const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json", ...HOST.headers() }, body: JSON.stringify(body) });
      const data = await r.json().catch(() => ({}));
      if (!r.ok) { showError(data.error || `The server answered ${r.status}.`); return; }
      try { localStorage.setItem(DA.tokenKey(data.id), data.dealer_token); } catch (e) { /* private mode: the fragment still carries it */ }
      window.location.assign(data.dealer_url);
    } catch (e) {
      showError("Could not reach the server. Check the connection and try again.");
    } finally {
      button.disabled = false;
    }
  }

  form.addEventListener("change", (e) => { if (e.target.name === "variant") { renderRules(); renderPlayers(); } });
  document.getElementById("add-player").addEventListener("click", addPlayer);
  newPlayer.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); addPlayer(); } });
  form.addEventListener("submit", submit);

  for (const t of document.querySelectorAll("time.created")) {
    const raw = t.dataset.created;
    const n = Number(raw);
    const d = Number.isFinite(n) && raw !== "" ? new Date(n > 1e12 ? n : n * 1000) : new Date(raw);
    if (!Number.isNaN(d.getTime())) t.textContent = d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  }

  function sizeWords(size) {
    if (!size) return "empty";
    const kb = Math.max(1, Math.round(size.bytes / 1024));
    return `${size.records} record${size.records === 1 ? "" : "s"}, ${kb} KB`;
  }

  function showHost(sizes) {
    document.getElementById("host-setup").hidden = false;
    document.getElementById("guest-note").hidden = true;
    document.getElementById("season-link").hidden = false;
    for (const el of document.querySelectorAll("#tournament-list .host-only")) el.hidden = false;
    for (const item of document.querySelectorAll(".table-item[data-table-id]")) {
      const id = item.dataset.tableId;
      item.querySelector(".table-size").textContent = sizeWords(sizes[id]);
      for (const el of item.querySelectorAll(".host-only")) el.hidden = false;
      item.querySelector(".delete-table").onclick = () => deleteTable(item, id);
    }
  }

  async function deleteTable(item, id) {
    const name = item.querySelector(".table-name").textContent;
    if (!window.confirm(`Delete the table ${name} and all its deals? This cannot be undone.`)) return;
    const r = await fetch(`/api/tables/${encodeURIComponent(id)}`, { method: "DELETE", headers: HOST.headers() }).catch(() => null);
    const data = r ? await r.json().catch(() => ({})) : {};
    if (r && r.ok) { item.remove(); return; }
    window.alert(data.error || "Could not reach the server. Try again.");
  }

  async function checkHost() {
    try {
      const r = await fetch("/api/host", { headers: HOST.headers(), cache: "no-store" });
      if (r.status === 401) {
        HOST.forget();
        return checkHost();
      }
      const data = await r.json();
      if (data.host) showHost(data.sizes || {});
    } catch (e) { /* offline: the page stays as the server drew it */ }
  }

  renderRules();
  renderPlayers();
  HOST.takeLink();
  checkHost();
  window.addEventListener("hashchange", () => { HOST.takeLink(); checkHost(); });
})();
