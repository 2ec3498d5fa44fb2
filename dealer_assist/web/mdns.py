"""Found on the LAN: the server announces ``dealer-assist.local`` over mDNS (zeroconf).

Never fatal: where the network or the package refuses, :func:`advertise` says why in one
sentence and the server runs on, reached by its IP address.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass
from typing import Any

HOST_NAME = "dealer-assist.local"
SERVICE_TYPE = "_http._tcp.local."
SERVICE_NAME = f"Dealer Assist.{SERVICE_TYPE}"


@dataclass
class Advert:
    """What :func:`advertise` did: ``name`` is announced (close it on the way out), or
    ``problem`` says why not."""

    name: str | None = None
    problem: str | None = None
    _zeroconf: Any = None
    _info: Any = None

    def close(self) -> None:
        if self._zeroconf is None:
            return
        try:
            self._zeroconf.unregister_service(self._info)
        finally:
            self._zeroconf.close()
            self._zeroconf = None


def advertise(address: str, port: int, host_name: str = HOST_NAME) -> Advert:
    """Announce ``host_name`` -> ``address`` and an HTTP service on ``port``, on the interface
    of ``address`` only."""
    try:
        from zeroconf import ServiceInfo, Zeroconf
    except ImportError:
        return Advert(problem="mDNS needs the zeroconf package (pip install zeroconf).")
    zeroconf = None
    try:
        info = ServiceInfo(
            SERVICE_TYPE, SERVICE_NAME, port=port, server=host_name.rstrip(".") + ".",
            addresses=[socket.inet_aton(address)], properties={"path": "/"},
        )
        zeroconf = Zeroconf(interfaces=[address])
        zeroconf.register_service(info, allow_name_change=True)
    except Exception as err:  # any refusal of the network or the library: say it, go on
        if zeroconf is not None:
            zeroconf.close()
        reason = str(err) or type(err).__name__
        return Advert(problem=f"mDNS is not available here ({reason}).")
    return Advert(name=host_name, _zeroconf=zeroconf, _info=info)
