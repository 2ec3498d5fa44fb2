/* The home page: set up a table, then open the dealer's tablet page. */
"use strict";

(() => {
  const { h, clear } = DA;
  // Each game's player range, house rules, defaults and allowed betting come from the
  // server (Game.metadata, embedded in the page): none of it is copied here.
  const GAMES = DA.GAMES;
  const RULES = {
    ante: { label: "Ante", kind: "chips" },
    betting: { label: "Betting", kind: "choice", choices: { no_limit: "No limit", fixed_limit: "Fixed limit", pot_limit: "Pot limit" } },
    min_bet: { label: "Minimum bet", kind: "chips", only: ["no_limit", "pot_limit"] },
    small_bet: { label: "Small bet", kind: "chips", only: ["fixed_limit"], help: "early rounds" },
    big_bet: { label: "Big bet", kind: "chips", only: ["fixed_limit"], help: "later rounds" },
    small_blind: { label: "Small blind", kind: "chips" },
    big_blind: { label: "Big blind", kind: "chips" },
    odd_chip: { label: "Odd chip of a split pot", kind: "choice", choices: { left_of_dealer: "Left of the dealer", carry: "Carries to the next deal" } },
    buy_in: { label: "Starting stack", kind: "chips", help: "every player's buy-in" },
    river_raise: { label: "River raise", kind: "bool", help: "anyone still in may raise by 1 once a hand" },
    wilds: { label: "Wild cards", kind: "choice", choices: { none: "None", jokers: "Two jokers", deuces: "Deuces" } },
    draw_for_blind: { label: "Draw for the first blind", kind: "bool", help: "lowest card takes it; else the first player listed" },
  };

  const form = document.getElementById("setup-form");
  const list = document.getElementById("player-list");
  const rulesBox = document.getElementById("rules");
  const errorBox = document.getElementById("setup-error");
  const newPlayer = document.getElementById("new-player");
  let players = [];
  const ruleValues = {}; // what the host changed, per rule

  function variant() {
    return form.querySelector("input[name=variant]:checked").value;
  }

  function defaultFor(rule) {
    return GAMES[variant()].rules.defaults[rule];
  }

  function renderPlayers() {
    clear(list);
    players.forEach((p, i) => {
      const name = h("input.player-name", { type: "text", value: p.name, maxlength: 40, "aria-label": `Player ${i + 1}'s name`, oninput: (e) => { p.name = e.target.value; } });
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
    const g = GAMES[variant()].rules;
    const betting = ruleValue("betting");
    for (const rule of g.offered) {
      const spec = RULES[rule];
      if (spec.only && g.betting.length && !spec.only.includes(betting)) continue;
      const key = `${variant()}:${rule}`;
      const def = defaultFor(rule);
      const helpText = g.help[rule] || spec.help;
      let input;
      if (spec.kind === "chips") {
        input = h("input", { type: "number", min: 0, step: 1, inputmode: "numeric", name: rule, value: ruleValue(rule), oninput: (e) => {
          ruleValues[key] = e.target.value;
          if (rule === "buy_in") for (const box of list.querySelectorAll(".player-stack")) box.placeholder = e.target.value || String(def);
        } });
      } else if (spec.kind === "choice") {
        const allowed = rule === "betting" ? g.betting : Object.keys(spec.choices);
        input = h("select", { name: rule, onchange: (e) => { ruleValues[key] = e.target.value; if (rule === "betting") renderRules(); } },
          allowed.map((c) => h("option", { value: c, selected: c === ruleValue(rule) }, spec.choices[c] + (c === def ? " (default)" : ""))));
      } else {
        input = h("input", { type: "checkbox", name: rule, checked: !!ruleValue(rule), onchange: (e) => { ruleValues[key] = e.target.checked; } });
      }
      const defText = spec.kind === "chips" ? `default ${def}` : spec.kind === "bool" ? `default ${def ? "on" : "off"}` : "";
      rulesBox.append(h(`label.rule.${spec.kind}`, { dataset: { rule } },
        h("span.rule-label", { text: spec.label }), input,
        h("span.rule-help", { text: [helpText, defText].filter(Boolean).join(" \u00b7 ") })));
    }
  }

  function showError(text) {
    errorBox.textContent = text;
    errorBox.hidden = !text;
  }

  async function submit(ev) {
    ev.preventDefault();
    showError("");
    const v = variant();
    const g = GAMES[v].rules;
    const rules = {};
    const betting = ruleValue("betting");
    for (const rule of g.offered) {
      const spec = RULES[rule];
      if (spec.only && g.betting.length && !spec.only.includes(betting)) continue;
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
      const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json", ...hostHeaders() }, body: JSON.stringify(body) });
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

  // The host: this machine, or a device that opened the host's link (#host=<key>, printed
  // by dealer-assist at start). The key is kept like a dealer token; the server decides.
  const HOST_KEY = "dealer-assist:host";
  let hostKey = null;
  try { hostKey = localStorage.getItem(HOST_KEY); } catch (e) { /* private mode */ }

  function takeHostLink() {
    const given = /[#&]host=([^&]+)/.exec(window.location.hash);
    if (!given) return;
    hostKey = decodeURIComponent(given[1]);
    try { localStorage.setItem(HOST_KEY, hostKey); } catch (e) { /* private mode */ }
    history.replaceState(null, "", window.location.pathname + window.location.search);
  }

  function hostHeaders() {
    return hostKey ? { Authorization: `Bearer ${hostKey}` } : {};
  }

  function sizeWords(size) {
    if (!size) return "empty";
    const kb = Math.max(1, Math.round(size.bytes / 1024));
    return `${size.records} record${size.records === 1 ? "" : "s"}, ${kb} KB`;
  }

  function showHost(sizes) {
    document.getElementById("host-setup").hidden = false;
    document.getElementById("guest-note").hidden = true;
    for (const item of document.querySelectorAll(".table-item")) {
      const id = item.dataset.tableId;
      item.querySelector(".table-size").textContent = sizeWords(sizes[id]);
      for (const el of item.querySelectorAll(".host-only")) el.hidden = false;
      item.querySelector(".delete-table").onclick = () => deleteTable(item, id);
    }
  }

  async function deleteTable(item, id) {
    const name = item.querySelector(".table-name").textContent;
    if (!window.confirm(`Delete the table ${name} and all its deals? This cannot be undone.`)) return;
    const r = await fetch(`/api/tables/${encodeURIComponent(id)}`, { method: "DELETE", headers: hostHeaders() }).catch(() => null);
    const data = r ? await r.json().catch(() => ({})) : {};
    if (r && r.ok) { item.remove(); return; }
    window.alert(data.error || "Could not reach the server. Try again.");
  }

  async function checkHost() {
    try {
      const r = await fetch("/api/host", { headers: hostHeaders(), cache: "no-store" });
      if (r.status === 401) {
        hostKey = null;
        try { localStorage.removeItem(HOST_KEY); } catch (e) { /* private mode */ }
        return checkHost();
      }
      const data = await r.json();
      if (data.host) showHost(data.sizes || {});
    } catch (e) { /* offline: the page stays as the server drew it */ }
  }

  renderRules();
  renderPlayers();
  takeHostLink();
  checkHost();
  window.addEventListener("hashchange", () => { takeHostLink(); checkHost(); });
})();
