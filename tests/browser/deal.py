"""A deal tapped on the tablet as a dealer taps it, and what the pages show of it: the steps the
browser tests of whole deals share (tests/browser/test_draw_page.py,
test_hi_lo_short_deck_page.py, test_texas_holdem_page.py, test_stud_page.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def tap(page: Page, selector: str) -> None:
    """One tap, then wait for the server's answer on screen (the state's number moves on)."""
    seq = page.locator("#seq").text_content()
    page.locator(selector).click()
    expect(page.locator("#seq")).not_to_have_text(seq or "")


def act(page: Page, action: str, amount: int | None = None) -> None:
    """The player to act's bet button (``check``, ``call``, ``fold``, ``bet``, ``raise``),
    with the amount typed first where the limit lets the dealer choose one."""
    if amount is not None:
        page.locator("#amount").fill(str(amount))
    tap(page, f'.area-actions [data-action="{action}"]')


def bet_round(page: Page, until: str) -> None:
    """Everyone checks, or calls, until the button ``until`` (a draw, a reveal, the
    showdown) is on the tablet."""
    while not page.locator(f'[data-action="{until}"]').count():
        check = page.locator('.area-actions [data-action="check"]')
        act(page, "check" if check.count() else "call")


def pick(page: Page, cards: str) -> None:
    """Tap each card (``"Ah Kd"``) in the tablet's picker: each fills the ringed place."""
    for card in cards.split():
        page.locator(f'.picker button[data-card="{card}"]').click()


def stacks(page: Page, expected: dict[str, int]) -> None:
    for name, stack in expected.items():
        expect(page.locator(f'#players [data-player="{name}"] .player-stack')).to_have_text(
            f"{stack:,}")


def pot(page: Page, amount: int) -> None:
    expect(page.locator('.pot[data-pot="0"] .pot-amount')).to_have_text(f"{amount:,}")


def board(page: Page) -> list[str | None]:
    """The board's cards as drawn, in order (None where a place is still face down)."""
    return page.locator("#grid .board .cell").evaluate_all(  # type: ignore[no-any-return]
        "els => els.map(e => { const c = e.querySelector('.card');"
        " return c ? c.dataset.card || null : null; })")
