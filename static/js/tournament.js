/* A tournament's clock on a screen (R90): the big-screen clock page (clock.js) and the bar on
 * each of its tables' tablets and phones. The server keeps the clock; a screen shows the
 * figures of the last state it received (``clock.seconds_left``, ``next_break.in_seconds``)
 * less the time since it received them, while the clock runs. Every ``tournament`` event
 * brings new figures; when a level's time is up the screen asks the server again, so it never
 * guesses the level after. Server text only ever goes through textContent. */
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

  // ------------------------------------------------------------------ a state as seen here
  /* ``state`` as received at ``at`` (performance.now()): what it says now. */
  function seen(state, at = performance.now()) {
    return { state, at };
  }

  function elapsed(view, now) {
    return view.state.clock.running ? Math.max(0, (now - view.at) / 1000) : 0;
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
    const r = await fetch(`/api/tournaments/${encodeURIComponent(id)}`, { cache: "no-store" });
    if (!r.ok) throw new Error(`The server answered ${r.status}.`);
    return r.json();
  }

  /* Follow tournament ``id``: ``take(state)`` keeps each state the server sends; ``draw(view,
   * now)`` runs at each new state and four times a second; when the level's time is up the
   * server is asked for the level after (once per state: the last level stays at 0:00). */
  function follower(id, draw) {
    let view = null;
    let asked = null;
    function take(state) {
      if (!state || !state.clock || (id && state.id !== id)) return;
      view = seen(state);
      asked = null;
      draw(view, view.at);
    }
    function resync() {
      return fetchTournament(id).then(take, () => { asked = null; });
    }
    function tick() {
      if (!view) return;
      const now = performance.now();
      draw(view, now);
      const c = view.state.clock;
      if (c.running && c.seconds_left > 0 && left(view, now) <= 0 && asked !== view) {
        asked = view;
        // a moment after the turn, spread so that a room of screens does not ask at once
        setTimeout(resync, 150 + Math.random() * 450);
      }
    }
    setInterval(tick, 250);
    return { take, resync, view: () => view };
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
    const follow = follower(id, draw);
    document.addEventListener("dealer-assist:tournament", (ev) => follow.take(ev.detail));
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") follow.resync();
    });
    follow.resync();
  }

  document.addEventListener("DOMContentLoaded", bar);
  return { clockText, blindsText, anteText, levelText, stageTitle, isBreak, number, seen, left,
    breakIn, follower, fetchTournament };
})();
