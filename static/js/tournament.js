/* A tournament's clock on a screen (R90): the big-screen clock page (clock.js) and the bar on
 * each of its tables' tablets and phones. The server keeps the clock; its figures
 * (``clock.seconds_left``, ``next_break.in_seconds``) are as of ``clock.at``, the server's
 * time when it read them. A screen counts down from that moment on the server's time, which
 * it learns from each answer to its own requests (the answer with the shortest round trip:
 * off by at most half of it), so a state that was slow to arrive (a room of screens joining
 * at once) is still right; before any answer, from the moment the state arrived. Every
 * ``tournament`` event brings new figures; when a level's time is up the screen asks the
 * server again, so it never guesses the level after. Server text only ever goes through
 * textContent. */
"use strict";

const DA_TOURNAMENT = (() => {
  // ------------------------------------------------------------------ words and figures
  /* "12:34", "1:02:03", "0:09": whole seconds, rounded up (0:00 only once the time is up). */
  function clockText(seconds) {
    const whole = Math.max(0, Math.ceil(seconds - 0.001));
    const hours = Math.floor(whole / 3600);
    const minutes = Math.floor((whole % 3600) / 60);
    const secs = String(whole % 60).padStart(2, "0");
    return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
  }

  function number(n) {
    return Number(n || 0).toLocaleString("en-US");
  }

  /* "100 / 200" */
  function blindsText(stage) {
    return `${number(stage.small_blind)} / ${number(stage.big_blind)}`;
  }

  /* "ante 25", "big-blind ante 200" or "" */
  function anteText(stage) {
    if (stage.ante) return `ante ${number(stage.ante)}`;
    if (stage.big_blind_ante) return `big-blind ante ${number(stage.big_blind_ante)}`;
    return "";
  }

  function isBreak(stage) {
    return stage && stage.break !== undefined;
  }

  /* "Level 4" or "Break" */
  function stageTitle(clock) {
    return isBreak(clock.stage) ? "Break" : `Level ${clock.number}`;
  }

  /* What the next level posts: "200 / 400 · ante 50". */
  function levelText(level) {
    return [blindsText(level), anteText(level)].filter(Boolean).join(" \u00b7 ");
  }

  // ------------------------------------------------------------------ the server's time
  let offset = null; // the server's clock less this device's, in ms
  let best = { trip: Infinity, at: 0 };
  function wall(now) {
    return performance.timeOrigin + now;
  }
  /* An answer read at the server's ``at`` (seconds) to a request sent at ``sent`` and
   * answered at ``back`` (performance.now()): kept if its round trip is the shortest yet,
   * an old one's counted 1 ms longer for each second since (the two clocks drift apart). */
  function noteServerTime(at, sent, back) {
    const trip = back - sent;
    if (typeof at !== "number" || trip > best.trip + (back - best.at) / 1000) return;
    best = { trip, at: back };
    offset = at * 1000 - wall((sent + back) / 2);
  }

  // ------------------------------------------------------------------ a state as seen here
  /* ``state`` as received at ``at`` (performance.now()): what it says now. */
  function seen(state, at = performance.now()) {
    return { state, at };
  }

  function elapsed(view, now) {
    const c = view.state.clock;
    if (!c.running) return 0;
    const since = offset !== null && typeof c.at === "number"
      ? (wall(now) + offset) / 1000 - c.at : (now - view.at) / 1000;
    return Math.max(0, since);
  }

  /* Seconds left in the level now. */
  function left(view, now = performance.now()) {
    return Math.max(0, view.state.clock.seconds_left - elapsed(view, now));
  }

  /* Seconds to the next break now, or null when there is none. */
  function breakIn(view, now = performance.now()) {
    const next = view.state.clock.next_break;
    return next ? Math.max(0, next.in_seconds - elapsed(view, now)) : null;
  }

  async function fetchTournament(id) {
    const sent = performance.now();
    const r = await fetch(`/api/tournaments/${encodeURIComponent(id)}`, { cache: "no-store" });
    const back = performance.now();
    if (!r.ok) {
      const data = await r.json().catch(() => ({}));
      const err = new Error(data.error || `The server answered ${r.status}.`);
      err.status = r.status; // a 404: the tournament is gone (deleted), not a network's hiccup
      throw err;
    }
    const state = await r.json();
    if (state && state.clock) noteServerTime(state.clock.at, sent, back);
    return state;
  }

  /* Follow tournament ``id``: ``take(state)`` keeps each state the server sends; ``draw(view,
   * now)`` runs at each new state and four times a second; when the level's time is up the
   * server is asked for the level after (once per state: the last level stays at 0:00).
   * ``stop(sentence)`` (the host deleted it: its event, or a 404 from the server) ends all
   * of it and hands the sentence to ``onGone``, once. */
  function follower(id, draw, onGone = () => {}) {
    let view = null;
    let asked = null;
    let over = false;
    function take(state) {
      if (over || !state || !state.clock || (id && state.id !== id)) return;
      // an answer that left the server before the event on screen came is older: dropped
      if (view && state.clock.at < view.state.clock.at) return;
      view = seen(state);
      asked = null;
      draw(view, view.at);
    }
    function resync() {
      if (over) return Promise.resolve();
      return fetchTournament(id).then(take, (err) => {
        asked = null;
        if (err && err.status === 404) stop(err.message);
      });
    }
    function tick() {
      if (over || !view) return;
      const now = performance.now();
      draw(view, now);
      const c = view.state.clock;
      if (c.running && c.seconds_left > 0 && left(view, now) <= 0 && asked !== view) {
        asked = view;
        // a moment after the turn, spread so that a room of screens does not ask at once
        setTimeout(resync, 150 + Math.random() * 450);
      }
    }
    const ticker = setInterval(tick, 250);
    // now and then, the server's time again (and its figures): two clocks drift apart
    const syncing = setInterval(() => resync(), 120000 + Math.random() * 30000);
    function stop(sentence) {
      if (over) return;
      over = true;
      clearInterval(ticker);
      clearInterval(syncing);
      onGone(sentence || "This tournament is no longer on this server.");
    }
    return { take, resync, stop, view: () => view };
  }

  // ------------------------------------------------------------------ the tables' bar
  /* The bar on a tournament's table pages (#tournament-bar): the level, its blinds, the time
   * left, the next level and the next break, from the ``tournament`` events the table's
   * socket relays (common.js) and the server's answer at each level's end. */
  function bar() {
    const box = document.getElementById("tournament-bar");
    const id = document.body.dataset.tournamentId;
    if (!box || !id) return;
    const parts = {};
    for (const name of ["level", "blinds", "time", "next", "brk"]) {
      parts[name] = box.querySelector(`[data-part="${name}"]`);
    }
    function draw(view, now) {
      const c = view.state.clock;
      box.hidden = false;
      box.classList.toggle("paused", !c.running);
      box.classList.toggle("on-break", isBreak(c.stage));
      parts.level.textContent = stageTitle(c);
      parts.blinds.textContent = isBreak(c.stage) ? "no deals" : levelText(c.stage);
      parts.time.textContent = view.state.finished ? "Over"
        : c.running ? clockText(left(view, now)) : `${clockText(left(view, now))} paused`;
      const next = c.next_level;
      parts.next.textContent = next ? `Next ${levelText(next)}` : "Last level";
      const b = breakIn(view, now);
      parts.brk.textContent = b === null ? "" : `Break in ${clockText(b)}`;
      parts.brk.hidden = b === null || isBreak(c.stage);
    }
    const follow = follower(id, draw, () => { box.hidden = true; });
    document.addEventListener("dealer-assist:tournament", (ev) => follow.take(ev.detail));
    document.addEventListener("dealer-assist:gone", () => follow.stop()); // the table deleted
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") follow.resync();
    });
    follow.resync();
  }

  document.addEventListener("DOMContentLoaded", bar);
  return { clockText, blindsText, anteText, levelText, stageTitle, isBreak, number, seen, left,
    breakIn, follower, fetchTournament };
})();
