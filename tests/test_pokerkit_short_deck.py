"""Short-deck Hold'em (R87) against PokerKit's ``NoLimitShortDeckHoldem`` rules: random deals
through both engines action for action, with tests/test_pokerkit.py's harness, its 36-card
deck and ``ShortDeckHoldemHand``; blinds, or antes with the dealer's button blind (PokerKit's
``{-1: big blind}``, reversed heads up as PokerKit reverses every blind)."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest
import test_phh
import test_pokerkit as reference
from pokerkit import Deck, ShortDeckHoldemHand

from dealer_assist.core.cards import SHORT_DECK

SHORT = "short_deck_holdem"


def random_short_deal(rng: random.Random, seed: int) -> reference.RandomDeal:
    n = rng.randint(2, 9)
    button_blind = rng.random() < 0.5
    big_blind = rng.choice([2, 2, 4])
    rules: dict[str, Any] = {
        "betting": "no_limit", "small_blind": 0 if button_blind else big_blind // 2,
        "big_blind": big_blind, "ante": rng.choice([1, 2]) if button_blind else rng.choice([0, 1]),
        "odd_chip": rng.choice(["left_of_dealer", "carry"]), "min_bet": big_blind}
    stacks = [rng.randint(1, 300 if rng.random() < 0.3 else 40) for _ in range(n)]
    # a blind posted short is tests/test_pokerkit.py's documented difference: never here
    # the big blind's seat: the dealer's (seat 0) for a button blind, else left of the small
    # blind; heads up the other player's (R60)
    blind_seat = 1 if n == 2 else (0 if button_blind else 2)
    stacks[blind_seat] = max(stacks[blind_seat], rules["ante"] + big_blind)
    return reference.RandomDeal(stacks, rules, seed, SHORT, 0)


def short_deck_in_pokerkit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness told of Short-deck Hold'em: its hand values, its 36 cards, its blind."""
    monkeypatch.setitem(reference.GAMES, SHORT, (2, ShortDeckHoldemHand))
    monkeypatch.setitem(reference.DECKS, SHORT, (Deck.SHORT_DECK_HOLDEM, SHORT_DECK))
    monkeypatch.setattr(reference, "BUTTON_BLIND", {SHORT})


def play_short(count: int, seed: int, monkeypatch: pytest.MonkeyPatch,
               exported: dict[str, int] | None = None) -> reference.Differences:
    """``count`` random deals through both engines; each one's PHH export (``NS``) replayed
    in PokerKit too where ``exported`` is given (what it met counted there)."""
    short_deck_in_pokerkit(monkeypatch)
    differences = reference.Differences()
    rng = random.Random(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i in range(count):
            d = random_short_deal(rng, seed * 100_000 + i)
            before = differences.uncounted_raises
            t = reference.play(d, differences)
            blinds = "two blinds" if d.rules["small_blind"] else "button blind"
            differences.played[f"heads up, {blinds}" if d.n == 2 else blinds] += 1
            if exported is not None:
                test_phh.check_deal_in_pokerkit(t, differences.uncounted_raises - before,
                                                exported, test_phh.holdem_shares(t, d))
    return differences


def test_r87_short_deck_matches_pokerkit_chip_for_chip(monkeypatch: pytest.MonkeyPatch) -> None:
    play_short(100, 87, monkeypatch)


@pytest.mark.slow
def test_r87_a_thousand_short_deck_deals_match_pokerkit(monkeypatch: pytest.MonkeyPatch) -> None:
    differences = play_short(1000, 88, monkeypatch)
    assert {"run twice", "hands tabled"} <= set(differences.played), differences.played


def test_r87_r88_every_exported_short_deck_deal_replays_in_pokerkit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """NS: the exports of random deals (antes with the dealer's button blind, written on the
    last player as PokerKit posts it, heads up reversed; two blinds; boards run twice and hands
    tabled), the dealer's view and the public one, replay in PokerKit's ``HandHistory`` to our
    stacks, or where R7 shares odd chips otherwise, PokerKit's pots shared as R7 says."""
    seen = dict.fromkeys((test_phh.SAME, test_phh.ODD_CHIPS, test_phh.SHORT_RAISE), 0)
    differences = play_short(50, 89, monkeypatch, seen)
    assert {"heads up, button blind", "heads up, two blinds", "button blind", "two blinds",
            "run twice", "hands tabled"} <= set(
        differences.played), differences.played
    assert seen[test_phh.SAME] > 80 and not seen[test_phh.SHORT_RAISE], seen


def test_r66_r67_r87_a_hand_tabled_and_named_again_is_written_once_in_ns(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As tests/test_phh.py's for Hold'em and Omaha: hands tabled at the all-in and named
    again by the showdown are one sm line each, and PokerKit replays the NS export."""
    short_deck_in_pokerkit(monkeypatch)
    seen = test_phh.run_pokerkit(30, 90, SHORT, tabled_again=True, deal=random_short_deal)
    assert seen[test_phh.SAME] >= 40 and seen["two runs"] >= 3, seen
