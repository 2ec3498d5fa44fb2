"""No guest's flood of Socket.IO events slows the dealer (issue 32): every packet a connection
sends counts against its own budget (web/guest_caps.py), and a connection over it is cut. On
a real ``dealer-assist serve``, the guest a raw websocket from this machine's LAN address in a
process of its own (bench/guest_attacks.py ``flood``, which prints the figures of
docs/benchmarks.md), the tablet dealing over Socket.IO meanwhile."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import guest_attacks

from dealer_assist.cli.banner import lan_address
from dealer_assist.web.guest_caps import DEFAULTS

BURST = DEFAULTS["EVENT_BURST"]
RATE = DEFAULTS["EVENT_RATE"]

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize("event", ["leave", "action"])
def test_a_flooding_connection_is_cut_while_the_dealer_keeps_its_acks(
    tmp_path: Path, event: str
) -> None:
    assert not lan_address().startswith("127."), "the test needs a LAN address on this machine"
    result = guest_attacks.flood(tmp_path, event, seconds=2.5, quiet=2.0)
    print(f"[figures] flood {result}")
    first = result["first_connection"]
    assert first["sent"] > BURST, result  # it really flooded
    assert first["cut"] and result["all_cut"], result
    # answered at most its burst and what refilled while it was answered, never its flood
    assert first["acks"] <= BURST + RATE * first["seconds"], result
    assert first["seconds"] < 2.0, result  # cut within its burst, not after the flood
    assert result["refused"] > 0, result  # its address is held off a while, as for joins
    assert result["cut_lines"] == 1 and result["tracebacks"] == 0, result  # once, not per event
    assert result["acks"] > 10 and result["not_200"] == 0, result  # the dealer kept acting
    assert result["loaded_max_ms"] < max(1000, 2 * result["quiet_max_ms"]), result


def test_a_dealer_tapping_fast_over_the_lan_is_never_cut(tmp_path: Path) -> None:
    """Far faster than a hand taps: 40 actions back to back, then ten a second for 4 s,
    from the LAN address (the server's own machine is never counted)."""
    address = lan_address()
    assert not address.startswith("127."), "the test needs a LAN address on this machine"
    with guest_attacks.server(tmp_path) as running:
        made = running.table()
        tablet = guest_attacks.Tablet(f"http://{address}:{running.port}", made)
        statuses = [tablet.act()["status"] for _ in range(40)]
        for _ in range(40):
            time.sleep(0.1)
            statuses.append(tablet.act()["status"])
        assert statuses == [200] * 80
        assert tablet.client.connected
        tablet.client.disconnect()
        assert "Socket.IO events at once" not in running.output()
