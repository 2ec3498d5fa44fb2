/* The host's own payouts (R93), one box a place, for the home page's tournament editor and
 * the host's page of a running tournament: the places added and removed, their total shown
 * for the eye, and the prizes the server previews for them. The server checks the table and
 * works out every amount: nothing of the rules is here. */
"use strict";

const DA_PAYOUTS = (() => {
  const { h, clear } = DA;
  const percent = (p) => `${Math.round(Number(p) * 10) / 10}%`;
  const ordinal = (n) => `${n}${(n % 100 >= 11 && n % 100 <= 13) ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th"}`;

  /* A percentage as the server reads it: a number as typed, anything else as the text. */
  function typedPercent(value) {
    const text = String(value ?? "").trim();
    return /^[0-9]+(\.[0-9]+)?$/.test(text) ? Number(text) : text;
  }

  /* The places paid now (their percentages, as the server gives them) in whole
   * percentages to start from, first place given what that leaves. */
  function startFrom(paidPercents) {
    const whole = paidPercents.map((p) => Math.floor(p));
    if (whole.length > 1) whole[0] += 100 - whole.reduce((a, b) => a + b, 0);
    return whole.length > 1 ? whole.map(String) : ["50", "30", "20"];
  }

  /* The boxes of ``list``, the total in ``total``, ``add`` adding a place; ``changed``
   * after every edit (to preview). */
  function places({ list, total, add, changed }) {
    let percents = [];

    function showTotal() {
      const sum = percents.reduce((a, p) => a + Number(p || NaN), 0);
      const shown = Number.isFinite(sum) ? `${Math.round(sum * 1000) / 1000}%` : "?";
      total.textContent = `Total: ${shown}${shown === "100%" ? "" : " (needs 100%)"}`;
      total.classList.toggle("off", shown !== "100%");
    }

    function render() {
      clear(list);
      percents.forEach((value, i) => list.append(h("li.own-place", {},
        h("span.own-name", { text: ordinal(i + 1) }),
        h("input", { type: "number", min: 0, step: "any", inputmode: "decimal", value, "aria-label": `${ordinal(i + 1)} place: percent of the pool`, oninput: (e) => { percents[i] = e.target.value; showTotal(); changed(); } }),
        h("span.own-unit", { text: "%" }),
        h("button.btn.icon.danger", { type: "button", "aria-label": `Remove ${ordinal(i + 1)} place`, title: "Remove", disabled: percents.length === 1, onclick: () => { percents.splice(i, 1); render(); } }, "\u2715"))));
      showTotal();
      changed();
    }

    add.addEventListener("click", () => {
      percents.push("");
      render();
      list.lastElementChild.querySelector("input").focus();
    });
    return {
      set(values) { percents = [...values]; render(); },
      empty: () => !percents.length,
      values: () => percents.map(typedPercent),
    };
  }

  /* The server's preview (``/api/tournaments/preview`` or a running tournament's): each
   * place, its share and its prize, in ``list``. */
  function showPrizes(list, data) {
    clear(list);
    data.payouts.forEach((amount, i) => list.append(h("li", {}, h("span", { text: ordinal(i + 1) }),
      h("span.payout-percent", { text: percent(data.percents[i]) }), h("strong", { text: String(amount) }))));
  }

  return { percent, ordinal, startFrom, places, showPrizes };
})();
