/* The light or dark theme, on every page that includes this script in its <head> (before the
 * stylesheets paint: no white flash in a dim room). The system's setting decides, unless this
 * device chose one ("dealer-assist:theme" in localStorage: "light" or "dark"). base.css holds
 * both themes' colours as variables under :root[data-theme]. A page may add buttons with
 * data-theme-choice ("light", "dark" or "system"): each tap chooses, and every such button
 * shows which one is on (aria-pressed). DA_THEME.choose(...) does the same from script. */
"use strict";

const DA_THEME = (() => {
  const KEY = "dealer-assist:theme";
  const system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  function chosen() {
    try {
      const v = localStorage.getItem(KEY);
      return v === "light" || v === "dark" ? v : null;
    } catch (e) {
      return null;
    }
  }

  function current() {
    return chosen() || (system && system.matches ? "dark" : "light");
  }

  function apply() {
    const theme = current();
    document.documentElement.dataset.theme = theme;
    const picked = chosen() || "system";
    for (const b of document.querySelectorAll("[data-theme-choice]")) {
      b.setAttribute("aria-pressed", String(b.dataset.themeChoice === picked));
    }
    document.dispatchEvent(new CustomEvent("dealer-assist:theme", { detail: theme }));
  }

  function choose(value) {
    try {
      if (value === "light" || value === "dark") localStorage.setItem(KEY, value);
      else localStorage.removeItem(KEY);
    } catch (e) { /* this visit only: the page still follows the tap below */ }
    apply();
    if (value === "light" || value === "dark") document.documentElement.dataset.theme = value;
  }

  if (system && system.addEventListener) system.addEventListener("change", apply);
  apply();
  document.addEventListener("click", (ev) => {
    const b = ev.target.closest && ev.target.closest("[data-theme-choice]");
    if (b) choose(b.dataset.themeChoice);
  });
  // buttons drawn after this script ran show the choice once the page is parsed
  document.addEventListener("DOMContentLoaded", apply);
  return { current, chosen, choose, apply };
})();
