"""``dealer-assist serve`` with one of its blocking parts made slow on purpose, for
tests/test_off_loop.py. Each pause is the standard library's own ``time.sleep``, taken before
gevent patches it: it blocks its native thread as a slow disk or a busy CPU would, and it
cannot yield to gevent's loop.

    python tests/serve_with_slow_parts.py [--slow-fsync S] [--slow-warm-up S] [--on-loop]
        -- serve --port P --db FILE ...

``--on-loop`` runs what web/off_loop.py would send to a native thread on the loop itself:
the control that shows the test can fail.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

BLOCK = time.sleep  # the real one: gevent has not patched the process yet


def slowed(fn: Callable[..., Any], seconds: float) -> Callable[..., Any]:
    def slow(*args: Any, **kwargs: Any) -> Any:
        BLOCK(seconds)
        return fn(*args, **kwargs)

    return slow


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slow-fsync", type=float, default=0.0)
    parser.add_argument("--slow-warm-up", type=float, default=0.0)
    parser.add_argument("--on-loop", action="store_true")
    args, rest = parser.parse_known_args(argv)
    if rest[:1] == ["--"]:
        rest = rest[1:]
    from dealer_assist import cli
    from dealer_assist.core import evaluator
    from dealer_assist.services import storage
    from dealer_assist.web import off_loop

    if args.slow_fsync:
        storage.sync_log = slowed(storage.sync_log, args.slow_fsync)  # type: ignore[assignment]
    if args.slow_warm_up:
        warm_up = slowed(evaluator.warm_up, args.slow_warm_up)

        def warm_up_and_say() -> None:
            warm_up()
            print("warm-up done", flush=True)

        evaluator.warm_up = warm_up_and_say  # type: ignore[assignment]
    if args.on_loop:
        off_loop.run = lambda fn, *a, **kw: fn(*a, **kw)  # type: ignore[assignment]
        off_loop.start = lambda fn, name: fn()  # type: ignore[assignment]
    return cli.main(rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
