/* The dealer's tablet page: one tap per action, the grid as laid on the table, live sync. */
"use strict";

(() => {
  const { h, clear } = DA;
  const body = document.body;
  const tableId = body.dataset.tableId;
  // the game's metadata, from the server; the game may change between deals (R71)
  let variant = body.dataset.variant;
  let game = DA.game(variant);
  let kings = game.stakes_per_card;
  const $ = (id) => document.getElementById(id);

  // ------------------------------------------------------------------ the dealer's token
  // A token another device signed out (R75) is forgotten; the server's sentence saying so is
  // kept in its place, so that the page says it again after a reload, until a new token comes.
  const SIGNED_OUT_KEY = `dealer-assist:signed-out:${tableId}`;
  let token = null;
  let signedOut = null; // the server's sentence, once this device is signed out
  const frag = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  if (frag.get("token")) {
    token = frag.get("token");
    try {
      localStorage.setItem(DA.tokenKey(tableId), token);
      localStorage.removeItem(SIGNED_OUT_KEY);
    } catch (e) { /* kept in memory */ }
    history.replaceState(null, "", window.location.pathname + window.location.search);
  } else {
    try { token = localStorage.getItem(DA.tokenKey(tableId)); } catch (e) { token = null; }
    try { signedOut = token ? null : localStorage.getItem(SIGNED_OUT_KEY); } catch (e) { signedOut = null; }
  }
  DA.dealerToken = () => token; // for pairing.js: "Add a dealer device" (R75)

  /* The server refused this device's token (signed out by another device, R75, or not this
   * table's): forget it, say the server's sentence in place of the dealer's controls, and
   * offer the way back in (pairing.js listens). */
  function signOut(sentence) {
    token = null;
    signedOut = sentence;
    try {
      localStorage.removeItem(DA.tokenKey(tableId));
      localStorage.setItem(SIGNED_OUT_KEY, sentence);
    } catch (e) { /* this visit only */ }
    hideError();
    render();
    document.dispatchEvent(new CustomEvent("dealer-assist:signed-out"));
    refresh(); // the players' view of the same seq, which show() would not take over this one
  }

  let state = null;
  let busy = false;
  let entry = null; // card entry for the current step: {key, slots, active, texts, bad}
  let amount = null; // the bet/raise amount chosen, per card where cards are bought
  let amountKey = null;
  let lastUndoneSeq = null;

  // ------------------------------------------------------------------ banners
  function showError(text) {
    $("error-text").textContent = text;
    $("error-banner").hidden = false;
  }
  function hideError() {
    $("error-banner").hidden = true;
  }
  let infoTimer = null;
  function showInfo(text) {
    $("info-text").textContent = text;
    $("info-banner").hidden = false;
    clearTimeout(infoTimer);
    infoTimer = setTimeout(() => { $("info-banner").hidden = true; }, 8000);
  }
  $("error-close").addEventListener("click", hideError);

  // ------------------------------------------------------------------ talking to the server
  async function act(action) {
    if (busy || !state) return;
    if (!token) {
      showError("This device is not signed in as the dealer: open the dealer link on it.");
      return;
    }
    busy = true;
    body.classList.add("busy");
    try {
      const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/actions`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({ ...action, expect_seq: state.seq }),
      });
      const data = await r.json().catch(() => ({}));
      if (r.ok) {
        hideError();
        if (data.state) show(data.state, { force: true });
        else await refresh();
      } else if (r.status === 409) {
        // another device acted first: the server's sentence, and the table as it is now
        showError(data.error || `The server answered ${r.status}; nothing changed.`);
        if (data.state && typeof data.state.seq === "number") show(data.state, { force: true });
        else await refresh();
      } else if (r.status === 401) {
        // a wrong token, or this device signed out by another (R75): the server's sentence
        signOut(data.error || `The server answered ${r.status}; nothing changed.`);
      } else {
        showError(data.error || `The server answered ${r.status}; nothing changed.`);
      }
    } catch (e) {
      showError("Could not reach the server: nothing changed. Check the connection and tap again.");
    } finally {
      busy = false;
      body.classList.remove("busy");
    }
  }

  async function refresh() {
    try {
      show(await DA.fetchState(tableId, token), { force: true });
    } catch (e) {
      if (!(e instanceof DA.HttpError)) {
        showError("Could not reach the server. Check the connection.");
      } else if (e.status === 401 && token) { // the token is refused: the players' view
        signOut(e.sentence);
      } else {
        showError(e.sentence);
      }
    }
  }

  // ------------------------------------------------------------------ card entry
  function knownCards(s) {
    const seen = new Set();
    for (const v of Object.values((s.grid && s.grid.cells) || {})) if (v && v !== "up") seen.add(v);
    for (const c of s.kings_hand || []) seen.add(c);
    // full cards only: a rank alone (R23) is counted by the picker's rank count, once
    for (const p of s.players || []) for (const c of p.hand || []) if (c.length === 2) seen.add(c);
    return seen;
  }

  // ------------------------------------------------------------------ drafts
  // The cards entered for a step are a draft kept on this device (localStorage), by the deal
  // and the step, not by seq: a refused submit, an undo back to the step, a reload and a
  // reconnect all find them again. Only the current deal's drafts are kept.
  const DRAFT_KEY = `dealer-assist:draft:${tableId}`;
  function loadDrafts(dealNumber) {
    try {
      const d = JSON.parse(localStorage.getItem(DRAFT_KEY) || "null");
      if (d && d.deal === dealNumber && d.steps) return d;
    } catch (e) { /* no drafts */ }
    return { deal: dealNumber, steps: {} };
  }
  let drafts = null;
  function saveDraft() {
    if (!entry || !drafts) return;
    const values = {};
    for (const slot of entry.slots) if (slot.value) values[slot.id] = slot.value;
    drafts.steps[entry.key] = { values, texts: entry.texts };
    try { localStorage.setItem(DRAFT_KEY, JSON.stringify(drafts)); } catch (e) { /* kept in memory */ }
  }

  function stepKey(s) {
    const step = s.step;
    return [s.deal_number, step.kind, step.player || "", (step.cells || []).join(",")].join(":");
  }

  function entryFor(s) {
    const step = s.step;
    const key = stepKey(s);
    if (entry && entry.key === key) return entry;
    const slots = [];
    const groups = [];
    const add = (group, label, extra) => {
      slots.push({ group, label, value: null, ...extra });
    };
    if (step.kind === "reveal") {
      groups.push({ id: "reveal", title: "Cards turned (optional)", rankOnly: false });
      for (const c of step.cells || []) add("reveal", c, { cell: c });
    } else if (step.kind === "deal_cards" && step.player) {
      groups.push({ id: "deal", title: `${step.player}'s cards`, rankOnly: true });
      for (let i = 0; i < (step.count || 1); i++) add("deal", `Card ${i + 1}`);
    } else if (step.kind === "draw" && step.player) {
      groups.push({ id: "draw", title: `${step.player}'s card`, rankOnly: false });
      add("draw", "Card");
    } else if (step.kind === "showdown") {
      const board = game.layout.kind === "board";
      if ((step.cells || []).length) {
        groups.push({ id: "cells", title: board ? "Board" : "Grid cards not entered yet", rankOnly: false });
        for (const c of step.cells) add("cells", c, { cell: c });
      }
      if (kings) {
        groups.push({ id: "king", title: "King's hand", rankOnly: false });
        for (let i = 0; i < 5; i++) add("king", `K${i + 1}`);
      }
      for (const name of step.players || []) {
        const gid = `p:${name}`;
        groups.push({ id: gid, title: `${name}'s hole cards`, rankOnly: false, player: name });
        for (let i = 0; i < (step.hole_cards || 2); i++) add(gid, `${i + 1}`);
      }
    }
    if (!drafts || drafts.deal !== s.deal_number) drafts = loadDrafts(s.deal_number);
    const draft = drafts.steps[key] || { values: {}, texts: {} };
    for (const slot of slots) {
      slot.id = slot.cell || `${slot.group}:${slot.label}`;
      slot.value = draft.values[slot.id] || null;
    }
    entry = { key, slots, groups, active: -1, texts: { ...draft.texts }, bad: {} };
    entry.active = nextEmpty(0);
    if (entry.active < 0 && slots.length) entry.active = 0;
    return entry;
  }

  function nextEmpty(from) {
    const n = entry.slots.length;
    for (let i = 0; i < n; i++) {
      const j = (from + i) % n;
      if (!entry.slots[j].value) return j;
    }
    return -1;
  }

  function putCard(card) {
    if (!entry || entry.active < 0) {
      const j = entry ? nextEmpty(0) : -1;
      if (j < 0) return;
      entry.active = j;
    }
    const slot = entry.slots[entry.active];
    slot.value = card;
    entry.texts[slot.group] = null; // the picker wins over what was typed
    const j = nextEmpty(entry.active + 1);
    entry.active = j < 0 ? entry.active : j;
    render();
  }

  function fillGroupFromText(group, text) {
    const g = entry.groups.find((x) => x.id === group);
    const { cards, bad } = DA.parseCards(text, { rankOnly: g.rankOnly });
    const slots = entry.slots.filter((s) => s.group === group);
    slots.forEach((s, i) => { s.value = cards[i] || null; });
    entry.texts[group] = text;
    entry.bad[group] = bad.length ? `Not a card: ${bad.join(" ")}` : cards.length > slots.length ? `Only ${slots.length} card${slots.length > 1 ? "s" : ""} here; the rest is left out.` : "";
  }

  function slotsOf(group) {
    return entry.slots.filter((s) => s.group === group);
  }

  function entryPanel(s, opts = {}) {
    const e = entryFor(s);
    const wrap = h("div.entry");
    for (const g of e.groups) {
      const row = h("div.entry-group", { dataset: { group: g.id } });
      const slotsEl = h("div.slots");
      e.slots.forEach((slot, i) => {
        if (slot.group !== g.id) return;
        const btn = h("button.slot", {
          type: "button", dataset: { slot: slot.id },
          "aria-label": `${slot.label}: ${slot.value ? DA.cardWords(slot.value) : "empty"}`,
          onclick: () => {
            if (e.active === i && slot.value) slot.value = null;
            e.active = i;
            render();
          },
        }, h("span.slot-label", { text: slot.label }), slot.value ? DA.cardEl(slot.value, "small") : h("span.slot-empty", { text: "\u2014" }));
        if (i === e.active) btn.classList.add("active");
        slotsEl.append(btn);
      });
      const input = h("input.card-text", {
        type: "text", inputmode: "text", autocomplete: "off", autocapitalize: "off", spellcheck: "false",
        placeholder: g.rankOnly ? "type: A 7 K  (or 7h Kd)" : "type: As Kd 10h",
        "aria-label": `Type ${g.title}`, dataset: { group: g.id },
      });
      input.value = e.texts[g.id] ?? slotsOf(g.id).map((x) => x.value || "").join(" ").trim();
      input.addEventListener("input", () => {
        fillGroupFromText(g.id, input.value);
        renderEntryOnly(g.id, input);
      });
      input.addEventListener("keydown", (ev) => { if (ev.key === "Enter" && opts.onEnter) { ev.preventDefault(); opts.onEnter(); } });
      row.append(h("div.entry-head", null, h("span.entry-title", { text: g.title }), input), slotsEl,
        h("div.entry-bad", { text: e.bad[g.id] || "" }));
      wrap.append(row);
    }
    return wrap;
  }

  // Typing re-renders everything but keeps the caret in the box being typed in.
  function renderEntryOnly(group) {
    const active = document.activeElement;
    const pos = active && active.selectionStart;
    render();
    const again = document.querySelector(`input.card-text[data-group="${CSS.escape(group)}"]`);
    if (again && active && active.classList && active.classList.contains("card-text")) {
      again.focus();
      if (pos !== null && pos !== undefined) again.setSelectionRange(pos, pos);
    }
  }

  function pickerEl(s, { rankOnly = false } = {}) {
    const used = knownCards(s);
    for (const slot of (entry ? entry.slots : [])) if (slot.value) used.add(slot.value);
    const rankCount = {};
    for (const c of used) rankCount[c[0]] = (rankCount[c[0]] || 0) + 1;
    for (const p of s.players || []) for (const c of p.hand || []) if (c.length === 1) rankCount[c] = (rankCount[c] || 0) + 1;
    if (entry) for (const slot of entry.slots) if (slot.value && slot.value.length === 1) rankCount[slot.value] = (rankCount[slot.value] || 0) + 1;
    const el = h("div.picker", { role: "group", "aria-label": "Card picker" });
    if (rankOnly) {
      const ranks = h("div.rank-row");
      for (const r of DA.RANKS) {
        const full = (rankCount[r] || 0) >= 4;
        ranks.append(h("button.pick.rank-only", { type: "button", dataset: { rank: r }, disabled: full, "aria-label": `Rank ${DA.rankText(r)}`, onclick: () => putCard(r) }, DA.rankText(r)));
      }
      el.append(h("div.picker-label", { text: "Rank only (fastest)" }), ranks, h("div.picker-label", { text: "Or the exact card" }));
    }
    for (const suit of DA.SUITS) {
      const row = h(`div.suit-row.${suit === "h" || suit === "d" ? "red" : "black"}`);
      for (const r of DA.RANKS) {
        const card = r + suit;
        const isUsed = used.has(card) || (rankCount[r] || 0) >= 4;
        row.append(h("button.pick", { type: "button", dataset: { card }, disabled: isUsed, "aria-label": DA.cardWords(card), onclick: () => putCard(card) },
          h("span.rank", { text: DA.rankText(r) }), h("span.suit", { text: DA.SUIT[suit] })));
      }
      el.append(row);
    }
    return el;
  }

  // ------------------------------------------------------------------ the action panel
  function bigButton(label, cls, onclick, data) {
    return h(`button.btn.big${cls ? "." + cls.split(" ").join(".") : ""}`, { type: "button", onclick, dataset: data || {} }, label);
  }

  function player(name) {
    return (state.players || []).find((p) => p.name === name);
  }

  function perCardWords(per, k) {
    return `${DA.chips(per)} per card \u00d7 ${k} card${k === 1 ? "" : "s"} = ${DA.chips(per * k)}`;
  }

  function goWords(step, verb) {
    return `${verb === "raise" ? "Raise to" : "Bet"} ${DA.chips(amount)}${step.per_card ? " per card" : ""}`;
  }

  function noteWords(step, verb, k) {
    return step.per_card ? perCardWords(amount, k) : `${verb} to ${DA.chips(amount)}`;
  }

  /* The amount: the stepper's value, or typed; a typed amount goes to the server as typed. */
  function amountBox(step, verb, k, lo, hi) {
    const note = h("span.amount-note", { text: noteWords(step, verb, k) });
    const input = h("input.amount-value#amount", {
      type: "number", inputmode: "numeric", min: lo, max: hi, step: 1, value: amount,
      "aria-label": step.per_card ? "Amount per card" : "Amount",
    });
    input.addEventListener("input", () => {
      const n = parseInt(input.value, 10);
      if (Number.isFinite(n) && n >= 0) amount = n;
      note.textContent = noteWords(step, verb, k);
      const go = document.querySelector(`[data-action="${verb}"]`);
      if (go) go.textContent = goWords(step, verb);
    });
    input.addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.preventDefault(); act({ type: verb, player: step.player, amount }); } });
    return h("div.amount", null, input, note);
  }

  function betPanel(s) {
    const step = s.step;
    const p = player(step.player) || { bet: 0, stack: 0 };
    const k = step.per_card ? (step.cards || 1) : 1;
    const panel = h("div.bet-panel");
    const opts = new Set(step.options || []);
    const main = h("div.bet-main");
    const live = kings && p.live_cards ? p.live_cards.length : 1;
    if (opts.has("fold")) main.append(bigButton(live > 1 ? `Fold all ${live} cards` : "Fold", "fold", () => act({ type: "fold", player: step.player }), { action: "fold" }));
    if (opts.has("check")) main.append(bigButton("Check", "check go", () => act({ type: "check", player: step.player }), { action: "check" }));
    if (opts.has("call")) {
      const words = step.per_card ? `Call ${perCardWords(step.to_call, k)}` : `Call ${DA.chips(step.to_call)}`;
      main.append(bigButton(words, "call go", () => act({ type: "call", player: step.player }), { action: "call" }));
    }
    // all in: every chip that divides over the live cards (R24), said per card and in total
    const allInTo = (p.bet || 0) + Math.floor(p.stack / k);
    if (opts.has("all_in")) {
      const put = Math.floor(p.stack / k) * k;
      const label = step.per_card && k > 1
        ? `All in: ${DA.chips(put)} (${DA.chips(put / k)} per card \u00d7 ${k})`
        : `All in: ${DA.chips(put)}`;
      main.append(bigButton(label, "allin", () => act({ type: "all_in", player: step.player }), { action: "all_in", amount: allInTo }));
    }
    panel.append(main);

    const verb = opts.has("raise") ? "raise" : opts.has("bet") ? "bet" : null;
    if (verb && step.min_raise_to !== null && step.min_raise_to !== undefined) {
      const lo = step.min_raise_to;
      const hi = Math.max(step.max_raise_to ?? lo, lo);
      const key = `${s.seq}`;
      if (amountKey !== key) { amountKey = key; amount = lo; }
      const clip = (v) => Math.min(Math.max(Math.floor(v), lo), hi);
      const current = step.current_bet || 0;
      const potPer = (s.pot_total + (step.to_call_total || 0)) / k;
      // each preset a different amount: one that repeats an earlier one's is left out, and
      // the top of the range is "Max" where the limit stops short of all in; where it is all
      // in, the All in button above says so once
      const candidates = [
        ["Min", lo],
        ["2\u00d7", current ? current * 2 : lo * 2],
        ["3\u00d7", current ? current * 3 : lo * 3],
        ["\u00bd pot", current + potPer / 2],
        ["Pot", current + potPer],
        ["Max", hi],
      ];
      const seen = new Set();
      const presets = [];
      for (const [label, v] of candidates) {
        const val = clip(v);
        if (seen.has(val)) continue;
        seen.add(val);
        if (val === hi && hi >= allInTo && opts.has("all_in")) continue;
        presets.push([label, val]);
      }
      const presetRow = h("div.presets");
      for (const [label, val] of presets) {
        const b = h("button.btn.preset", { type: "button", dataset: { preset: label, amount: val }, onclick: () => { amount = val; render(); } },
          h("span.preset-label", { text: label }), h("span.preset-amount", { text: DA.chips(val) }));
        if (val === amount) b.classList.add("selected");
        presetRow.append(b);
      }
      const stepper = h("div.stepper",
        null,
        h("button.btn.step-btn", { type: "button", "aria-label": "Less", dataset: { step: "minus" }, disabled: amount <= lo, onclick: () => { amount = Math.min(hi, Math.max(lo, amount - 1)); render(); } }, "\u2212"),
        amountBox(step, verb, k, lo, hi),
        h("button.btn.step-btn", { type: "button", "aria-label": "More", dataset: { step: "plus" }, disabled: amount >= hi, onclick: () => { amount = Math.max(lo, Math.min(hi, amount + 1)); render(); } }, "+"));
      const go = bigButton(goWords(step, verb), "raise primary", () => act({ type: verb, player: step.player, amount }), { action: verb });
      if (lo === hi) {
        // fixed limit (or only one amount possible): one tap, no choosing
        const note = step.per_card ? ` (${perCardWords(lo, k)})` : "";
        panel.append(h("div.raise-box", null, h("div.raise-head", { text: `${verb === "raise" ? "Raise" : "Bet"}: ${DA.chips(lo)}${step.per_card ? " per card" : ""}${note}` }), go));
      } else {
        panel.append(h("div.raise-box", null, h("div.raise-head", { text: `${verb === "raise" ? "Raise" : "Bet"}: ${DA.chips(lo)} to ${DA.chips(hi)}${step.per_card ? " per card" : ""}` }), presetRow, h("div.raise-row", null, stepper, go)));
      }
    }
    if (kings && p.live_cards && p.live_cards.length > 1) {
      const row = h("div.fold-cards");
      row.append(h("span.fold-cards-label", { text: "Fold one card:" }));
      for (const c of p.live_cards) {
        const line = DA.lineOfCard(c, variant);
        row.append(h("button.btn.fold-card", { type: "button", dataset: { foldCard: c }, "aria-label": `Fold ${DA.cardWords(c)}`, onclick: () => act({ type: "fold", player: step.player, card: c }) },
          DA.cardEl(c, "small"), h("span.fold-line", { text: DA.lineName(line, variant, false) })));
      }
      panel.append(row);
    }
    return panel;
  }

  function actionsPanel(s) {
    const step = s.step;
    const el = h("div.actions-inner");
    if (!token && signedOut) {
      el.append(h("div.signed-out#signed-out", { role: "status" },
        h("p.notice", { text: signedOut }),
        h("button.btn.big.primary#signed-out-enter-code", { type: "button", text: "I'm dealing: enter code",
          onclick: () => DA.enterCode && DA.enterCode() })));
      return el;
    }
    if (!token) {
      el.append(h("p.notice", { text: "This device is not signed in as the dealer. Open the dealer link (the one with #token=) on it, or tap \u201cI'm dealing: enter code\u201d, to run the table. You can still follow the game here." }));
      return el;
    }
    const kind = step.kind;
    if (s.result) {
      const res = DA.resultEl(s, "summary");
      if (res) el.append(res);
    }
    const details = s.result ? DA.resultEl(s, "details") : null;
    if (kind === "start_deal" && DA.betweenDeals) { // between.js: the between-deal screen
      el.append(DA.betweenDeals(s, { act, render, showError }));
      if (details) el.append(details);
    } else if (kind === "start_deal") {
      el.append(bigButton(s.result ? "Start the next deal" : "Start deal", "primary huge", () => act({ type: "start_deal" }), { action: "start_deal" }));
      if (details) el.append(details);
    } else if (kind === "game_over") {
      el.append(h("p.notice", { text: step.instruction }));
      if (details) el.append(details);
    } else if (kind === "buy") {
      const max = step.max ?? 0;
      const row = h("div.buy-row");
      for (let n = 0; n <= max; n++) {
        const cost = n * (step.ante ?? 1);
        row.append(h("button.btn.buy", { type: "button", dataset: { count: n }, onclick: () => act({ type: "buy", player: step.player, count: n }) },
          h("span.buy-count", { text: String(n) }), h("span.buy-cost", { text: n ? `${cost} chip${cost === 1 ? "" : "s"}` : "sit out" })));
      }
      el.append(h("div.panel-title", { text: `${step.player} buys` }), row);
    } else if (kind === "deal_cards") {
      const submit = () => {
        const cards = entry.slots.map((x) => x.value);
        if (cards.some((c) => !c)) { showError(`Enter all ${cards.length} of ${step.player}'s cards first.`); return; }
        act({ type: "deal_cards", player: step.player, cards });
      };
      el.append(entryPanel(s, { onEnter: submit }));
      const full = entry.slots.every((x) => x.value);
      el.append(bigButton(`Record ${step.player}'s cards`, `primary${full ? "" : " waiting"}`, submit, { action: "deal_cards" }));
      el.append(pickerEl(s, { rankOnly: true }));
    } else if (kind === "next") {
      const opts = step.options || [];
      if (opts.includes("raise")) {
        const row = h("div.raise-by-one");
        for (const p of s.players) {
          if (p.status !== "in" || !p.stack) continue;
          row.append(h("button.btn.big", { type: "button", dataset: { action: "raise", player: p.name }, onclick: () => act({ type: "raise", player: p.name }) }, `${p.name} raises 1`));
        }
        el.append(row);
      }
      el.append(bigButton("Done \u2014 Next", "primary huge", () => act({ type: "next" }), { action: "next" }));
    } else if (kind === "reveal") {
      const submit = () => {
        const cards = {};
        for (const slot of entry.slots) if (slot.value) cards[slot.cell] = slot.value;
        act(Object.keys(cards).length ? { type: "reveal", cards } : { type: "reveal" });
      };
      const n = entry ? entryFor(s).slots.filter((x) => x.value).length : 0;
      const total = (step.cells || []).length;
      el.append(bigButton(n ? `Turned \u2014 ${n} of ${total} entered` : `Turned (${total} card${total === 1 ? "" : "s"})`, "primary huge", submit, { action: "reveal" }));
      el.append(entryPanel(s, { onEnter: submit }));
      el.append(pickerEl(s));
    } else if (kind === "bet") {
      if (step.player) el.append(betPanel(s));
      else el.append(h("p.notice", { text: step.instruction }));
    } else if (kind === "pay") {
      const sitOut = /sit it out/.test(step.instruction || "");
      const row = h("div.bet-main");
      row.append(bigButton(sitOut ? "Sit out" : "Fold", "fold", () => act({ type: "fold", player: step.player }), { action: "fold" }));
      row.append(bigButton(`${step.player} pays ${step.to_call ?? 1}`, "go", () => act({ type: "pay", player: step.player }), { action: "pay" }));
      el.append(row);
    } else if (kind === "draw") {
      const submit = () => {
        const card = entry.slots[0] && entry.slots[0].value;
        if (!card) { showError(`Enter the card ${step.player} drew, or let the app draw.`); return; }
        act({ type: "draw", player: step.player, card });
      };
      const row = h("div.bet-main");
      row.append(bigButton("Let the app draw", "go", () => act({ type: "draw", player: step.player }), { action: "app-draw" }));
      row.append(bigButton("Record this card", "primary", submit, { action: "draw" }));
      el.append(entryPanel(s, { onEnter: submit }), row, pickerEl(s));
    } else if (kind === "showdown") {
      const submit = () => {
        const body = { type: "showdown" };
        const cellSlots = entry.slots.filter((x) => x.group === "cells");
        if (game.layout.kind === "board") {
          if (cellSlots.length) body.board = cellSlots.map((x) => x.value || "");
          if (body.board && body.board.some((c) => !c)) { showError("Enter every board card not entered yet."); return; }
        } else if (cellSlots.length) {
          body.cells = {};
          for (const slot of cellSlots) if (slot.value) body.cells[slot.cell] = slot.value;
        }
        if (kings) body.kings_hand = slotsOf("king").map((x) => x.value).filter(Boolean);
        const hands = {};
        for (const g of entry.groups) if (g.player) hands[g.player] = slotsOf(g.id).map((x) => x.value).filter(Boolean);
        if (Object.keys(hands).length) body.hands = hands;
        act(body);
      };
      el.append(bigButton("Show down", "primary huge", submit, { action: "showdown" }));
      el.append(entryPanel(s, { onEnter: submit }));
      el.append(pickerEl(s));
    } else {
      el.append(h("p.notice", { text: step.instruction }));
    }
    return el;
  }

  // ------------------------------------------------------------------ the rest of the page
  function playersEl(s) {
    const list = $("players");
    clear(list);
    for (const p of s.players || []) {
      const li = DA.playerItem(s, p, kings, [DA.betBit(p, kings)]);
      if (kings && p.live_cards && p.live_cards.length && !s.result) li.append(h("div.player-hand", null, DA.cardRow(p.live_cards, "tiny")));
      list.append(li);
    }
  }

  function kingsHandEl(s) {
    const pending = entry && s.step.kind === "showdown" ? slotsOf("king").map((x) => x.value) : [];
    DA.fillKingsHand($("kings-hand"), s, kings, pending);
    if (!pending.length) return;
    // a tap on a card of the king's hand picks its slot, to enter or change it
    $("kings-hand").querySelectorAll(".card.kh").forEach((card, i) => {
      card.classList.add("pickable");
      card.addEventListener("click", () => {
        const j = entry.slots.findIndex((x) => x.group === "king" && x.label === `K${i + 1}`);
        if (j >= 0) { entry.active = j; render(); }
      });
    });
  }

  function render() {
    const s = state;
    if (!s) return;
    if (entry && entry.key === stepKey(s)) saveDraft();
    // a device that is not the dealer's reads the players' words (the server's), not "tap Next"
    const words = (!token && s.public_instruction) || s.step.instruction;
    $("instruction").textContent = words;
    $("instruction").classList.toggle("long", words.length > 70);
    const dealWord = !s.deal_number ? "No deal yet"
      : DA.dealWords(s);
    $("deal-number").textContent = dealWord;
    const turn = $("turn");
    if (s.step.player) {
      turn.hidden = false;
      turn.textContent = s.step.player;
    } else {
      turn.hidden = true;
    }
    $("undo").disabled = !s.can_undo || !token;
    $("seq").textContent = `#${s.seq}`;
    const e = entryFor(s);
    const pending = {};
    for (const slot of e.slots) if (slot.cell && slot.value) pending[slot.cell] = slot.value;
    const extra = s.step.kind === "showdown" ? (s.step.cells || []) : [];
    const gridEl = DA.gridEl(s, {
      pending, extraHighlight: extra,
      onCell: (c) => {
        const i = e.slots.findIndex((x) => x.cell === c);
        if (i >= 0) { e.active = i; render(); }
      },
    });
    for (const slot of e.slots) {
      if (slot.cell && e.slots.indexOf(slot) === e.active) {
        const cellEl = gridEl.querySelector(`[data-cell="${slot.cell}"]`);
        if (cellEl) cellEl.classList.add("target");
      }
    }
    clear($("grid")).append(gridEl);
    kingsHandEl(s);
    clear($("pots")).append(DA.potsEl(s));
    playersEl(s);
    clear($("actions")).append(actionsPanel(s));
    clear($("log-wrap")).append(DA.logEl(s, 10));
  }

  function show(s, { force = false } = {}) {
    if (!s || typeof s.seq !== "number") return;
    if (state && s.seq < state.seq && !force) return; // older: ignore, unless the server says so
    if (state && s.seq === state.seq && !force) return;
    const newer = !state || s.seq !== state.seq;
    state = s;
    if (s.variant !== variant) {
      variant = s.variant;
      game = DA.game(variant);
      kings = game.stakes_per_card;
      entry = null; // the card entry belongs to the last game's layout
    }
    $("variant-name").textContent = s.variant_name;
    if (newer && s.undone && lastUndoneSeq !== s.seq) {
      lastUndoneSeq = s.seq;
      showInfo(`Undone: ${s.undone}`);
    } else if (newer && !s.undone) {
      $("info-banner").hidden = true;
    }
    render();
  }

  // ------------------------------------------------------------------ the theme
  // The system's dark setting (a dim room), unless the dealer chose with the toggle; the choice
  // is kept on this device.
  const THEME_KEY = "dealer-assist:theme";
  const systemDark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  function chosenTheme() {
    try { return localStorage.getItem(THEME_KEY); } catch (e) { return null; }
  }
  function applyTheme() {
    const dark = (chosenTheme() || (systemDark && systemDark.matches ? "dark" : "light")) === "dark";
    document.documentElement.dataset.theme = dark ? "dark" : "light";
    const toggle = $("theme-toggle");
    toggle.textContent = dark ? "Light" : "Dark";
    toggle.setAttribute("aria-pressed", String(dark));
    toggle.setAttribute("aria-label", dark ? "Use the light theme" : "Use the dark theme");
  }
  $("theme-toggle").addEventListener("click", () => {
    const next = document.documentElement.dataset.theme === "dark" ? "light" : "dark";
    try { localStorage.setItem(THEME_KEY, next); } catch (e) { /* this visit only */ }
    applyTheme();
    if (!chosenTheme()) document.documentElement.dataset.theme = next;
  });
  if (systemDark && systemDark.addEventListener) systemDark.addEventListener("change", applyTheme);
  applyTheme();

  // ------------------------------------------------------------------ wiring
  // the grid stays in view under the top bar, whose height follows the instruction's length
  const topbar = document.querySelector(".topbar");
  if (topbar && "ResizeObserver" in window) {
    new ResizeObserver(() => {
      document.documentElement.style.setProperty("--topbar-h", `${topbar.offsetHeight}px`);
    }).observe(topbar);
  }
  $("undo").addEventListener("click", () => act({ type: "undo" }));
  const overlay = $("qr-overlay");
  $("show-qr").addEventListener("click", () => { overlay.hidden = false; });
  $("qr-close").addEventListener("click", () => { overlay.hidden = true; });
  overlay.addEventListener("click", (ev) => { if (ev.target === overlay) overlay.hidden = true; });
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") overlay.hidden = true; });

  function setConn(status) {
    const el = $("conn");
    el.dataset.status = status;
    el.querySelector(".conn-text").textContent = status;
  }
  const socket = DA.connectLive({ tableId, token: () => token, onState: (s) => show(s), onStatus: setConn });
  if (socket) {
    socket.on("error", (e) => {
      if (e && e.signed_out && e.error) signOut(e.error);
      else if (e && e.error) showError(e.error);
    });
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      refresh();
      if (socket && socket.connected) socket.rejoin();
    }
  });
  refresh();
})();
