"""mDNS (dealer_assist.web.mdns): announced where the network allows, never fatal. Only the
loopback interface is used here: no packet goes to the real network."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import zeroconf

from dealer_assist.web import mdns

pytestmark = pytest.mark.timeout(60)


def test_a_network_that_refuses_is_not_fatal(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise OSError(19, "No such device")

    monkeypatch.setattr(zeroconf, "Zeroconf", refuse)
    advert = mdns.advertise("192.0.2.7", 5000)
    assert advert.name is None
    assert advert.problem == "mDNS is not available here ([Errno 19] No such device)."
    advert.close()  # nothing to close: no error either


def test_without_the_package_it_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "zeroconf", None)
    advert = mdns.advertise("192.0.2.7", 5000)
    assert advert.problem == "mDNS needs the zeroconf package (pip install zeroconf)."


def test_a_browser_on_loopback_finds_dealer_assist_local() -> None:
    """A real advertise and a real browse, both bound to 127.0.0.1 (zeroconf's
    ``interfaces``): the multicast stays on this machine, and the test runs (never skips)
    wherever loopback takes a multicast socket, a container included."""
    advert = mdns.advertise("127.0.0.1", 5431)
    assert advert.problem is None, (
        f"zeroconf could not announce on 127.0.0.1: {advert.problem} (the loopback interface "
        "needs multicast: ip link set lo multicast on)")
    found = threading.Event()
    names: list[str] = []

    class Listener(zeroconf.ServiceListener):
        def add_service(self, zc: zeroconf.Zeroconf, type_: str, name: str) -> None:
            names.append(name)
            found.set()

        def update_service(self, zc: zeroconf.Zeroconf, type_: str, name: str) -> None:
            pass

        def remove_service(self, zc: zeroconf.Zeroconf, type_: str, name: str) -> None:
            pass

    client = zeroconf.Zeroconf(interfaces=["127.0.0.1"])
    try:
        browser = zeroconf.ServiceBrowser(client, mdns.SERVICE_TYPE, Listener())
        assert found.wait(10), "the browser found no service"
        browser.cancel()
        assert names[0] == mdns.SERVICE_NAME
        info = client.get_service_info(mdns.SERVICE_TYPE, mdns.SERVICE_NAME, timeout=5000)
        assert info is not None
        assert (info.server, info.port, info.parsed_addresses()) == (
            "dealer-assist.local.", 5431, ["127.0.0.1"])
    finally:
        client.close()
        advert.close()
