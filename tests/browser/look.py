"""What a person sees, checked in the page: every card place drawn, no sideways scroll, no word
broken across lines, no "null" or "undefined" where words should be, the instruction one
readable block, targets of at least 44x44 px, and axe-core (tests/browser/axe.py). One
``evaluate`` a page state for all but axe."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from browser import axe

TARGET = 44  # px each way: Apple's and Material's smallest comfortable tap

LOOK = """({cells, marked, places, target, instructionMin}) => {
  const bad = [];
  const vw = document.documentElement.clientWidth;
  const shown = (el) => {
    if (!el || !el.isConnected) return false;
    const st = getComputedStyle(el);
    if (st.visibility === "hidden" || st.display === "none") return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const name = (el) => {
    const cls = typeof el.className === "string" && el.className.trim()
      ? "." + el.className.trim().split(/\\s+/).join(".") : "";
    const text = (el.getAttribute("aria-label") || el.textContent || "").trim().slice(0, 30);
    return `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}${cls} "${text}"`;
  };

  // no sideways scroll
  const sw = document.scrollingElement.scrollWidth;
  if (sw > vw + 1) bad.push(`sideways scroll: the page is ${sw} px wide in ${vw}`);

  // every card place of the dealt game's layout drawn, in the window, and the places to turn
  // (or to enter) framed
  for (const c of cells) {
    const el = document.querySelector(`#grid [data-cell="${c}"]`);
    if (!shown(el)) { bad.push(`card place ${c} not drawn`); continue; }
    const r = el.getBoundingClientRect();
    if (r.left < -1 || r.right > vw + 1) bad.push(`card place ${c} outside the window`);
    if (r.width < 24) bad.push(`card place ${c} only ${Math.round(r.width)} px wide`);
    if (!el.querySelector(".card")) bad.push(`card place ${c} has no card drawn`);
  }
  for (const c of marked) {
    const el = document.querySelector(`#grid [data-cell="${c}"], [data-slot="${c}"]`);
    if (!el || !el.classList.contains("highlight")) bad.push(`place ${c} to turn is not framed`);
  }
  for (const [id, count] of places) {
    const el = document.querySelector(`[data-place="${id}"]`);
    if (!shown(el)) { bad.push(`place ${id} not drawn`); continue; }
    const n = el.querySelectorAll(".card").length;
    if (n !== count) bad.push(`place ${id} draws ${n} cards, not ${count}`);
  }

  // no text broken inside a word: each word's characters on one line, where it fits one
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const broken = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !node.data.trim()) continue;
    if (parent.closest("script, style, [hidden], .sr-only")) continue;
    if (!shown(parent)) continue;
    if (/\\b(null|undefined|NaN)\\b/.test(node.data)) {
      bad.push(`"${node.data.trim()}" shown in ${name(parent)}`);
    }
    const re = /[^\\s\\-\\u2013\\u2014/]+/g;
    for (let m = re.exec(node.data); m; m = re.exec(node.data)) {
      if (m[0].length < 2) continue;
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      const tops = new Set(rects.map((r) => Math.round(r.top / 4)));
      // a word wider than its box (a name typed without a space) has to break: not a fault
      // of the layout
      const wide = rects.reduce((w, r) => w + r.width, 0) > parent.clientWidth;
      if (tops.size > 1 && !wide) broken.add(`"${m[0]}" in ${name(parent)}`);
    }
  }
  for (const b of broken) bad.push(`a word broken across lines: ${b}`);

  // the instruction: one block, wide enough to read, on top of nothing and under nothing
  const ins = document.getElementById("instruction");
  if (instructionMin === null) { /* a page without a step to take */ }
  else if (!shown(ins)) bad.push("the instruction is not on screen");
  else {
    const r = ins.getBoundingClientRect();
    const st = getComputedStyle(ins);
    const lineH = parseFloat(st.lineHeight) || parseFloat(st.fontSize) * 1.2;
    const lines = Math.round(r.height / lineH);
    if (r.width < instructionMin) {
      bad.push(`the instruction is squeezed to ${Math.round(r.width)} px`);
    }
    if (lines > 3) bad.push(`the instruction takes ${lines} lines`);
    if (parseFloat(st.fontSize) < 17) bad.push(`the instruction's type is ${st.fontSize}`);
    if (r.right > vw + 1 || r.left < -1) bad.push("the instruction runs out of the window");
    const hit = document.elementFromPoint(r.left + Math.min(r.width, 40) / 2,
                                          r.top + Math.min(r.height, 20) / 2);
    if (hit && !ins.contains(hit) && !hit.contains(ins)) {
      bad.push(`the instruction is covered by ${name(hit)}`);
    }
  }

  // every button, link and input at least target x target px (a link inside a sentence, as
  // WCAG 2.5.8 says, and a box or radio whose label is the target, excepted)
  const small = [];
  const targets = "button, a[href], input, select, textarea, [role=button]";
  for (const el of document.querySelectorAll(targets)) {
    if (!shown(el) || el.type === "hidden") continue;
    let box = el;
    if (el.matches("input[type=checkbox], input[type=radio]")) box = el.closest("label") || el;
    const around = el.parentElement ? el.parentElement.textContent.trim() : "";
    const inText = around !== el.textContent.trim();
    if (el.matches("a") && inText) continue;
    const r = box.getBoundingClientRect();
    if (r.width < target - 0.5 || r.height < target - 0.5) {
      small.push(`${name(el)} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  for (const s of small) bad.push(`target under ${target} px: ${s}`);
  return bad;
}"""


def problems(page: Any, *, cells: list[str] = (), marked: list[str] = (),  # type: ignore[assignment]
             places: list[tuple[str, int]] = (),  # type: ignore[assignment]
             instruction_min: int | None = 300,
             with_axe: bool = True) -> list[str]:
    """Everything wrong with what ``page`` shows now (empty when all is well);
    ``instruction_min`` None for a page with no instruction."""
    found: list[str] = page.evaluate(LOOK, {
        "cells": list(cells), "marked": list(marked), "places": [list(p) for p in places],
        "target": TARGET, "instructionMin": instruction_min})
    if with_axe:
        found += axe.violations(page)
    return found


def shot(page: Any, name: str) -> None:
    """``name``.png of what ``page`` shows, in the folder ``DEALER_ASSIST_SCREENSHOTS`` names
    (the documentation's screenshots); nothing when it is unset."""
    folder = os.environ.get("DEALER_ASSIST_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))
