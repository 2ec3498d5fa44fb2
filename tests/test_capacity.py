"""Capacity of one process (issue 25), with a real server and real sockets.

- Ten thousand idle phones (websockets with Chromium's headers, joined to one of 100 tables,
  bench/raw_phones.py) in one ``dealer-assist serve`` whose open-file limit is 10,300: it
  holds every phone its cap allows (10,300 - 200 descriptors for itself - 32 kept for
  dealers), at most 40 KiB each; a new tablet with its token still gets in and acts, a new
  guest's phone gets the 503.
- Fan-out to 100 phones, the app beside a bare Flask-SocketIO server on the same stack (the
  floor: bench/fanout_floor.py), actions alternating between the two, 50 ms apart, so that a
  stall of the shared machine falls on both alike: the app's p99 over its 15,000 (action,
  phone) pairs at most 1.5x the floor's.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import bench_idle_phones
import fanout_floor

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def test_one_process_holds_ten_thousand_idle_phones_and_a_tablet_gets_in(
    tmp_path: Path,
) -> None:
    result = bench_idle_phones.hold(tmp_path, phones=10_100, files=10_300, tables=100)
    print(f"[figures] idle phones {result}")
    cap = 10_300 - 200 - 32  # its descriptors less its own, less the dealers' room
    assert result["held"] >= 10_000 and result["held"] <= cap, result
    assert result["refused"] == 10_100 - result["held"], result
    assert result["kib_per_phone"] <= 40, result
    assert result["new_tablet_ack"] == 200, result
    assert result["new_guest_phone_status"].startswith("HTTP/1.1 503"), result


def test_fan_out_to_a_hundred_phones_stays_within_half_again_the_floor(
    tmp_path: Path,
) -> None:
    result = fanout_floor.compare(tmp_path, phones=100, actions=150)
    print(f"[figures] fan-out {result}")
    for server in ("app", "bare"):
        assert result[server]["missing"] == 0, result
    assert result["p99_ratio"] <= 1.5, result
