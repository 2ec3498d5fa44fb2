"""A free TCP port for a server that a test or a benchmark starts (standard library only:
the guest scripts import it without the app, whose code they may measure in another
checkout)."""

from __future__ import annotations

import random
import socket
from pathlib import Path

_PORTS_GIVEN: set[int] = set()


def _ephemeral_range() -> tuple[int, int]:
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999


def free_port() -> int:
    """A port no other socket holds, from below the kernel's ephemeral range.

    A port the kernel hands out for bind(0) comes from the same range as the local ports of
    outgoing connections, so between closing the probe and the server binding it, any client
    (a browser, a phone in a load test) could take it: CI once lost two servers that way to
    "Address already in use". Ports below the range are only ever taken by explicit binds;
    the probe binds every address, as a server on the LAN address does."""
    low, _ = _ephemeral_range()
    start, stop = (10000, low) if low > 11000 else (low // 2, low)
    for _ in range(200):
        port = random.randrange(start, stop)
        if port in _PORTS_GIVEN:
            continue
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
                s.bind(("0.0.0.0", port))
        except OSError:
            continue
        _PORTS_GIVEN.add(port)
        return port
    raise AssertionError("no free port below the ephemeral range")
