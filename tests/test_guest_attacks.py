"""A guest cannot freeze the table (issue 25): each attack of the issue against a real
``dealer-assist serve``, with real sockets from a guest process of its own, while the tablet
deals over Socket.IO from the server's own machine (bench/guest_attacks.py runs the same
and prints the figures of docs/benchmarks.md). The guest's process is niced and kept to a
core of its own, as another laptop's CPU would be: what a bound measures is what the server
does for the guest. Speed is judged against the tablet's quiet median taken in the same
run; the issue's 1 s for any action holds unless the machine's own stalls, with no guest,
already came near it (then twice the quiet phase's slowest).

- freeze: 1,000 and 2,000 sockets holding half-sent requests, closed all at once: every
  action acknowledged within 1 s, during and after, and back to the quiet median 2 s after;
- join spam: 8 clients from one address for 15 s: the median at most 2x quiet, none over
  1 s, the server's memory up less than 50 MB, one refusal heard per connection;
- slowloris: a request unfinished after 10 s is closed, one address holds at most its cap,
  a new phone and a new dealer websocket get in meanwhile;
- garbage: every event with a missing or wrong argument acknowledged with a sentence, no
  traceback, the log growing by a few KB a minute at most.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import guest_attacks

from dealer_assist.cli.banner import lan_address

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


@pytest.mark.parametrize("sockets", [1000, 2000])
def test_a_guest_closing_a_thousand_half_sent_requests_freezes_nothing(
    tmp_path: Path, sockets: int
) -> None:
    result = guest_attacks.freeze(tmp_path, sockets)
    print(f"[figures] freeze {result}")
    assert result["sockets"] == sockets and result["server_alive"], result
    assert result["not_200"] == 0 and result["acks"] > 50, result
    # every action acknowledged within 1 s, while the sockets were opened, held and closed:
    # beyond what the machine's own stalls cost when no guest was there (a shared machine's
    # quiet phase has had a 0.4 s ack; on a quiet one the bound is the second)
    assert result["max_ms"] < max(1000, 2 * result["quiet_max_ms"]), result
    # and, 2 s after the release, the quiet median again (within the noise of a busy machine)
    assert result["after_2s_ratio"] < 1.5, result


def test_join_spam_costs_the_dealer_little_and_is_refused_cheaply(tmp_path: Path) -> None:
    assert not lan_address().startswith("127."), "the test needs a LAN address on this machine"
    result = guest_attacks.joins(tmp_path, clients=8, seconds=15)
    print(f"[figures] join spam {result}")
    assert result["joins"] > 100 and result["refused"] > 0, result  # it really attacked
    assert result["not_200"] == 0, result
    assert result["ratio"] <= 2.0, result
    assert result["loaded_max_ms"] < max(1000, 2 * result["quiet_max_ms"]), result
    assert result["rss_growth_mib"] < 50, result
    # a guest over its rate hears one sentence a connection, then finds the door shut
    assert result["errors_heard"] <= result["connects"] + 8, result


def test_a_slowloris_is_closed_at_10_s_and_never_locks_anyone_out(tmp_path: Path) -> None:
    assert not lan_address().startswith("127."), "the test needs a LAN address on this machine"
    result = guest_attacks.slowloris(tmp_path)
    print(f"[figures] slowloris {result}")
    assert result["held"] <= 32 and result["refused_503"] == result["tried"] - result["held"]
    assert result["refused_503"] >= 12, result
    assert result["never_closed"] == 0, result
    assert result["closed_after_min_s"] >= 9.9 and result["closed_after_max_s"] < 13, result
    assert len(result["bodies_closed_after_s"]) == 4, result  # the slow bodies too
    assert result["new_phone_page"] == 200 and result["new_phone_state_seq"] == 0, result
    assert result["new_dealer_ack"] == 200, result


def test_bad_arguments_are_acknowledged_and_cannot_flood_the_log(tmp_path: Path) -> None:
    assert not lan_address().startswith("127."), "the test needs a LAN address on this machine"
    result = guest_attacks.garbage(tmp_path, seconds=20)
    print(f"[figures] garbage {({k: v for k, v in result.items() if k != 'log'})}")
    assert result["calls"] > 50 and result["broken_packets"] > 50, result
    assert result["broken_requests"] > 50, result
    assert result["acks_with_error"] == result["calls"], result  # a sentence every time
    assert result["no_ack"] == 0, result
    assert result["tracebacks"] == 0, result["log"]
    assert result["log_bytes_a_minute"] < 4096, result["log"]  # a few KB a minute at most
    assert result["tablet_not_200"] == 0, result
