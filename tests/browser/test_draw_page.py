"""A whole deal of each draw game (R85, R86) on the tablet, a phone following live: every bet
and every draw tapped on the tablet, each draw one tap on the row of 0..N buttons in the
drawing player's own place on the felt (N from the server: 5, or 4 in Badugi), each player's
draws on every screen, the showdown's whole hands entered in each player's place (one mucked),
and the result with the hands face up and every player's chips. With
``DEALER_ASSIST_SCREENSHOTS=<folder>`` a draw of 2-7 Triple Draw, Badugi's showdown and 2-7
Single Draw's result are saved in every view and theme (``<view>-triple-draw-<theme>.png``,
``<view>-badugi-showdown-<theme>.png``, ``<view>-single-draw-result-<theme>.png``); the
tablet's draw is looked at 390 px wide too, as a dealer dealing from a phone sees it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from browser.deal import bet_round, pick, stacks, tap
from browser.look import problems
from browser.test_all_in_page import look

pytestmark = pytest.mark.browser

# the game, each player's count at each draw, the hands shown (none: mucked), the result
DEALS = {
    "deuce_to_seven_triple_draw": (
        {"Ann": [2, 1, 0], "Bob": [0, 3, 1], "Cy": [1, 0, 0]},
        {"Ann": "2c 3d 4h 5s 7c", "Bob": "2d 3h 4s 6c 8d", "Cy": "9c Td Jh Qs Kc"},
        ["Pot 6: Ann, 7-5-4-3-2 low."]),
    "deuce_to_seven_single_draw": (
        {"Ann": [0], "Bob": [3], "Cy": [5]},
        {"Ann": "2d 3h 4s 6c 8d", "Bob": "2c 3d 4h 5s 7c", "Cy": "9c Td Jh Qs Kc"},
        ["Pot 6: Bob, 7-5-4-3-2 low."]),
    "badugi": (
        {"Ann": [1, 0, 0], "Bob": [4, 2, 1], "Cy": [2, 2, 2]},
        {"Ann": "Ac 2d 3h 4s", "Bob": "2c 3d 5h 7s", "Cy": None},
        ["Pot 6: Ann, four cards, 4-3-2-A.", "Cy mucked."]),
}
SIZE = {"deuce_to_seven_triple_draw": 5, "deuce_to_seven_single_draw": 5, "badugi": 4}
# Ann deals the first deal: the draws go from her left
ORDER = ("Bob", "Cy", "Ann")


def drew(counts: list[int]) -> str:
    return "drew " + ", ".join(str(n) if n else "pat" for n in counts)


@pytest.mark.parametrize("variant", list(DEALS))
def test_r85_a_whole_draw_deal_tapped_on_the_tablet_in_each_players_place(
        pages: Any, variant: str) -> None:
    plan, hands, result = DEALS[variant]
    size = SIZE[variant]
    created = pages.server.create_table(variant, ["Ann", "Bob", "Cy"], name="Draw night")
    pages.open(created)
    t, ph = pages.tablet, pages.phone
    ph.locator('[data-me="Bob"]').click()
    tap(t, '[data-action="start_deal"]')
    tap(t, '[data-action="next"]')  # the hands dealt
    for page in (t, ph):  # each hand face down in its player's place, the size the game says
        for name in ("Ann", "Bob", "Cy"):
            backs = page.locator(f'.hand-place[data-player="{name}"] .card.back')
            expect(backs).to_have_count(size)
    found: list[str] = []
    for index in range(len(plan["Ann"])):
        bet_round(t, "discard")
        for name in ORDER:
            place = f'.hand-place[data-player="{name}"]'
            # the buttons are in this player's place and nowhere else: 0 (pat) to the hand
            expect(t.locator(f'{place} button[data-action="discard"]')).to_have_count(size + 1)
            expect(t.locator('button[data-action="discard"]')).to_have_count(size + 1)
            expect(t.locator("#turn")).to_have_text(name)
            if variant == "deuce_to_seven_triple_draw" and index == 1 and name == "Cy":
                found += look(pages, "triple-draw", cells=[])
                # a dealer dealing from a phone: six buttons in the place, no sideways scroll
                t.set_viewport_size({"width": 390, "height": 844})
                found += [f"tablet at 390 px: {p}" for p in
                          problems(t, instruction_min=250, with_axe=False)]
                t.set_viewport_size({"width": 1024, "height": 768})
            count = plan[name][index]
            button = f'{place} button[data-action="discard"][data-count="{count}"]'
            expect(t.locator(button)).to_have_accessible_name(
                f"{name} draws {count} card{'' if count == 1 else 's'}" if count
                else f"{name} draws 0 \u2014 stands pat")
            tap(t, button)
            words = drew(plan[name][:index + 1])
            for page in (t, ph):  # everyone sees it: in the place and in the players' list
                expect(page.locator(f"{place} .hand-draws")).to_have_text(words)
                expect(page.locator(f'li.player[data-player="{name}"] .player-draws')
                       ).to_have_text(words)
        expect(ph.locator(".me-draws")).to_have_text(drew(plan["Bob"][:index + 1]))
    bet_round(t, "showdown")
    expect(t.locator('button[data-action="discard"]')).to_have_count(0)

    # the showdown: each hand's places in its player's place, a Muck tap beside them
    for name, cards in hands.items():
        place = f'.hand-place[data-player="{name}"]'
        expect(t.locator(f"{place} button[data-slot]")).to_have_count(size)
        if cards is None:
            t.locator(f"{place} button.muck").click()
            expect(t.locator(place)).to_contain_text("Mucked")
    if variant == "badugi":
        found += look(pages, "badugi-showdown", cells=[])
    for cards in hands.values():
        pick(t, cards or "")
    tap(t, '[data-action="showdown"]')
    for page in (t, ph):
        expect(page.locator(".result .result-sentences li")).to_have_text(result)
        for name, cards in hands.items():
            shown = page.locator(f'.hand-place[data-player="{name}"] .card[data-card]')
            if cards:
                expect(shown).to_have_count(size)
                assert sorted(shown.evaluate_all("els => els.map(e => e.dataset.card)")) == \
                    sorted(cards.split())
            else:
                expect(shown).to_have_count(0)
    winner = result[0].split(": ")[1].split(",")[0]
    expect(ph.locator(".hand-place.win")).to_have_count(1)
    expect(ph.locator(f'.hand-place.win[data-player="{winner}"]')).to_have_count(1)
    for page in (t, ph):  # everyone put in 2: the winner takes the 6
        stacks(page, {name: 104 if name == winner else 98 for name in hands})
    if variant == "deuce_to_seven_single_draw":
        found += look(pages, "single-draw-result", cells=[])
    assert not found, "\n".join(found)
