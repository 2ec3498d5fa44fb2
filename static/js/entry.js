/* The dealer's card entry (tablet.js): the felt itself is the entry pad. The places whose
 * faces the step asks for (the cells turned now, at a showdown every card still unknown: the
 * layout's, a game's own places, each player's hand) are buttons on the felt, framed; the next
 * one to fill is ringed. A tap on the picker puts a card there and rings the next unknown place,
 * so a deal costs one tap a card plus one to record. A tap on a place rings it (again on a
 * filled one: empties it). What is entered is a draft kept on this device, by the deal and the
 * step: a refused record, an undo back to the step and a reload all find it again. */
"use strict";

(() => {
  const { h } = DA;
  const tableId = document.body.dataset.tableId;

  // ------------------------------------------------------------------ drafts
  const DRAFT_KEY = `dealer-assist:draft:${tableId}`;
  let drafts = null;
  function loadDrafts(dealNumber) {
    try {
      const d = JSON.parse(localStorage.getItem(DRAFT_KEY) || "null");
      if (d && d.deal === dealNumber && d.steps) return d;
    } catch (e) { /* no drafts */ }
    return { deal: dealNumber, steps: {} };
  }
  function saveDraft(e) {
    if (!e || !drafts) return;
    drafts.steps[e.key] = { values: { ...e.values }, mucked: { ...e.mucked } };
    try { localStorage.setItem(DRAFT_KEY, JSON.stringify(drafts)); } catch (err) { /* kept in memory */ }
  }

  // "show": the dealer is entering the hands tabled at an all-in (R67) instead of the cards
  // the reveal turns; set by tablet.js, kept while the step lasts
  let mode = null;

  function stepKey(s) {
    const step = s.step;
    // each street of up cards (R81) is a step of its own: the up cards dealt so far say which
    const street = (s.players || []).map((p) => (p.up || []).length).join("");
    return [s.variant, s.deal_number, step.kind, step.player || "", (step.cells || []).join(","),
      mode || "", (step.players || []).join(","), street].join(":");
  }

  // The board's places turned but never entered (the state says "up"): their faces may come
  // with the hands tabled.
  function turnedUnknown(s) {
    const grid = s.grid || {};
    const cells = [...DA.game(s.variant).layout.cells, ...(grid.second_run || [])];
    return [...new Set(cells)].filter((c) => (grid.cells || {})[c] === "up");
  }

  // ------------------------------------------------------------------ what a step asks for
  /* The groups of places the step asks for, in order, each {id, title, rankOnly, onLayout,
   * field, player, slots: [{id, label}]}. */
  function groupsFor(s) {
    const step = s.step;
    const g = DA.game(s.variant);
    const groups = [];
    const cells = (id, title, list) => groups.push({
      id, title, onLayout: true, slots: list.map((c) => ({ id: c, label: DA.cellWords(c, s.variant) })),
    });
    const hand = (id, title, count, extra) => {
      const slots = [];
      for (let i = 1; i <= count; i++) slots.push({ id: `${id}:${i}`, label: count > 1 ? `${title}, card ${i}` : title });
      groups.push({ id, title, slots, ...extra });
    };
    if (step.kind === "reveal" && mode === "show") {
      const up = turnedUnknown(s);
      if (up.length) cells("up", "The board turned", up);
      for (const name of step.players || []) hand(`p:${name}`, `${name}'s hand`, step.hole_cards || 2, { player: name });
    } else if (step.kind === "reveal" && !(step.cells || []).length && (step.players || []).length) {
      // a street's up cards (R81): one place on each row still in, in the players' order
      for (const name of step.players) {
        const id = `up:${name}`;
        groups.push({ id, title: `${name}'s up card`, player: name, upCard: true, onLayout: true,
          slots: [{ id, label: `${name}'s up card` }] });
      }
    } else if (step.kind === "reveal") {
      cells("reveal", "The cards turned", step.cells || []);
    } else if (step.kind === "deal_cards" && step.player) {
      hand("deal", `${step.player}'s cards`, step.count || 1, { rankOnly: true });
    } else if (step.kind === "draw" && step.player) {
      hand("draw", `${step.player}'s card`, 1, {});
    } else if (step.kind === "showdown") {
      if ((step.cells || []).length) cells("cells", g.layout.kind === "board" ? "The board" : "The grid", step.cells);
      for (const place of g.places || []) {
        if (!(s[place.field] && s[place.field].length)) hand(place.id, place.title, place.cards, { field: place.field, gamePlace: true });
      }
      // a hand the step lets be mucked (R6) gets a Muck tap on its place; where the players'
      // cards are already known (bought cards, R23) the place shows them and only the tap.
      // Where cards are dealt face up, only the down cards are asked for (R81), on each
      // player's row of the felt
      const muckable = new Set(step.muckable || []);
      const rows = g.layout.kind === "up_cards";
      for (const name of step.players || []) hand(`p:${name}`, `${name}'s ${rows ? "down cards" : "hand"}`, step.hole_cards || 2, { player: name, onLayout: rows, muckable: muckable.has(name) });
      for (const name of muckable) {
        if ((step.players || []).includes(name)) continue;
        const p = (s.players || []).find((q) => q.name === name) || {};
        groups.push({ id: `m:${name}`, title: `${name}'s cards`, slots: [], player: name, muckable: true, known: p.live_cards || [] });
      }
    }
    return groups;
  }

  let entry = null;

  /* The entry for the state's step (the same one while the step lasts). */
  function entryFor(s) {
    const key = stepKey(s);
    if (entry && entry.key === key) return entry;
    const groups = groupsFor(s);
    const order = [];
    const slots = {};
    for (const grp of groups) {
      for (const slot of grp.slots) {
        order.push(slot.id);
        slots[slot.id] = { ...slot, group: grp.id };
      }
    }
    if (!drafts || drafts.deal !== s.deal_number) drafts = loadDrafts(s.deal_number);
    const draft = drafts.steps[key] || { values: {} };
    const values = {};
    for (const id of order) if (draft.values[id]) values[id] = draft.values[id];
    const mucked = {};
    for (const grp of groups) if (grp.muckable && (draft.mucked || {})[grp.player]) mucked[grp.player] = true;
    entry = { key, groups, order, slots, values, mucked, active: null, typed: {}, bad: "" };
    entry.active = nextEmpty(entry, 0);
    return entry;
  }

  function nextEmpty(e, from) {
    const n = e.order.length;
    for (let i = 0; i < n; i++) {
      const id = e.order[(from + i) % n];
      if (!e.values[id] && !isMucked(e, id)) return id;
    }
    return null;
  }

  // a place of a hand marked mucked: nothing to enter there
  function isMucked(e, id) {
    const grp = groupOf(e, id);
    return !!(grp && grp.player && e.mucked[grp.player]);
  }

  // the places still asked for: every one but those of the hands mucked
  function asked(e) {
    return e.order.filter((id) => !isMucked(e, id));
  }

  function groupOf(e, id) {
    return e.groups.find((g) => g.id === (e.slots[id] || {}).group);
  }

  function valuesOf(e, groupId) {
    return e.groups.find((g) => g.id === groupId).slots.map((x) => e.values[x.id] || null);
  }

  /* Every full card known at the table or entered, with where: "A♥ is entered twice: ...". */
  function usedCards(s, e, except = null) {
    const where = new Map();
    const grid = (s.grid && s.grid.cells) || {};
    for (const [c, v] of Object.entries(grid)) if (v && v !== "up") where.set(v, DA.cellWords(c, s.variant));
    for (const place of DA.game(s.variant).places || []) {
      for (const v of s[place.field] || []) where.set(v, place.title);
    }
    for (const p of s.players || []) for (const v of p.hand || []) if (v.length === 2) where.set(v, `${p.name}'s hand`);
    for (const p of s.players || []) for (const v of p.up || []) where.set(v, `${p.name}'s up cards`);
    for (const [id, v] of Object.entries(e.values)) if (id !== except && v && v.length === 2) where.set(v, e.slots[id].label);
    return where;
  }

  // a rank alone (R23) counts once in its rank
  function rankCounts(s, e) {
    const count = {};
    for (const c of usedCards(s, e).keys()) count[c[0]] = (count[c[0]] || 0) + 1;
    for (const p of s.players || []) for (const c of p.hand || []) if (c.length === 1) count[c] = (count[c] || 0) + 1;
    for (const v of Object.values(e.values)) if (v && v.length === 1) count[v] = (count[v] || 0) + 1;
    return count;
  }

  // ------------------------------------------------------------------ taps
  let redraw = () => {};

  /* Muck (R6): the hand is given up unseen; its places empty and are passed over. Again:
   * the hand is asked for again. */
  function toggleMuck(name) {
    const e = entry;
    if (!e) return;
    const grp = e.groups.find((g) => g.muckable && g.player === name);
    if (!grp) return;
    if (e.mucked[name]) delete e.mucked[name];
    else {
      e.mucked[name] = true;
      for (const slot of grp.slots) delete e.values[slot.id];
      delete e.typed[grp.id];
    }
    if (!e.active || isMucked(e, e.active)) e.active = nextEmpty(e, 0);
    e.bad = "";
    saveDraft(e);
    redraw();
  }

  function tapPlace(id) {
    const e = entry;
    if (!e || !e.slots[id]) return;
    if (e.active === id && e.values[id]) delete e.values[id];
    e.active = id;
    e.changing = !!e.values[id]; // a filled place ringed to change it
    e.bad = "";
    redraw();
  }

  function putCard(s, card) {
    const e = entry;
    if (!e) return;
    if (!e.active) e.active = nextEmpty(e, 0);
    if (!e.active) return;
    const clash = card.length === 2 ? usedCards(s, e, e.active).get(card) : null;
    if (clash) {
      e.bad = `${DA.cardShort(card)} is entered twice: ${clash} and ${e.slots[e.active].label}. Pick another card.`;
      redraw();
      return;
    }
    e.values[e.active] = card;
    delete e.typed[e.slots[e.active].group]; // the picker wins over what was typed
    e.bad = "";
    e.changing = false;
    const next = nextEmpty(e, e.order.indexOf(e.active) + 1);
    if (next) e.active = next;
    redraw();
  }

  /* What is typed fills the ringed place's group, in order; a card used elsewhere is refused
   * as it is typed, and its place stays empty. */
  function typeCards(s, groupId, text) {
    const e = entry;
    const grp = e.groups.find((g) => g.id === groupId);
    const { cards, bad } = DA.parseCards(text, { rankOnly: !!grp.rankOnly });
    for (const slot of grp.slots) delete e.values[slot.id];
    const refused = [];
    grp.slots.forEach((slot, i) => {
      const card = cards[i];
      if (!card) return;
      const clash = card.length === 2 ? usedCards(s, e, slot.id).get(card) : null;
      if (clash) refused.push(`${DA.cardShort(card)} is entered twice: ${clash} and ${slot.label}.`);
      else e.values[slot.id] = card;
    });
    e.typed[groupId] = text;
    const words = [];
    if (bad.length) words.push(`Not a card: ${bad.join(" ")}.`);
    words.push(...refused);
    if (cards.length > grp.slots.length) words.push(`Only ${grp.slots.length} card${grp.slots.length > 1 ? "s" : ""} here; the rest is left out.`);
    e.bad = words.join(" ");
    const empty = grp.slots.find((x) => !e.values[x.id]);
    e.active = empty ? empty.id : grp.slots[grp.slots.length - 1].id;
  }

  // ------------------------------------------------------------------ drawing
  /* What drawFelt needs to make the places being entered buttons. */
  function feltEntry(s) {
    const e = entryFor(s);
    if (!e.order.length) return null;
    const labels = {};
    for (const id of e.order) labels[id] = e.slots[id].label;
    const hands = e.groups.filter((g) => !g.onLayout && !g.gamePlace)
      .map((g) => ({ id: g.id, title: g.title, slots: g.slots.map((x) => x.id), known: g.known || [],
        muck: g.muckable ? { name: g.player, mucked: !!e.mucked[g.player] } : null }));
    return { values: e.values, active: e.active, open: new Set(asked(e)), labels, hands, onTap: tapPlace, onMuck: toggleMuck };
  }

  /* After drawFelt: each open place says its group and its place in the order (the tests and
   * bench/bench_taps.py read them). */
  function markFelt(root) {
    const e = entry;
    if (!e) return;
    for (const el of root.querySelectorAll("[data-slot]")) {
      const slot = e.slots[el.dataset.slot];
      if (!slot || !el.matches("button")) continue;
      el.dataset.group = slot.group;
      el.dataset.order = String(e.order.indexOf(el.dataset.slot));
    }
  }

  function pickerEl(s, { rankOnly = false } = {}) {
    const e = entry;
    const used = e ? usedCards(s, e) : new Map();
    const count = e ? rankCounts(s, e) : {};
    const el = h("div.picker", { role: "group", "aria-label": "Card picker" });
    // the game's own deck (R87's 36 cards), as its metadata says
    const deckRanks = DA.game(s.variant).deck_ranks;
    const ranksOffered = deckRanks ? DA.RANKS.filter((r) => deckRanks.includes(r)) : DA.RANKS;
    el.style.setProperty("--ranks", String(ranksOffered.length)); // a column a rank
    if (rankOnly) {
      const ranks = h("div.rank-row");
      for (const r of ranksOffered) {
        ranks.append(h("button.pick.rank-only", { type: "button", dataset: { rank: r }, disabled: (count[r] || 0) >= 4,
          "aria-label": `Rank ${DA.rankText(r)}`, onclick: () => putCard(s, r) }, DA.rankText(r)));
      }
      el.append(h("div.picker-label", { text: "Rank only (fastest)" }), ranks, h("div.picker-label", { text: "Or the exact card" }));
    }
    for (const suit of DA.SUITS) {
      const row = h(`div.suit-row.${suit === "h" || suit === "d" ? "red" : "black"}`);
      for (const r of ranksOffered) {
        const card = r + suit;
        row.append(h("button.pick", { type: "button", dataset: { card }, disabled: used.has(card) || (count[r] || 0) >= 4,
          "aria-label": DA.cardWords(card), onclick: () => putCard(s, card) },
        h("span.rank", { text: DA.rankText(r) }), h("span.suit", { text: DA.SUIT[suit] })));
      }
      el.append(row);
    }
    return el;
  }

  /* The panel under the record button(s): where the next card goes, the picker, a box to type
   * the ringed place's group instead, and what was refused. */
  function panelEl(s, { onEnter, rankOnly = false } = {}) {
    const e = entryFor(s);
    const wrap = h("div.entry");
    // where the next card picked goes (the record button above counts what is entered)
    const all = asked(e).every((id) => e.values[id]);
    const here = e.active ? e.slots[e.active].label : null;
    wrap.append(h("p.entry-hint#entry-hint", null,
      all && !e.changing ? "Every card is entered."
        : e.values[e.active] ? ["Tap a card to change ", h("span.entry-next", { text: here })]
          : ["Next: ", h("span.entry-next", { text: here })]));
    wrap.append(pickerEl(s, { rankOnly }));
    const grp = e.active ? groupOf(e, e.active) : e.groups[0];
    if (grp) {
      const input = h("input.card-text#card-text", {
        type: "text", inputmode: "text", autocomplete: "off", autocapitalize: "off", spellcheck: "false",
        placeholder: `${grp.title}: ${grp.rankOnly ? "A 7 K (or 7h Kd)" : "As Kd 10h"}`,
        "aria-label": `Type ${grp.title}`, dataset: { group: grp.id },
      });
      input.value = e.typed[grp.id] ?? valuesOf(e, grp.id).filter(Boolean).join(" ");
      input.addEventListener("input", () => {
        typeCards(s, grp.id, input.value);
        const pos = input.selectionStart;
        redraw();
        const again = document.getElementById("card-text");
        if (again) {
          again.focus();
          if (pos !== null && pos !== undefined) again.setSelectionRange(pos, pos);
        }
      });
      input.addEventListener("keydown", (ev) => { if (ev.key === "Enter" && onEnter) { ev.preventDefault(); onEnter(); } });
      wrap.append(h("label.entry-type", null, h("span.entry-type-label", { text: "Or type" }), input));
    }
    wrap.append(h("p.entry-bad#entry-bad", { role: "alert", text: e.bad || "" }));
    return wrap;
  }

  /* The step's record, from what was entered; a sentence instead where it cannot go yet. */
  function recordBody(s) {
    const e = entryFor(s);
    const step = s.step;
    const g = DA.game(s.variant);
    if (step.kind === "reveal" && mode === "show") return showBody(e);
    if (step.kind === "reveal") {
      const cards = {};
      for (const grp of e.groups) {
        const value = e.values[grp.slots[0].id];
        if (grp.upCard) { if (value) cards[grp.player] = value; continue; } // by player (R81)
        for (const slot of grp.slots) if (e.values[slot.id]) cards[slot.id] = e.values[slot.id];
      }
      return Object.keys(cards).length ? { type: "reveal", cards } : { type: "reveal" };
    }
    if (step.kind === "deal_cards") {
      const cards = valuesOf(e, "deal");
      if (cards.some((c) => !c)) return `Enter all ${cards.length} of ${step.player}'s cards first.`;
      return { type: "deal_cards", player: step.player, cards };
    }
    if (step.kind === "draw") {
      const card = valuesOf(e, "draw")[0];
      if (!card) return `Enter the card ${step.player} drew, or let the app draw.`;
      return { type: "draw", player: step.player, card };
    }
    const body = { type: "showdown" };
    const muck = e.groups.filter((grp) => grp.muckable && e.mucked[grp.player]).map((grp) => grp.player);
    if (muck.length) body.muck = muck;
    for (const grp of e.groups) {
      if (grp.player && e.mucked[grp.player]) continue;
      const values = valuesOf(e, grp.id);
      if (grp.id === "cells" && g.layout.kind === "board") {
        if (values.some((c) => !c)) return "Enter every board card not entered yet.";
        body.board = values;
      } else if (grp.id === "cells") {
        body.cells = {};
        grp.slots.forEach((slot, i) => { if (values[i]) body.cells[slot.id] = values[i]; });
      } else if (grp.field) {
        body[grp.field] = values.filter(Boolean);
      } else if (grp.player && grp.slots.length) {
        body.hands = body.hands || {};
        body.hands[grp.player] = values.filter(Boolean);
      }
    }
    return body;
  }

  /* R67: the hands entered in full (a hand half entered is a sentence), and the board's
   * faces entered with them. */
  function showBody(e) {
    const body = { type: "show", hands: {} };
    for (const grp of e.groups) {
      const values = valuesOf(e, grp.id);
      if (grp.id === "up") {
        const cells = {};
        grp.slots.forEach((slot, i) => { if (values[i]) cells[slot.id] = values[i]; });
        if (Object.keys(cells).length) body.cells = cells;
      } else if (grp.player && values.some(Boolean)) {
        if (values.some((c) => !c)) return `Enter all ${values.length} of ${grp.player}'s cards, or none.`;
        body.hands[grp.player] = values;
      }
    }
    if (!Object.keys(body.hands).length) return "Enter the cards of a hand that is tabled.";
    return body;
  }

  function entered(s) {
    const e = entryFor(s);
    return asked(e).filter((id) => e.values[id]).length;
  }

  DA.entry = {
    /* Called by tablet.js before each render: the draft kept, the redraw to call on a tap. */
    begin(s, render) {
      redraw = render;
      const e = entryFor(s);
      saveDraft(e);
      return e;
    },
    feltEntry, markFelt, panelEl, recordBody, entered,
    size: (s) => asked(entryFor(s)).length,
    // R67: enter the hands tabled (``"show"``) or the cards turned (null)
    setMode(next) { mode = next; },
    mode: () => mode,
  };
})();
