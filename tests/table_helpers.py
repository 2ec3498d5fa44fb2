"""Helpers the rule tests share: act, refuse, stacks."""

from __future__ import annotations

from typing import Any

import pytest

from dealer_assist.errors import IllegalActionError
from dealer_assist.table import Table


def act(t: Table, **body: Any) -> Table:
    """Apply ``body``; every action conserves chips (R3: bank, carry and off_table included)
    and leaves exactly one next step."""
    before = t.chips()
    after = t.apply(t.prepare(body))
    assert after.chips() == before
    step = after.step()
    assert isinstance(step, dict) and isinstance(step["kind"], str)
    return after


def refuse(t: Table, match: str, **body: Any) -> str:
    """R9: ``body`` is refused with a sentence matching ``match``, and nothing changes."""
    before = t.state(dealer=True)
    with pytest.raises(IllegalActionError, match=match) as err:
        t.apply(t.prepare(body))
    assert t.state(dealer=True) == before
    message = str(err.value)
    assert message.endswith(".") and len(message.split()) >= 3
    return message


def stacks(t: Table) -> dict[str, int]:
    return {p["name"]: p["stack"] for p in t.state()["players"]}
