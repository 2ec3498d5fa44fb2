"""What ``dealer-assist serve`` prints at start: the host's link as a QR code first (it signs the
tablet in as the host), then the address phones open (found on the LAN
when it listens on every address), a QR code of it, ``dealer-assist.local`` beside it when
mDNS works, where the database is, the host's key, and how the dealer gets back in."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from dealer_assist.services import storage
from dealer_assist.web.qr import print_qr


def lan_address() -> str:
    """This machine's address on the local network, found without sending anything: a UDP
    socket's ``connect`` only picks the route (no packet leaves); failing that, the host
    name's address; failing that, loopback."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address: str = probe.getsockname()[0]
        if address and not ipaddress.ip_address(address).is_unspecified:
            return address
    except OSError:
        pass
    finally:
        probe.close()
    try:
        address = socket.gethostbyname(socket.gethostname())
        if address:
            return address
    except OSError:
        pass
    return "127.0.0.1"


def public_host(host: str) -> str:
    """The address to show for ``--host``: the LAN address when listening on every one."""
    if host in ("0.0.0.0", "::", ""):
        return lan_address()
    return host


def url_for_host(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def banner_lines(url: str, db_path: Path | str, mdns_url: str | None = None,
                 mdns_problem: str | None = None, extra: Sequence[str] = ()) -> list[str]:
    """The banner's lines after the QR code, one fact each (add new ones here; ``extra``
    comes after the database)."""
    also = f" (or {mdns_url}/)" if mdns_url else ""
    lines = [f"Address: {url}/{also}", f"Database: {storage.shown_target(db_path)}", *extra]
    if mdns_problem:
        lines.append(f"Name: {mdns_problem} Use the address above.")
    lines += [
        "Dealer: the tablet that made a table keeps its dealer key; on it, open the address "
        "above and pick the table's tablet link to get back in.",
        "Another dealer device, or a lost tablet: run 'dealer-assist pair TABLE' on this "
        "machine for a code ('dealer-assist tables' lists them).",
        "Stop with Ctrl+C.",
    ]
    return lines


def host_link(url: str, key: str) -> str:
    """The link that signs a browser in as the host: the key in the ``#fragment``, which
    browsers never send to a server (the page keeps it, as a dealer token)."""
    return f"{url}/#host={key}"


def announce(url: str, db_path: Path | str, out: TextIO, mdns_url: str | None = None,
             mdns_problem: str | None = None, extra: Sequence[str] = (),
             host_key: str | None = None) -> None:
    """The host's QR code first (the tablet that makes tables needs it before anything else:
    the plain address opens a guest's home page there), then the address everyone else opens."""
    if host_key:
        out.write("Dealer Assist is running. First, on the tablet that makes the tables, scan "
                  "this host link (never show it to the players):\n")
        print_qr(host_link(url, host_key), out)
        out.write(f"Players and other devices open {url}/ or scan:\n")
        extra = [f"Host key: {host_key} ({host_link(url, host_key)})", *extra]
    else:
        out.write(f"Dealer Assist is running. Open {url}/ on the tablet; players scan:\n")
    print_qr(url + "/", out)
    for line in banner_lines(url, db_path, mdns_url, mdns_problem, extra):
        out.write(line + "\n")
    out.flush()
