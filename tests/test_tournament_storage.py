"""Tournaments in storage and the service (R89, R90), on both engines: stored with their
tables and read back by another process's store, and a running clock paused for the time
the server was down."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dealer_assist.services import storage
from dealer_assist.services.tables import TableStore
from dealer_assist.services.tournaments import TournamentStore

pytestmark = [pytest.mark.timeout(120), pytest.mark.both_engines]

LEVELS: list[dict[str, Any]] = [
    {"minutes": 15, "small_blind": 25, "big_blind": 50},
    {"minutes": 15, "small_blind": 50, "big_blind": 100, "ante": 10},
    {"break": 10, "color_up": 25},
    {"minutes": 15, "small_blind": 100, "big_blind": 200, "big_blind_ante": 200},
    {"minutes": 15, "small_blind": 200, "big_blind": 400, "big_blind_ante": 400},
]
START = 1_800_000_000.0


def body(**changes: Any) -> dict[str, Any]:
    return {"name": "Friday", "buy_in": 20, "chips": 5000, "levels": LEVELS,
            "rebuy_until_level": 1, "add_on": {"chips": 5000, "cost": 20},
            "late_until_level": 1, "fee": 2, "seats": 7, "tables": 3,
            "players": [f"Player {i + 1}" for i in range(18)], **changes}



def test_r89_a_tournament_is_stored_with_its_tables_and_read_back(database: str) -> None:
    storage.init_db(database)
    db = storage.connect(database)
    try:
        store = TournamentStore(TableStore(), now=lambda: START, rng=random.Random(1))
        created = store.create(db, body())
        store.act(db, created.id, {"type": "resume"})
        store.act(db, created.id, {"type": "level", "to": 1})
        again = TournamentStore(TableStore(), now=lambda: START + 60)  # another process
        state = again.public(db, created.id)
        assert state is not None
        assert state["clock"]["level"] == 1 and state["clock"]["seconds_left"] == 14 * 60
        assert [len(t["players"]) for t in state["tables"]] == [6, 6, 6]
        assert {p["stack"] for t in state["tables"] for p in t["players"]} == {5000}
        tournament = again.load(db, created.id)
        assert tournament is not None
        assert tournament.setup.tables == created.tournament.setup.tables  # the draw kept
        assert storage.tournaments.tournament_of_table(db, created.tables[2].id) == (
            created.id, 2)
        assert storage.schema_version(db) == len(storage.MIGRATIONS)
    finally:
        db.close()


def test_r90_after_a_restart_a_running_clock_is_paused_for_the_downtime(
        database: str) -> None:
    storage.init_db(database)
    db = storage.connect(database)
    try:
        moment = [START]
        store = TournamentStore(TableStore(), now=lambda: moment[0], rng=random.Random(1))
        created = store.create(db, body())
        store.act(db, created.id, {"type": "resume"})
        moment[0] = START + 300
        store.mark_alive(db)  # the last heartbeat: 5 minutes in
        moment[0] = START + 3600  # the server comes back an hour later
        restarted = TournamentStore(TableStore(), now=lambda: moment[0])
        assert restarted.recover(db) == [created.id]
        state = restarted.public(db, created.id)
        assert state is not None and state["clock"]["seconds_left"] == 10 * 60
        assert state["clock"]["running"] and state["clock"]["level"] == 0
    finally:
        db.close()
