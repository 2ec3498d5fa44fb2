/* The players' page: read-only, live, for a phone in a dim room (or a bright one: it follows the
 * phone's theme); the player's own once they say who they are ("I am …", kept on this phone,
 * never sent). When it is not live it says so over everything it shows. */
"use strict";

(() => {
  const { h, clear } = DA;
  const tableId = document.body.dataset.tableId;
  const $ = (id) => document.getElementById(id);
  let state = null;

  // ------------------------------------------------------------------ "I am …"
  const ME_KEY = `dealer-assist:me:${tableId}`;
  let me = null;
  try { me = localStorage.getItem(ME_KEY); } catch (e) { me = null; }
  let choosing = false;
  // a name, "" for someone just watching, null before anyone said
  function setMe(name) {
    me = name;
    choosing = false;
    try { localStorage.setItem(ME_KEY, name); } catch (e) { /* kept for this visit only */ }
    render();
  }

  function mine(s) {
    return me ? (s.players || []).find((p) => p.name === me) : null;
  }

  // What a call costs this player now, in a betting round: per card and in all where cards
  // are bought (the round's bet less theirs, on each live card).
  function callCost(s, p) {
    const step = s.step;
    if (step.kind !== "bet" || !step.player || p.status !== "in") return null;
    const theirs = step.player === p.name;
    const per = theirs ? step.to_call : Math.max(0, (step.current_bet || 0) - (p.bet || 0));
    if (!per) return null;
    const stake = DA.game(s.variant).stake_word;
    const count = stake ? (p.cards || 1) : 1;
    if (stake && count > 1) return `${DA.chips(per * count)} to call (${DA.chips(per)} per ${stake} \u00d7 ${count})`;
    return `${DA.chips(per * count)} to call`;
  }

  function pickRow(s, lead) {
    return h("div.me-pick", { role: "group", "aria-label": "Who are you?" },
      lead ? h("p.me-note", { text: lead }) : null,
      h("span.me-pick-label", { text: "I am\u2026" }),
      (s.players || []).map((q) => h("button.btn.small.me-name", { type: "button", dataset: { me: q.name }, onclick: () => setMe(q.name) }, q.name)),
      h("button.btn.small.me-name.watch", { type: "button", dataset: { me: "" }, onclick: () => setMe("") }, "Just watching"));
  }

  function meEl(s) {
    const box = clear($("me"));
    box.classList.remove("turn");
    const p = mine(s);
    if (me === "" && !choosing) {
      box.append(h("div.me-watching", null, h("span.me-note", { text: "Just watching" }),
        h("button.btn.small.me-open", { type: "button", onclick: () => { choosing = true; render(); } }, "I am\u2026")));
      return;
    }
    if (me && !p && !choosing) {
      // a player who left keeps their name here until they choose again, and is told why
      const gone = (s.departed || []).find((d) => d.name === me);
      const why = gone ? `${me} cashed out ${DA.chips(gone.cashed_out)} and left the table.`
        : `${me} is not at this table now.`;
      box.append(h("div.me-gone#me-gone", null, h("p.me-note", { text: why }),
        h("div.me-gone-buttons", null,
          h("button.btn.small", { type: "button", onclick: () => { choosing = true; render(); } }, "I am someone else"),
          h("button.btn.small", { type: "button", onclick: () => setMe("") }, "Just watching"))));
      return;
    }
    if (!p || choosing) {
      box.append(pickRow(s, null));
      return;
    }
    const turn = myTurn(s, p);
    box.classList.toggle("turn", turn);
    const word = DA.statusWord(s, p);
    const bits = word ? [h("span.me-status", { text: word })] : [];
    const stake = DA.game(s.variant).stake_word;
    if (stake && !DA.between(s) && ["in", "all_in"].includes(p.status)) {
      bits.push(h("span.me-cards", { text: `${p.cards ?? 0} live ${stake}${p.cards === 1 ? "" : "s"}` }));
    }
    if (p.bet) bits.push(DA.betBit(s, p));
    const drew = DA.drawsWords(p); // R85: how many they drew at each draw so far
    if (drew && !DA.between(s)) bits.push(h("span.me-draws", { text: drew }));
    const chance = DA.equityBit(s, p); // R67: once the hands are tabled
    if (chance) bits.push(chance);
    const cost = callCost(s, p);
    const sub = [...bits, cost ? h("span.me-call", { text: cost }) : null].filter(Boolean);
    box.append(
      h("div.me-top", null,
        h("span.me-name-label", { text: p.name }),
        turn ? h("span.your-turn#your-turn", { text: "Your turn" }) : null,
        h("span.me-stack", { text: DA.chips(p.stack), "aria-label": `Stack ${p.stack}` }),
        h("button.btn.small.me-change", { type: "button", onclick: () => { choosing = true; render(); } }, "Not me")),
      ...(sub.length ? [h("div.me-sub", null, sub)] : []));
  }

  // "Your turn": a vibration where the phone supports it and a flash, once a turn; only where
  // the player decides (not while the dealer deals them cards)
  const DECIDES = new Set(["bet", "buy", "pay", "draw", "discard"]);
  function myTurn(s, p) {
    return !!p && s.step.player === p.name && DECIDES.has(s.step.kind);
  }
  let lastTurnSeq = null;
  function nudge(s) {
    const p = mine(s);
    if (!myTurn(s, p)) { lastTurnSeq = null; return; }
    if (lastTurnSeq !== null) return;
    lastTurnSeq = s.seq;
    if (navigator.vibrate) { try { navigator.vibrate([120, 60, 120]); } catch (e) { /* not allowed */ } }
    const box = $("me");
    box.classList.remove("flash");
    void box.offsetWidth; // restart the animation
    box.classList.add("flash");
  }

  // ------------------------------------------------------------------ the table
  function playersEl(s) {
    const list = clear($("players"));
    for (const p of s.players || []) {
      const li = DA.playerItem(s, p, [DA.betBit(s, p)]);
      if (p.name === me) li.classList.add("me");
      list.append(li);
    }
  }

  // a game of a fixed number of deals: who leads, after every one
  function standingsEl(s) {
    const box = $("standings-wrap");
    const game = DA.game(s.variant);
    box.hidden = !game.deals_per_game;
    if (!game.deals_per_game) return;
    const list = clear($("standings"));
    const ranked = [...(s.players || [])].sort((a, b) => b.stack - a.stack);
    ranked.forEach((p) => list.append(h("li", { dataset: { player: p.name } },
      h("span.who", { text: p.name }), h("span.takes", { text: DA.chips(p.stack) }))));
  }

  function render() {
    const s = state;
    if (!s) return;
    // the players' words for the step (the server's), not the dealer's instruction
    $("instruction").textContent = s.public_instruction || s.step.instruction;
    if (s.step.why) $("instruction").append(h("span.why", { text: s.step.why }));
    $("variant-name").textContent = s.variant_name; // the game may change between deals (R71)
    $("deal-number").textContent = !s.deal_number ? "" : `\u00b7 ${DA.dealWords(s).toLowerCase()}`;
    const turn = $("turn");
    turn.hidden = !s.step.player || s.step.player === me;
    turn.textContent = s.step.player ? `${s.step.player}'s turn` : "";
    $("seq").textContent = `#${s.seq}`;
    meEl(s);
    DA.drawBoard(s, { brief: true });
    playersEl(s);
    standingsEl(s);
    clear($("log-wrap")).append(DA.logEl(s, 8));
    nudge(s);
  }

  // After a reconnect the first state is the server's word, even at a lower seq: a server
  // restored after a power cut may have lost a commit this phone saw (docs/reliability.md).
  let resync = false;

  // ``fromJoin``: the whole state a (re)join brought; an HTTP answer never steps back, since
  // one sent before the reconnect may land after it
  function show(s, fromJoin = false) {
    if (!s || typeof s.seq !== "number") return;
    // otherwise never step back to an older state (an HTTP answer racing the socket)
    if (state && s.seq < state.seq && !(resync && fromJoin)) return;
    if (fromJoin) resync = false;
    const first = !state;
    state = s;
    render();
    // bench/bench_phone_page.py reads this: navigation start to the first state on screen
    if (first && performance.mark) performance.mark("da:first-state");
  }

  async function refetch() {
    try {
      show(await DA.fetchState(tableId, null));
      return true;
    } catch (e) {
      return e instanceof DA.HttpError;
    }
  }

  // The socket sends only what changed (``state_patch``) after the first whole state. A patch
  // whose base is not the state on screen means a state was missed (or the screen is ahead,
  // from an HTTP answer): join again for the whole state, and apply no patch until it came.
  let awaitingWhole = false;
  function wholeState(s) {
    awaitingWhole = false;
    show(s, true);
  }
  function patch(p) {
    if (!p || typeof p.seq !== "number" || awaitingWhole || resync) return;
    if (state && p.seq <= state.seq) return; // this one (or a newer one) is on screen already
    if (!state || p.base_seq !== state.seq) {
      awaitingWhole = true;
      socket.rejoin();
      // a join refused (too many from this device) sends no state: read it over HTTP then
      setTimeout(() => { if (awaitingWhole) { awaitingWhole = false; refetch(); } }, 5000);
      return;
    }
    show(DA.applyPatch(state, p.ops));
  }

  // while the socket is down the page polls over HTTP and says it is not live (DA.follow)
  const live = DA.follow({ tableId, token: null, onState: wholeState, onPatch: patch, poll: refetch });
  const socket = live.socket;
  if (socket) socket.on("connect", () => { if (state) resync = true; });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    refetch();
    if (socket && socket.connected) socket.rejoin();
    else if (socket) socket.connect();
  });
  refetch();
})();
