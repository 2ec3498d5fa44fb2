/* dealer-assist: helpers shared by the pages. Plain JavaScript, no build step.
 * Server text (player names, table names, log lines) only ever goes through textContent. */
"use strict";

const DA = (() => {
  const SUIT = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
  const SUIT_NAME = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
  const SUITS = ["s", "h", "d", "c"];
  // The games as the server describes them (Game.metadata), embedded in the page as JSON.
  const GAMES = (() => {
    const el = document.getElementById("games");
    const list = el ? JSON.parse(el.textContent) : [];
    return Object.fromEntries(list.map((g) => [g.variant, g]));
  })();
  const NO_GAME = { layout: { kind: "grid", cells: [], lines: {}, marks: {}, line_titles: {}, line_titles_ranked: {}, rank_lines: {} }, stakes_per_card: false, keeps_kings_pot: false, one_pot: false, state_fields: [], deal_word: "Deal", deals_per_game: null };
  function game(variant) {
    return GAMES[variant] || NO_GAME;
  }
  const STATUS_WORDS = { in: "In", folded: "Folded", all_in: "All in", out: "Out" };

  /* h("div.class#id", {attrs}, children...) builds an element; strings become text nodes. */
  function h(spec, attrs, ...children) {
    const tag = /^[a-z0-9-]+/i.exec(spec);
    const el = document.createElement(tag ? tag[0] : "div");
    const classes = [];
    for (const [, kind, name] of spec.matchAll(/([.#])([\w-]+)/g)) {
      if (kind === "#") el.id = name;
      else classes.push(name);
    }
    if (classes.length) el.className = classes.join(" ");
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v === null || v === undefined || v === false) continue;
        if (k === "text") el.textContent = String(v);
        else if (k === "class") el.className += (el.className ? " " : "") + v;
        else if (k === "onclick") el.addEventListener("click", v);
        else if (k === "oninput") el.addEventListener("input", v);
        else if (k === "onchange") el.addEventListener("change", v);
        else if (k === "dataset") Object.assign(el.dataset, v);
        else if (v === true) el.setAttribute(k, "");
        else el.setAttribute(k, String(v));
      }
    }
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return el;
  }

  function clear(el) {
    while (el.firstChild) el.removeChild(el.firstChild);
    return el;
  }

  function rankText(r) {
    return r === "T" ? "10" : r;
  }

  /* The server's card grammar (core/cards.py ``grammar``): rank texts, suit characters and
   * jokers, each to its canonical form. The page reads typed cards by it, keeping no rules of
   * its own; the server parses the record again when it arrives. */
  const CARD_GRAMMAR = (() => {
    const el = document.getElementById("card-grammar");
    return el ? JSON.parse(el.textContent) : { ranks: {}, suits: {}, jokers: {} };
  })();

  /* Normalise what a dealer types: "10h", "as", "A♠", "k" -> "Th", "As", "As", "K". */
  function parseCard(text, { rankOnly = false } = {}) {
    const t = String(text).trim();
    if (!t) return null;
    const u = t.toUpperCase();
    if (CARD_GRAMMAR.jokers[u]) return CARD_GRAMMAR.jokers[u];
    const suit = t.length >= 2 ? CARD_GRAMMAR.suits[t.slice(-1)] : undefined;
    const rank = suit ? CARD_GRAMMAR.ranks[u.slice(0, -1)] : undefined;
    if (suit && rank) return rank + suit;
    return rankOnly ? CARD_GRAMMAR.ranks[u] || null : null;
  }

  /* "As Kd 10h" -> {cards: ["As","Kd","Th"], bad: []} */
  function parseCards(text, opts) {
    const words = String(text).replace(/[,;]/g, " ").split(/\s+/).filter(Boolean);
    const cards = [];
    const bad = [];
    for (const w of words) {
      const c = parseCard(w, opts);
      if (c) cards.push(c);
      else bad.push(w);
    }
    return { cards, bad };
  }

  function cardWords(card) {
    if (!card) return "";
    if (card[0] === "X") return "Joker";
    const r = rankText(card[0]);
    return card.length > 1 ? `${r} of ${SUIT_NAME[card[1]]}` : r;
  }

  /* A playing card: a small white card with its rank and a red or black suit. */
  function cardEl(card, extra) {
    const cls = extra ? `.${extra.split(" ").join(".")}` : "";
    // role img: a card is a picture of a card, named in words
    if (!card) return h(`span.card.back${cls}`, { role: "img", "aria-label": "face down" });
    if (card === "up") return h(`span.card.unknown${cls}`, { role: "img", "aria-label": "turned, not entered" }, "?");
    if (card[0] === "X") return h(`span.card.joker${cls}`, { role: "img", "aria-label": "Joker" }, h("span.rank", { text: "J" }), h("span.suit", { text: "\u2605" }));
    const r = card[0];
    const s = card[1];
    const color = s === "h" || s === "d" ? "red" : s ? "black" : "nosuit";
    return h(`span.card.face.${color}${cls}`, { role: "img", "aria-label": cardWords(card), title: cardWords(card), dataset: { card } },
      h(`span.rank${r === "T" ? ".ten" : ""}`, { text: rankText(r) }), s ? h("span.suit", { text: SUIT[s] }) : null);
  }

  function cardRow(cards, extra) {
    return h("span.cards", null, (cards || []).map((c) => cardEl(c, extra)));
  }

  /* A line's title in the game of ``variant``: "Row 1", or with its rank "Row 1 (aces)". */
  function lineName(line, variant, ranked) {
    const layout = game(variant).layout;
    return (ranked ? layout.line_titles_ranked : layout.line_titles)[line] || line;
  }

  /* The line a card backs, where cards bet on lines (R21). */
  function lineOfCard(card, variant) {
    return game(variant).layout.rank_lines[card[0]];
  }

  /* "Deal 3", "Hand 3 of 21": what the game calls a deal. */
  function dealWords(s) {
    const g = game(s.variant);
    if (!s.deal_number) return "";
    return g.deals_per_game ? `${g.deal_word} ${s.deal_number} of ${g.deals_per_game}` : `${g.deal_word} ${s.deal_number}`;
  }

  function chips(n) {
    return Number(n || 0).toLocaleString("en-US");
  }

  /* The layout as laid on the table, from the game's metadata: a grid, or a board in a row. */
  function gridEl(state, opts = {}) {
    const grid = state.grid;
    if (!grid) return h("div");
    const result = state.result || {};
    const winning = new Set();
    for (const line of result.winning_lines || []) {
      for (const c of (grid.lines && grid.lines[line]) || []) winning.add(c);
    }
    const step = state.step || {};
    // the cells to turn now (a board's state may carry no grid.highlight: use the step's)
    const highlight = new Set(grid.highlight || (step.kind === "reveal" ? step.cells || [] : []));
    for (const c of opts.extraHighlight || []) highlight.add(c);
    const pending = opts.pending || {};
    const layout = game(state.variant).layout;
    if (layout.kind === "board") {
      const board = h("div.board", { role: "group", "aria-label": "Board" });
      layout.cells.forEach((c, i) => {
        const v = (grid.board || [])[i] ?? grid.cells[c];
        const cell = h("div.cell", { dataset: { cell: c } },
          cardEl(pending[c] || v), h("span.mark", { text: layout.marks[c] || "" }));
        if (highlight.has(c)) cell.classList.add("highlight");
        if (pending[c]) cell.classList.add("pending");
        board.append(cell);
      });
      return board;
    }
    const el = h(`div.grid.size${grid.size}${highlight.size ? ".has-highlight" : ""}`, { role: "group", "aria-label": `${grid.size} by ${grid.size} grid` });
    for (let r = 1; r <= grid.size; r++) {
      for (let col = 1; col <= grid.size; col++) {
        const c = `r${r}c${col}`;
        const v = grid.cells[c];
        const face = cardEl(pending[c] || v);
        face.setAttribute("aria-label", `${c}: ${face.getAttribute("aria-label")}`);
        const cell = h("div.cell", { dataset: { cell: c } },
          face, h("span.mark", { text: (grid.marks || {})[c] || "", "aria-hidden": "true" }));
        if (highlight.has(c)) cell.classList.add("highlight");
        if (pending[c]) cell.classList.add("pending");
        if (winning.has(c)) cell.classList.add("win");
        if (v === null || v === undefined) cell.classList.add("down");
        if (opts.onCell) cell.addEventListener("click", () => opts.onCell(c));
        el.append(cell);
      }
    }
    return el;
  }

  function potsEl(state) {
    const el = h("div.pots");
    const g = game(state.variant);
    // where the winner takes every chip bet this hand (R55): one pot
    const pots = g.one_pot && (state.pots || []).length
      ? [{ amount: state.pot_total, eligible: [] }] : (state.pots || []);
    if (!pots.length && state.result && !state.pot_total) {
      // the deal is over and its pot is paid out: nothing to show but the king's pot or bank
    } else if (pots.length) {
      pots.forEach((p, i) => {
        el.append(h("div.pot", { dataset: { pot: i } },
          h("span.pot-label", { text: pots.length === 1 ? "Pot" : i === 0 ? "Main pot" : `Side pot ${i}` }),
          h("span.pot-amount", { text: chips(p.amount) }),
          h("span.pot-eligible", { text: (p.eligible || []).join(", ") })));
      });
    } else {
      el.append(h("div.pot.empty", null, h("span.pot-label", { text: "Pot" }),
        h("span.pot-amount", { text: chips(state.pot_total) })));
    }
    if (g.keeps_kings_pot) {
      el.append(h("div.pot.kings#kings-pot", null, h("span.pot-label", { text: "King's pot" }),
        h("span.pot-amount", { text: chips(state.kings_pot) })));
    }
    if (state.kings_pot_words) { // R72: the table's king's pot, waiting through other games
      el.append(h("div.pot.kings.waiting#kings-pot-waiting", null,
        h("span.pot-label", { text: state.kings_pot_words })));
    }
    if (g.state_fields.includes("bank")) {
      el.append(h("div.pot.bank#bank", null, h("span.pot-label", { text: "Bank" }),
        h("span.pot-amount", { text: chips(state.bank) })));
    }
    if (state.carried && !pots.length) {
      el.append(h("div.pot.carried", null, h("span.pot-label", { text: "Carried" }),
        h("span.pot-amount", { text: chips(state.carried) })));
    }
    return el;
  }

  function statusWord(p) {
    return STATUS_WORDS[p.status] || p.status;
  }

  /* The result of a deal: who takes what, winning lines, every hand. */
  function resultEl(state, part = "all") {
    const res = state.result;
    if (!res) return null;
    const kings = game(state.variant).stakes_per_card;
    if (part === "details" || part === "more") {
      // "more": the phone's second screen, the winning line and every hand as well
      const d = h("section.result-details#result-details", { "aria-label": "Every line and hand" });
      if (part === "more") resultHands(state, res, d);
      resultDetails(state, res, kings, d);
      return d.childNodes.length ? d : null;
    }
    const el = h("section.result#result", { "aria-label": "Result" });
    el.append(h("h2", { text: res.game_winner ? "Game over" : "Result" }));
    // the words are the server's (Game.result_sentences): one a pot, the odd chips, the
    // king's pot or the bank; the page composes none of its own
    const sentences = state.result_sentences || (state.result_words ? [state.result_words] : []);
    const list = h("ul.result-sentences");
    for (const words of sentences) list.append(h("li", { text: words }));
    el.append(list);
    const pay = Object.entries(res.payouts || {}).filter(([, v]) => v > 0);
    if (pay.length) {
      // who ends with how many more chips: figures, a row a player
      const payList = h("ul.payouts", { "aria-label": "Chips won" });
      for (const [name, amount] of pay) {
        payList.append(h("li", { dataset: { player: name } }, h("span.who", { text: name }),
          h("span.takes", { text: `+${chips(amount)}` })));
      }
      el.append(payList);
    }
    if (part !== "brief") resultHands(state, res, el);
    if (part === "all") resultDetails(state, res, kings, el);
    return el;
  }

  // The winning line, every player's hand and the standings after a game's last deal.
  function resultHands(state, res, el) {
    if (state.winning_words) el.append(h("p.winning#winning-lines", { text: state.winning_words }));
    if (res.hands) {
      const list = h("ul.hands");
      for (const [name, info] of Object.entries(res.hands)) {
        const winner = (res.winners || []).includes(name);
        const lines = (info.lines || []).map((l) => lineName(l, state.variant, false)).join(", ");
        list.append(h(`li${winner ? ".win" : ""}`, { dataset: { player: name } },
          h("span.who", { text: name }), cardRow(info.cards, "small"),
          h("span.hand", { text: info.hand + (lines ? ` \u2014 ${lines}` : "") })));
      }
      el.append(list);
    }
    if (res.standings) {
      const list = h("ol.standings");
      for (const s of res.standings) list.append(h("li", null, h("span.who", { text: s.name }), h("span.takes", { text: ` ${chips(s.chips)} chips` })));
      el.append(list);
    }
  }

  function resultDetails(state, res, kings, el) {
    if (kings && res.lines) {
      const table = h("table.lines");
      table.append(h("thead", null, h("tr", null, h("th", { text: "Line" }), h("th", { text: "Cards" }), h("th", { text: "Hand" }), h("th", { text: "Held by" }))));
      const body = h("tbody");
      for (const [line, info] of Object.entries(res.lines)) {
        const tr = h("tr", { dataset: { line } },
          h("td.line-name", { text: lineName(line, state.variant, true) }),
          h("td", null, cardRow(info.cards, "small")),
          h("td.hand", { text: info.hand + (info.backed ? "" : " (not backed)") }),
          h("td.held-by", { text: heldBy(info.held_by) }));
        if ((res.winning_lines || []).includes(line)) tr.classList.add("win");
        if (!info.backed) tr.classList.add("unbacked");
        body.append(tr);
      }
      table.append(body);
      el.append(table);
    }
  }

  // "Dee ×2, Cy": who holds the live cards backing a line (R26), a name a card.
  function heldBy(names) {
    const counts = new Map();
    for (const n of names || []) counts.set(n, (counts.get(n) || 0) + 1);
    return [...counts].map(([n, k]) => (k > 1 ? `${n} \u00d7${k}` : n)).join(", ") || "\u2014";
  }

  function logEl(state, count) {
    const lines = (state.log || []).slice(-count).reverse();
    const el = h("ol.log#log");
    for (const line of lines) el.append(h("li", { text: line }));
    if (!lines.length) el.append(h("li.muted", { text: "No actions yet." }));
    return el;
  }

  function tokenKey(tableId) {
    return `dealer-assist:token:${tableId}`;
  }

  /* A ``state_patch``'s operations applied to ``state`` (changed in place, and returned):
   * ``[path, value]`` sets the value at the path, ``[path]`` removes the key there. */
  function applyPatch(state, ops) {
    let out = state;
    for (const [path, ...value] of ops) {
      if (!path.length) { out = value[0]; continue; }
      let parent = out;
      for (const key of path.slice(0, -1)) parent = parent[key];
      const last = path[path.length - 1];
      if (value.length) parent[last] = value[0];
      else delete parent[last];
    }
    return out;
  }

  /* Live updates: join the table's room; a state is shown only if it is not older. With
   * ``onPatch`` the client joins for ``state_patch`` events after the first whole state. */
  function connectLive({ tableId, token, onState, onStatus, onPatch = null }) {
    if (typeof io !== "function") {
      onStatus("offline");
      return null;
    }
    // ?table=ID lets a proxy in front of several processes send the connection to the
    // process that owns the table, as the API and pages are by their path (docs/deployment.md)
    const socket = io(tableId ? { transports: ["websocket", "polling"], query: { table: tableId } }
      : { transports: ["websocket", "polling"] });
    // ``token`` may be a function: a device signed out (R75) re-joins without its token
    const current = () => (typeof token === "function" ? token() : token);
    const join = () => {
      const t = current();
      const patches = onPatch ? { patches: true } : {};
      socket.emit("join", t ? { table: tableId, token: t } : { table: tableId, ...patches });
    };
    socket.on("connect", () => { onStatus("live"); join(); });
    socket.on("disconnect", () => onStatus("reconnecting"));
    socket.on("connect_error", () => onStatus("reconnecting"));
    socket.io.on("reconnect_attempt", () => onStatus("reconnecting"));
    socket.on("state", (s) => onState(s));
    if (onPatch) socket.on("state_patch", (p) => onPatch(p));
    socket.rejoin = join;
    return socket;
  }

  /* A refusal over HTTP: its status and the server's own sentence, to show as it is. */
  class HttpError extends Error {
    constructor(status, sentence) {
      super(sentence);
      this.status = status;
      this.sentence = sentence;
    }
  }

  /* The table's state; a refusal throws an HttpError with the server's sentence (a network
   * failure throws fetch's own TypeError, which has no status). */
  async function fetchState(tableId, token) {
    const headers = token ? { Authorization: `Bearer ${token}` } : {};
    const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}`, { headers, cache: "no-store" });
    if (!r.ok) {
      const data = await r.json().catch(() => ({}));
      throw new HttpError(r.status, data.error || `The server answered ${r.status}.`);
    }
    return r.json();
  }

  // One player's row in a players list (tablet, phone, replay): name, dealer button, blind,
  // stack; then status, live cards where cards are bought, and the ``extra`` bits each page adds.
  function playerItem(s, p, kings, extra = []) {
    const turn = s.step && s.step.player === p.name;
    const li = h(`li.player.status-${p.status}${turn ? ".turn" : ""}`, { dataset: { player: p.name } });
    li.append(h("div.player-top", null,
      h("span.player-name", { text: p.name }),
      p.dealer ? h("span.dealer-button", { title: "Dealer", "aria-label": "Dealer", text: "D" }) : null,
      s.blind === p.name ? h("span.blind-marker", { title: "Blind", text: "Blind" }) : null,
      h("span.player-stack", { text: chips(p.stack) })));
    const bits = [h("span.player-status", { text: statusWord(p) })];
    if (kings && p.status !== "out") bits.push(h("span.player-cards", { text: `${p.cards ?? 0} card${p.cards === 1 ? "" : "s"}` }));
    li.append(h("div.player-sub", null, bits.concat(extra.filter(Boolean))));
    return li;
  }

  // What a player has bet this round (per card where cards are bought), or null.
  function betBit(p, kings) {
    if (!p.bet) return null;
    return h("span.player-bet", { text: kings ? `bet ${chips(p.bet)}/card` : `bet ${chips(p.bet)}` });
  }

  // The pots, the grid and the result (summary and details) into the page's boxes of those
  // ids: drawn alike on the phone and in the replay.
  // ``brief``: the result's sentences first, its details further down (the phone's first screen).
  function drawBoard(s, { brief = false } = {}) {
    const box = (id) => document.getElementById(id);
    clear(box("pots")).append(potsEl(s));
    clear(box("grid")).append(gridEl(s));
    const parts = brief ? ["brief", "more"] : ["summary", "details"];
    for (const [id, part] of [["result-wrap", parts[0]], ["result-details-wrap", parts[1]]]) {
      const el = resultEl(s, part);
      clear(box(id));
      if (el) box(id).append(el);
    }
  }

  // The king's hand under the grid: face down until the showdown (or ``pending`` cards
  // being entered on the tablet), framed when it wins.
  function fillKingsHand(box, s, kings, pending = []) {
    clear(box);
    box.hidden = !kings;
    if (!kings) return;
    const shown = s.kings_hand && s.kings_hand.length ? s.kings_hand : null;
    const cards = shown || [0, 1, 2, 3, 4].map((i) => pending[i] || null);
    box.classList.toggle("win", !!(s.result && (s.result.winning_lines || []).includes("king")));
    box.append(h("span.kings-label", { text: "King's hand" }),
      h("span.cards", null, cards.map((c) => cardEl(c, "kh"))));
  }

  return {
    h, clear, parseCard, parseCards, cardEl, cardRow, cardWords, rankText, lineName, lineOfCard,
    game, dealWords, GAMES,
    chips, gridEl, potsEl, resultEl, logEl, statusWord, tokenKey, connectLive, applyPatch, fetchState, HttpError,
    fillKingsHand, playerItem, betBit, drawBoard,
    RANKS, SUITS, SUIT,
  };
})();
