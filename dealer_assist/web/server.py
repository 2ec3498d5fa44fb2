"""The server ``dealer-assist serve`` runs (issue 25): gevent's WSGI server, one greenlet per
connection, guarded against what one guest on the Wi-Fi can do with sockets.

Why gevent, and not Werkzeug's threaded server: docs/deployment.md, "Which server runs".
What this adds to ``gevent.pywsgi``:

- **Connection caps** (services/connection_caps.py) checked as a connection is accepted,
  before it costs a greenlet: over its address's cap, over the total, or from an address
  held off for spamming joins (web/guest_caps.py), it gets a ``503`` with a sentence and is
  closed, and a tablet that showed its dealer token always finds room.
- **Requests arrive whole, in time.** A request's head (its line and headers) and its body
  must arrive within :data:`REQUEST_SECONDS` of its first byte, or the connection is closed
  (slowloris). A head that ends before its blank line (a socket closed half-way) runs
  nothing: a guest closing a thousand half-sent requests at once costs a thousand closes,
  not a thousand page builds. The body is read before the app runs, at most
  ``largest_body(path, headers, address)`` bytes (64 KB, or an import's 4 MB when the host
  may be sending it); a larger one is never read, and the app refuses it (``413``, or ``401``
  to a guest, whose megabyte import costs nothing).
- **Idle and unread connections close.** Between requests a connection may stay silent for
  :data:`CONNECTION_TIMEOUT_SECONDS`; a send that the client does not read within that time
  closes it (a websocket's own timeout, Engine.IO's ping interval plus its timeout, is
  shorter).
- **A websocket gets a greenlet of its own** (web/websocket.py), shallow, and the request's
  ends: an idle phone costs a few KiB.
- **Logs** go through logging (web/log_guard.py keeps repeats to a line a minute); a line
  per request only with ``--access-log``.
"""

from __future__ import annotations

import contextlib
import io
import logging
import socket
from collections.abc import Callable
from typing import Any

from gevent import Timeout, spawn
from gevent.pywsgi import Input, LoggingLogAdapter, WSGIHandler, WSGIServer

from dealer_assist.services.connection_caps import ConnectionCaps
from dealer_assist.web.websocket import DETACH, RAW_SOCKET

log = logging.getLogger("dealer_assist.server")

# silent (or not reading) this long, a connection closes: longer than Engine.IO's ping
# interval plus its timeout (25 + 20 s), so a live phone never is
CONNECTION_TIMEOUT_SECONDS = 60
REQUEST_SECONDS = 10  # from a request's first byte to its last (head and body)
MAX_HEAD_LINES = 100
MAX_LINE_BYTES = 8 * 1024
MAX_HEAD_BYTES = 64 * 1024
# connections the kernel queues before they are accepted: while a guest floods connects, a
# tablet's waits in the queue rather than being dropped (a dropped SYN retries after 1 s)
BACKLOG = 4096

FULL_SENTENCE = ("This server has too many connections open, from this device or in all: close "
                 "a few pages and try again.")


NO_BODY = io.BytesIO()  # a websocket's request has none (shared: nothing ever reads from it)
BAD_REQUEST = (b"HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: text/plain\r\n"
               b"Content-Length: 32\r\n\r\nThe request could not be read.\r\n")


class RequestUnread(OSError):
    """A request's head or body that did not arrive whole and in time: the connection is
    closed without an answer."""


def refusal(sentence: str = FULL_SENTENCE) -> bytes:
    body = ('{"error": "' + sentence + '"}').encode()
    head = ("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nRetry-After: 5\r\nConnection: close\r\n\r\n")
    return head.encode() + body


def refuse_connection(sock: Any) -> None:
    """The 503 with the sentence, without waiting (this runs in the accept loop, which must
    never block): what the socket's buffer takes now, then close."""
    try:
        sock.settimeout(0.0)
        sock.send(refusal())
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        sock.close()


