/* A tournament's big-screen clock (/c/<id>), for a TV across the room: read-only and public.
 * It joins the tournament's room (``join_tournament``) and shows the server's clock, counting
 * down between the ``tournament`` events (tournament.js). While the connection is down it
 * asks over HTTP every 2 s and says it is not live. Sound is off until someone taps it on
 * (browsers play nothing before a tap): then a chime and a spoken line at each new level and
 * one minute before, with the browser's own voice (speechSynthesis: nothing is fetched). */
"use strict";

(() => {
  const T = DA_TOURNAMENT;
  const $ = (id) => document.getElementById(id);
  const id = document.body.dataset.tournamentId;

  // ------------------------------------------------------------------ sound
  let sound = false;
  let audio = null;
  function chime(count) {
    if (!audio) return;
    const start = audio.currentTime + 0.05;
    for (let i = 0; i < count; i += 1) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = i === count - 1 ? 1046 : 784;
      gain.gain.setValueAtTime(0.0001, start + i * 0.32);
      gain.gain.exponentialRampToValueAtTime(0.4, start + i * 0.32 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.32 + 0.28);
      tone.connect(gain).connect(audio.destination);
      tone.start(start + i * 0.32);
      tone.stop(start + i * 0.32 + 0.3);
    }
  }
  function say(line, chimes) {
    document.body.dataset.said = line; // what was announced last (also with the sound off)
    if (!sound) return;
    chime(chimes);
    if (!("speechSynthesis" in window)) return;
    try {
      window.speechSynthesis.cancel();
      const words = new SpeechSynthesisUtterance(line);
      words.lang = "en";
      window.speechSynthesis.speak(words);
    } catch (e) { /* no voice on this device: the chime alone */ }
  }
  function drawSound() {
    const b = $("sound");
    b.textContent = sound ? "Sound on" : "Sound off";
    b.setAttribute("aria-pressed", String(sound));
  }
  $("sound").addEventListener("click", () => {
    sound = !sound;
    if (sound && !audio && (window.AudioContext || window.webkitAudioContext)) {
      try { audio = new (window.AudioContext || window.webkitAudioContext)(); } catch (e) { audio = null; }
    }
    if (audio && audio.state === "suspended") audio.resume();
    drawSound();
    if (sound) say("Sound on.", 1);
  });

  /* "Level 5. Blinds 100, 200. Ante 25." */
  function levelLine(c) {
    const s = c.stage;
    if (T.isBreak(s)) {
      const up = s.color_up ? ` Colour up the ${T.number(s.color_up)} chips.` : "";
      return `Break: ${s.break} minutes.${up}`;
    }
    const ante = T.anteText(s);
    return `Level ${c.number}. Blinds ${T.number(s.small_blind)}, ${T.number(s.big_blind)}.${ante ? ` ${ante[0].toUpperCase()}${ante.slice(1)}.` : ""}`;
  }

  // ------------------------------------------------------------------ drawing
  let shownLevel = null; // the level on screen: a new one is announced
  let lastLeft = null; // seconds left at the last draw: crossing a minute is announced
  function draw(view, now) {
    const s = view.state;
    const c = s.clock;
    const breakNow = T.isBreak(c.stage);
    const left = T.left(view, now);
    document.body.classList.toggle("paused", !c.running);
    document.body.classList.toggle("on-break", breakNow);
    $("stage").textContent = s.finished ? "The tournament is over" : T.stageTitle(c);
    const state = $("state");
    state.hidden = s.finished || c.running;
    state.textContent = c.started ? "Paused" : "Starts when the host starts the clock";
    $("time").textContent = s.finished ? winners(s) : T.clockText(left);
    $("time").classList.toggle("words", !!s.finished);
    $("now-label").textContent = breakNow ? "Play resumes with" : "Blinds";
    const playing = breakNow ? c.next_level : c.stage;
    $("blinds").textContent = playing ? T.blindsText(playing) : "";
    $("ante").textContent = playing ? T.anteText(playing) : "";
    // in a break the next level is the one play resumes with, shown above: its number here
    const next = c.next_level;
    $("next-level").textContent = !next ? "Last level" : breakNow ? `Level ${next.number}` : T.blindsText(next);
    $("next-ante").textContent = !next ? "" : breakNow ? "after the break" : T.anteText(next);
    const b = T.breakIn(view, now);
    $("next-break").textContent = b === null ? "None" : `in ${T.clockText(b)}`;
    $("break-at").textContent = b === null ? "" : `${c.next_break.break} minutes`;
    $("players").textContent = `${T.number(s.players_left)} of ${T.number(s.entries)}`;
    $("average").textContent = T.number(s.average_stack);
    $("pool").textContent = T.number(s.prize_pool);
    $("notes").textContent = notes(s, c);

    const key = s.finished ? "over" : `${c.level}`;
    if (shownLevel !== null && key !== shownLevel && !s.finished) say(levelLine(c), 3);
    if (shownLevel === key && c.running && lastLeft !== null && lastLeft > 60 && left <= 60 && left > 0) {
      say(breakNow ? "One minute left in the break." : `One minute left in level ${c.number}.`, 1);
    }
    shownLevel = key;
    lastLeft = left;
  }

  function winners(s) {
    const first = (s.places || [])[0];
    return first ? first.players.map((p) => p.name).join(" & ") : "";
  }

  /* What the room should know besides the clock: a colour-up, rebuys or late entries open,
   * the moves the tables must make. */
  function notes(s, c) {
    const bits = [];
    if (T.isBreak(c.stage) && c.stage.color_up) bits.push(`Colour up the ${T.number(c.stage.color_up)} chips.`);
    if (!s.finished && s.rebuys_open) bits.push("Rebuys open.");
    if (!s.finished && s.late_registration_open) bits.push("Late entries open.");
    for (const m of s.moves || []) bits.push(`${m.player}: table ${m.from_table + 1} to table ${m.to_table + 1}.`);
    return bits.join("  ");
  }

  // ------------------------------------------------------------------ live
  const conn = $("conn");
  const banner = $("stale");
  let poller = null;
  let socket = null;
  /* The host deleted the tournament: no clock left to count, only the server's sentence. */
  function gone(sentence) {
    if (poller) { clearInterval(poller); poller = null; }
    if (socket) socket.disconnect(); // by the page: Socket.IO does not reconnect it
    document.body.classList.add("gone");
    document.body.classList.remove("stale");
    $("clock").hidden = true;
    conn.dataset.status = "offline";
    conn.querySelector(".conn-text").textContent = "Deleted";
    banner.hidden = false;
    banner.textContent = sentence;
  }
  const follow = T.follower(id, draw, gone);
  function status(next) {
    if (document.body.classList.contains("gone")) return;
    conn.dataset.status = next;
    conn.querySelector(".conn-text").textContent = next === "live" ? "Live" : next === "connecting" ? "Connecting" : "Not live";
    const away = next !== "live" && next !== "connecting";
    document.body.classList.toggle("stale", away);
    banner.hidden = !away;
    banner.textContent = away ? "Not live: trying again\u2026 The time shown is counted here." : "";
    if (away && !poller) poller = setInterval(follow.resync, 2000);
    if (!away && poller) { clearInterval(poller); poller = null; }
  }
  if (typeof io === "function") {
    socket = io({ transports: ["websocket", "polling"], reconnectionDelay: 500, reconnectionDelayMax: 2000 });
    socket.on("connect", () => { status("live"); socket.emit("join_tournament", { tournament: id }); });
    socket.on("disconnect", () => status("reconnecting"));
    socket.on("connect_error", () => status("reconnecting"));
    socket.on("tournament", (s) => follow.take(s));
    socket.on("tournament_deleted", (e) => follow.stop(e && e.error));
  } else {
    status("offline");
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") follow.resync();
  });
  drawSound();
  follow.resync();
})();
