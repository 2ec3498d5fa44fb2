/* The host's pages (a table's history, a night, the season): local times, the settle-up
 * copied as text, printing, the dealer's downloads (the JSON export, and the hand histories
 * with every card) and the step-by-step replay of one deal. The theme is theme.js's. Server
 * text only ever goes through textContent (DA.h). */
"use strict";

(() => {
  const { h, clear } = DA;
  const $ = (id) => document.getElementById(id);
  const tableId = document.body.dataset.tableId;

  /* Times are stored in UTC; the host reads them in the tablet's own time zone. */
  function localTimes() {
    const fmt = new Intl.DateTimeFormat(undefined, {
      weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
    });
    for (const el of document.querySelectorAll("time.when")) {
      const d = new Date(el.getAttribute("datetime"));
      if (!Number.isNaN(d.getTime())) {
        el.textContent = fmt.format(d);
        el.title = el.getAttribute("datetime");
      }
    }
  }

  /* A file fetched by script (with a token, or the host key) saved as a download. */
  async function saveAs(response, fallbackName) {
    const given = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
    const url = URL.createObjectURL(await response.blob());
    const a = h("a", { href: url, download: given ? given[1] : fallbackName });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  function dealerToken() {
    try { return tableId ? localStorage.getItem(DA.tokenKey(tableId)) : null; } catch (e) { return null; }
  }

  /* The dealer's view needs the dealer's token: on a device that opened the dealer link, the
   * JSON export (every card the dealer entered) shows, and the hand histories are fetched with
   * the token; anywhere else they are the public ones, a plain link. */
  function dealerDownloads() {
    const token = dealerToken();
    if (!token) return;
    // a refusal (a device signed out since) or no network is said where the tap was
    const fetchWithToken = async (url, fallbackName, tell) => {
      const r = await fetch(url, { headers: { Authorization: `Bearer ${token}` }, cache: "no-store" })
        .catch(() => null);
      if (r && r.ok) await saveAs(r, fallbackName);
      else tell(r ? "This device's dealer key was refused: open the dealer link again."
        : "Could not reach the server: try again.");
    };
    const button = $("export-json");
    if (button) {
      button.hidden = false;
      button.addEventListener("click", () => fetchWithToken(
        `/api/tables/${encodeURIComponent(tableId)}/export.json`, `table-${tableId}.json`,
        (sentence) => { button.textContent = sentence; }));
    }
    const note = $("dealer-view");
    if (note) note.hidden = false;
    for (const link of document.querySelectorAll("a.phh-link")) {
      link.addEventListener("click", (ev) => {
        ev.preventDefault();
        fetchWithToken(link.href, link.href.split("/").pop(), (sentence) => { note.textContent = sentence; });
      });
    }
  }

  // ------------------------------------------------------------------ the replay
  function playersEl(s) {
    const list = clear($("players"));
    for (const p of s.players || []) {
      const cards = p.hand && p.hand.length ? p.hand : p.live_cards;
      list.append(DA.playerItem(s, p, [
        p.in_pot ? h("span.player-bet", { text: `${DA.chips(p.in_pot)} in the pot` }) : null,
        cards && cards.length ? DA.cardRow(cards, "tiny") : null,
      ]));
    }
  }

  function startReplay() {
    const number = Number(document.body.dataset.deal);
    let steps = [];
    let at = 0;

    function show(index) {
      if (!steps.length) return;
      at = Math.max(0, Math.min(steps.length - 1, index));
      const step = steps[at];
      const s = step.state;
      $("step-count").textContent = `Step ${at + 1} of ${steps.length}`;
      $("step-label").textContent = step.label;
      const when = new Date(step.time);
      $("step-time").textContent = Number.isNaN(when.getTime()) ? step.time : when.toLocaleString();
      $("scrub").value = String(at + 1);
      $("first").disabled = $("prev").disabled = at === 0;
      $("last").disabled = $("next").disabled = at === steps.length - 1;
      DA.drawBoard(s); // the layout and the game's places beside it
      playersEl(s);
      history.replaceState(null, "", `#step=${at + 1}`);
    }

    $("first").addEventListener("click", () => show(0));
    $("prev").addEventListener("click", () => show(at - 1));
    $("next").addEventListener("click", () => show(at + 1));
    $("last").addEventListener("click", () => show(steps.length - 1));
    $("scrub").addEventListener("input", (e) => show(Number(e.target.value) - 1));
    document.addEventListener("keydown", (e) => {
      if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
      if (e.key === "ArrowRight") { show(at + 1); e.preventDefault(); }
      if (e.key === "ArrowLeft") { show(at - 1); e.preventDefault(); }
    });

    fetch(`/api/tables/${encodeURIComponent(tableId)}/deals/${number}/replay`, { cache: "no-store" })
      .then((r) => (r.ok ? r.json() : r.json().then((b) => { throw new Error(b.error || `HTTP ${r.status}`); })))
      .then((body) => {
        steps = body.steps || [];
        $("scrub").max = String(Math.max(1, steps.length));
        const wanted = /step=(\d+)/.exec(location.hash);
        show(wanted ? Number(wanted[1]) - 1 : 0);
      })
      .catch((err) => {
        const el = $("replay-error");
        el.hidden = false;
        el.textContent = `The replay could not be loaded: ${err.message}`;
        $("step-count").textContent = "";
      });
  }

  /* Copy text for a group chat: the Clipboard API where the page is a secure context (https,
   * or this machine), else the text selected in a box for the device's own Copy. */
  async function copyText(text, status, box) {
    try {
      if (!navigator.clipboard || !window.isSecureContext) throw new Error("no clipboard here");
      await navigator.clipboard.writeText(text);
      status.textContent = "Copied: paste it into the group chat.";
    } catch (e) {
      box.hidden = false;
      box.focus();
      box.select();
      let copied = false;
      try { copied = document.execCommand("copy"); } catch (err) { copied = false; }
      status.textContent = copied ? "Copied: paste it into the group chat."
        : "Selected: copy it with your device's Copy.";
    }
  }
  function copyButton() {
    const button = $("copy-settle");
    const box = $("settle-text");
    if (!button || !box) return;
    button.addEventListener("click", () => copyText(box.value, $("copy-status"), box));
  }
  function printButton() {
    const button = $("print-night");
    if (button) button.addEventListener("click", () => window.print());
  }

  localTimes();
  copyButton();
  printButton();
  dealerDownloads();
  if (document.body.classList.contains("page-replay")) startReplay();
  window.DA_BOOKS = { copyText, localTimes, saveAs };
})();
