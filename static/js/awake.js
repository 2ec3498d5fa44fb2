/* The tablet's screen stays on while a deal is in play, and the tablet says how, or that it
 * cannot. The Screen Wake Lock API where the browser offers it: only in a secure context
 * (https, or the server's own machine). Over http://<LAN address>, as tablets reach the app,
 * there is none: NoSleep.js (static/vendor/nosleep) plays a tiny muted looping video instead,
 * which a browser lets start only from a tap; the same where the browser refuses its lock.
 * The menu says which (#awake-note); a notice says once on this device when nothing keeps the
 * screen on (a refused lock and a video that will not play). body[data-awake]: "yes" (the lock
 * held), "video" (the video playing), "tap" (waiting for the dealer's next tap to start it),
 * "refused" (neither), "no" (not wanted now). */
"use strict";

(() => {
  const body = document.body;
  const $ = (id) => document.getElementById(id);
  const TOLD_KEY = "dealer-assist:awake-told";
  const NOTES = {
    lock: "Screen: kept on during a deal (the browser's wake lock).",
    video: "Screen: kept on during a deal by a silent looping video, since this address " +
      "(not https) gets no wake lock. A tap starts it.",
    videoRefused: "Screen: kept on during a deal by a silent looping video, since the " +
      "browser refused its wake lock. A tap starts it.",
    refused: "Screen: this browser will not keep it on, so it may sleep mid-deal. Set the " +
      "tablet's screen timeout to its longest for the night.",
  };

  /* NoSleep.js takes the browser's wake lock itself wherever "wakeLock" is in navigator and
   * makes its video only where it is not. Where the lock was refused, the property is hidden
   * from it for the synchronous moment of each call (a WebIDL attribute is configurable), so
   * that it plays its video there too; nothing else runs in between. */
  function withoutLock(call) {
    let owner = navigator;
    while (owner && !Object.prototype.hasOwnProperty.call(owner, "wakeLock")) {
      owner = Object.getPrototypeOf(owner);
    }
    const held = owner && Object.getOwnPropertyDescriptor(owner, "wakeLock");
    if (!held || !held.configurable) return call();
    delete owner.wakeLock;
    try { return call(); } finally { Object.defineProperty(owner, "wakeLock", held); }
  }

  let video = null;
  function makeVideo() {
    if (typeof NoSleep !== "function") return false;
    video = withoutLock(() => new NoSleep());
    if (!video.noSleepVideo) return false; // NoSleep chose the lock after all: no video here
    video.noSleepVideo.muted = true; // never a sound, and a muted video may start more freely
    video.noSleepVideo.playsInline = true;
    return true;
  }

  const native = "wakeLock" in navigator;
  let method = native ? "lock" : makeVideo() ? "video" : "refused";
  let lock = null;
  let want = false;
  let requesting = false;
  const playing = () => video.isEnabled && !video.noSleepVideo.paused;

  function say() {
    const note = $("awake-note");
    if (note) note.textContent = NOTES[method];
    if (method !== "refused") return;
    let told = false;
    try { told = localStorage.getItem(TOLD_KEY) === "yes"; } catch (e) { told = false; }
    const notice = $("awake-notice");
    if (told || !notice || !want) return;
    $("awake-notice-text").textContent = NOTES.refused;
    notice.hidden = false;
    try { localStorage.setItem(TOLD_KEY, "yes"); } catch (e) { /* said again next visit */ }
  }

  function cannot() {
    method = "refused";
    body.dataset.awake = "refused";
    say();
  }

  async function takeLock() {
    if (lock || requesting || document.visibilityState !== "visible") return;
    requesting = true;
    try {
      lock = await navigator.wakeLock.request("screen");
      body.dataset.awake = "yes";
      lock.addEventListener("release", () => { lock = null; body.dataset.awake = "no"; });
      if (!want) keepAwake(false);
    } catch (e) {
      // battery saver, or not allowed here: the video instead, where it can be made
      if (!makeVideo()) { cannot(); return; }
      method = "videoRefused";
      say();
      if (want) playVideo(false);
    } finally {
      requesting = false;
    }
  }

  // fromTap: inside the dealer's tap, where a refusal is final (outside one it only waits)
  async function playVideo(fromTap) {
    if (playing()) return;
    try {
      await withoutLock(() => video.enable());
      if (want) body.dataset.awake = "video";
      else withoutLock(() => video.disable());
    } catch (e) {
      if (fromTap) cannot();
      else body.dataset.awake = "tap";
    }
  }

  function keepAwake(on) {
    want = on;
    if (method === "refused") {
      if (on) say();
      return;
    }
    if (method === "lock") {
      if (on) takeLock();
      else if (lock) {
        const held = lock;
        lock = null;
        held.release().catch(() => {});
        body.dataset.awake = "no";
      }
      return;
    }
    if (on) playVideo(false);
    else {
      if (video.isEnabled) withoutLock(() => video.disable());
      body.dataset.awake = "no";
    }
  }

  const usingVideo = () => method === "video" || method === "videoRefused";
  // the video starts from a tap: any tap of the dealer's while a deal wants the screen on
  document.addEventListener("click", () => {
    if (usingVideo() && want && !playing()) playVideo(true);
  }, true);
  // a browser lets the lock go when the page is hidden: taken again when it is shown
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && want) keepAwake(true);
  });
  const close = $("awake-notice-close");
  if (close) close.addEventListener("click", () => { $("awake-notice").hidden = true; });
  say();

  DA.keepAwake = keepAwake;
})();
