/* More than one dealer device (R75), on the tablet and the phone pages.
 *
 * A signed-in dealer device gets "Add a dealer device": a six-digit code, big, one use, valid
 * five minutes; and "Sign out other devices". A device that is not signed in gets "I'm
 * dealing: enter code", which trades a code for a dealer token of its own and opens the
 * dealer's page with it. The pages give this module a slot (#pairing-slot) and, on the
 * tablet, the token (DA.dealerToken, set by tablet.js); nothing else of theirs is touched.
 * Codes and tokens never go into the page's text except the code on the device that asked. */
"use strict";

(() => {
  const { h, clear } = DA;
  const tableId = document.body.dataset.tableId;
  const slot = document.getElementById("pairing-slot");
  if (!tableId || !slot) return;
  const onTablet = document.body.classList.contains("page-tablet");
  const stateUrl = `/api/tables/${encodeURIComponent(tableId)}`;
  const api = (path) => `${stateUrl}/${path}`;
  const dealerPath = `/t/${encodeURIComponent(tableId)}/dealer`;

  function storedToken() {
    try { return localStorage.getItem(DA.tokenKey(tableId)); } catch (e) { return null; }
  }
  // the tablet's token is asked for at each use: tablet.js forgets one that is signed out
  const currentToken = () => (onTablet ? (DA.dealerToken ? DA.dealerToken() : null) : storedToken());
  const token = currentToken();

  async function post(path, body, withToken) {
    const headers = { "Content-Type": "application/json" };
    if (withToken) headers.Authorization = `Bearer ${currentToken()}`;
    try {
      const r = await fetch(api(path), { method: "POST", headers, body: JSON.stringify(body || {}), cache: "no-store" });
      const data = await r.json().catch(() => ({}));
      return { ok: r.ok, status: r.status, data };
    } catch (e) {
      return { ok: false, status: 0, data: { error: "Could not reach the server: check the connection and try again." } };
    }
  }

  // ------------------------------------------------------------------ one dialog at a time
  let dialog = null;
  let timer = null;
  function close() {
    clearInterval(timer);
    if (dialog) dialog.remove();
    dialog = null;
  }
  function open(title, ...content) {
    close();
    const card = h("div.pairing-card", { role: "dialog", "aria-modal": "true", "aria-label": title },
      h("h2.pairing-title", { text: title }), ...content,
      h("button.btn.big.pairing-close", { type: "button", onclick: close, text: "Close" }));
    dialog = h("div.pairing-overlay#pairing-dialog", null, card);
    dialog.addEventListener("click", (ev) => { if (ev.target === dialog) close(); });
    document.body.append(dialog);
    return card;
  }
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") close(); });

  // ------------------------------------------------------------------ the dealer's device
  function minutes(seconds) {
    const s = Math.max(0, Math.round(seconds));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  async function showCode(codeBox, note) {
    clearInterval(timer);
    clear(codeBox).append(h("span.pairing-wait", { text: "…" }));
    note.textContent = "";
    const r = await post("pairing", {}, true);
    if (!r.ok) {
      clear(codeBox);
      note.textContent = r.data.error || `The server answered ${r.status}.`;
      note.classList.add("bad");
      return;
    }
    note.classList.remove("bad");
    const code = String(r.data.code);
    // read out in two groups of three, as people copy it; typed with or without the space
    clear(codeBox).append(h("span.pairing-digits#pairing-code", { text: `${code.slice(0, 3)} ${code.slice(3)}`, "aria-label": code.split("").join(" ") }));
    const ends = Date.now() + r.data.expires_in * 1000;
    const tick = () => {
      const left = (ends - Date.now()) / 1000;
      if (left <= 0) {
        clearInterval(timer);
        codeBox.classList.add("expired");
        note.textContent = "This code has expired: tap New code.";
        return;
      }
      codeBox.classList.remove("expired");
      note.textContent = `Works once, for ${minutes(left)} more.`;
    };
    tick();
    timer = setInterval(tick, 1000);
  }

  function addDevice() {
    const codeBox = h("div.pairing-code-box");
    const note = h("p.pairing-note", { "aria-live": "polite" });
    const out = h("p.pairing-note.pairing-out", { "aria-live": "polite" });
    const signOut = h("button.btn.big.danger#sign-out-others", { type: "button", text: "Sign out other devices" });
    signOut.addEventListener("click", async () => {
      if (signOut.dataset.confirm !== "1") {
        signOut.dataset.confirm = "1";
        signOut.textContent = "Tap again: sign out every other device";
        return;
      }
      signOut.disabled = true;
      const r = await post("sign_out_others", {}, true);
      signOut.dataset.confirm = "";
      signOut.textContent = "Sign out other devices";
      signOut.disabled = false;
      if (r.ok) {
        const n = r.data.signed_out;
        out.textContent = n === 0 ? "No other device was signed in. Only this one deals."
          : `Signed out ${n} other device${n === 1 ? "" : "s"}. Only this one deals now.`;
        out.classList.remove("bad");
        clear(codeBox);
        note.textContent = "The code shown before no longer works.";
      } else {
        out.textContent = r.data.error || `The server answered ${r.status}.`;
        out.classList.add("bad");
      }
    });
    open("Add a dealer device",
      h("p.pairing-lead", { text: "On the other device, open this table's page (the players' QR) and tap \u201cI'm dealing: enter code\u201d. Then type:" }),
      codeBox, note,
      h("button.btn.big.primary#new-code", { type: "button", text: "New code", onclick: () => showCode(codeBox, note) }),
      h("div.pairing-danger", null,
        h("p.pairing-lead", { text: "A device lost, or done dealing? Sign out every dealer device but this one, at once." }),
        signOut, out));
    showCode(codeBox, note);
  }

  // ------------------------------------------------------------------ another device
  function enterCode() {
    const input = h("input.pairing-input#pairing-input", {
      type: "text", inputmode: "numeric", autocomplete: "one-time-code", maxlength: "7",
      placeholder: "123 456", "aria-label": "The six-digit code",
    });
    const note = h("p.pairing-note.bad", { "aria-live": "polite" });
    const go = h("button.btn.big.go#pairing-go", { type: "submit", text: "Start dealing here" });
    const form = h("form.pairing-form", null, input, go);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      go.disabled = true;
      note.textContent = "";
      const r = await post("pair", { code: input.value });
      go.disabled = false;
      if (!r.ok) {
        note.textContent = r.data.error || `The server answered ${r.status}.`;
        input.select();
        return;
      }
      try { localStorage.setItem(DA.tokenKey(tableId), r.data.dealer_token); } catch (e) { /* the link carries it */ }
      // the tablet page reads the token from the #fragment, which browsers never send
      const target = `${dealerPath}#token=${encodeURIComponent(r.data.dealer_token)}`;
      if (window.location.pathname === dealerPath) {
        history.replaceState(null, "", target);
        window.location.reload();
      } else {
        window.location.assign(target);
      }
    });
    open("I'm dealing: enter code",
      h("p.pairing-lead", { text: "On the device that deals now, tap \u201cAdd a dealer device\u201d (or run \u201cdealer-assist pair\u201d on the server's machine), and type the six digits it shows." }),
      form, note);
    input.focus();
  }

  // ------------------------------------------------------------------ the buttons
  function offerCode() {
    clear(slot).append(h("button.btn#enter-code", { type: "button", text: "I'm dealing: enter code", onclick: enterCode }));
  }
  DA.enterCode = enterCode; // the tablet offers it where it says the device was signed out
  // tablet.js: the server refused this device's token (R75); the way back in replaces the
  // dealer's buttons, and a dialog of the dealer's (a code, sign-out) closes
  document.addEventListener("dealer-assist:signed-out", () => {
    if (!document.getElementById("pairing-input")) close(); // a code being typed stays
    offerCode();
  });
  if (!token) {
    offerCode();
    return;
  }
  clear(slot).append(onTablet
    ? h("button.btn#add-device", { type: "button", text: "Add a dealer device", onclick: addDevice })
    : h("a.btn.pairing-link", { href: dealerPath, text: "Open the dealer's view" }));
  // a key that another device signed out is forgotten here, and the way back in offered
  // (only a 401 says so: the server does not count a signed-out key as a guess); the
  // tablet's own fetch of the state does this there (tablet.js signOut)
  if (onTablet) return;
  fetch(stateUrl, { headers: { Authorization: `Bearer ${token}` }, cache: "no-store" })
    .then((r) => {
      if (r.status !== 401) return;
      try { localStorage.removeItem(DA.tokenKey(tableId)); } catch (e) { /* nothing kept */ }
      offerCode();
    })
    .catch(() => { /* offline: keep the buttons; the next tap says what is wrong */ });
})();
