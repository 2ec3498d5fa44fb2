/* The host's key on this device, for the pages that act as the host (home, a tournament's
 * controls). The host is this machine, or a device that opened the host's link
 * (#host=<key>, printed by dealer-assist at start); the key is kept like a dealer token and
 * the server decides. */
"use strict";

const HOST = (() => {
  const KEY = "dealer-assist:host";
  let key = null;
  try { key = localStorage.getItem(KEY); } catch (e) { /* private mode */ }

  /* The host's link opened here: keep its key, and take it out of the address bar. */
  function takeLink() {
    const given = /[#&]host=([^&]+)/.exec(window.location.hash);
    if (!given) return;
    key = decodeURIComponent(given[1]);
    try { localStorage.setItem(KEY, key); } catch (e) { /* private mode */ }
    history.replaceState(null, "", window.location.pathname + window.location.search);
  }

  /* The server refused the key (a new one since): forget it. */
  function forget() {
    key = null;
    try { localStorage.removeItem(KEY); } catch (e) { /* private mode */ }
  }

  function headers() {
    return key ? { Authorization: `Bearer ${key}` } : {};
  }

  return { takeLink, forget, headers, hasKey: () => key !== null };
})();
