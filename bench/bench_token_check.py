"""The dealer token check per tap, before and after more than one dealer device (R75).

Run: ``python bench/bench_token_check.py [--rounds 20000] [--devices 5]``

Before R75 every dealer request compared the token's sha256 with the hash in the table's row,
which each process caches (no database read). Now the token is looked up among the table's
dealer tokens in SQLite (``auth.find_dealer_token``: one indexed SELECT by table id and hash),
so that a device signed out through any process, or by ``dealer-assist pair``'s database, is
refused at once. Both are timed side by side, alternating, on a real SQLite file with a table
that has ``--devices`` tokens, on a connection kept open as the server's pool keeps them.
Compare with an action commit (docs/benchmarks.md, "Action commit"): about a millisecond.
"""

from __future__ import annotations

import argparse
import hmac
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine, median, percentile

from dealer_assist.games.registry import new_setup
from dealer_assist.services import auth, storage, tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--devices", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tokens.db"
        storage.init_db(path)
        db = storage.connect(path)
        setup = new_setup("kings_pot", ["Ann", "Bob", "Cy"], None, "Bench")
        first = auth.new_token()
        tables.insert_table(db, "benchtab", setup, auth.hash_token(first))
        for _ in range(args.devices - 1):
            auth.redeem_pairing_code(db, "benchtab", auth.new_pairing_code(db, "benchtab").code)
        row = storage.table_row(db, "benchtab")
        assert row is not None
        cached_hash = row["token_hash"]
        before: list[float] = []
        after: list[float] = []
        for _ in range(args.rounds):
            start = time.perf_counter()
            assert hmac.compare_digest(auth.hash_token(first), cached_hash)
            before.append(time.perf_counter() - start)
            start = time.perf_counter()
            found = auth.find_dealer_token(db, "benchtab", first)
            assert found is not None and not found.signed_out
            after.append(time.perf_counter() - start)
        db.close()
    print(machine())
    print(f"token check, {args.rounds} rounds, {args.devices} dealer tokens at the table")
    print("| check | median | p99 |")
    print("| --- | ---: | ---: |")
    for name, samples in (("cached row hash (before R75)", before),
                          ("dealer_tokens lookup (R75)", after)):
        print(f"| {name} | {median(samples) * 1e6:.1f} µs | "
              f"{percentile(samples, 99) * 1e6:.1f} µs |")
    print(f"ratio of medians: {median(after) / median(before):.1f}x")


if __name__ == "__main__":
    main()
