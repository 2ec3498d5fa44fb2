/* dealer-assist: helpers shared by the pages. Plain JavaScript, no build step.
 * Server text (player names, table names, log lines) only ever goes through textContent.
 * Nothing here knows a game: what a game draws (its layout, the places beside it, the pots it
 * carries, the word its stakes are counted in) comes from its metadata, embedded in the page. */
"use strict";

const DA = (() => {
  const SUIT = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
  const SUIT_NAME = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
  const SUITS = ["s", "h", "d", "c"];
  function embedded(id, fallback) {
    const el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : fallback;
  }
  // The games as the server describes them (Game.metadata), embedded in the page as JSON:
  // every game, since any may be dealt at a table (R71).
  const GAMES = Object.fromEntries(embedded("games", []).map((g) => [g.variant, g]));
  // The house rules' one vocabulary (name, label, kind, choices, betting, help), in order.
  const RULES_VOCABULARY = embedded("rules-vocabulary", []);
  const NO_GAME = {
    layout: { kind: "grid", cells: [], lines: {}, marks: {}, line_titles: {}, line_titles_ranked: {}, rank_lines: {} },
    places: [], carried: [], stake_word: null, one_pot: false, deal_word: "Deal", deals_per_game: null,
  };
  function game(variant) {
    return GAMES[variant] || NO_GAME;
  }
  // Where every card bought is a betting seat (R24), stakes are "per card".
  function perCard(variant) {
    return !!game(variant).stake_word;
  }

  /* h("div.class#id", {attrs}, children...) builds an element; strings become text nodes. */
  /* A hand named by its ranks ("7-4-3-2-A") kept on one line: broken at a hyphen it reads as
   * two hands. The text stays the server's, word for word. */
  function unbroken(words) {
    const parts = [];
    let at = 0;
    for (const m of String(words).matchAll(/(?:10|[2-9TJQKA])(?:-(?:10|[2-9TJQKA]))+\b/g)) {
      parts.push(words.slice(at, m.index), h("span.nowrap", { text: m[0] }));
      at = m.index + m[0].length;
    }
    parts.push(words.slice(at));
    return parts.filter((p) => p !== "");
  }

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
  const CARD_GRAMMAR = embedded("card-grammar", { ranks: {}, suits: {}, jokers: {} });

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

  /* "A♥": a card as printed in a sentence. */
  function cardShort(card) {
    if (!card) return "";
    if (card[0] === "X") return "Joker";
    return rankText(card[0]) + (card[1] ? SUIT[card[1]] : "");
  }

  /* A playing card: a small white card with its rank and a red or black suit. */
  function cardEl(card, extra) {
    const cls = extra ? `.${extra.split(" ").join(".")}` : "";
    // role img: a card is a picture of a card, named in words
    if (!card) return h(`span.card.back${cls}`, { role: "img", "aria-label": "face down" });
    if (card === "up") return h(`span.card.unknown${cls}`, { role: "img", "aria-label": "turned, not entered" }, "?");
    if (card[0] === "X") return h(`span.card.joker${cls}`, { role: "img", "aria-label": "Joker", dataset: { card } }, h("span.rank", { text: "J" }), h("span.suit", { text: "\u2605" }));
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
    const place = (game(variant).places || []).find((p) => p.line === line);
    if (place) return place.title;
    return (ranked ? layout.line_titles_ranked : layout.line_titles)[line] || line;
  }

  /* The line a card backs, where cards bet on lines (R21). */
  function lineOfCard(card, variant) {
    return game(variant).layout.rank_lines[card[0]];
  }

  /* A card place as a dealer says it: "row 3, column 4" on a grid, "flop card 2" or "river"
   * on a board (from the layout's own marks). */
  function cellWords(cell, variant) {
    const layout = game(variant).layout;
    // a second run's place (R66): its first-run cell's name with ".2"
    const twin = /^(.+)\.2$/.exec(cell);
    if (twin) return `${cellWords(twin[1], variant)}, second run`;
    const m = /^r(\d+)c(\d+)$/.exec(cell);
    if (m) return `row ${m[1]}, column ${m[2]}`;
    const mark = (layout.marks || {})[cell];
    if (!mark) return cell;
    const same = layout.cells.filter((c) => layout.marks[c] === mark);
    return same.length > 1 ? `${mark.toLowerCase()} card ${same.indexOf(cell) + 1}` : mark.toLowerCase();
  }

  /* "Deal 3", "Hand 3 of 21": what the game calls a deal. */
  function dealWords(s, number = s.deal_number) {
    const g = game(s.variant);
    if (!number) return "";
    return g.deals_per_game ? `${g.deal_word} ${number} of ${g.deals_per_game}` : `${g.deal_word} ${number}`;
  }

  function chips(n) {
    return Number(n || 0).toLocaleString("en-US");
  }

  /* "+22", "−10", "0": a change of stack, signed. */
  function signed(n) {
    return n > 0 ? `+${chips(n)}` : n < 0 ? `\u2212${chips(-n)}` : "0";
  }

  // ------------------------------------------------------------------ the felt
  /* The layout as laid on the table (a grid, or a board in a row) into ``gridBox``, and the
   * places the game lays beside it (metadata ``places``, e.g. a hand of its own) into
   * ``placesBox``. ``entry`` (the tablet's card entry, entry.js) makes the places being
   * entered buttons: ``{values: {id: card}, active: id, open: Set of ids, hands: [{id, title,
   * slots: [ids]}], onTap(id)}``. */
  function drawFelt(s, gridBox, placesBox, entry = null) {
    const g = game(s.variant);
    clear(gridBox).append(layoutEl(s, g, entry));
    if (!placesBox) return;
    clear(placesBox);
    for (const place of g.places || []) placesBox.append(placeEl(s, place, entry));
    // where each player has a place on the felt (R85), a hand being entered is entered there
    const onRows = g.layout.kind === "hands" ? new Set((s.players || []).map((p) => `p:${p.name}`)) : new Set();
    const hands = ((entry && entry.hands) || []).filter((hand) => !onRows.has(hand.id));
    for (const hand of hands) placesBox.append(handPlace(hand, entry));
    // the hands' columns are as wide as the longest hand (base.css .places)
    const longest = Math.max(2, ...hands.map((hand) => hand.slots.length || (hand.known || []).length));
    placesBox.style.setProperty("--place-cards", String(longest));
  }

  /* A hand being entered: its places (or, where the dealer knows them already, its cards),
   * and where the step allows it a Muck tap (R6): pressed, the hand is given up unseen. */
  function handPlace(hand, entry) {
    return withMuck(placeBox(hand.title, hand.id, handCards(hand, entry)), hand, entry);
  }

  function handCards(hand, entry) {
    if (hand.muck && hand.muck.mucked) return [h("span.place-mucked", { text: "Mucked: loses, cards unseen" })];
    return hand.slots.length ? hand.slots.map((id) => slotEl(id, null, entry))
      : hand.known.map((c) => h("span.place-card", null, cardEl(c)));
  }

  function withMuck(box, hand, entry) {
    if (!hand.muck) return box;
    const mucked = !!hand.muck.mucked;
    box.classList.toggle("mucked", mucked);
    box.append(h("button.btn.muck", { type: "button", "aria-pressed": String(mucked),
      "aria-label": `Muck ${hand.title}`, dataset: { muck: hand.muck.name },
      onclick: () => entry.onMuck(hand.muck.name) }, "Muck"));
    return box;
  }

  /* "drew 2, pat": how many a player drew at each draw so far (R85), everyone's to see. */
  function drawsWords(p) {
    return (p.draws || []).length ? `drew ${p.draws.map((n) => (n ? String(n) : "pat")).join(", ")}` : "";
  }

  /* Where the players hold all their cards (R85, the draw games): a place a player dealt in,
   * their hand face down (``hand_size`` backs, from the game's metadata; the faces once
   * shown), how many they drew at each draw so far, and at the showdown the hand's places
   * to enter with its Muck tap (``entry.hands``). Each place's empty ``.hand-act`` is for
   * the page's own taps (the tablet's draw buttons). */
  function handsEl(s, g, entry) {
    const el = h("div.hands-felt", { role: "group", "aria-label": "Each player's hand" });
    const entering = new Map(((entry && entry.hands) || []).map((x) => [x.id, x]));
    const dealing = !between(s);
    const winners = new Set((s.result && s.result.winners) || []);
    for (const p of s.players || []) {
      // in a deal, every player dealt in; after it, the last deal's hands as they ended
      if (dealing ? p.status === "out" : !(p.draws || []).length && !(p.hand || []).length) continue;
      const id = `p:${p.name}`;
      const hand = entering.get(id);
      const gone = !hand && ["folded", "mucked"].includes(p.status);
      const faces = p.hand && p.hand.length ? p.hand : Array(g.hand_size || 0).fill(null);
      const cards = hand ? handCards(hand, entry)
        : gone ? [h("span.hand-gone", { text: STATUS_WORDS[p.status] })]
          : faces.map((c) => h("span.hand-card", null, cardEl(c, "small")));
      const drew = drawsWords(p);
      const box = h(`div.place.hand-place.status-${dealing ? p.status : "idle"}`,
        { dataset: { place: id, player: p.name }, role: "group", "aria-label": `${p.name}'s hand` },
        h("span.hand-head", null, h("span.place-title", { text: p.name }),
          drew ? h("span.hand-draws", { text: drew }) : null),
        h("span.place-cards", null, cards),
        h("div.hand-act"));
      if (hand) withMuck(box, hand, entry).classList.add("entering");
      box.classList.toggle("turn", !!(s.step && s.step.player === p.name));
      box.classList.toggle("win", winners.has(p.name));
      el.append(box);
    }
    if (!el.children.length) el.append(h("p.up-empty", { text: "Each player's hand shows here once the cards are dealt." }));
    return el;
  }

  function layoutEl(s, g, entry) {
    const grid = s.grid;
    const layout = g.layout;
    if (!grid) return h("div");
    const result = s.result || {};
    const winning = new Set();
    for (const line of result.winning_lines || []) {
      for (const c of (grid.lines && grid.lines[line]) || []) winning.add(c);
    }
    const step = s.step || {};
    // the cells to turn now; at a showdown, the cells still to enter
    const marked = new Set(grid.highlight && grid.highlight.length ? grid.highlight
      : (["reveal", "showdown"].includes(step.kind) ? step.cells || [] : []));
    const board = layout.kind === "board";
    const size = grid.size || 0;
    const el = board
      ? h("div.board", { role: "group", "aria-label": grid.second_run ? "Board, first run" : "Board" })
      : h(`div.grid.size${size}`, { role: "group", "aria-label": `${size} by ${size} grid` });
    if (marked.size) el.classList.add("has-highlight");
    if (entry) el.classList.add("entering");
    const cells = board ? layout.cells : [];
    if (!board) for (let r = 1; r <= size; r++) for (let c = 1; c <= size; c++) cells.push(`r${r}c${c}`);
    const place = (c, known, markOf) => {
      const open = entry && entry.open.has(c);
      const card = (open && entry.values[c]) || known;
      const face = cardEl(card);
      const where = cellWords(c, s.variant);
      // a button is named by what it holds: the place in words (for a screen reader), the card
      const cell = open
        ? h("button.cell", { type: "button", dataset: { cell: c, slot: c }, onclick: () => entry.onTap(c) },
          h("span.sr-only", { text: `${where}:` }))
        : h("div.cell", { dataset: { cell: c } });
      if (!open) face.setAttribute("aria-label", `${where}: ${face.getAttribute("aria-label")}`);
      cell.append(face, h("span.mark", { text: markOf, "aria-hidden": "true" }));
      if (marked.has(c)) cell.classList.add("highlight");
      if (open && entry.values[c]) cell.classList.add("pending");
      if (open && entry.active === c) {
        cell.classList.add("target");
        cell.setAttribute("aria-current", "true");
      }
      if (winning.has(c)) cell.classList.add("win");
      if (known === null || known === undefined) cell.classList.add("down");
      return cell;
    };
    if (layout.kind === "up_cards") return upCardsEl(s, grid, entry, place, marked);
    if (layout.kind === "hands") return handsEl(s, g, entry);
    cells.forEach((c, i) => {
      const known = board ? ((grid.board || [])[i] ?? grid.cells[c]) : grid.cells[c];
      el.append(place(c, known, (board ? layout.marks : grid.marks || {})[c] || ""));
    });
    if (!board || !grid.second_run) return el;
    // R66: the second run's board beside the first, a place a cell: the cells turned before
    // the runs parted are the first run's own (shown again, not to be entered), the others
    // their ".2" twins
    const second = h("div.board.second-run", { role: "group", "aria-label": "Board, second run" });
    if (marked.size) second.classList.add("has-highlight");
    if (entry) second.classList.add("entering");
    grid.second_run.forEach((c, i) => {
      const cell = place(c, grid.cells[c], layout.marks[layout.cells[i]] || "");
      if (c === layout.cells[i]) cell.classList.add("shared");
      second.append(cell);
    });
    return h("div.runs", null,
      h("div.run", { dataset: { run: "1" } }, h("span.run-title", { text: "Run 1" }), el),
      h("div.run", { dataset: { run: "2" } }, h("span.run-title", { text: "Run 2" }), second));
  }

  /* Cards dealt to each player, down and up (R81): a row a player dealt in, the down cards
   * as backs (their faces where the state has them), the up cards face up, and while the
   * dealer enters a street's up cards one place at the end of each row still in; the one
   * card in the middle (c1) where it is turned or asked for. */
  function upCardsEl(s, grid, entry, place, marked) {
    const el = h("div.up-cards", { role: "group", "aria-label": "Each player's cards" });
    if (entry) el.classList.add("entering");
    if (marked.size) el.classList.add("has-highlight");
    const dealing = !between(s);
    for (const p of s.players || []) {
      // in a deal, every player dealt in; after it, the last deal's rows as they ended
      if (dealing ? p.status === "out" : !(p.up || []).length) continue;
      const down = p.down || 0;
      const faces = p.hand && p.hand.length ? p.hand : [];
      const cards = [];
      for (let i = 0; i < down; i++) {
        // at the showdown the down cards are the places the dealer enters (R81)
        const slot = `p:${p.name}:${i + 1}`;
        if (entry && entry.open.has(slot)) { cards.push(slotEl(slot, null, entry)); continue; }
        const face = cardEl(faces[i] || null, "small");
        if (!faces[i]) face.setAttribute("aria-label", "down card");
        cards.push(h("span.down-card", null, face));
      }
      for (const c of p.up || []) cards.push(h("span.up-card", null, cardEl(c, "small")));
      const id = `up:${p.name}`;
      if (entry && entry.open.has(id)) cards.push(slotEl(id, null, entry));
      const row = h(`div.up-row.status-${p.status}`, { dataset: { player: p.name }, role: "group", "aria-label": `${p.name}'s cards` },
        h("span.up-name", { text: p.name, "aria-hidden": "true" }), h("span.up-row-cards", null, cards));
      el.append(row);
    }
    const middle = grid.cells.c1;
    if ((middle !== null && middle !== undefined) || marked.has("c1") || (entry && entry.open.has("c1"))) {
      el.append(h("div.up-middle", null, h("span.up-name", { text: "Middle", "aria-hidden": "true" }),
        h("div.board.middle", null, place("c1", middle, ""))));
    }
    if (!el.children.length) el.append(h("p.up-empty", { text: "Each player's cards show here once they are dealt." }));
    return el;
  }

  // A game's own place (metadata ``places``): face down until the state holds its cards
  // (``state[field]``), or the cards being entered on the tablet.
  function placeEl(s, place, entry) {
    const shown = s[place.field] && s[place.field].length ? s[place.field] : null;
    const slots = [];
    for (let i = 0; i < place.cards; i++) {
      const id = `${place.id}:${i + 1}`;
      slots.push(entry && entry.open.has(id) ? slotEl(id, null, entry) : slotEl(id, shown ? shown[i] || null : null, null));
    }
    const box = placeBox(place.title, place.id, slots);
    box.classList.add("of-game");
    box.classList.toggle("win", !!(s.result && (s.result.winning_lines || []).includes(place.line)));
    return box;
  }

  function placeBox(title, id, slots) {
    return h("div.place", { dataset: { place: id }, role: "group", "aria-label": title },
      h("span.place-title", { text: title, "aria-hidden": "true" }), h("span.place-cards", null, slots));
  }

  // One card of a place: a button while it is being entered, else the card.
  function slotEl(id, card, entry) {
    if (!entry) return h("span.place-card", { dataset: { slot: id } }, cardEl(card));
    const value = entry.values[id] || null;
    const face = cardEl(value);
    const b = h("button.place-card.highlight", { type: "button", dataset: { slot: id }, onclick: () => entry.onTap(id) },
      h("span.sr-only", { text: `${entry.labels[id] || id}:` }), face);
    if (value) b.classList.add("pending");
    if (entry.active === id) {
      b.classList.add("target");
      b.setAttribute("aria-current", "true");
    }
    return b;
  }

  // ------------------------------------------------------------------ pots
  function potsEl(s) {
    const el = h("div.pots");
    const g = game(s.variant);
    // where the winner takes every chip bet this hand (R55): one pot
    const pots = g.one_pot && (s.pots || []).length
      ? [{ amount: s.pot_total, eligible: [] }] : (s.pots || []);
    if (!pots.length && !s.pot_total && (s.result || !s.deal_number)) {
      // no deal yet, or the deal is over and its pot paid out: only what the table carries
    } else if (pots.length) {
      pots.forEach((p, i) => {
        el.append(h("div.pot", { dataset: { pot: i } },
          h("span.pot-label", { text: pots.length === 1 ? "Pot" : i === 0 ? "Main pot" : `Side pot ${i}` }),
          h("span.pot-amount", { text: chips(p.amount) }),
          h("span.pot-eligible", { text: (p.eligible || []).join(", ") })));
      });
    } else {
      el.append(h("div.pot.empty", null, h("span.pot-label", { text: "Pot" }),
        h("span.pot-amount", { text: chips(s.pot_total) })));
    }
    // what the table keeps between deals (the server's titles and words), a pot each
    for (const pot of s.carried_pots || []) {
      el.append(pot.waiting
        ? h("div.pot.carried.waiting", { dataset: { carried: pot.key, waiting: "" } }, h("span.pot-label", { text: pot.words }))
        : h("div.pot.carried", { dataset: { carried: pot.key } }, h("span.pot-label", { text: pot.title }),
          h("span.pot-amount", { text: chips(pot.amount) })));
    }
    if (s.carried && !pots.length) {
      el.append(h("div.pot.odd-chips", null, h("span.pot-label", { text: "Carried" }),
        h("span.pot-amount", { text: chips(s.carried) })));
    }
    el.append(...dealFlags(s));
    return el;
  }

  // ------------------------------------------------------------------ players
  // in the deal is the usual case: only the other ones are said
  const STATUS_WORDS = { in: "", folded: "Folded", all_in: "All in", mucked: "Mucked" };
  const BLIND_WORDS = { small: "SB", big: "BB", blind: "Blind", straddle: "Straddle" };

  function between(s) {
    return !s.step || s.step.kind === "start_deal" || s.step.kind === "game_over";
  }

  /* What a player is doing, in a word or a few; "" where there is nothing to say (between
   * deals, the stack says it all). */
  function statusWord(s, p) {
    if (p.sitting_out) return "Sitting out";
    if (between(s)) return p.stack ? "" : "No chips";
    if (p.status === "out") {
      if (!("dealer" in p)) return p.stack ? "Plays from the next deal" : "No chips";
      return "Not in this deal";
    }
    return STATUS_WORDS[p.status] ?? p.status;
  }

  // One player's row in a players list (tablet, phone, replay): name, dealer button, blind,
  // stack; then what they are doing, their stakes where cards are bought, and the ``extra``
  // bits each page adds.
  function playerItem(s, p, extra = []) {
    const turn = s.step && s.step.player === p.name;
    // between deals nobody is in or out: the last deal's folds are over
    const status = between(s) ? "idle" : p.status;
    const li = h(`li.player.status-${status}${turn ? ".turn" : ""}`, { dataset: { player: p.name } });
    const blind = !between(s) && p.blind; // the server's word for which blind (web/state.py)
    li.append(h("div.player-top", null,
      h("span.player-name", { text: p.name }),
      p.dealer && !between(s) ? h("span.dealer-button", { title: "Dealer", "aria-label": "Dealer", text: "D" }) : null,
      blind ? h("span.blind-marker", { title: blind, text: BLIND_WORDS[blind] || blind }) : null,
      h("span.player-stack", { text: chips(p.stack) })));
    const word = statusWord(s, p);
    const bits = word ? [h("span.player-status", { text: word })] : [];
    const stake = game(s.variant).stake_word;
    if (stake && !between(s) && ["in", "all_in"].includes(p.status)) {
      bits.push(h("span.player-cards", { text: `${p.cards ?? 0} ${stake}${p.cards === 1 ? "" : "s"}` }));
    }
    // how many each player drew at each draw (R85), everyone's to see
    if ((p.draws || []).length && !between(s)) bits.push(h("span.player-draws", { text: drawsWords(p) }));
    const chance = equityBit(s, p);
    if (chance) bits.push(chance);
    li.append(h("div.player-sub", null, bits.concat(extra.filter(Boolean))));
    // cards tabled at an all-in are everyone's to see (R67)
    if (p.tabled && p.hand && !s.result) li.append(h("div.player-hand.tabled", null, cardRow(p.hand, "tiny")));
    return li;
  }

  // ------------------------------------------------------------------ chances (R67)
  function percent(share) {
    const pc = share * 100;
    return pc > 0 && pc < 1 ? "<1%" : pc < 100 && pc > 99 ? ">99%" : `${Math.round(pc)}%`;
  }

  // "± 1.2 points": the margin of a sampled figure, said once for the whole table
  function marginWords(s) {
    if (s.equity_exact) return "exact: every way the cards can come counted";
    const points = (s.equity_margin * 100).toFixed(1);
    return `\u00b1${points} points (95%), ${chips(s.equity_samples)} boards drawn`;
  }

  // A player's chance to win the main pot on their row, once hands are tabled.
  function equityBit(s, p) {
    if (!s.equity || !(p.name in s.equity)) return null;
    return h("span.player-equity", { dataset: { equity: s.equity[p.name] }, text: `${percent(s.equity[p.name])} to win` });
  }

  /* Each player's chance to win the main pot (R67), from the public cards: a bar each, the
   * runs' own figures where the board runs twice, and how exact it is; or the server's
   * sentence of why it cannot be said yet. */
  function equityEl(s) {
    if (s.equity === undefined || s.result) return null;
    const el = h("section.equity#equity-box", { "aria-label": "Chances to win the main pot" },
      h("h2.equity-title", { text: "Chances to win the main pot" }));
    if (!s.equity) {
      el.append(h("p.equity-note", { text: s.equity_note || "" }));
      return el;
    }
    const list = h("ul.equity-list");
    const runs = s.equity_runs || null;
    for (const [name, share] of Object.entries(s.equity)) {
      const bar = h("span.equity-bar", { "aria-hidden": "true" }, h("span.equity-fill"));
      bar.firstChild.style.width = `${Math.max(0, Math.min(100, share * 100))}%`;
      list.append(h("li", { dataset: { player: name } },
        h("span.who", { text: name }), bar, h("span.equity-pc", { text: percent(share) }),
        runs ? h("span.equity-runs", { text: runs.map((r, i) => `run ${i + 1}: ${percent(r[name] ?? 0)}`).join(" \u00b7 ") }) : null));
    }
    el.append(list, h("p.equity-margin", { dataset: { exact: s.equity_exact ? "yes" : "no" }, text: marginWords(s) }));
    return el;
  }

  // What the deal is, beside its pots: a bomb pot (R65), a board run twice (R66).
  function dealFlags(s) {
    if (between(s)) return [];
    const flags = [];
    if (s.bomb_pot) flags.push(h("div.pot.flag", { dataset: { flag: "bomb_pot" } }, h("span.pot-label", { text: `Bomb pot \u00b7 ${chips(s.bomb_pot)} each` })));
    if (s.run_twice) flags.push(h("div.pot.flag", { dataset: { flag: "run_twice" } }, h("span.pot-label", { text: "Run twice" })));
    return flags;
  }

  // Who posted what before the cards (the state's ``posted``): "Bob small blind 1", "Cy big
  // blind 2", "Dee straddle 4"; an ante the same for everyone once: "Everyone antes: 1".
  const POSTED_WORDS = { small: "small blind", big: "big blind", straddle: "straddle", ante: "ante", big_blind_ante: "big-blind ante", bomb_pot: "bomb pot" };
  const EVERYONE_WORDS = { ante: "antes", bomb_pot: "antes for the bomb pot" };
  function postedEl(s) {
    const posted = s.posted || [];
    if (!posted.length) return null;
    const items = [];
    const everyone = {};
    for (const kind of Object.keys(EVERYONE_WORDS)) {
      const these = posted.filter((x) => x.kind === kind);
      if (these.length > 1 && new Set(these.map((x) => x.amount)).size === 1) everyone[kind] = these[0].amount;
    }
    for (const [kind, amount] of Object.entries(everyone)) {
      items.push(h("li.posted-item", { dataset: { kind } }, h("span.who", { text: "Everyone" }), ` ${EVERYONE_WORDS[kind]}: ${chips(amount)}`));
    }
    for (const x of posted) {
      if (x.kind in everyone) continue;
      items.push(h("li.posted-item", { dataset: { kind: x.kind, player: x.player } },
        h("span.who", { text: x.player }), ` ${POSTED_WORDS[x.kind] || x.kind} ${chips(x.amount)}`));
    }
    return h("section.posted#posted", { "aria-label": "Posted before the cards" },
      h("h2.panel-title", { text: "Posted before the cards" }), h("ul.posted-list", null, items));
  }

  // What a player has bet this round (per card where cards are bought), or null.
  function betBit(s, p) {
    if (!p.bet) return null;
    const stake = game(s.variant).stake_word;
    return h("span.player-bet", { text: stake ? `bet ${chips(p.bet)}/${stake}` : `bet ${chips(p.bet)}` });
  }

  // ------------------------------------------------------------------ the result
  /* The result of a deal. ``part``: "summary" (the winning line, the server's sentences and
   * what each player won or lost), "details" (every hand, every line), "all", "brief" (the
   * phone's first screen: the summary without the winning line) or "more" (the phone's
   * second: the winning line, every hand and line). */
  function resultEl(s, part = "all") {
    const res = s.result;
    if (!res) return null;
    if (part === "details" || part === "more") {
      const d = h("section.result-details#result-details", { "aria-label": "Every line and hand" });
      if (part === "more" && s.winning_words) d.append(h("p.winning#winning-lines", { text: s.winning_words }));
      resultHands(s, res, d);
      resultLines(s, res, d);
      return d.childNodes.length ? d : null;
    }
    const el = h("section.result#result", { "aria-label": "Result" });
    el.append(h("h2", { text: res.game_winner ? "Game over" : "Result" }));
    if (part !== "brief" && s.winning_words) el.append(h("p.winning#winning-lines", { text: s.winning_words }));
    // the words are the server's (Game.result_sentences): one a pot, the odd chips, what the
    // table carries; the page composes none of its own
    const sentences = s.result_sentences || (s.result_words ? [s.result_words] : []);
    const list = h("ul.result-sentences");
    for (const words of sentences) list.append(h("li", null, unbroken(words)));
    el.append(list);
    const rows = netRows(res);
    if (rows.length) el.append(netList(rows));
    if (part === "all") {
      resultHands(s, res, el);
      resultLines(s, res, el);
    }
    if (res.standings) {
      const st = h("ol.standings");
      for (const x of res.standings) st.append(h("li", null, h("span.who", { text: x.name }), h("span.takes", { text: ` ${chips(x.chips)} chips` })));
      el.append(st);
    }
    return el;
  }

  // Who won and who lost how much over the deal (``net``: the stack after less before; a
  // payout counts the player's own chips back), winners first; and what each winner took.
  function netRows(res) {
    const pay = res.payouts || {};
    const net = res.net || null;
    const names = net ? Object.keys(net) : Object.keys(pay);
    const rows = names.map((name) => ({ name, net: net ? net[name] : null, takes: pay[name] || 0 }))
      .filter((r) => r.net || r.takes);
    rows.sort((a, b) => (b.net ?? b.takes) - (a.net ?? a.takes));
    return rows;
  }

  function netList(rows) {
    const list = h("ul.payouts", { "aria-label": "Won and lost this deal" });
    for (const r of rows) {
      const li = h("li", { dataset: { player: r.name } }, h("span.who", { text: r.name }));
      if (r.net !== null) {
        li.append(h(`span.net.${r.net > 0 ? "up" : r.net < 0 ? "down" : "even"}`, { text: signed(r.net) }));
      }
      if (r.takes) li.append(h("span.takes", { text: `takes ${chips(r.takes)}` }));
      list.append(li);
    }
    return list;
  }

  function resultHands(s, res, el) {
    if (!res.hands) return;
    const list = h("ul.hands");
    // R66: who took a half on each run (the pots' ``run``), where the board ran twice
    const runWinners = [new Set(), new Set()];
    for (const pot of res.pots || []) if (pot.run && pot.amount) for (const w of pot.winners) runWinners[pot.run - 1].add(w);
    for (const [name, info] of Object.entries(res.hands)) {
      const winner = (res.winners || []).includes(name);
      const lines = (info.lines || []).map((l) => lineName(l, s.variant, false)).join(", ");
      const twice = info.second_run || null;
      if (!twice) {
        list.append(h(`li${winner ? ".win" : ""}`, { dataset: { player: name } },
          h("span.who", { text: name }), cardRow(info.cards, "small"),
          h("span.hand", { text: info.hand + (lines ? ` \u2014 ${lines}` : "") }),
          // R80: the same seven cards' low, where it qualifies
          info.low ? h("span.hand.low", null, cardRow(info.low.cards, "small"), ` ${info.low.hand}`) : null));
        continue;
      }
      // the same hole cards' best hand on each run's board, a row a run
      const run = (n, hand) => h(`div.hand-run${runWinners[n - 1].has(name) ? ".win" : ""}`, { dataset: { run: n } },
        h("span.run-label", { text: `Run ${n}` }), cardRow(hand.cards, "small"), h("span.hand", { text: hand.hand }));
      list.append(h("li.runs-hand", { dataset: { player: name } }, h("span.who", { text: name }), run(1, info), run(2, twice)));
    }
    el.append(list);
  }

  // Every line of a grid whose lines are played, with who backed it (R26).
  function resultLines(s, res, el) {
    if (!res.lines) return;
    const table = h("table.lines");
    table.append(h("thead", null, h("tr", null, h("th", { text: "Line" }), h("th", { text: "Cards" }), h("th", { text: "Hand" }), h("th", { text: "Held by" }))));
    const body = h("tbody");
    for (const [line, info] of Object.entries(res.lines)) {
      const tr = h("tr", { dataset: { line } },
        h("td.line-name", { text: lineName(line, s.variant, true) }),
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

  // "Dee ×2, Cy": who holds the live cards that back a line (R26), a name a card.
  function heldBy(names) {
    const counts = new Map();
    for (const n of names || []) counts.set(n, (counts.get(n) || 0) + 1);
    return [...counts].map(([n, k]) => (k > 1 ? `${n} \u00d7${k}` : n)).join(", ") || "\u2014";
  }

  function logEl(s, count) {
    const lines = (s.log || []).slice(-count).reverse();
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

  // ------------------------------------------------------------------ live updates
  /* Join the table's room; a state is shown only if it is not older. With ``onPatch`` the
   * client joins for ``state_patch`` events after the first whole state. Reconnection tries
   * again within 2 s however long the network was away (Socket.IO's default backs off to 5). */
  function connectLive({ tableId, token, onState, onStatus, onPatch = null, onGone = () => {} }) {
    if (typeof io !== "function") {
      onStatus("offline");
      return null;
    }
    // ?table=ID lets a proxy in front of several processes send the connection to the
    // process that owns the table, as the API and pages are by their path (docs/deployment.md)
    const options = { transports: ["websocket", "polling"], reconnectionDelay: 500, reconnectionDelayMax: 2000 };
    const socket = io(tableId ? { ...options, query: { table: tableId } } : options);
    // ``token`` may be a function: a device signed out (R75) re-joins without its token
    const current = () => (typeof token === "function" ? token() : token);
    const join = () => {
      const t = current();
      const patches = onPatch ? { patches: true } : {};
      socket.emit("join", t ? { table: tableId, token: t } : { table: tableId, ...patches });
    };
    socket.on("connect", () => {
      if (socket.gone) { socket.disconnect(); return; } // a deleted table: nothing to join
      onStatus("live");
      join();
    });
    socket.on("disconnect", () => onStatus("reconnecting"));
    socket.on("connect_error", () => onStatus("reconnecting"));
    socket.io.on("reconnect_attempt", () => onStatus("reconnecting"));
    socket.on("state", (s) => onState(s));
    if (onPatch) socket.on("state_patch", (p) => onPatch(p));
    // a tournament's table: its clock, for the bar (tournament.js)
    socket.on("tournament", (t) => document.dispatchEvent(new CustomEvent("dealer-assist:tournament", { detail: t })));
    // the host deleted the table (or its tournament), now or while this page was away: stop,
    // and say so with the server's words
    const stop = (e) => {
      socket.gone = true;
      socket.disconnect();
      onGone((e && e.error) || "This table is no longer on this server.");
    };
    socket.on("table_deleted", stop);
    socket.on("error", (e) => { if (e && e.no_table) stop(e); });
    socket.rejoin = join;
    return socket;
  }

  /* Follow a table live, and say so when it is not: while the socket is down, the page polls
   * the state every second, greys what it shows (``.live-part``) under "Not live: last update
   * 12 s ago" (#stale), and starts a new connection as soon as the server answers again or
   * the device says its network is back. ``poll()`` fetches the state and resolves true when
   * the server answered. The page's #conn says Live / Not live. */
  function follow({ tableId, token, onState, onPatch = null, poll }) {
    const conn = document.getElementById("conn");
    const banner = document.getElementById("stale");
    let status = "connecting";
    let heard = Date.now();
    let downSince = null;
    let kicked = 0;
    let timer = null;
    const STALE_AFTER_MS = 2500;

    function draw() {
      if (status === "gone") return;
      const live = status === "live";
      if (conn) {
        conn.dataset.status = status;
        conn.querySelector(".conn-text").textContent = live ? "Live" : status === "connecting" ? "Connecting" : "Not live";
      }
      const away = !live && downSince !== null && (status === "offline" || Date.now() - downSince >= STALE_AFTER_MS);
      document.body.classList.toggle("stale", away);
      if (banner) {
        banner.hidden = !away;
        if (away) {
          const secs = Math.max(0, Math.round((Date.now() - heard) / 1000));
          banner.textContent = `Not live: last update ${secs} s ago. Trying again\u2026`;
        }
      }
    }
    function tick() {
      if (status === "live") return;
      poll().then((answered) => {
        if (!answered) return;
        heard = Date.now();
        kick();
      });
      draw();
    }
    function setStatus(next) {
      if (status === "gone") return;
      if (next === "live") {
        downSince = null;
        heard = Date.now();
        clearInterval(timer);
        timer = null;
      } else if (!timer) {
        if (downSince === null) downSince = Date.now();
        timer = setInterval(tick, 1000);
      }
      status = next;
      draw();
    }
    // a new connection at once, rather than at the end of Socket.IO's wait; not more often
    // than every 3 s, so that a slow handshake is never cut short by the next
    function kick() {
      if (!socket || socket.gone || socket.connected || Date.now() - kicked < 3000) return;
      kicked = Date.now();
      socket.disconnect();
      socket.connect();
    }
    // the table is deleted: no more polling or reconnecting, and the sentence in its place
    // (base.css body.gone)
    function gone(sentence) {
      status = "gone";
      clearInterval(timer);
      timer = null;
      document.body.classList.remove("stale");
      document.body.classList.add("gone");
      if (conn) {
        conn.dataset.status = "offline";
        conn.querySelector(".conn-text").textContent = "Deleted";
      }
      if (banner) {
        banner.hidden = false;
        banner.textContent = sentence;
      }
      document.dispatchEvent(new CustomEvent("dealer-assist:gone", { detail: sentence }));
    }
    const socket = connectLive({
      tableId, token, onStatus: setStatus, onGone: gone,
      onState: (s) => { heard = Date.now(); onState(s); },
      onPatch: onPatch && ((p) => { heard = Date.now(); onPatch(p); }),
    });
    window.addEventListener("offline", () => setStatus("offline"));
    window.addEventListener("online", () => {
      kicked = 0;
      if (status !== "live") setStatus("reconnecting");
      kick();
      poll().then((answered) => { if (answered) { heard = Date.now(); draw(); } });
    });
    if (!socket || !socket.connected) setStatus(socket ? "connecting" : "offline");
    return {
      socket,
      heard: () => { heard = Date.now(); draw(); },
      status: () => status,
    };
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

  // The pots, the felt and the result (summary and details) into the page's boxes of those
  // ids: drawn alike on the phone and in the replay.
  // ``brief``: the result's sentences first, its details further down (the phone's first screen).
  function drawBoard(s, { brief = false } = {}) {
    const box = (id) => document.getElementById(id);
    clear(box("pots")).append(potsEl(s));
    if (box("equity")) {
      const chances = equityEl(s);
      clear(box("equity"));
      if (chances) box("equity").append(chances);
    }
    drawFelt(s, box("grid"), box("places"));
    const parts = brief ? ["brief", "more"] : ["summary", "details"];
    for (const [id, part] of [["result-wrap", parts[0]], ["result-details-wrap", parts[1]]]) {
      if (!box(id)) continue;
      const el = resultEl(s, part);
      clear(box(id));
      if (el) box(id).append(el);
    }
  }

  return {
    h, clear, parseCard, parseCards, cardEl, cardRow, cardWords, cardShort, rankText, lineName, lineOfCard,
    cellWords, game, perCard, dealWords, GAMES, RULES_VOCABULARY, between,
    chips, signed, drawFelt, potsEl, resultEl, logEl, statusWord, tokenKey, connectLive, follow,
    equityEl, equityBit, postedEl, drawsWords,
    applyPatch, fetchState, HttpError, playerItem, betBit, drawBoard,
    RANKS, SUITS, SUIT,
  };
})();
