/* The dealer's between-deal screen (RULES.md R70-R74): the next deal (the same game or
 * another, with the house rules each game reads), rebuys, corrections, seating a player and
 * where, cash-outs, sitting out and back in, and Undo. tablet.js shows it in its actions
 * panel whenever no deal is in play: DA.betweenDeals(state, {act}) builds it.
 * Server text only ever goes through textContent (DA.h's text). */
"use strict";

(() => {
  const { h } = DA;
  // what the dealer has open, kept across the re-renders every state brings; ``straddle`` and
  // ``bombPot``: the next deal's own options as the dealer set them (null: as offered)
  const open = { game: null, panel: null, player: null, straddle: null, bombPot: null };

  function numberBox(id, value, label) {
    return h("label.bd-field", null, h("span.bd-label", { text: label }),
      h("input.bd-input", { id, type: "number", inputmode: "numeric", min: "1", step: "1", value: String(value ?? "") }));
  }

  function wholeNumber(id) {
    const el = document.getElementById(id);
    const n = el ? Number(el.value) : NaN;
    return Number.isInteger(n) && n > 0 ? n : null;
  }

  /* "Start deal 2", "Start hand 2 of 21", "Start deal 4: <another game>": the game's own word
   * for a deal, and its name where the dealer chose another game. */
  function startWords(s, chosen) {
    const variant = chosen ? chosen.variant : s.variant;
    const g = DA.game(variant);
    // a game of a fixed number of deals counts its own; another game starts again at 1
    const number = g.deals_per_game
      ? (variant === s.variant && s.result && !s.result.game_winner ? (s.deal_number || 0) + 1 : 1)
      : (s.deal_number || 0) + 1;
    const words = `Start ${DA.dealWords({ variant }, number).toLowerCase()}`;
    return chosen && !chosen.current ? `${words}: ${chosen.name}` : words;
  }

  function nextDeal(s, act, toolRow) {
    const games = s.next_games || [];
    const current = games.find((g) => g.current) || games[0];
    // the game the dealer picked stays picked through an undo of a start tapped by mistake
    const chosen = games.find((g) => g.variant === open.game && !g.refusal) || current;
    const el = h("div.bd-next");
    const options = (chosen && !chosen.refusal && chosen.deal_options) || {};
    const start = (extra) => {
      const body = { type: "start_deal", ...extra };
      if (chosen && !chosen.current) body.variant = chosen.variant;
      open.game = chosen ? chosen.variant : null;
      open.straddle = null; // one deal's choice: the next offers the table's rule again
      open.bombPot = null; // and the bomb pot the server offers (the last one's amount)
      act(body);
    };
    // the straddle for this deal, where the dealer changed it from the table's rule (R63)
    const straddle = "straddle" in options && open.straddle !== null && open.straddle !== options.straddle
      ? { straddle: open.straddle } : {};
    el.append(h("button.btn.primary.huge", {
      type: "button", dataset: { action: "start_deal" }, disabled: chosen && chosen.refusal ? true : null,
      onclick: () => start(straddle),
    }, startWords(s, chosen)));
    if (chosen && chosen.refusal) el.append(h("p.bd-refusal", { text: chosen.refusal }));
    const dealOptions = dealOptionsEl(options, start);
    if (dealOptions) el.append(dealOptions);
    el.append(toolRow);
    if (games.length > 1) {
      const list = h("div.bd-games", { role: "radiogroup", "aria-label": "The next deal's game" });
      for (const g of games) {
        const picked = chosen && g.variant === chosen.variant;
        list.append(h("button.btn.bd-game", {
          type: "button", role: "radio", "aria-checked": picked ? "true" : "false",
          class: picked ? "selected" : null, disabled: g.refusal ? true : null,
          dataset: { variant: g.variant },
          onclick: () => { open.game = g.variant; rerender(); },
        }, h("span.bd-game-name", { text: g.name + (g.current ? " (same game)" : "") }),
        h("span.bd-game-rules", { text: g.refusal || g.rules_line || "" })));
      }
      el.append(h("div.panel-title", { text: "Dealer's choice" }), list);
    }
    return el;
  }

  /* The next deal's own options (the game's ``deal_options``): the straddle on or off for this
   * deal (R63), and one tap for a bomb pot of the amount offered, which the dealer may change
   * with − and + first (R65). */
  function dealOptionsEl(options, start) {
    const row = h("div.bd-options", { role: "group", "aria-label": "This deal only" });
    if ("straddle" in options) {
      const on = open.straddle ?? options.straddle;
      row.append(h("button.btn.big.bd-straddle", {
        type: "button", "aria-pressed": String(on), class: on ? "selected" : null, dataset: { do: "straddle" },
        onclick: () => { open.straddle = !on; rerender(); },
      }, `Straddle: ${on ? "on" : "off"}`));
    }
    if ("bomb_pot" in options) {
      const amount = open.bombPot ?? options.bomb_pot;
      const set = (n) => { open.bombPot = Math.max(1, n); rerender(); };
      row.append(h("div.bd-bomb", null,
        h("button.btn.big.go.bd-bomb-start", { type: "button", dataset: { action: "bomb_pot", amount },
          onclick: () => start({ bomb_pot: amount }) }, `Bomb pot: ${DA.chips(amount)} each`),
        h("button.btn.big.bd-step", { type: "button", "aria-label": "Smaller bomb pot", dataset: { step: "minus" },
          disabled: amount <= 1 ? true : null, onclick: () => set(amount - 1) }, "\u2212"),
        h("button.btn.big.bd-step", { type: "button", "aria-label": "Larger bomb pot", dataset: { step: "plus" },
          onclick: () => set(amount + 1) }, "+")));
    }
    return row.childNodes.length ? h("div.bd-this-deal", null, h("div.panel-title", { text: "This deal only" }), row) : null;
  }

  function playerRow(s, p, act, allowed) {
    const away = !!p.sitting_out;
    const row = h("li.bd-player", { dataset: { player: p.name } },
      h("span.bd-name", { text: p.name }),
      h("span.bd-stack", { text: `${p.stack}` }),
      away ? h("span.bd-tag", { text: "sitting out" }) : (p.stack ? null : h("span.bd-tag", { text: "no chips" })));
    const buttons = h("span.bd-buttons");
    if (allowed.includes("rebuy")) {
      buttons.append(h("button.btn.bd-btn", { type: "button", dataset: { do: "rebuy" },
        onclick: () => { open.panel = "rebuy"; open.player = p.name; rerender(); } }, "Rebuy"));
    }
    if (allowed.includes("sit_out")) {
      buttons.append(h("button.btn.bd-btn", { type: "button", dataset: { do: away ? "sit_in" : "sit_out" },
        onclick: () => act({ type: away ? "sit_in" : "sit_out", player: p.name }) }, away ? "Back in" : "Sit out"));
    }
    if (allowed.includes("leave")) {
      buttons.append(h("button.btn.bd-btn.danger", { type: "button", dataset: { do: "leave" },
        onclick: () => { open.panel = "leave"; open.player = p.name; rerender(); } }, "Cash out"));
    }
    row.append(buttons);
    if (open.player === p.name && open.panel === "rebuy") {
      row.append(h("div.bd-form", null, numberBox("bd-rebuy-amount", s.rules.buy_in, `Rebuy for ${p.name}`),
        h("button.btn.go.bd-confirm", { type: "button", dataset: { do: "confirm-rebuy" }, onclick: () => {
          const amount = wholeNumber("bd-rebuy-amount");
          if (!amount) return DA.betweenError("Enter the rebuy in whole chips.");
          closeForms();
          act({ type: "rebuy", player: p.name, amount });
        } }, "Add chips"), cancelButton()));
    }
    if (open.player === p.name && open.panel === "leave") {
      row.append(h("div.bd-form", null,
        h("span.bd-question", { text: `${p.name} cashes out ${p.stack} and leaves the table?` }),
        h("button.btn.danger.bd-confirm", { type: "button", dataset: { do: "confirm-leave" }, onclick: () => {
          closeForms();
          act({ type: "leave", player: p.name });
        } }, "Cash out"), cancelButton()));
    }
    return row;
  }

  function cancelButton() {
    return h("button.btn.bd-cancel", { type: "button", onclick: () => { closeForms(); rerender(); } }, "Cancel");
  }

  function closeForms() {
    open.panel = null;
    open.player = null;
  }

  function options(names, selected) {
    return names.map((n) => h("option", { value: n, selected: n === selected ? true : null, text: n }));
  }

  function seatForm(s, act) {
    const names = s.players.map((p) => p.name);
    return h("div.bd-form.bd-seat", null,
      h("label.bd-field", null, h("span.bd-label", { text: "Name" }),
        h("input.bd-input#bd-seat-name", { type: "text", maxlength: "40", autocomplete: "off" })),
      numberBox("bd-seat-stack", s.rules.buy_in, "Chips"),
      names.length ? h("label.bd-field", null, h("span.bd-label", { text: "Sits after" }),
        h("select.bd-input#bd-seat-after", null, options(names, names[names.length - 1]))) : null,
      h("button.btn.go.bd-confirm", { type: "button", dataset: { do: "confirm-seat" }, onclick: () => {
        const name = document.getElementById("bd-seat-name").value.trim();
        const stack = wholeNumber("bd-seat-stack");
        if (!name) return DA.betweenError("Enter the new player's name.");
        if (!stack) return DA.betweenError("Enter the new player's chips in whole chips.");
        const after = document.getElementById("bd-seat-after");
        closeForms();
        act({ type: "seat", player: name, stack, ...(after ? { after: after.value } : {}) });
      } }, "Seat"), cancelButton());
  }

  function adjustForm(s, act) {
    const names = s.players.map((p) => p.name);
    return h("div.bd-form.bd-adjust", null,
      h("label.bd-field", null, h("span.bd-label", { text: "From" }),
        h("select.bd-input#bd-adjust-from", null, options(names, names[0]))),
      h("label.bd-field", null, h("span.bd-label", { text: "To" }),
        h("select.bd-input#bd-adjust-to", null, options(names, names[1]))),
      numberBox("bd-adjust-amount", "", "Chips"),
      h("label.bd-field.bd-wide", null, h("span.bd-label", { text: "Why (optional)" }),
        h("input.bd-input#bd-adjust-note", { type: "text", maxlength: "200", autocomplete: "off" })),
      h("button.btn.go.bd-confirm", { type: "button", dataset: { do: "confirm-adjust" }, onclick: () => {
        const amount = wholeNumber("bd-adjust-amount");
        if (!amount) return DA.betweenError("Enter the correction in whole chips.");
        const note = document.getElementById("bd-adjust-note").value.trim();
        closeForms();
        act({ type: "adjust", player: document.getElementById("bd-adjust-from").value,
          to: document.getElementById("bd-adjust-to").value, amount, ...(note ? { note } : {}) });
      } }, "Record correction"), cancelButton());
  }

  /* Seat a player, Correction, the players' QR and Undo: the table-wide tools, beside the
   * next deal. */
  function tools(s, act, allowed, showQr) {
    const row = h("div.bd-tools");
    if (allowed.includes("seat")) {
      row.append(h("button.btn.big.bd-tool", { type: "button", dataset: { do: "seat" },
        onclick: () => { open.panel = "seat"; open.player = null; rerender(); } }, "Seat a player"));
    }
    if (allowed.includes("adjust")) {
      row.append(h("button.btn.big.bd-tool", { type: "button", dataset: { do: "adjust" },
        onclick: () => { open.panel = "adjust"; open.player = null; rerender(); } }, "Correction"));
    }
    if (showQr) {
      row.append(h("button.btn.big.bd-tool", { type: "button", dataset: { do: "qr" }, onclick: showQr }, "Players' QR"));
    }
    row.append(h("button.btn.big.bd-tool.bd-undo", { type: "button", dataset: { do: "undo" },
      disabled: s.can_undo ? null : true, onclick: () => act({ type: "undo" }) }, "\u21B6 Undo"));
    return row;
  }

  let rerender = () => {};

  /* The between-deal screen for state ``s``; ``act`` posts an action, ``render`` redraws. */
  DA.betweenDeals = (s, { act, render, showError, showQr = null }) => {
    rerender = render;
    DA.betweenError = showError;
    const typed = {}; // what the dealer has typed survives a redraw
    for (const input of document.querySelectorAll("#between .bd-input")) typed[input.id] = input.value;
    const allowed = s.between_actions || [];
    const el = h("div.between#between");
    el.append(nextDeal(s, act, tools(s, act, allowed, showQr)));
    // a pot another game keeps, waiting through this one (R72): the server's words
    for (const pot of s.carried_pots || []) {
      if (pot.waiting) el.append(h("p.bd-waiting", { dataset: { carried: pot.key }, text: pot.words }));
    }
    if (open.panel === "seat") el.append(seatForm(s, act));
    if (open.panel === "adjust") el.append(adjustForm(s, act));
    const players = h("ul.bd-players");
    for (const p of s.players || []) players.append(playerRow(s, p, act, allowed));
    el.append(h("div.panel-title", { text: "Players" }), players);
    for (const [id, value] of Object.entries(typed)) {
      const input = el.querySelector(`#${id}`);
      if (input) input.value = value;
    }
    return el;
  };
})();
