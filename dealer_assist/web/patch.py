"""What changed between two states, as the ``state_patch`` event carries it (docs/api.md).

A patch is a list of operations, each ``[path, value]`` (set the value at ``path``) or
``[path]`` (remove the key at ``path``); a path is a list of object keys and array indexes
from the state's top. Objects are compared key by key, arrays of the same length index by
index (a player's stack changes, not the whole players list), anything else is replaced
whole. Applied in order to the state of seq ``base_seq`` the operations give the state of
``seq`` exactly (tests/test_live_patch.py).
"""

from __future__ import annotations

from typing import Any

Path = list[str | int]
Operation = list[Any]  # [path, value] or [path]


def same(old: Any, new: Any) -> bool:
    """Equal as JSON: ``True`` is not ``1`` and ``1`` is not ``1.0`` here."""
    return type(old) is type(new) and old == new


def diff(old: Any, new: Any, path: Path, out: list[Operation]) -> None:
    if same(old, new):
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key, value in new.items():
            if key in old:
                diff(old[key], value, [*path, key], out)
            else:
                out.append([[*path, key], value])
        out.extend([[*path, key]] for key in old if key not in new)
        return
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        changed = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if not same(a, b)]
        # most of the array changed (a log shifted by one line): the array is shorter whole
        if 2 * len(changed) <= len(new):
            for i in changed:
                diff(old[i], new[i], [*path, i], out)
            return
    out.append([path, new])


def state_patch(old: dict[str, Any], new: dict[str, Any]) -> list[Operation]:
    """The operations that turn the state ``old`` into the state ``new``."""
    out: list[Operation] = []
    diff(old, new, [], out)
    return out
