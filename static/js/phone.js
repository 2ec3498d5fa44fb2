/* The players' page: read-only, live, for a phone in a dim room. */
"use strict";

(() => {
  const { h, clear } = DA;
  const tableId = document.body.dataset.tableId;
  // the game's metadata, from the server; the game may change between deals (R71)
  const kingsOf = (s) => DA.game(s.variant).stakes_per_card;
  const $ = (id) => document.getElementById(id);
  let state = null;

  function playersEl(s) {
    const list = clear($("players"));
    for (const p of s.players || []) list.append(DA.playerItem(s, p, kingsOf(s), [DA.betBit(p, kingsOf(s))]));
  }

  function kingsHandEl(s) {
    DA.fillKingsHand($("kings-hand"), s, kingsOf(s));
  }

  function render() {
    const s = state;
    // the dealer's "tap Start deal" means nothing to a player
    $("instruction").textContent = s.step.kind === "start_deal"
      ? (s.result ? "The deal is over. The next one starts soon." : "Waiting for the dealer to start the first deal.")
      : s.step.instruction;
    $("variant-name").textContent = s.variant_name; // the game may change between deals (R71)
    $("deal-number").textContent = !s.deal_number ? "" : `· ${DA.dealWords(s).toLowerCase()}`;
    const turn = $("turn");
    turn.hidden = !s.step.player;
    turn.textContent = s.step.player ? `${s.step.player}'s turn` : "";
    $("seq").textContent = `#${s.seq}`;
    DA.drawBoard(s);
    kingsHandEl(s);
    playersEl(s);
    clear($("log-wrap")).append(DA.logEl(s, 8));
  }

  // After a reconnect the first state is the server's word, even at a lower seq: a server
  // restored after a power cut may have lost a commit this phone saw (docs/reliability.md).
  let resync = false;

  function show(s) {
    if (!s || typeof s.seq !== "number") return;
    // otherwise never step back to an older state (an HTTP answer racing the socket)
    if (state && s.seq < state.seq && !resync) return;
    resync = false;
    const first = !state;
    state = s;
    render();
    // bench/bench_phone_page.py reads this: navigation start to the first state on screen
    if (first && performance.mark) performance.mark("da:first-state");
  }

  function setConn(status) {
    if (status === "live" && state) resync = true;
    const el = $("conn");
    el.dataset.status = status;
    el.querySelector(".conn-text").textContent = status;
  }

  async function refetch() {
    try { show(await DA.fetchState(tableId, null)); } catch (e) { setConn("reconnecting"); }
  }

  const socket = DA.connectLive({ tableId, token: null, onState: show, onStatus: setConn });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    refetch();
    if (socket && socket.connected) socket.rejoin();
    else if (socket) socket.connect();
  });
  window.addEventListener("online", refetch);
  refetch();
})();
