/* The host's pages (a table's history, a night, the season): local times, the settle-up
 * copied as text, printing, the JSON export (dealer's device only) and the step-by-step
 * replay of one deal. The theme is theme.js's. Server text only ever goes through
 * textContent (DA.h). */
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

  /* The JSON export carries every card the dealer entered, so it needs the dealer's token:
   * the button shows only on a device that opened the dealer link. */
  function exportButton() {
    const button = $("export-json");
    if (!button) return;
    let token = null;
    try { token = localStorage.getItem(DA.tokenKey(tableId)); } catch (e) { token = null; }
    if (!token) return;
    button.hidden = false;
    button.addEventListener("click", async () => {
      const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/export.json`,
        { headers: { Authorization: `Bearer ${token}` }, cache: "no-store" });
      if (!r.ok) {
        button.textContent = "Export refused: open the dealer link again";
        return;
      }
      const url = URL.createObjectURL(await r.blob());
      const a = h("a", { href: url, download: `table-${tableId}.json` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    });
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
  exportButton();
  if (document.body.classList.contains("page-replay")) startReplay();
  window.DA_BOOKS = { copyText, localTimes };
})();
