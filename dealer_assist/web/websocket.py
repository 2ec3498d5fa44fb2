"""Engine.IO's websocket under gevent, at the cost of a few KiB a phone (issue 25: ten
thousand idle phones in one process, at most 40 KiB each; docs/benchmarks.md, "Capacity").

Engine.IO's own gevent websocket (simple-websocket) keeps a reader greenlet per connection
beside the request's, waking it through an event, copies the socket (two descriptors a
phone), negotiates per-message compression (a zlib context of about 300 KB for each browser
that offers it), never limits a message's size, and sends with ``socket.send``, which under
gevent writes what fits and returns: a phone that read slowly got half frames.

:class:`GreenWebSocket` answers the handshake itself (RFC 6455's accept token, no
extension) and reads wsproto's frames where Engine.IO waits for a message: one greenlet,
one descriptor, whole frames, messages of at most :data:`MAX_MESSAGE_BYTES`. The request's
own greenlet, deep in the WSGI stack, hands the connection to a fresh one and ends
(web/server.py's ``detach``), and the headers only the handshake needs leave the environ
Socket.IO keeps. :func:`schedule_ping` pings from a timer of the loop rather than from a
greenlet that sleeps. An idle phone then costs two shallow greenlets (its reader and
Engine.IO's writer) and its objects.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from engineio import packet
from engineio import socket as engineio_socket
from wsproto import ConnectionType
from wsproto.connection import Connection
from wsproto.events import BytesMessage, CloseConnection, Message, Ping, TextMessage
from wsproto.utilities import generate_accept_token

RAW_SOCKET = "dealer_assist.socket"  # environ: the connection's socket (web/server.py)
DETACH = "dealer_assist.detach"  # environ: run a function in a greenlet of its own
SEVER = "dealer_assist.sever"  # environ: end this websocket now (web/guest_caps.py)
MAX_MESSAGE_BYTES = 64 * 1024 + 1024  # Engine.IO's max_http_buffer_size, and a packet's head
RECEIVE_BYTES = 4096
HANDSHAKE_ONLY = ("HTTP_SEC_WEBSOCKET_KEY", "HTTP_SEC_WEBSOCKET_EXTENSIONS",
                  "HTTP_SEC_WEBSOCKET_VERSION", "HTTP_USER_AGENT", "HTTP_ACCEPT_ENCODING",
                  "HTTP_ACCEPT_LANGUAGE", "HTTP_CACHE_CONTROL", "HTTP_PRAGMA")


class GreenWebSocket:
    """What Engine.IO's server takes as ``_async["websocket"]``: made with the handler to
    call (Engine.IO's ``_websocket_handler``) and called as a WSGI app; then the handler
    calls :meth:`wait`, :meth:`send` and :meth:`close` (module docstring)."""

    def __init__(self, handler: Callable[[Any], Any], server: Any) -> None:
        self.handler = handler
        self.sock: Any = None
        self.ws = Connection(ConnectionType.SERVER)  # frames only: the handshake is below
        self.messages: list[str | bytes] = []
        self.parts: list[str | bytes] = []
        self.size = 0
        self.connected = False
        self._sending = threading.Lock()  # gevent's under gevent: one send at a time

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        # popped: Socket.IO keeps this environ as long as the phone stays, and the detach
        # function is the request handler's, with its buffers
        sock, detach = environ.pop(RAW_SOCKET, None), environ.pop(DETACH, None)
        if sock is None or detach is None:
            raise RuntimeError("A websocket needs dealer_assist's server (web/server.py).")
        self.sock = sock
        key = environ.get("HTTP_SEC_WEBSOCKET_KEY", "")
        if (environ.get("HTTP_UPGRADE", "").lower() != "websocket" or not key
                or environ.get("HTTP_SEC_WEBSOCKET_VERSION") != "13"):
            self._send_raw(b"HTTP/1.1 400 Bad Request\r\nConnection: close\r\n"
                           b"Content-Length: 0\r\n\r\n")
            return []
        # RFC 6455's answer, written here: wsproto's own handshake keeps an HTTP parser per
        # phone. No extension is taken (a browser offers compression: a zlib context each).
        accept = generate_accept_token(key.encode("latin-1")).decode()
        self._send_raw(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                       b"Connection: Upgrade\r\nSec-WebSocket-Accept: "
                       + accept.encode() + b"\r\n\r\n")
        self.connected = True
        for spent in HANDSHAKE_ONLY:  # nothing reads them again; each phone keeps the rest
            environ.pop(spent, None)
        environ[SEVER] = self.sever  # the environ Socket.IO keeps for this connection
        detach(lambda: self.handler(self))
        return []

    def _send_raw(self, data: bytes) -> None:
        with self._sending:
            self.sock.sendall(data)

    def send(self, message: str | bytes) -> None:
        """One Engine.IO packet (the writer's greenlet sends them)."""
        if not self.connected:
            raise OSError("the websocket is closed")
        event = (BytesMessage(data=message) if isinstance(message, bytes)
                 else TextMessage(data=message))
        self._send_raw(self.ws.send(event))

    def wait(self) -> str | bytes | None:
        """The next message from the client, read here; None once the connection ends."""
        while not self.messages:
            if not self.connected:
                return None
            try:
                data = self.sock.recv(RECEIVE_BYTES)
            except OSError:  # reset, or silent past the socket's timeout
                data = b""
            if not data:
                self.connected = False
                return None
            self.ws.receive_data(data)
            self._handle_events()
        return self.messages.pop(0)

    def _handle_events(self) -> None:
        for event in self.ws.events():
            if isinstance(event, Message):
                self.parts.append(event.data)
                self.size += len(event.data)
                if self.size > MAX_MESSAGE_BYTES:  # a guest's endless message: goodbye
                    self.close()
                    return
                if event.message_finished:
                    first = self.parts[0]
                    joined = ("".join(self.parts) if isinstance(first, str)  # type: ignore[arg-type]
                              else b"".join(self.parts))  # type: ignore[arg-type]
                    self.messages.append(joined)
                    self.parts, self.size = [], 0
            elif isinstance(event, Ping):
                self._send_raw(self.ws.send(event.response()))
            elif isinstance(event, CloseConnection):
                with contextlib.suppress(Exception):
                    self._send_raw(self.ws.send(event.response()))
                self.connected = False

    def sever(self) -> None:
        """End the connection at once, without a closing handshake: a flooder's (web/
        guest_caps.py). Its reader then reads nothing more, and a writer stuck on a client
        that does not read fails and ends."""
        self.connected = False
        self.messages.clear()
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        if not self.connected:
            return
        self.connected = False
        with contextlib.suppress(Exception):
            self._send_raw(self.ws.send(CloseConnection(code=1000)))
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)


def use_green_websockets(eio_server: Any) -> None:
    """Engine.IO's server (under gevent) makes its websockets with :class:`GreenWebSocket`,
    and pings each client from a timer of the event loop instead of a greenlet that sleeps
    for the ping interval (8 KiB a phone): :func:`schedule_ping`."""
    eio_server._async = {**eio_server._async, "websocket": GreenWebSocket}
    engineio_socket.Socket.schedule_ping = schedule_ping


def schedule_ping(self: Any) -> None:
    """Engine.IO's ``Socket.schedule_ping`` (its next ping to the client, ``ping_interval``
    after the client's pong), on a timer of gevent's loop: the same packet, when Engine.IO's
    own greenlet would have sent it."""
    from gevent import get_hub

    if not self.last_ping:
        return
    self.last_ping = None
    timer = get_hub().loop.timer(self.server.ping_interval)

    def ping() -> None:
        timer.close()
        if not self.closing and not self.closed:
            self.last_ping = time.time()
            self.send(packet.Packet(packet.PING))

    timer.start(ping)
