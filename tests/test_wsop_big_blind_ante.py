"""R64 on real hands: the 11 no-limit hold 'em hands of the 2023 World Series of Poker Event
#43 ($50,000 Poker Players Championship, day 5, the final table), every one with a big-blind
ante, played through our API and held against PokerKit's replay of the same hand, chip for
chip (issue 23: "11 cannot be played at all").

Where the hands come from: PokerKit (MIT licence, (c) the Universal, Open, Free, and Transparent
Computer Poker Research Group, https://github.com/uoftcprg/pokerkit) ships them in its own
test suite, ``pokerkit/tests/test_wsop/test_2023_43_5.py``, which builds each hand with
PokerKit's API and writes it as PHH with ``HandHistory.from_game_state``; the same hands are
in the PHH dataset (uoftcprg/phh-dataset, MIT, ``data/wsop/2023/43/5``). The test package is
in PokerKit's wheel, which the test extra installs: the hands are read from there as this
module runs, so nothing of them is copied into this repository.

Each hand becomes a table (the players in our seat order: the button first, R4), with its
blinds, minimum bet and big-blind ante as house rules, and PHH's action lines are read into
our records by the app's own PHH reader (``services/phh.py``), then posted one by one.
"""

from __future__ import annotations

import warnings
from typing import Any
from unittest import mock

import pytest
from conftest import Dealer
from flask.testing import FlaskClient
from pokerkit import HandHistory

from dealer_assist.services import phh

# the hands of the final table played as no-limit hold 'em, each with its big-blind ante
HANDS = ("test_1_00_02_07", "test_2_00_08_38", "test_3_00_15_36", "test_4_00_18_39",
         "test_62_02_51_10", "test_63_02_53_09", "test_64_02_54_12", "test_65_02_56_12",
         "test_66_02_57_27", "test_67_03_00_32", "test_68_03_02_41")
DAY = {"year": 2023, "month": 6, "day": 22}


def wsop_hand(name: str) -> HandHistory:
    """The hand PokerKit's test ``name`` builds, as the PHH it writes of it."""
    from pokerkit.tests.test_wsop import test_2023_43_5 as wsop  # in PokerKit's wheel

    written: list[HandHistory] = []
    original = HandHistory.from_game_state.__func__  # type: ignore[attr-defined]

    def keep(cls: type[HandHistory], *args: Any, **kwargs: Any) -> HandHistory:
        history: HandHistory = original(cls, *args, **kwargs)
        written.append(history)
        return history

    with mock.patch.object(HandHistory, "from_game_state", classmethod(keep)):
        getattr(wsop.StateTestCase(name), name)()
    return written[0]


def as_table(hand: HandHistory) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The hand's players in our seat order (PHH's last, the button, deals first) with
    their stacks, and its house rules."""
    n = len(hand.starting_stacks)
    names = [f"Seat {k + 1}" for k in range(n)]
    order = [n - 1, *range(n - 1)]
    players = [{"name": names[k], "stack": hand.starting_stacks[k]} for k in order]
    antes = [a for a in hand.antes if a]
    assert len(antes) == 1 and hand.antes[1] == antes[0]  # the big blind's ante alone
    small, big = hand.blinds_or_straddles[:2]
    rules = {"betting": "no_limit", "small_blind": small, "big_blind": big,
             "min_bet": hand.min_bet, "ante": 0, "big_blind_ante": antes[0]}
    return players, rules


@pytest.mark.parametrize("name", HANDS)
def test_r64_a_wsop_hand_with_a_big_blind_ante_plays_through_the_api_as_in_pokerkit(
        client: FlaskClient, name: str) -> None:
    hand = wsop_hand(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = list(hand)[-1].stacks
    players, rules = as_table(hand)
    created = client.post("/api/tables", json={"name": "WSOP 2023 #43", "variant":
                                               "texas_holdem", "players": players,
                                               "rules": rules})
    assert created.status_code == 201, created.get_json()
    dealer = Dealer(client, created.get_json())
    names = [f"Seat {k + 1}" for k in range(len(hand.starting_stacks))]
    setup = {"variant": "texas_holdem", "name": "WSOP 2023 #43", "players": players,
             "rules": rules}
    section = {"variant": "NT", "starting_stacks": list(hand.starting_stacks),
               "actions": list(hand.actions), "players": names, "_setup": setup, **DAY}
    records = phh.read_table(phh.dumps(section, section="1"))["actions"]
    for record in records:
        dealer.act(record["action"])
    state = dealer.state()
    assert state["result"] is not None
    assert [dealer.stacks()[n] for n in names] == list(theirs)


def test_the_wsop_hands_are_read_from_pokerkit_as_it_ships_them() -> None:
    """The harness's source: eleven no-limit hands, each with the big blind's ante alone, and
    PokerKit's replay of each conserves its chips (R3)."""
    for name in HANDS:
        hand = wsop_hand(name)
        assert hand.variant == "NT" and hand.blinds_or_straddles[1] > 0
        players, rules = as_table(hand)
        assert rules["big_blind_ante"] > 0 and len(players) == len(hand.starting_stacks)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            final = list(hand)[-1].stacks
        assert sum(final) == sum(hand.starting_stacks)


def test_pokerkit_big_blind_ante_is_on_the_big_blinds_seat() -> None:
    """What R64 copies: PokerKit posts the one ante from the big blind's stack, dead (in the
    pot, not the round's bet). Hand 63: everyone folds to Seat 4's all-in; the small blind
    loses 75,000, the big blind 150,000 and the ante of 225,000."""
    hand = wsop_hand("test_63_02_53_09")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        final = list(hand)[-1].stacks
    lost = [start - end for start, end in zip(hand.starting_stacks, final, strict=True)]
    assert lost[:2] == [75_000, 150_000 + 225_000]
    assert lost[3] == -(75_000 + 150_000 + 225_000)
