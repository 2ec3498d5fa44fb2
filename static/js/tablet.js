/* The dealer's tablet page: one tap per action, the felt as laid on the table (and the pad the
 * cards are entered on, entry.js), live sync, the screen kept awake through a deal (awake.js)
 * and, if the dealer wants it, each step said aloud. */
"use strict";

(() => {
  const { h, clear } = DA;
  const body = document.body;
  const tableId = body.dataset.tableId;
  // the game of the deal in play, from the state; any game may be dealt (R71)
  let variant = body.dataset.variant;
  const $ = (id) => document.getElementById(id);
  const stakeWord = () => DA.game(variant).stake_word;

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

  // ------------------------------------------------------------------ the server
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
      if (live) live.heard();
      if (r.ok) {
        hideError();
        if (action.type === "show") DA.entry.setMode(null);
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

  async function refresh({ quiet = false } = {}) {
    try {
      show(await DA.fetchState(tableId, token), { force: true });
      return true;
    } catch (e) {
      if (!(e instanceof DA.HttpError)) {
        if (!quiet) showError("Could not reach the server. Check the connection.");
        return false;
      }
      if (e.status === 401 && token) signOut(e.sentence); // the token is refused: the players' view
      else if (!quiet) showError(e.sentence);
      return true;
    }
  }

  // ------------------------------------------------------------------ the action panel
  function bigButton(label, cls, onclick, data) {
    return h(`button.btn.big${cls ? "." + cls.split(" ").join(".") : ""}`, { type: "button", onclick, dataset: data || {} }, label);
  }

  function player(name) {
    return (state.players || []).find((p) => p.name === name);
  }

  function perStakeWords(per, k) {
    const w = stakeWord();
    return `${DA.chips(per)} per ${w} \u00d7 ${k} ${w}${k === 1 ? "" : "s"} = ${DA.chips(per * k)}`;
  }

  function goWords(step, verb) {
    return `${verb === "raise" ? "Raise to" : "Bet"} ${DA.chips(amount)}${step.per_card ? ` per ${stakeWord()}` : ""}`;
  }

  function noteWords(step, verb, k) {
    return step.per_card ? perStakeWords(amount, k) : `${verb} to ${DA.chips(amount)}`;
  }

  /* The amount: the stepper's value, or typed; a typed amount goes to the server as typed. */
  function amountBox(step, verb, k, lo, hi) {
    const note = h("span.amount-note", { text: noteWords(step, verb, k) });
    const input = h("input.amount-value#amount", {
      type: "number", inputmode: "numeric", min: lo, max: hi, step: 1, value: amount,
      "aria-label": step.per_card ? `Amount per ${stakeWord()}` : "Amount",
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
    const stakes = stakeWord() && p.live_cards ? p.live_cards.length : 1;
    // R81: the bring-in, the server's amount; its completion is the Bet below
    if (opts.has("bring_in")) main.append(bigButton(`Bring in ${DA.chips(step.bring_in)}`, "call go", () => act({ type: "bring_in", player: step.player }), { action: "bring_in" }));
    if (opts.has("fold")) main.append(bigButton(stakes > 1 ? `Fold all ${stakes} ${stakeWord()}s` : "Fold", "fold", () => act({ type: "fold", player: step.player }), { action: "fold" }));
    if (opts.has("check")) main.append(bigButton("Check", "check go", () => act({ type: "check", player: step.player }), { action: "check" }));
    if (opts.has("call")) {
      const words = step.per_card ? `Call ${perStakeWords(step.to_call, k)}` : `Call ${DA.chips(step.to_call)}`;
      main.append(bigButton(words, "call go", () => act({ type: "call", player: step.player }), { action: "call" }));
    }
    panel.append(main);
    // all in: every chip that divides over the live cards (R24), said per card and in total;
    // apart from Call, at the foot of the raise box, smaller
    const allInTo = (p.bet || 0) + Math.floor(p.stack / k);
    let allIn = null;
    if (opts.has("all_in")) {
      const put = Math.floor(p.stack / k) * k;
      const label = step.per_card && k > 1
        ? `All in: ${DA.chips(put)} (${DA.chips(put / k)} per ${stakeWord()} \u00d7 ${k})`
        : `All in: ${DA.chips(put)}`;
      allIn = h("div.allin-row", null, h("button.btn.allin", { type: "button", dataset: { action: "all_in", amount: allInTo }, onclick: () => act({ type: "all_in", player: step.player }) }, label));
    }

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
      // in, the All in button says so once
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
      const per = step.per_card ? ` per ${stakeWord()}` : "";
      if (lo === hi) {
        // fixed limit (or only one amount possible): one tap, no choosing
        const note = step.per_card ? ` (${perStakeWords(lo, k)})` : "";
        panel.append(h("div.raise-box", null, h("div.raise-head", { text: `${verb === "raise" ? "Raise" : "Bet"}: ${DA.chips(lo)}${per}${note}` }), go, allIn));
      } else {
        panel.append(h("div.raise-box", null, h("div.raise-head", { text: `${verb === "raise" ? "Raise" : "Bet"}: ${DA.chips(lo)} to ${DA.chips(hi)}${per}` }), presetRow, h("div.raise-row", null, stepper, go), allIn));
      }
    } else if (allIn) {
      panel.append(allIn);
    }
    if (stakeWord() && p.live_cards && p.live_cards.length > 1) {
      const row = h("div.fold-cards");
      row.append(h("span.fold-cards-label", { text: `Fold one ${stakeWord()}:` }));
      for (const c of p.live_cards) {
        const line = DA.lineOfCard(c, variant);
        row.append(h("button.btn.fold-card.fold", { type: "button", dataset: { foldCard: c }, onclick: () => act({ type: "fold", player: step.player, card: c }) },
          h("span.sr-only", { text: "Fold" }), DA.cardEl(c, "small"), h("span.fold-line", { text: DA.lineName(line, variant, false) })));
      }
      panel.append(row);
    }
    return panel;
  }

  /* The card entry's buttons and panel (entry.js): the record first, always in view. */
  function entryPanel(s, el) {
    const step = s.step;
    const record = () => {
      const bodyOrWhy = DA.entry.recordBody(s);
      if (typeof bodyOrWhy === "string") showError(bodyOrWhy);
      else act(bodyOrWhy);
    };
    const n = DA.entry.entered(s);
    const total = DA.entry.size(s);
    const opts = step.options || [];
    if (step.kind === "reveal" && DA.entry.mode() === "show") {
      // R67: the hands tabled, entered on the felt as at a showdown
      el.append(h("div.bet-main.all-in-row", null,
        bigButton(n ? `Table these hands \u2014 ${n} of ${total} entered` : "Table these hands", `primary${n ? "" : " waiting"}`, record, { action: "show" }),
        bigButton("Back to turning", "", () => { DA.entry.setMode(null); render(); }, { action: "turning" })));
    } else if (step.kind === "reveal" && !(step.cells || []).length) {
      // a street of up cards (R81): every one is entered before the betting
      el.append(bigButton(`Up cards dealt \u2014 ${n} of ${total} entered`, "primary huge", record, { action: "reveal" }));
    } else if (step.kind === "reveal") {
      el.append(bigButton(n ? `Turned \u2014 ${n} of ${total} entered` : `Turned (${total} card${total === 1 ? "" : "s"})`, "primary huge", record, { action: "reveal" }));
      // at an all-in (R66, R67): one tap to run the rest twice, one to enter the hands tabled
      if (opts.includes("run_twice") || opts.includes("show")) {
        el.append(h("div.bet-main.all-in-row", null,
          opts.includes("run_twice") ? bigButton("Run it twice", "go", () => act({ type: "run_twice" }), { action: "run_twice" }) : null,
          opts.includes("show") ? bigButton("Table the hands", "", () => { DA.entry.setMode("show"); render(); }, { action: "table-hands" }) : null));
      }
    } else if (step.kind === "deal_cards") {
      el.append(bigButton(`Record ${step.player}'s cards`, `primary huge${n === total ? "" : " waiting"}`, record, { action: "deal_cards" }));
    } else if (step.kind === "draw") {
      el.append(h("div.bet-main", null,
        bigButton("Let the app draw", "go", () => act({ type: "draw", player: step.player }), { action: "app-draw" }),
        bigButton("Record this card", `primary${n ? "" : " waiting"}`, record, { action: "draw" })));
    } else {
      el.append(bigButton(n === total ? "Show down" : `Show down \u2014 ${n} of ${total} entered`, "primary huge", record, { action: "showdown" }));
    }
    el.append(DA.entry.panelEl(s, { onEnter: record, rankOnly: step.kind === "deal_cards" }));
  }

  const ENTRY_STEPS = new Set(["reveal", "deal_cards", "draw", "showdown"]);

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
      el.append(h("div.signed-out", null,
        h("p.notice", { text: "This device is not signed in as the dealer: it follows the game. To deal from it, enter a code from the device that deals now." }),
        h("button.btn.big.primary#not-dealer-enter-code", { type: "button", text: "I'm dealing: enter code",
          onclick: () => DA.enterCode && DA.enterCode() })));
      return el;
    }
    const kind = step.kind;
    // every hand of the result beside the felt where it fits there (no table of lines)
    const details = s.result && !handsBeside(s) ? DA.resultEl(s, "details") : null;
    if (kind === "start_deal") { // between.js: the between-deal screen
      el.append(DA.betweenDeals(s, { act, render, showError, showQr }));
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
          h("span.buy-count", { text: String(n) }), h("span.buy-cost", { text: n ? `${cost} chip${cost === 1 ? "" : "s"}` : "none" })));
      }
      el.append(h("div.panel-title", { text: `${step.player} buys` }), row);
    } else if (kind === "discard") { // R85: the draw buttons are in the player's place
      el.append(h("p.notice.draw-hint", { text: `Tap how many ${step.player} draws in ${step.player}'s place on the felt.` }));
    } else if (ENTRY_STEPS.has(kind)) {
      entryPanel(s, el);
    } else if (kind === "next") {
      const opts = step.options || [];
      el.append(bigButton("Done \u2014 Next", "primary huge", () => act({ type: "next" }), { action: "next" }));
      const posted = DA.postedEl(s); // who put in what before the cards (R63-R65)
      if (posted) el.append(posted);
      if (opts.includes("raise")) {
        const row = h("div.raise-by-one");
        for (const p of s.players) {
          if (p.status !== "in" || !p.stack) continue;
          row.append(h("button.btn.big", { type: "button", dataset: { action: "raise", player: p.name }, onclick: () => act({ type: "raise", player: p.name }) }, `${p.name} raises 1`));
        }
        el.append(row);
      }
    } else if (kind === "bet") {
      if (step.player) el.append(betPanel(s));
      else el.append(h("p.notice", { text: step.instruction }));
    } else if (kind === "pay") {
      // the buttons' words are the step's own (the server's), never read out of its sentence
      const row = h("div.bet-main");
      row.append(bigButton(step.fold_label || "Fold", "fold", () => act({ type: "fold", player: step.player }), { action: "fold" }));
      row.append(bigButton(step.pay_label || `${step.player} pays ${step.to_call ?? 1}`, "go", () => act({ type: "pay", player: step.player }), { action: "pay" }));
      el.append(row);
    } else {
      el.append(h("p.notice", { text: step.instruction }));
    }
    return el;
  }

  /* R85: in the place of the player to draw, one tap a count, 0 (stands pat) to the most
   * the step allows (the hand's size). */
  function drawButtons(s) {
    const step = s.step;
    if (!token || step.kind !== "discard" || !step.player) return;
    const slot = document.querySelector(`#grid .hand-place[data-player="${CSS.escape(step.player)}"] .hand-act`);
    if (!slot) return;
    const row = h("div.draw-row", { role: "group", "aria-label": `How many ${step.player} draws` });
    for (let n = 0; n <= (step.max ?? 0); n++) {
      const word = n ? (n === 1 ? "card" : "cards") : "pat";
      // named "Ann draws 2 cards", "Ann draws 0 \u2014 stands pat": the visible words within
      row.append(h("button.btn.draw-count", { type: "button", dataset: { action: "discard", count: n },
        onclick: () => act({ type: "discard", player: step.player, count: n }) },
      h("span.sr-only", { text: `${step.player} draws ` }), h("span.draw-n", { text: String(n) }),
      n ? null : h("span.sr-only", { text: " \u2014 stands" }), h("span.draw-word", { text: ` ${word}` })));
    }
    slot.append(row);
  }

  // ------------------------------------------------------------------ the rest of the page
  /* A deal's hands (each one's high and low, R80) under the felt, in view beside the next
   * deal's choices, where the result names no lines (a grid's table of lines keeps the
   * actions' width). */
  function handsBeside(s) {
    return !!(s.result && s.result.hands && !s.result.lines);
  }

  /* The deal's result (who won what, in the server's words) in a place of its own, first on
   * the page where the felt is not beside the actions (upright, a narrow window), and there
   * the felt next where it shows the winning hands or lines: both read before the next
   * deal's taps. On the dealer's device, as the actions are. */
  function resultArea(s) {
    const summary = s.result && token ? DA.resultEl(s, "summary") : null;
    const area = clear($("result-area"));
    if (summary) area.append(summary);
    area.hidden = !summary;
    const shown = summary && (Object.keys(s.result.hands || {}).length || (s.result.winning_lines || []).length);
    $("tablet").classList.toggle("has-result", !!summary);
    $("tablet").classList.toggle("won-on-felt", !!shown);
  }

  function playersEl(s) {
    const list = clear($("players"));
    for (const p of s.players || []) {
      const li = DA.playerItem(s, p, [DA.betBit(s, p)]);
      if (p.live_cards && p.live_cards.length && !s.result) li.append(h("div.player-hand", null, DA.cardRow(p.live_cards, "tiny")));
      list.append(li);
    }
  }

  function render() {
    const s = state;
    if (!s) return;
    // the hands are tabled only while the step offers it (R67)
    if (DA.entry.mode() === "show" && !(s.step.options || []).includes("show")) DA.entry.setMode(null);
    const dealing = !!token && ENTRY_STEPS.has(s.step.kind);
    if (dealing) DA.entry.begin(s, render);
    // a device that is not the dealer's reads the players' words (the server's), not "tap Next"
    const words = (!token && s.public_instruction) || s.step.instruction;
    $("instruction").textContent = words;
    // who acts first and why, where the cards decide it (R81): the server's words
    if (s.step.why) $("instruction").append(h("span.why#why", { text: s.step.why }));
    $("instruction").classList.toggle("long", words.length + (s.step.why || "").length > 70);
    $("deal-number").textContent = s.deal_number ? DA.dealWords(s) : "No deal yet";
    const turn = $("turn");
    turn.hidden = !s.step.player;
    turn.textContent = s.step.player || "";
    $("undo").disabled = !s.can_undo || !token;
    $("seq").textContent = `#${s.seq}`;
    const felt = dealing ? DA.entry.feltEntry(s) : null;
    DA.drawFelt(s, $("grid"), $("places"), felt);
    if (felt) DA.entry.markFelt(document.querySelector(".area-grid"));
    drawButtons(s);
    clear($("pots")).append(DA.potsEl(s));
    const chances = DA.equityEl(s);
    clear($("equity"));
    if (chances) $("equity").append(chances);
    const hands = handsBeside(s) ? DA.resultEl(s, "details") : null;
    clear($("result-beside"));
    if (hands) $("result-beside").append(hands);
    resultArea(s);
    playersEl(s);
    clear($("actions")).append(actionsPanel(s));
    clear($("log-wrap")).append(DA.logEl(s, 10));
  }

  function show(s, { force = false } = {}) {
    if (!s || typeof s.seq !== "number") return;
    if (state && s.seq < state.seq && !force) return; // older: ignore, unless the server says so
    // the same seq again only when it brings the chances worked out since (equity_pending)
    const worked = state && state.equity_pending && !s.equity_pending;
    if (state && s.seq === state.seq && !force && !worked) return;
    const newer = !state || s.seq !== state.seq;
    const ended = !!(state && !state.result && s.result);
    state = s;
    variant = s.variant;
    $("variant-name").textContent = s.variant_name;
    if (newer && s.undone && lastUndoneSeq !== s.seq) {
      lastUndoneSeq = s.seq;
      showInfo(`Undone: ${s.undone}`);
    } else if (newer && !s.undone) {
      $("info-banner").hidden = true;
    }
    render();
    // a deal just ended: its result (the winning line first) at the top of the screen
    if (ended) window.scrollTo(0, 0);
    DA.keepAwake(!DA.between(s)); // awake.js
    if (newer) speak(s);
  }

  // ------------------------------------------------------------------ spoken prompts
  // The browser's own speech synthesis (no network), off unless the dealer turns it on here:
  // "Bob to act, 4 to call", "Turn the flop: 3 cards, framed."
  const SPEAK_KEY = "dealer-assist:speak";
  let voiceOn = false;
  try { voiceOn = localStorage.getItem(SPEAK_KEY) === "on"; } catch (e) { voiceOn = false; }
  let spokenKey = null;
  function spokenWords(s) {
    const step = s.step;
    if (step.kind === "bet" && step.player) {
      const owed = step.to_call_total ?? step.to_call;
      return owed ? `${step.player} to act, ${owed} to call` : `${step.player} to act`;
    }
    return step.instruction;
  }
  function speak(s) {
    const key = `${s.deal_number}:${s.step.kind}:${s.step.player || ""}:${s.step.instruction}`;
    if (key === spokenKey) return;
    spokenKey = key;
    if (!voiceOn || !token || !("speechSynthesis" in window)) return;
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(new SpeechSynthesisUtterance(spokenWords(s)));
  }
  function drawSpeak() {
    const b = $("speak-toggle");
    b.setAttribute("aria-pressed", String(voiceOn));
    b.textContent = `Spoken prompts: ${voiceOn ? "on" : "off"}`;
    b.hidden = !("speechSynthesis" in window);
  }
  $("speak-toggle").addEventListener("click", () => {
    voiceOn = !voiceOn;
    try { localStorage.setItem(SPEAK_KEY, voiceOn ? "on" : "off"); } catch (e) { /* this visit only */ }
    drawSpeak();
    if (voiceOn && state) { spokenKey = null; speak(state); }
    else if ("speechSynthesis" in window) window.speechSynthesis.cancel();
  });
  drawSpeak();

  // ------------------------------------------------------------------ the menu and the QR
  const menuLayer = $("menu-layer");
  function openMenu(open) {
    menuLayer.hidden = !open;
    $("menu-button").setAttribute("aria-expanded", String(open));
    if (open) ($("show-qr")).focus();
  }
  $("menu-button").addEventListener("click", () => openMenu(menuLayer.hidden));
  $("menu-close").addEventListener("click", () => openMenu(false));
  menuLayer.addEventListener("click", (ev) => {
    if (ev.target === menuLayer) openMenu(false);
    // a tap that opens something else (the QR, a dealer device) closes the menu first
    else if (ev.target.closest && ev.target.closest("#show-qr, #pairing-slot button, a")) openMenu(false);
  });
  const overlay = $("qr-overlay");
  function showQr() { overlay.hidden = false; $("qr-close").focus(); }
  $("show-qr").addEventListener("click", showQr);
  $("qr-close").addEventListener("click", () => { overlay.hidden = true; });
  overlay.addEventListener("click", (ev) => { if (ev.target === overlay) overlay.hidden = true; });
  document.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape") return;
    overlay.hidden = true;
    openMenu(false);
  });

  // ------------------------------------------------------------------ wiring
  // the felt stays in view under the top bar, whose height follows the instruction's length
  const topbar = document.querySelector(".topbar");
  if (topbar && "ResizeObserver" in window) {
    new ResizeObserver(() => {
      document.documentElement.style.setProperty("--topbar-h", `${topbar.offsetHeight}px`);
    }).observe(topbar);
  }
  $("undo").addEventListener("click", () => act({ type: "undo" }));

  const live = DA.follow({
    tableId, token: () => token, onState: (s) => show(s), poll: () => refresh({ quiet: true }),
  });
  const socket = live.socket;
  if (socket) {
    socket.on("error", (e) => {
      if (e && e.signed_out && e.error) signOut(e.error);
      else if (e && e.error && !e.no_table) showError(e.error); // no table: DA.follow says so
    });
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      refresh({ quiet: true });
      if (socket && socket.connected) socket.rejoin();
    }
  });
  refresh();
})();
