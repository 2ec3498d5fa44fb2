"""The examples in docstrings and in docs/rules-core.md run as written."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

MODULES = ["core.cards", "core.chain", "core.layouts", "core.rules", "core.actions", "core.pots",
           "core.table", "core.engine", "core.autoplay", "core.hands", "core.lowhands", "core.hilo",
           "web.json_codec", "core.tournament.structure", "core.tournament.clock",
           "core.tournament.money", "core.tournament.seating"]


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name: str) -> None:
    module = importlib.import_module(f"dealer_assist.{name}")
    result = doctest.testmod(module)
    assert result.failed == 0


def test_rules_core_guide_examples() -> None:
    guide = Path(__file__).resolve().parent.parent / "docs" / "rules-core.md"
    result = doctest.testfile(str(guide), module_relative=False)
    assert result.failed == 0 and result.attempted > 0
