"""The reliability tests' figures (kills survived, fuzz cases run, routes walked, ...).

Each test calls :func:`record`; the figure is printed (``pytest -s`` shows it) and, when
``DEALER_ASSIST_FIGURES=<file>`` is set, merged into that JSON file, from which
docs/reliability.md takes its numbers.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

_lock = threading.Lock()


def record(test: str, **figures: Any) -> None:
    print(f"\n[figures] {test}: " + ", ".join(f"{k}={v}" for k, v in figures.items()))
    target = os.environ.get("DEALER_ASSIST_FIGURES")
    if not target:
        return
    path = Path(target)
    with _lock:
        data: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
        data[test] = figures
        path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
