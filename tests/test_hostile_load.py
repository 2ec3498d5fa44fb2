"""A hostile guest beside a dealing tablet (issue 14): one client, through this machine's LAN
address, tries thousands of sockets, keeps Socket.IO clients re-joining in a loop and posts
imports and new tables without the host key, while the tablet deals over Socket.IO from the
server's own machine. Bounded (one real server process, loopback and the LAN address of this
machine only, about a minute).

Every action of the tablet is acknowledged, in seq order, and stored; the guest made no
table; its joins were refused with sentences and its sockets closed. Speed: the strict
promise (the tablet's median under load within twice its quiet median) is measured by
``bench/hostile_guest.py bench`` (docs/benchmarks.md); on a shared 2-core machine, where the
guest's own process takes one of the two cores, this test holds only a bound that fails if the
guest can stall the tablet for seconds.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import hostile_guest

from dealer_assist.cli.banner import lan_address

pytestmark = [pytest.mark.slow, pytest.mark.timeout(400)]

ACTIONS = 61


def test_a_guest_with_thousands_of_sockets_cannot_stall_or_lose_the_tablets_actions(
    tmp_path: Path,
) -> None:
    assert not lan_address().startswith("127."), "the test needs a LAN address on this machine"
    result = hostile_guest.run(tmp_path, ACTIONS, sockets=3000)
    guest = result["guest"]
    print(f"[figures] hostile_load {result | {'acked_seqs': len(result['acked_seqs'])}}")
    # the guest really attacked
    assert guest["opened"] >= 1000, guest
    # its joins: refused with a sentence once a connection, then its sockets (issue 25)
    assert guest["joins"] > 100 and guest["join_refusals"] > 0, guest
    assert guest.get("connects_refused", 0) > 0, guest
    assert guest["posts_401"] > 0, guest
    # nothing lost: every action acknowledged 200, at the next seq, and stored
    assert result["acked"] == result["sent"] == 2 * ACTIONS
    warm_up = 10
    assert result["acked_seqs"] == list(range(warm_up + 1, warm_up + 2 * ACTIONS + 1))
    assert result["stored_seq"] == warm_up + 2 * ACTIONS
    assert result["tables"] == 1  # no table of the guest's
    # not stalled: no answer waits seconds (before the caps, sockets closing at once froze the
    # server for 108 s). How fast is the bench's to say: a median ratio is a timing, and on a
    # shared 2-core machine it measured 1.7 to 4.2 with the guest on one of the cores.
    assert result["loaded_max_ms"] < 5000, result