class GuardedHandler(WSGIHandler):  # type: ignore[misc]  # gevent ships no type hints
    """gevent's handler with the deadline on a request's head and body (module docstring)."""

    server: GuardedServer
    rfile: Any
    socket: Any
    detached = False
    _deadline: Timeout | None = None
    _body: bytes | None = None

    def read_requestline(self) -> str:
        self._body = None
        self.socket.settimeout(CONNECTION_TIMEOUT_SECONDS)
        if not self.rfile.peek(1):  # the client closed a kept-alive connection
            return ""
        self._deadline = Timeout.start_new(REQUEST_SECONDS, RequestUnread("too slow"))
        line: str = super().read_requestline()
        return line

    def read_head(self) -> bytes:
        """The header lines up to and with the blank line that ends them."""
        lines: list[bytes] = []
        size = 0
        while True:
            line = self.rfile.readline(MAX_LINE_BYTES + 1)
            if not line.endswith(b"\n"):  # closed half-way, or a line too long
                raise RequestUnread("the head was not finished")
            lines.append(line)
            size += len(line)
            if line in (b"\r\n", b"\n"):
                return b"".join(lines)
            if len(lines) > MAX_HEAD_LINES or size > MAX_HEAD_BYTES:
                raise RequestUnread("the head is too large")

    def read_request(self, raw_requestline: str) -> bool:
        head, rfile = self.read_head(), self.rfile
        self.rfile = io.BufferedReader(io.BytesIO(head))
        try:
            super().read_request(raw_requestline)
        finally:
            self.rfile = rfile
        self.read_body()
        self.end_deadline()
        return True

    def read_body(self) -> None:
        chunked = self.headers.get("transfer-encoding", "").lower() == "chunked"
        length = self.content_length or 0
        if not chunked and not length:
            return
        largest = self.server.largest_body(self.path.split("?", 1)[0], self.headers,
                                           address_of(self.client_address))
        if length > largest:  # refused by the app (413) unread, and the connection closed
            self._body = b""
            self.close_connection = True
            return
        if self.headers.get("expect", "").lower() == "100-continue":
            self.socket.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
        if chunked:
            reader = Input(self.rfile, None, chunked_input=True)
            parts: list[bytes] = []
            size = 0
            while part := reader.read(64 * 1024):
                parts.append(part)
                size += len(part)
                if size > largest:
                    self._body = b""
                    self.close_connection = True
                    return
            self._body = b"".join(parts)
        else:
            body = self.rfile.read(length)
            if len(body) < length:
                raise RequestUnread("the body was not finished")
            self._body = body

    def end_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.close()
            self._deadline = None

    def handle_one_request(self) -> Any:
        try:
            result = super().handle_one_request()
        finally:
            self.end_deadline()
        if self.detached:  # its greenlet owns the socket now: neither read on nor closed here
            self.socket = None
            return None
        return result

    def detach(self, run: Callable[[], object]) -> None:
        """Run ``run`` (a websocket's life) in a new greenlet, which then closes the
        connection: this one, deep in the WSGI stack, ends (web/websocket.py)."""
        self.detached = True
        self.server.run_detached(self.socket, self.client_address, run)

    def get_environ(self) -> dict[str, Any]:
        environ: dict[str, Any] = super().get_environ()
        if self._connection_upgrade_requested():
            # a websocket's connection ends with it: nothing is read or written after it;
            # web/websocket.py reads the socket itself, in a greenlet of its own (detach),
            # and the environ Socket.IO keeps for the connection holds no reader's buffer
            self.close_connection = True
            environ[RAW_SOCKET] = self.socket
            environ[DETACH] = self.detach
            environ["wsgi.input"] = NO_BODY
        if self._body is not None:  # read already: the app reads it from memory
            self.wsgi_input = Input(io.BytesIO(self._body), len(self._body))
            environ["wsgi.input"] = self.wsgi_input
            if self._body or "CONTENT_LENGTH" not in environ:
                environ["CONTENT_LENGTH"] = str(len(self._body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
        return environ

    def _handle_client_error(self, ex: Exception) -> Any:
        self.close_connection = True
        if isinstance(ex, OSError):  # unread, too slow, or the client went away
            return None
        log.warning("A request that could not be read, from %s: %s", self.client_address[0],
                    type(ex).__name__)
        return "400", BAD_REQUEST

    def log_error(self, msg: str, *args: Any) -> None:
        pass  # gevent's line for a bad request: said once a minute above instead

    def _log_error(self, t: Any, v: Any, tb: Any) -> None:
        from gevent import GreenletExit

        if not issubclass(t, GreenletExit):
            log.error("The app failed on a request: %s", t.__name__, exc_info=(t, v, tb))


class GuardedServer(WSGIServer):  # type: ignore[misc]
    """gevent's WSGI server with the connection caps at accept (module docstring)."""

    handler_class = GuardedHandler

    def __init__(self, listener: tuple[str, int], application: Any, caps: ConnectionCaps, *,
                 largest_body: Callable[[str, Any, str], int],
                 access_log: bool = False) -> None:
        access = (LoggingLogAdapter(logging.getLogger("dealer_assist.access"), logging.INFO)
                  if access_log else None)
        super().__init__(listener, application, backlog=BACKLOG, log=access,
                         error_log=LoggingLogAdapter(log, logging.WARNING))
        self.caps = caps
        self.largest_body = largest_body
        self._detached: set[int] = set()  # the sockets a websocket's own greenlet closes

    def do_handle(self, sock: Any, address: Any) -> None:
        # in the accept loop: a refused connection never gets a greenlet
        if not self.caps.admit(address_of(address)):
            refuse_connection(sock)
            return
        # each state and its acknowledgement go out as they are written: with Nagle's
        # algorithm the second of two small writes waited for the client's delayed ACK,
        # 40 ms on Linux, on every dealer tap
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().do_handle(sock, address)

    def handle(self, sock: Any, address: Any) -> None:
        handler = self.handler_class(sock, address, self)
        try:
            handler.handle()
        finally:
            if not handler.detached:
                self.caps.release(address_of(address))

    def do_close(self, sock: Any, *args: Any) -> None:
        if id(sock) not in self._detached:
            super().do_close(sock, *args)

    def run_detached(self, sock: Any, address: Any, run: Callable[[], object]) -> None:
        self._detached.add(id(sock))

        def websocket() -> None:
            try:
                run()
            except Exception:
                log.exception("A websocket ended with an error.")
            finally:
                self._detached.discard(id(sock))
                with contextlib.suppress(OSError):
                    sock.close()
                self.caps.release(address_of(address))

        spawn(websocket)


def address_of(address: Any) -> str:
    return str(address[0]) if address else "unknown"


def raise_descriptor_limit() -> int:
    """Lift this process's soft limit on open files to its hard limit (``ulimit -n`` is often
    1024 while the hard limit is far higher); returns the soft limit now in force."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to raise
        return 8192
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return int(soft) if soft != resource.RLIM_INFINITY else 65536
