"""A tournament's pure model (R89-R93): the structure, the clock, entries, rebuys, the
add-on, late registration, places, payouts, chops and seating, with no server."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.core.autoplay import legal_actions
from dealer_assist.core.errors import IllegalActionError, InvalidActionError, SetupError
from dealer_assist.core.table import Table
from dealer_assist.core.tournament.clock import ClockState
from dealer_assist.core.tournament.money import (
    DEFAULT_PAYOUTS,
    ChopMethod,
    PayoutTable,
    chop,
    icm_exact,
    payouts,
    shared_places,
)
from dealer_assist.core.tournament.records import Pairs, TournamentRecord
from dealer_assist.core.tournament.records import TournamentActionType as T
from dealer_assist.core.tournament.seating import (
    TableView,
    balancing_move,
    big_blind_next,
    draw_break,
    table_to_break,
    worst_seat,
)
from dealer_assist.core.tournament.setup import TournamentSetup
from dealer_assist.core.tournament.state import Tournament
from dealer_assist.core.tournament.structure import Break, Level, Structure
from dealer_assist.games.registry import CATALOGUE, TOURNAMENT_GAMES

LEVELS: list[dict[str, Any]] = [
    {"minutes": 20, "small_blind": 25, "big_blind": 50},                      # 0
    {"minutes": 20, "small_blind": 50, "big_blind": 100, "ante": 10},         # 1
    {"break": 10, "color_up": 25},                                            # 2
    {"minutes": 20, "small_blind": 100, "big_blind": 200, "big_blind_ante": 200},  # 3
    {"minutes": 20, "small_blind": 200, "big_blind": 400, "big_blind_ante": 400},  # 4
]
PLAYERS = [f"P{i:02d}" for i in range(18)]
START = 1_000_000.0  # a moment, in seconds since the epoch


def make(**changes: Any) -> Tournament:
    data: dict[str, Any] = {
        "name": "Friday", "buy_in": 20, "chips": 5000, "levels": LEVELS,
        "rebuy_until_level": 1, "add_on": {"chips": 5000, "cost": 20},
        "late_until_level": 1, "fee": 2, "players": PLAYERS, "tables": 3, **changes}
    return Tournament(TournamentSetup.create(CATALOGUE, data, TOURNAMENT_GAMES,
                                             random.Random(7)))


def rec(kind: T, minute: float, **fields: Any) -> TournamentRecord:
    return TournamentRecord(kind, START + minute * 60, **fields)


def started() -> Tournament:
    return make().apply(rec(T.RESUME, 0))


# --------------------------------------------------------------------------- R89 the setup

def test_r89_levels_and_breaks_are_counted_from_0_breaks_included() -> None:
    s = Structure.from_json(LEVELS)
    assert isinstance(s.stages[2], Break) and s.stages[2].color_up == 25
    assert s.stages[3] == Level(20, 100, 200, 0, 200)
    assert (s.first_break, s.next_level(1), s.next_break(0), s.next_break(2)) == (2, 3, 2, None)
    assert s.level_in_play(2) == s.stages[1]  # a break posts nothing: the level before's


@pytest.mark.parametrize(("levels", "words"), [
    ([], "levels must be a list"),
    ([{"break": 10}], "first level must be a level of play"),
    ([{"minutes": 20, "small_blind": 50, "big_blind": 25}], "small blind is more"),
    ([{"minutes": 20, "small_blind": 5, "big_blind": 10, "ante": 1, "big_blind_ante": 10}],
     "not both"),
    ([{"minutes": 0, "small_blind": 5, "big_blind": 10}], "Level 0: minutes must be"),
    ([{"minutes": 10, "small_blind": 5, "big_blind": 10}, {"break": 5}, {"break": 5}],
     "two breaks in a row"),
    ([{"minutes": 10, "small_blind": 5, "big_blind": 10, "antes": 3}], "no field antes"),
])
def test_r89_a_structure_that_cannot_be_played_is_refused_with_a_sentence(
        levels: Any, words: str) -> None:
    with pytest.raises(SetupError, match=words):
        Structure.from_json(levels)


def test_r89_the_server_draws_the_seats_balanced_and_keeps_the_draw() -> None:
    t = make()
    assert sorted(len(table) for table in t.setup.tables) == [6, 6, 6]
    assert sorted(t.setup.players) == PLAYERS
    again = TournamentSetup.from_json(CATALOGUE, t.setup.to_json())
    assert again == t.setup  # the stored setup reads back with the same seats
    other = make()  # another draw from the same seed: the draw is the random source's
    assert other.setup.tables == t.setup.tables
    assert TournamentSetup.create(CATALOGUE, {**t.setup.to_json(), "tables": 3,
                                              "players": PLAYERS}, TOURNAMENT_GAMES,
                                  random.Random(8)).tables != t.setup.tables


@pytest.mark.parametrize(("changes", "words"), [
    ({"players": PLAYERS, "tables": 1}, "18 players do not fit 1 tables of 10 seats"),
    ({"players": ["Ann", "ann"]}, "Two players are called ann"),
    ({"fee": 30}, "fee comes out of each buy-in"),
    ({"rebuy_until_level": 9}, "rebuy_until_level must be a whole number from 0 to 4"),
    ({"levels": LEVELS[:2]}, "add-on is taken at the first break"),
    ({"payouts": [60, 30]}, "add up to 90"),
    ({"payouts": [30, 70]}, "no place is paid more"),
    ({"games": ["nothing"]}, "Unknown game"),
    ({"seats": 11}, "seats must be a whole number from 2 to 10"),
    ({"colour": 1}, "no field colour"),
])
def test_r89_a_tournament_that_cannot_be_made_is_refused_with_a_sentence(
        changes: dict[str, Any], words: str) -> None:
    with pytest.raises(SetupError, match=words):
        make(**changes)


def test_r89_only_games_whose_blinds_come_from_a_clock_are_dealt() -> None:
    refused = [g.variant for g in CATALOGUE.all() if g.whole_game
               or "big_blind" not in g.house_rules]
    assert refused
    for variant in refused:
        with pytest.raises(SetupError, match="not dealt in a tournament"):
            make(games=[variant])


def test_r89_a_mixed_rotation_changes_the_game_each_level_of_play() -> None:
    allowed = [g.variant for g in CATALOGUE.all() if not g.whole_game
               and "big_blind" in g.house_rules][:2]
    t = make(games=allowed)
    assert [t.setup.game(i) for i in range(5)] == [allowed[0], allowed[1], allowed[1],
                                                   allowed[0], allowed[1]]


# --------------------------------------------------------------------------- R90 the clock

def test_r90_a_new_clock_stands_at_level_0_until_resume() -> None:
    t = make()
    state = t.public(START + 3600)
    assert state["clock"]["level"] == 0 and state["clock"]["seconds_left"] == 1200
    assert not state["clock"]["running"] and not state["clock"]["started"]


def test_r90_the_clock_runs_through_levels_and_the_break() -> None:
    t = started()
    clock = t.public(START + 45 * 60)["clock"]  # 20 + 20 of play, then 5 of the break
    assert (clock["level"], clock["seconds_left"], clock["stage"]) == (
        2, 300, {"break": 10, "color_up": 25})
    assert clock["number"] is None  # a break is no level of play
    assert clock["next_level"] == {"index": 3, "number": 3, "minutes": 20, "small_blind": 100,
                                   "big_blind": 200, "ante": 0, "big_blind_ante": 200}
    first = t.public(START + 90)["clock"]
    assert first["next_break"] == {"index": 2, "break": 10, "color_up": 25,
                                   "in_seconds": 38.5 * 60}
    # the last level runs on at 0 left
    assert t.public(START + 10 * 3600)["clock"]["level"] == 4
    assert t.public(START + 10 * 3600)["clock"]["seconds_left"] == 0


def test_r90_pause_resume_and_level_changes_from_records_and_the_time() -> None:
    t = started().apply(rec(T.PAUSE, 5)).apply(rec(T.RESUME, 65))  # an hour paused
    assert t.public(START + 70 * 60)["clock"]["seconds_left"] == 10 * 60
    t = t.apply(rec(T.LEVEL, 70, to=3))  # the host skips to level 3, from its start
    assert t.public(START + 71 * 60)["clock"] == t.public(START + 71 * 60)["clock"] | {
        "level": 3, "seconds_left": 19 * 60, "running": True}
    t = t.apply(rec(T.LEVEL, 72, to=1))  # and back
    assert t.public(START + 72 * 60)["clock"]["level"] == 1
    with pytest.raises(IllegalActionError, match="already running"):
        t.apply(rec(T.RESUME, 73))
    with pytest.raises(IllegalActionError, match="There is no level 5"):
        t.apply(rec(T.LEVEL, 73, to=5))
    assert t.undo().undo().public(START + 70 * 60)["clock"]["level"] == 0


def test_r90_after_a_restart_the_clock_resumes_where_it_was_paused_for_the_downtime() -> None:
    t = started()  # the server was last known up at minute 10, and is back at minute 40
    t = t.apply(TournamentRecord(T.RESTART, START + 40 * 60, since=START + 10 * 60))
    clock = t.public(START + 40 * 60)["clock"]
    assert (clock["level"], clock["seconds_left"], clock["running"]) == (0, 600, True)
    assert t.public(START + 45 * 60)["clock"]["seconds_left"] == 300
    paused = started().apply(rec(T.PAUSE, 5))  # a paused clock stays as it was
    paused = paused.apply(TournamentRecord(T.RESTART, START + 3600, since=START + 600))
    assert paused.public(START + 7200)["clock"]["seconds_left"] == 15 * 60


def test_r90_no_deal_starts_during_a_break_and_the_level_posts_its_blinds() -> None:
    t = started()
    assert t.level_for_deal(START + 25 * 60) == Level(20, 50, 100, 10, 0)
    with pytest.raises(IllegalActionError, match=r"during a break: play resumes in 5:00"):
        t.level_for_deal(START + 45 * 60)


def test_r90_the_clock_state_at_a_moment_is_the_same_however_it_is_asked() -> None:
    s = Structure.from_json(LEVELS)
    c = ClockState().resumed(s, 0.0)
    stepwise = c
    for moment in range(0, 6000, 7):
        stepwise = stepwise.at(s, float(moment))
    assert stepwise.level == c.at(s, 5999.0).level
    assert abs(stepwise.elapsed - c.at(s, 5999.0).elapsed) < 1e-6


# --------------------------------------------------------------------------- R89 money in

def test_r89_rebuys_until_the_end_of_level_n_for_a_short_stack_and_no_fee() -> None:
    t = started()
    name = t.setup.players[0]
    t = t.apply(rec(T.REBUY, 30, player=name, stack=0))  # level 1: still open
    assert t.standing.rebuys == {name: 1} and t.public(START)["entries"] == 18
    assert t.pool == 18 * (20 - 2) + 20  # a rebuy pays the buy-in, no fee
    with pytest.raises(IllegalActionError, match="more than the starting 5000: no rebuy yet"):
        t.apply(rec(T.REBUY, 31, player=name, stack=5001))
    assert t.apply(rec(T.REBUY, 31, player=name, stack=5000)).standing.rebuys[name] == 2
    with pytest.raises(IllegalActionError, match="Rebuys ended with level 1"):
        t.apply(rec(T.REBUY, 41, player=name, stack=0))  # the break: level 1 has ended


def test_r89_the_add_on_once_a_player_during_the_first_break() -> None:
    t = started()
    name = t.setup.players[3]
    with pytest.raises(IllegalActionError, match="during the first break"):
        t.apply(rec(T.ADD_ON, 30, player=name))
    t = t.apply(rec(T.ADD_ON, 42, player=name))
    assert t.pool == 18 * 18 + 20 and t.chips_in_play == 19 * 5000
    with pytest.raises(IllegalActionError, match="one each"):
        t.apply(rec(T.ADD_ON, 43, player=name))


def test_r89_late_registration_until_the_end_of_level_m() -> None:
    t = started().apply(rec(T.ENTER, 30, player="Late", table=1))
    assert t.public(START)["entries"] == 19 and t.standing.table_of["Late"] == 1
    with pytest.raises(IllegalActionError, match="Late registration is closed"):
        t.apply(rec(T.ENTER, 41, player="Later", table=0))
    with pytest.raises(IllegalActionError, match="has already entered"):
        t.apply(rec(T.ENTER, 31, player="late", table=0))
    full = make(seats=6)
    with pytest.raises(IllegalActionError, match="Table 1 is full"):
        full.apply(rec(T.ENTER, 1, player="Late", table=0))


# --------------------------------------------------------------------------- R91 places

def out_after_rebuys(t: Tournament) -> Tournament:
    return t.apply(rec(T.LEVEL, 50, to=3))


def test_r91_players_are_placed_in_the_order_out_the_larger_stack_higher() -> None:
    t = out_after_rebuys(started())
    p = t.setup.players
    t = t.apply(rec(T.BUST, 51, table=0, out=((p[0], 300),)))
    t = t.apply(rec(T.BUST, 52, table=1, out=((p[1], 900), (p[2], 400))))
    places = {name: place.first for place in t.places() for name in place.names}
    assert places == {p[0]: 18, p[2]: 17, p[1]: 16}
    assert t.public(START + 3600)["players_left"] == 15


def test_r91_equal_stacks_out_in_one_deal_share_the_places_and_their_payouts() -> None:
    t = make(players=PLAYERS[:4], tables=1, rebuy_until_level=None, add_on=None,
             payouts=[50, 30, 20], fee=0, buy_in=25).apply(rec(T.RESUME, 0))
    p = t.setup.players  # a pool of 100: 50, 30, 20
    t = t.apply(rec(T.BUST, 1, table=0, out=((p[0], 100),)))
    t = t.apply(rec(T.BUST, 2, table=0, out=((p[1], 700), (p[2], 700))))
    shared = t.places()[1]
    assert (shared.first, set(shared.names), shared.payouts) == (2, {p[1], p[2]}, (25, 25))
    assert t.finished() and t.places()[0].names == (p[3],)
    assert [pl.first for pl in t.places()] == [1, 2, 4]
    assert sum(pay for pl in t.places() for pay in pl.payouts) == t.pool
    assert shared_places([30, 20, 10], 5) == (20, 20, 20)
    assert shared_places([30, 25], 5) == (30, 25)  # 11 units: the odd one to the first


def test_r91_a_bust_during_rebuys_stays_in_until_the_period_ends_or_they_decline() -> None:
    t = started()
    p = t.setup.players
    t = t.apply(rec(T.BUST, 10, table=0, out=((p[0], 500),)))
    t = t.apply(rec(T.BUST, 11, table=0, out=((p[1], 800),)))
    t = t.apply(rec(T.BUST, 12, table=0, out=((p[2], 800),)))
    assert t.public(START + 12 * 60)["players_left"] == 18
    assert t.public(START + 12 * 60)["waiting_on_rebuy"] == sorted(p[:3])
    t = t.apply(rec(T.REBUY, 13, player=p[1], stack=0))  # back in: no longer out
    t = t.apply(rec(T.DECLINE, 14, player=p[2]))  # placed now
    assert [pl.names for pl in t.places()] == [(p[2],)]
    # the period ends at minute 40: the one still waiting is placed then
    state = t.public(START + 41 * 60)
    assert state["players_left"] == 16 and state["waiting_on_rebuy"] == []
    assert [(pl["place"], pl["players"][0]["name"]) for pl in state["places"]] == [
        (17, p[0]), (18, p[2])]  # placed when they are out: p[2] by declining, first
    with pytest.raises(IllegalActionError, match="is not waiting on a rebuy"):
        t.apply(rec(T.DECLINE, 15, player=p[3]))


# --------------------------------------------------------------------------- R93 payouts

@pytest.mark.parametrize(("entries", "percents"), [
    (2, [100]), (7, [100]), (8, [65, 35]), (15, [65, 35]), (16, [50, 30, 20]),
    (25, [50, 30, 20]), (26, [40, 30, 20, 10]), (40, [40, 30, 20, 10]),
])
def test_r93_the_default_table(entries: int, percents: list[int]) -> None:
    assert DEFAULT_PAYOUTS.shares(entries) == tuple(Fraction(p, 100) for p in percents)


def test_r93_above_40_entries_10_percent_paid_each_in_proportion_to_1_over_place() -> None:
    shares = DEFAULT_PAYOUTS.shares(57)  # 5 places: 1, 1/2, 1/3, 1/4, 1/5 of 137/60
    assert shares == tuple(Fraction(60, 137) / k for k in range(1, 6))
    assert payouts(1370, 57, DEFAULT_PAYOUTS, unit=1) == (600, 300, 200, 150, 120)


def test_r93_amounts_round_down_to_the_unit_and_the_rest_goes_to_first() -> None:
    assert payouts(1003, 16, DEFAULT_PAYOUTS, unit=5) == (503, 300, 200)
    assert payouts(999, 10, DEFAULT_PAYOUTS, unit=10) == (659, 340)
    host = PayoutTable.from_json([{"up_to": 5, "percents": [100]}, {"percents": [70, 30]}])
    assert payouts(200, 4, host, 1) == (200,) and payouts(200, 9, host, 1) == (140, 60)
    assert payouts(100, 2, PayoutTable.from_json([50, 30, 20]), 1) == (70, 30)


def test_r93_the_prize_pool_is_buy_ins_less_fees_rebuys_and_add_ons() -> None:
    t = started()
    t = t.apply(rec(T.REBUY, 5, player=t.setup.players[0], stack=100))
    t = t.apply(rec(T.ADD_ON, 41, player=t.setup.players[1]))
    assert t.pool == 18 * 18 + 20 + 20
    assert t.public(START)["payouts"] == [183, 109, 72]  # 364: 182, 109.2, 72.8; 1 to first


@settings(max_examples=200, deadline=None)
@given(pool=st.integers(0, 10**7), entries=st.integers(1, 300), unit=st.sampled_from(
    [1, 5, 10, 25, 100]))
def test_r93_payouts_conserve_the_prize_pool(pool: int, entries: int, unit: int) -> None:
    paid = payouts(pool, entries, DEFAULT_PAYOUTS, unit)
    assert sum(paid) == pool
    assert all(a % unit == 0 for a in paid[1:])
    assert list(paid[1:]) == sorted(paid[1:], reverse=True)


stacks_strategy = st.lists(st.integers(1, 10**6), min_size=2, max_size=6)


@settings(max_examples=100, deadline=None)
@given(stacks=stacks_strategy, pool=st.integers(0, 10**6), unit=st.sampled_from([1, 5, 20]))
def test_r93_chops_conserve_the_pool_left(stacks: list[int], pool: int, unit: int) -> None:
    names = {f"N{i}": s for i, s in enumerate(stacks)}
    prizes = payouts(pool, 40, DEFAULT_PAYOUTS, unit) + (0,) * 6
    for method in ChopMethod:
        agreed = chop(method, names, prizes, unit)
        assert sum(agreed.values()) == sum(prizes[: len(stacks)])
        leader = max(names, key=lambda n: (names[n], -list(names).index(n)))
        assert all(a % unit == 0 for n, a in agreed.items() if n != leader)


@settings(max_examples=60, deadline=None)
@given(stacks=st.lists(st.integers(1, 1000), min_size=2, max_size=5),
       prizes=st.lists(st.integers(0, 1000), min_size=1, max_size=5))
def test_r93_icm_is_malmuth_harville_exactly_and_sums_to_the_prizes(
        stacks: list[int], prizes: list[int]) -> None:
    names = {f"N{i}": s for i, s in enumerate(stacks)}
    exact = icm_exact(names, prizes)
    assert sum(exact.values()) == sum(prizes[: len(stacks)])
    # brute force over every finishing order
    brute = dict.fromkeys(names, Fraction(0))
    for order in itertools.permutations(names):
        chance, left = Fraction(1), sum(stacks)
        for name in order:
            chance *= Fraction(names[name], left)
            left -= names[name]
        for place, name in enumerate(order):
            brute[name] += chance * (prizes[place] if place < len(prizes) else 0)
    assert exact == brute


def test_r93_icm_and_chip_chop_of_a_known_final_three() -> None:
    stacks = {"Ann": 5000, "Bob": 3000, "Cy": 2000}
    icm = icm_exact(stacks, [50, 30, 20])
    second = Fraction(3, 10) * Fraction(5, 7) + Fraction(2, 10) * Fraction(5, 8)
    third = Fraction(3, 10) * Fraction(2, 7) + Fraction(2, 10) * Fraction(3, 8)
    assert icm["Ann"] == 50 * Fraction(1, 2) + 30 * second + 20 * third == Fraction(1075, 28)
    assert chop(ChopMethod.CHIPS, stacks, [50, 30, 20], 1) == {"Ann": 50, "Bob": 30, "Cy": 20}
    assert chop(ChopMethod.ICM, stacks, [50, 30, 20], 1) == {"Ann": 40, "Bob": 32, "Cy": 28}
    # 38.39, 32.75, 28.86 rounded down, the 2 left to the chip leader


def final_three() -> tuple[Tournament, Pairs]:
    """Three players, a pool of 300 paid 50, 30, 20, and their stacks for a chop."""
    t = make(players=PLAYERS[:3], tables=1, rebuy_until_level=None, add_on=None, fee=0,
             payouts=[50, 30, 20], buy_in=100).apply(rec(T.RESUME, 0))
    p = t.setup.players
    return t, ((p[0], 9000), (p[1], 4000), (p[2], 2000))


def test_r93_a_recorded_chop_ends_the_tournament_with_the_agreed_amounts() -> None:
    t, stacks = final_three()
    p = t.setup.players
    agreed = chop(ChopMethod.ICM, dict(stacks), t.prizes(), 1)
    with pytest.raises(IllegalActionError, match="not the chop's"):
        t.apply(rec(T.CHOP, 5, method=ChopMethod.ICM, stacks=stacks,
                    amounts=tuple((n, 100) for n, _ in stacks)))
    done = t.apply(rec(T.CHOP, 5, method=ChopMethod.ICM, stacks=stacks,
                       amounts=tuple(agreed.items())))
    assert done.finished() and sum(agreed.values()) == 300
    assert {n: out for n, (_, out) in done.money().items()} == agreed
    with pytest.raises(IllegalActionError, match="over"):
        done.apply(rec(T.REBUY, 6, player=p[0], stack=0))


def test_money_in_and_out_per_person_for_the_books() -> None:
    t = started()
    p = t.setup.players
    t = t.apply(rec(T.REBUY, 5, player=p[0], stack=0)).apply(rec(T.ADD_ON, 41, player=p[0]))
    assert t.money()[p[0]] == (60, 0) and t.money()[p[1]] == (20, 0)


# --------------------------------------------------------------------------- R92 seating

def test_r92_the_big_blind_next_at_the_fullest_table_moves_to_the_worst_seat() -> None:
    views = [TableView(0, ("A", "B", "C", "D", "E", "F"), (9,) * 6, 3),
             TableView(1, ("G", "H", "I", "J"), (9,) * 4, 1)]
    move = balancing_move(views, seats=9)
    # D's button: E deals next, F posts the small blind, A the big
    assert move is not None and (move.player, move.from_table, move.to_table) == ("A", 0, 1)
    assert balancing_move([views[0], TableView(1, ("G", "H", "I", "J", "K"), (9,) * 5)],
                          seats=9) is None  # 6 and 5: balanced enough
    assert big_blind_next(("A", "B", "C"), (9, 0, 9), 0) == 0  # the seat with no chips skipped


def folded_deal(table: Table) -> Table:
    """A deal where everyone folds to the big blind (no one's stack goes to 0)."""
    rng = random.Random(0)
    table = table.apply(table.prepare({"type": "start_deal"}))
    while not table.deal_over:
        options = legal_actions(table, rng)
        kinds = {o["type"]: o for o in options}
        body = next((kinds[k] for k in ("fold", "check", "next") if k in kinds), options[0])
        table = table.apply(table.prepare(body))
    return table


@pytest.mark.parametrize(("deals", "stacks"), [
    (1, (500, 500, 500, 500)), (2, (500, 500, 500, 500)), (3, (500, 0, 500, 500)),
    (4, (500, 500, 0, 500)), (2, (0, 500, 500, 500))])
def test_r92_the_moved_player_posts_the_big_blind_in_the_next_deal_at_a_real_table(
        deals: int, stacks: tuple[int, ...]) -> None:
    """The seat named is the one a real table (R70's ``seat``) makes post the big blind,
    a seat with no chips (a player waiting on a rebuy) skipped."""
    table = Table.create(CATALOGUE, TOURNAMENT_GAMES[0], [
        {"name": n, "stack": s} for n, s in zip("GHIJ", stacks, strict=True)],
        {"small_blind": 1, "big_blind": 2})
    for _ in range(deals):
        table = folded_deal(table)
    view = TableView(1, table.totals.names, table.totals.stacks, table.totals.button)
    after = worst_seat(view, "F")
    table = table.apply(table.prepare({"type": "seat", "player": "F", "stack": 500,
                                       "after": after}))
    table = table.apply(table.prepare({"type": "start_deal"}))
    assert table.deal is not None
    big = next(seat for seat, kind, _ in table.deal.posted if kind == "big")
    assert table.deal.players[big].name == "F"


def test_r92_a_table_breaks_when_the_players_fit_the_others_seats_drawn_at_random() -> None:
    views = [TableView(0, tuple("ABCDEFGX"), (9,) * 8),
             TableView(1, tuple("HIJKLM"), (9,) * 6), TableView(2, tuple("NOPQR"), (9,) * 5)]
    assert table_to_break(views, seats=9) is None  # 19 players do not fit 2 tables of 9
    views[0] = TableView(0, tuple("ABCDEF"), (9,) * 6)
    breaking = table_to_break(views, seats=9)
    assert breaking is not None and breaking.number == 2
    moves = draw_break(views, breaking, random.Random(1))
    assert {m.player for m in moves} == set("NOPQR")
    to = [m.to_table for m in moves]
    assert sorted((to.count(0) + 6, to.count(1) + 6)) == [8, 9]  # the fewest filled first
    assert draw_break(views, breaking, random.Random(1)) == moves  # the draw is its source's
    assert {draw_break(views, breaking, random.Random(s)) for s in range(8)} != {moves}


def test_r92_moves_carried_out_must_be_the_named_ones() -> None:
    t = started()
    tables = t.setup.tables
    views = [TableView(i, names, (9,) * len(names)) for i, names in enumerate(tables)]
    moves = draw_break(views, views[2], random.Random(3))
    drawn = t.apply(rec(T.DRAW, 1, moves=moves))
    assert drawn.named_moves(views) == moves
    first, other = moves[0], next(m for m in moves if m.to_table != moves[0].to_table)
    with pytest.raises(IllegalActionError, match="seat was drawn at table"):
        drawn.apply(rec(T.MOVE, 2, player=first.player, table=2,
                        to_table=other.to_table))
    with pytest.raises(IllegalActionError, match="A table is breaking"):
        drawn.apply(rec(T.MOVE, 2, player=tables[0][0], table=0, to_table=1))
    for move in moves:
        drawn = drawn.apply(rec(T.MOVE, 2, player=move.player, table=2,
                                to_table=move.to_table, after=move.after))
    assert drawn.tables_in_play() == (0, 1) and drawn.standing.draw == ()


def test_undo_drops_the_last_record_but_not_the_tables_facts() -> None:
    t = started()
    p = t.setup.players
    t = t.apply(rec(T.REBUY, 5, player=p[0], stack=0))
    t = t.apply(rec(T.BUST, 6, table=0, out=((p[1], 10),)))
    back = t.apply(rec(T.UNDO, 7))
    assert back.standing.rebuys == {} and back.standing.pending  # the bust stays
    with pytest.raises(IllegalActionError, match="Nothing to undo"):
        make().undo()


def test_r91_a_deal_reopened_at_its_table_takes_its_bust_back() -> None:
    t = out_after_rebuys(started())
    p = t.setup.players
    t = t.apply(rec(T.BUST, 51, table=0, deal=4, out=((p[0], 300),)))
    assert t.public(START + 3600)["players_left"] == 17
    t = t.apply(rec(T.REOPEN, 52, table=0, deal=4))
    assert t.public(START + 3600)["players_left"] == 18 and t.places() == ()
    t = t.apply(rec(T.BUST, 53, table=0, deal=4, out=((p[1], 300),)))  # played again
    assert [pl.names for pl in t.places()] == [(p[1],)]
    with pytest.raises(IllegalActionError, match="No bust of that deal"):
        t.apply(rec(T.REOPEN, 54, table=1, deal=4))


def test_r90_a_start_deal_carries_its_levels_blinds_and_r92_a_moved_player_comes_back() -> None:
    """The records a tournament's table takes: a deal started with the level's blinds and
    antes laid over the house rules, and a seat for a player moved back to a table they
    left."""
    table = Table.create(CATALOGUE, TOURNAMENT_GAMES[0], ["Ann", "Bob", "Cy"],
                         {"small_blind": 1, "big_blind": 2})
    started_deal = table.apply(table.prepare({"type": "start_deal", "blinds": {
        "small_blind": 50, "big_blind": 100, "ante": 10}}))
    assert started_deal.deal is not None
    assert sorted((kind, paid) for _, kind, paid in started_deal.deal.posted) == [
        ("ante", 10), ("ante", 10), ("ante", 10), ("big", 90), ("small", 50)]
    assert table.prepare({"type": "start_deal", "blinds": {"big_blind": 5}}).to_json() == {
        "type": "start_deal", "blinds": {"big_blind": 5}}
    with pytest.raises(InvalidActionError, match="blinds must be whole numbers"):
        table.prepare({"type": "start_deal", "blinds": {"big_blind": -5}})
    with pytest.raises(IllegalActionError, match="has not left this table"):
        table.apply(table.prepare({"type": "seat", "player": "Dee", "back": True}))
    gone = table.apply(table.prepare({"type": "leave", "player": "Cy"}))
    with pytest.raises(IllegalActionError, match="has already sat at this table"):
        gone.apply(gone.prepare({"type": "seat", "player": "Cy"}))
    back = gone.apply(gone.prepare({"type": "seat", "player": "Cy", "stack": 700,
                                    "back": True}))
    assert back.totals.names == ("Ann", "Bob", "Cy") and back.totals.stacks[-1] == 700


# --------------------------------------------------------------------------- R93 new payouts

FOUR_PLACES = PayoutTable.from_json([40, 30, 20, 10])


def test_r93_the_host_gives_another_table_until_a_paid_place_is_decided() -> None:
    t = out_after_rebuys(started())  # 18 entries, a pool of 18 x 18
    assert t.payouts() == (163, 97, 64)  # 162, 97.2, 64.8 down, the 1 left to first
    changed = t.apply(rec(T.PAYOUTS, 51, payouts=FOUR_PLACES))
    assert changed.payouts() == (131, 97, 64, 32)  # 129.6 down, what is left to first
    assert changed.public(START + 52 * 60)["payouts"] == [131, 97, 64, 32]
    with pytest.raises(IllegalActionError, match=r"^Those are the payouts already\.$"):
        changed.apply(rec(T.PAYOUTS, 52, payouts=FOUR_PLACES))
    # stored and read back, the same table; replayed, the same amounts
    stored = TournamentRecord.from_json(changed.records[-1].to_json())
    assert stored == changed.records[-1]
    assert Tournament(t.setup, changed.records).payouts() == (131, 97, 64, 32)
    assert changed.undo().payouts() == (163, 97, 64)
    # 13 placed, 5th to 18th: no paid place yet; the table may change again
    p = t.setup.players
    for i in range(14):
        changed = changed.apply(rec(T.BUST, 52 + i, table=0, out=((p[i], 100),)))
    again = changed.apply(rec(T.PAYOUTS, 70, payouts=PayoutTable.from_json([60, 40])))
    assert again.payouts() == (195, 129)  # 194.4 down, the 1 left to first
    # 4th is paid by the four-place table: the table stays, and undo cannot change it
    fourth = changed.apply(rec(T.BUST, 71, table=0, out=((p[14], 100),)))
    with pytest.raises(IllegalActionError, match=(
            rf"^The payouts stay as they are: {p[14]} has finished in a paid place "
            r"\(4th\)\.$")):
        fourth.apply(rec(T.PAYOUTS, 72, payouts=PayoutTable.from_json([60, 40])))
    with pytest.raises(IllegalActionError, match="paid place"):
        fourth.apply(rec(T.PAYOUTS, 72, payouts=DEFAULT_PAYOUTS))
    with pytest.raises(IllegalActionError, match=r"paid place \(4th\)"):
        fourth.undo()  # back to the usual three places: the 4th's prize would go
    with pytest.raises(IllegalActionError, match="paid place"):
        again.apply(rec(T.BUST, 71, table=0, out=((p[14], 100),))).apply(rec(
            T.PAYOUTS, 72, payouts=FOUR_PLACES))  # paid by the table asked for: 4th of 4
    places = {pl.first: pl.payouts for pl in fourth.places()}
    assert places[4] == (32,)


def test_r93_after_a_chop_the_payouts_stay() -> None:
    t, stacks = final_three()
    agreed = chop(ChopMethod.CHIPS, dict(stacks), t.prizes(), 1)
    done = t.apply(rec(T.CHOP, 5, method=ChopMethod.CHIPS, stacks=stacks,
                       amounts=tuple(agreed.items())))
    with pytest.raises(IllegalActionError, match=r"^The payouts stay as they are: a chop "
                                                 r"has been agreed\.$"):
        done.apply(rec(T.PAYOUTS, 6, payouts=DEFAULT_PAYOUTS))
    with pytest.raises(SetupError, match="add up to 90, not 100"):
        PayoutTable.from_json([60, 30])


@settings(max_examples=60, deadline=None)
@given(entries=st.integers(2, 18), percents=st.sampled_from(
    [[100], [65, 35], [50, 30, 20], [40, 30, 20, 10], [35, 25, 20, 12.5, 7.5]]),
    unit=st.sampled_from([1, 5, 10]), order=st.randoms(use_true_random=False))
def test_r93_a_new_table_pays_the_whole_pool_to_the_places(
        entries: int, percents: list[float], unit: int, order: random.Random) -> None:
    """Whatever the table given before the first paid place, the places pay the pool, each
    the new table's amount for its place."""
    t = make(players=PLAYERS[:entries], tables=1 if entries <= 9 else 2, add_on=None,
             rebuy_until_level=None, fee=0, buy_in=15, unit=unit).apply(rec(T.RESUME, 0))
    table = PayoutTable.from_json(percents)
    if table != t.payout_table():
        t = t.apply(rec(T.PAYOUTS, 1, payouts=table))
    players = list(t.setup.players)
    order.shuffle(players)
    for minute, name in enumerate(players[:-1], start=2):
        t = t.apply(rec(T.BUST, minute, table=t.standing.table_of[name], out=((name, 10),)))
    paid = {pl.first: pl.payouts[0] for pl in t.places()}
    expected = payouts(15 * entries, entries, table, unit)
    assert t.finished() and sum(paid.values()) == t.pool == 15 * entries
    assert [paid[place] for place in range(1, len(expected) + 1)] == list(expected)
