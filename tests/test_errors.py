"""One error hierarchy (core/errors.py): a malformed body, a rule's refusal, a stale table and
a refused import are different types, all of them ``DealerAssistError`` (nothing changed),
and the HTTP answers stay what they were (400, 400, 409, 400)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import new_table
from flask.testing import FlaskClient

from dealer_assist.core.errors import (
    BadCardError,
    DealerAssistError,
    IllegalActionError,
    ImportRefusedError,
    InvalidActionError,
    InvalidInputError,
    SetupError,
    StaleTableError,
)
from dealer_assist.games import registry
from dealer_assist.services import history, storage, tables
from dealer_assist.services.auth import hash_token


def test_every_refusal_is_a_dealer_assist_error_and_a_value_error() -> None:
    for kind in (BadCardError, InvalidActionError, IllegalActionError, SetupError,
                 StaleTableError, ImportRefusedError):
        assert issubclass(kind, DealerAssistError)
        assert issubclass(kind, ValueError)
    # malformed input and a rule's refusal are apart, as python-chess's Invalid/IllegalMove
    assert issubclass(InvalidActionError, InvalidInputError)
    assert issubclass(BadCardError, InvalidInputError)
    assert not issubclass(InvalidActionError, IllegalActionError)
    assert not issubclass(IllegalActionError, InvalidInputError)
    assert not issubclass(StaleTableError, (IllegalActionError, InvalidInputError))


def test_r9_an_action_the_rules_refuse_now_is_illegal_not_invalid() -> None:
    t = registry.new_table("texas_dozen", ["Ann", "Bob", "Cy"])
    t = t.apply(t.prepare({"type": "start_deal"}))
    with pytest.raises(IllegalActionError) as err:
        t.apply(t.prepare({"type": "check", "player": "Ann"}))
    assert not isinstance(err.value, InvalidInputError)


def test_an_old_expect_seq_is_a_stale_table(db_path: Path) -> None:
    storage.init_db(db_path)
    db = storage.connect(db_path)
    setup = registry.new_setup("texas_dozen", ["Ann", "Bob", "Cy"], None, "Friday")
    tables.insert_table(db, "t1", setup, hash_token("secret"))
    store = tables.TableStore()
    store.act(db, "t1", {"type": "start_deal"}, expect_seq=0)
    with pytest.raises(StaleTableError, match="it is at seq 1, not 0"):
        store.act(db, "t1", {"type": "next"}, expect_seq=0)
    assert storage.StaleTableError is StaleTableError  # its old name still works
    db.close()


def test_a_file_that_is_not_an_export_is_a_refused_import() -> None:
    with pytest.raises(ImportRefusedError, match="not a dealer-assist table export"):
        history.rebuild({"format": "other", "version": 1, "setup": {}, "actions": []})
    assert history.ImportRefused is ImportRefusedError


def test_the_http_statuses_and_bodies_stay_as_they_were(client: FlaskClient) -> None:
    d = new_table(client, "texas_dozen", ["Ann", "Bob", "Cy"])
    seq = d.act({"type": "start_deal"})["seq"]
    invalid = d.act({"type": "bet", "player": "Ann", "amount": "lots"}, status=400)
    assert invalid == {"error": "amount must be a whole number of chips, not 'lots'."}
    illegal = d.act({"type": "check", "player": "Ann"}, status=400)
    assert set(illegal) == {"error"}
    stale = d.act({"type": "next", "expect_seq": seq - 1}, status=409)
    assert set(stale) == {"error", "seq", "state"} and stale["seq"] == seq
    refused = client.post("/api/tables/import", json={"format": "other"})
    assert refused.status_code == 400 and set(refused.get_json()) == {"error"}
