"""mDNS (dealer_assist.web.mdns): announced where the network allows, never fatal. Only the
loopback interface is used here: no packet goes to the real network."""

from __future__ import annotations

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


BROWSE = """
import json, sys, threading
import zeroconf
from dealer_assist.web import mdns

advert = mdns.advertise("127.0.0.1", 5431)
if advert.problem is not None:
    print(json.dumps({"problem": advert.problem}))
    sys.exit(0)
found = threading.Event()
names = []

class Listener(zeroconf.ServiceListener):
    def add_service(self, zc, type_, name):
        names.append(name)
        found.set()

    def update_service(self, zc, type_, name):
        pass

    def remove_service(self, zc, type_, name):
        pass

client = zeroconf.Zeroconf(interfaces=["127.0.0.1"])
try:
    browser = zeroconf.ServiceBrowser(client, mdns.SERVICE_TYPE, Listener())
    seen = found.wait(10)
    browser.cancel()
    info = client.get_service_info(mdns.SERVICE_TYPE, mdns.SERVICE_NAME, timeout=5000)
    print(json.dumps({"problem": None, "names": names, "info": None if info is None else [
        info.server, info.port, info.parsed_addresses()]}))
finally:
    client.close()
    advert.close()
"""


def test_a_browser_on_loopback_finds_dealer_assist_local() -> None:
    """A real advertise and a real browse, both bound to 127.0.0.1 (zeroconf's
    ``interfaces``): the multicast stays on this machine, and the test runs (never skips)
    wherever loopback takes a multicast socket, a container included. In a process of its
    own, as the server's is: the test process has run hundreds of servers and threads."""
    import json
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", BROWSE], capture_output=True, text=True,
                         timeout=50, check=False)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["problem"] is None, (
        f"zeroconf could not announce on 127.0.0.1: {out['problem']} (the loopback interface "
        "needs multicast: ip link set lo multicast on)")
    assert out["names"][:1] == [mdns.SERVICE_NAME], "the browser found no service"
    assert out["info"] == ["dealer-assist.local.", 5431, ["127.0.0.1"]]
