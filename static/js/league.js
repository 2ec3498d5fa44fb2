/* The season page (R77, R78): the standings in a date range, the chart of each person's net
 * night by night, the season as CSV, and the host's aliases and payment handles. Everything
 * is the host's: asked with the host key this device keeps (the host's QR link, #host=...),
 * or as the server's own machine. Server text only ever goes through textContent (DA.h); the
 * chart is the server's SVG, parsed as XML (never as HTML) and adopted into the page. */
"use strict";

(() => {
  const { h, clear } = DA;
  const $ = (id) => document.getElementById(id);
  const HOST_KEY = "dealer-assist:host";
  let hostKey = null;
  try { hostKey = localStorage.getItem(HOST_KEY); } catch (e) { hostKey = null; }
  const given = /[#&]host=([^&]+)/.exec(window.location.hash);
  if (given) {
    hostKey = decodeURIComponent(given[1]);
    try { localStorage.setItem(HOST_KEY, hostKey); } catch (e) { /* this visit only */ }
    history.replaceState(null, "", window.location.pathname + window.location.search);
  }
  const headers = () => (hostKey ? { Authorization: `Bearer ${hostKey}` } : {});

  function query() {
    const params = new URLSearchParams();
    if ($("from").value) params.set("from", $("from").value);
    if ($("to").value) params.set("to", $("to").value);
    const text = params.toString();
    return text ? `?${text}` : "";
  }

  async function ask(path, options = {}) {
    const r = await fetch(path, { cache: "no-store", ...options, headers: { ...headers(), ...(options.headers || {}) } });
    if (!r.ok) {
      let sentence = `The server answered ${r.status}.`;
      try { sentence = (await r.json()).error || sentence; } catch (e) { /* not JSON */ }
      throw new Error(sentence);
    }
    return r;
  }

  function fail(err) {
    const el = $("season-error");
    el.hidden = false;
    el.textContent = err.message;
    $("season-status").textContent = "";
  }

  const signed = (n) => (n > 0 ? `+${n.toLocaleString()}` : n.toLocaleString());

  function rows(season) {
    const body = clear($("season-rows"));
    for (const p of season.people) {
      const tone = p.net > 0 ? "up" : p.net < 0 ? "down" : "even";
      body.append(h("tr", { dataset: { person: p.name } },
        h("th", { scope: "row", text: p.name }),
        h(`td.num.net.${tone}`, { text: p.net ? signed(p.net) : "0" }),
        h("td.num.nights", { text: p.nights }),
        h("td.num.deals", { text: p.deals }),
        h("td.num.bought-in", { text: p.bought_in.toLocaleString() }),
        h("td.num.cashed-out", { text: p.cashed_out.toLocaleString() }),
        h("td.num.stack", { text: p.stack.toLocaleString() }),
        h("td.num.biggest", { text: p.biggest_pot.toLocaleString() })));
    }
    $("season").hidden = !season.people.length;
    $("season-status").textContent = season.people.length
      ? `${season.people.length} people, ${season.nights.length} night${season.nights.length === 1 ? "" : "s"}.`
      : "No deal was played in these nights.";
    const bank = $("season-bank");
    bank.hidden = !season.bank;
    bank.textContent = season.bank > 0
      ? `Still held by the tables' bankers, not shared out: ${season.bank.toLocaleString()}.`
      : `Paid out by the tables' banks beyond what came in: ${(-season.bank).toLocaleString()}.`;
    const span = season.from || season.to
      ? `Nights from ${season.from || "the first"} to ${season.to || "the last"}.`
      : "Every night, every table, person by person.";
    $("season-span").textContent = span;
  }

  async function chart(width, into) {
    const r = await ask(`/league/chart.svg${query()}${query() ? "&" : "?"}width=${width}`);
    const doc = new DOMParser().parseFromString(await r.text(), "image/svg+xml");
    const svg = doc.documentElement;
    if (svg.nodeName !== "svg") throw new Error("The chart could not be read.");
    clear(into).append(document.importNode(svg, true));
  }

  function people(answer, handles) {
    const list = clear($("aliases"));
    for (const a of answer.aliases) {
      list.append(h("li", null, h("span.who", { text: a.name }), " is ", h("span.who", { text: a.is }), " ",
        h("button.btn.small", { type: "button", onclick: () => alias("DELETE", a.name, a.is) }, "Undo")));
    }
    if (!answer.aliases.length) list.append(h("li.muted", { text: "No two names joined yet." }));
    const paid = clear($("handles"));
    for (const p of handles) {
      paid.append(h("li", null, h("span.who", { text: `${p.name}:` }),
        p.pay_link ? h("a", { href: p.pay_link, rel: "noopener noreferrer nofollow", target: "_blank", text: p.pay_to })
          : h("span", { text: p.pay_to })));
    }
    if (!handles.length) paid.append(h("li.muted", { text: "No handle kept yet." }));
  }

  async function load() {
    $("season-error").hidden = true;
    $("season-status").textContent = "Loading…";
    try {
      const season = await (await ask(`/api/league${query()}`)).json();
      rows(season);
      $("season-csv").disabled = false;
      await chart("wide", $("league-chart-wide"));
      await chart("narrow", $("league-chart-narrow"));
      const kept = await (await ask("/api/people")).json();
      people(season, kept.people);
    } catch (err) {
      fail(err);
    }
  }

  async function change(method, path, body, done, form = null) {
    const status = $("people-status");
    try {
      await ask(path, { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      status.textContent = done;
      if (form) form.reset();
      await load();
    } catch (err) {
      status.textContent = err.message;
    }
  }

  function alias(method, name, is, form = null) {
    const done = method === "POST" ? `${name} is ${is} from now on.` : `${name} and ${is} are two people again.`;
    return change(method, "/api/people/aliases", { name, is }, done, form);
  }

  $("range").addEventListener("submit", (e) => { e.preventDefault(); load(); });
  $("all-nights").addEventListener("click", () => { $("from").value = ""; $("to").value = ""; load(); });
  $("alias-form").addEventListener("submit", (e) => {
    e.preventDefault();
    alias("POST", $("alias-name").value, $("alias-is").value, $("alias-form"));
  });
  $("handle-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = $("handle-name").value;
    change("PUT", `/api/people/${encodeURIComponent(name)}`, { pay_to: $("handle-pay").value },
      $("handle-pay").value.trim() ? `${name}'s handle is kept.` : `${name}'s handle is removed.`,
      $("handle-form"));
  });
  $("season-csv").addEventListener("click", async () => {
    try {
      await DA_BOOKS.saveAs(await ask(`/api/league.csv${query()}`), "season.csv");
    } catch (err) {
      fail(err);
    }
  });
  load();
})();
