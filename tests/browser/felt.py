"""The tablet's card entry as a dealer works it (static/js/entry.js): the places to fill are
buttons on the felt (``data-slot``, with their ``data-group`` and ``data-order``), a tap on the
picker fills the ringed one; or the ringed place's group is typed in ``#card-text``."""

from __future__ import annotations

from playwright.sync_api import Page

ORDERED = """(els) => els.sort((a, b) => a.dataset.order - b.dataset.order)
  .map((e) => { const c = e.querySelector('.card'); return c ? c.dataset.card || null : null; })"""


def places(page: Page, group: str) -> str:
    return f'.area-grid button[data-slot][data-group="{group}"]'


def entered(page: Page, group: str) -> list[str | None]:
    """The cards entered in ``group``'s places, in their order (None where empty)."""
    return page.locator(places(page, group)).evaluate_all(ORDERED)  # type: ignore[no-any-return]


def ring(page: Page, group: str, index: int = 0) -> None:
    """Tap the ``index``-th place of ``group`` (in the entry's order): the next card goes there."""
    page.locator(places(page, group)).evaluate_all(
        "(els, i) => els.sort((a, b) => a.dataset.order - b.dataset.order)[i].click()", index)


def type_cards(page: Page, group: str, text: str, *, enter: bool = False) -> None:
    """Ring ``group``'s first place, then type its cards."""
    ring(page, group)
    box = page.locator(f'#card-text[data-group="{group}"]')
    box.fill(text)
    if enter:
        box.press("Enter")


def in_menu(page: Page, selector: str) -> None:
    """Open the tablet's menu and tap ``selector`` in it."""
    if page.locator("#menu-layer").is_hidden():
        page.locator("#menu-button").click()
    page.locator(f"#menu {selector}").click()
