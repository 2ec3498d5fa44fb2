"""The phone's side of ``state_patch`` (static/js/common.js ``applyPatch``), in Python: what the
tests' and the benchmarks' clients do with a patch. The server only makes patches
(``dealer_assist.web.patch``)."""

from __future__ import annotations

import copy
from typing import Any

from dealer_assist.web.patch import Operation


def apply_patch(state: dict[str, Any], operations: list[Operation]) -> dict[str, Any]:
    """``state`` with ``operations`` applied, on a copy (``state`` is left as it was)."""
    return apply_in_place(copy.deepcopy(state), copy.deepcopy(operations))


def apply_in_place(state: dict[str, Any], operations: list[Operation]) -> dict[str, Any]:
    """``operations`` applied to ``state`` itself, as the phone applies them
    (static/js/common.js ``applyPatch``); returns the result."""
    result = state
    for operation in operations:
        path = operation[0]
        if not path:  # the whole state replaced
            result = operation[1]
            continue
        parent: Any = result
        for key in path[:-1]:
            parent = parent[key]
        if len(operation) == 1:
            del parent[path[-1]]
        else:
            parent[path[-1]] = operation[1]
    return result
